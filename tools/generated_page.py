"""Writing a page of docs/ generated from the code, or checking that it is up to date."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path


def write_or_check(page: Path, text: str, argv: list[str], *, source: str, stale: str) -> int:
    """Write ``text`` to ``page``; with ``--check`` in ``argv``, write nothing and return 1
    (printing the diff from the page to ``source`` and ``stale``) when the page differs."""
    if "--check" not in argv:
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
        return 0
    current = page.read_text(encoding="utf-8") if page.exists() else ""
    if current == text:
        return 0
    name = f"{page.parent.name}/{page.name}"
    diff = difflib.unified_diff(current.splitlines(), text.splitlines(), name, source, lineterm="")
    print("\n".join(diff), file=sys.stderr)
    print(f"{name} is {stale}: run `make docs`", file=sys.stderr)
    return 1
