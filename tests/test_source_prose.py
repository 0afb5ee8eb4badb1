"""The code speaks of the project, not of its tracker: no "issue 10" or "SPEC E" in src/
(requirement ids such as 003.4 and ADR numbers name documents that ship with the project)."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "citeproof"
TAG = re.compile(r"\b[Ii]ssue \d+|\bSPEC [A-Z]\b")


def test_no_tracker_tags_in_the_source() -> None:
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if TAG.search(line)
    ]
    assert not found, found


def test_the_check_sees_a_tag() -> None:
    assert TAG.search("Claim support (issue 10): the tally")
    assert TAG.search("Operations (SPEC E): what a team runs")
    assert not TAG.search("numbered citations (012.2), ADR 2")
