"""Playwright on the system Chromium (never a downloaded browser), or a skip saying why.

Browser tests are skipped without /usr/bin/chromium or playwright, unless
CITEPROOF_REQUIRE_BROWSER=1 (CI), where either missing fails the run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def chromium() -> Iterator[Any]:
    """A headless Chromium browser for a test module."""
    missing = None
    if not CHROMIUM.exists():
        missing = "install chromium (apt-get install chromium) to run the browser tests"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "install the `server` extra (playwright) to run the browser tests"
    if missing:
        if os.environ.get("CITEPROOF_REQUIRE_BROWSER"):
            pytest.fail(f"CITEPROOF_REQUIRE_BROWSER is set: {missing}")
        pytest.skip(missing)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield browser
        finally:
            browser.close()
