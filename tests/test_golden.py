"""Golden files: the shipped example answer, verified and rendered (003.4, 003.5, 003.9).

Refresh them on purpose with ``make golden`` and review the diff.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from citeproof import Source, VerifiedAnswer, verify
from citeproof.outcome import answer_to_json
from citeproof.render import render
from citeproof.sources import read_source_file

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "lending"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = bool(os.environ.get("CITEPROOF_UPDATE_GOLDEN"))


def example_sources() -> list[Source]:
    files = {
        "policy": "credit-policy.md",
        "email": "hartley-valuation.eml",
        "memo": "hartley-memo.txt",
    }
    sources = [read_source_file(EXAMPLES / name, source_id=sid) for sid, name in files.items()]
    # The golden files must not depend on where the repository is checked out.
    return [replace(s, url=f"file:///examples/{s.title}") for s in sources]


def example_answer() -> VerifiedAnswer:
    answer = (EXAMPLES / "answer.md").read_text(encoding="utf-8")
    return verify(
        answer,
        example_sources(),
        answer_id="lending-example",
        now=datetime(2026, 11, 30, 9, 0, tzinfo=UTC),
    )


def check(name: str, produced: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(produced, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make golden` and review it")
    assert produced == path.read_text(encoding="utf-8"), f"{name} changed: run `make golden`"


def test_example_answer_json_is_unchanged_003_4() -> None:
    record = answer_to_json(example_answer())
    check("lending.json", json.dumps(record, ensure_ascii=False, indent=2) + "\n")


@pytest.mark.parametrize("fmt", ["html", "md", "term"])
def test_example_answer_renderings_are_unchanged_003_5(fmt: str) -> None:
    check(f"lending.{fmt}", render(example_answer(), fmt))  # type: ignore[arg-type]
