"""The report's ``integrity`` covers the source texts the audit log keeps beside its records.

A record names each source's text by its content hash and the log stores the text once; a
text altered in the database file used to leave the report's ``integrity.ok`` true (only
`audit verify` noticed), so an operator reading the report was told the log was intact while
the evidence its answers rest on had been rewritten."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from citeproof.audit import open_store
from tests.cli_runs import EXAMPLE_SOURCES, LENDING, invoke


@pytest.fixture
def audit(tmp_path: Path) -> Path:
    """A real log: the example answer verified twice over the example sources."""
    log = tmp_path / "audit.db"
    for number in range(2):
        answer = tmp_path / f"answer-{number}.md"
        text = (LENDING / "answer.md").read_text(encoding="utf-8")
        answer.write_text(text + f"\nReviewed {number + 1} times.\n", encoding="utf-8")
        code, _, err = invoke("verify", str(answer), *EXAMPLE_SOURCES, "--audit", str(log))
        assert code in (0, 1), err
    return log


def policy_key(audit: Path) -> str:
    with open_store(audit) as log:
        (first, _) = log.records()
        (policy,) = [s for s in first.payload["sources"] if s["id"] == "policy"]
    key: str = policy["content_hash"]
    return key


def unguarded(audit: Path) -> sqlite3.Connection:
    """The database file as someone with write access to it sees it: no triggers."""
    db = sqlite3.connect(audit, isolation_level=None)
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        db.execute(f'DROP TRIGGER "{name}"')
    return db


def integrity(audit: Path) -> tuple[dict[str, Any], str]:
    """The JSON report's ``integrity`` and the terminal report's integrity line."""
    code, out, err = invoke("report", "--audit", str(audit), "--since", "all", "--format", "json")
    assert code == 0, err
    checked: dict[str, Any] = json.loads(out)["integrity"]
    code, out, err = invoke("report", "--audit", str(audit), "--since", "all")
    assert code == 0, err
    (line,) = [line for line in out.splitlines() if line.strip().startswith("integrity:")]
    return checked, line


def test_an_intact_log_reports_its_texts_checked(audit: Path) -> None:
    checked, line = integrity(audit)
    assert checked["ok"] is True and checked["text_problems"] == []
    assert checked["texts"] == 3 and checked["read"] == 2
    assert line.strip().startswith("integrity: 2 records read and checked")
    assert "text" not in line


def test_a_source_text_altered_in_the_database_makes_the_report_not_ok(audit: Path) -> None:
    key = policy_key(audit)
    with unguarded(audit) as db:
        db.execute(
            "UPDATE audit_texts SET text = CAST(replace(CAST(text AS TEXT), '80%', '90%') AS BLOB)"
            " WHERE key = ?",
            (key,),
        )
    checked, line = integrity(audit)
    assert checked["ok"] is False
    assert checked["skipped"] == []  # the records themselves are intact
    problem = f"the stored text {key} does not hash to its key: it was changed"
    assert checked["text_problems"] == [problem]
    assert problem in line


def test_a_source_text_deleted_from_the_database_makes_the_report_not_ok(audit: Path) -> None:
    key = policy_key(audit)
    with unguarded(audit) as db:
        db.execute("DELETE FROM audit_texts WHERE key = ?", (key,))
    checked, line = integrity(audit)
    assert checked["ok"] is False and checked["texts"] == 2
    problem = f"the records name the text {key}, which the log does not hold"
    assert checked["text_problems"] == [problem]
    assert problem in line
