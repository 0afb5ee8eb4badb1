"""Pages on a phone (390 px), in headless Chromium: the report keeps a side margin, and the
answer page's sheet leaves the claim it explains in view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from citeproof.cli import main
from citeproof.render import render_html
from tests.answers import lending_answer
from tests.operations.test_report import build_log
from tests.server.browser import chromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    yield context.new_page()
    context.close()


def test_the_report_page_keeps_a_side_margin_on_a_phone(phone: Any, tmp_path: Path) -> None:
    audit, _, _ = build_log(tmp_path)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        main, ["report", "--audit", audit, "--format", "html", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    phone.goto(out.as_uri())
    for selector in ("h1", "section.cards", "table"):
        box = phone.locator(selector).first.bounding_box()
        assert box["x"] >= 12, (selector, box)
        assert box["x"] + box["width"] <= 390 - 12, (selector, box)
    width = phone.evaluate("document.documentElement.clientWidth")
    assert phone.evaluate("document.documentElement.scrollWidth") <= width


def test_the_answer_sheet_leaves_its_claim_in_view_on_a_phone(phone: Any, tmp_path: Path) -> None:
    path = tmp_path / "answer.html"
    path.write_text(render_html(lending_answer()), encoding="utf-8")
    phone.goto(path.as_uri())
    markers = phone.locator("article.answer a.marker")
    for index in (0, markers.count() - 1):  # the first claim, and the last one on the page
        marker = markers.nth(index)
        marker.scroll_into_view_if_needed()
        marker.click()
        sheet = phone.locator("section.panel:target").bounding_box()
        assert sheet is not None and sheet["height"] <= 0.55 * 844 + 1
        claim = marker.locator("xpath=ancestor::span[contains(@class,'claim')]").first
        # The claim can always be brought above the sheet, even the page's last one.
        claim.evaluate("(c) => c.scrollIntoView({block: 'start'})")
        box = claim.bounding_box()
        assert box is not None and box["y"] >= 0
        assert box["y"] + box["height"] <= sheet["y"], (box, sheet)
        phone.locator("section.panel:target a.close").click()
