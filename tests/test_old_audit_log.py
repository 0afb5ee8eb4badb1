"""An audit log written by an earlier citeproof still reads back, verifies and replays.

``tests/fixtures/audit_v1`` holds a log and a source store written by the code before the audit
record's codec (``make_log.py`` says how; it is not re-run). Each command that reads the log
must make of it what that code did, and logging the same answers today must write the same
payloads, byte for byte, but for the changes of ``citeproof/audit-payload/2``: its schema name,
and the sources' texts kept once beside the records instead of in each one (named by their
hashes, which the payload also lists under ``texts``), the sources' ``locations`` and the
quotes' and passages' ``location`` (added members, null for these sources), and the claims'
numbers (an added member;
the evidence coverage counts the numbered claims, so a heading or a bare "Yes." is no longer a
gap). The records are hash-chained, so their meaning must not drift.
"""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from citeproof.audit import open_store, payload_json
from citeproof.operations import LoggedRecord, logged_records
from citeproof.outcome import AUDIT_SCHEMA, conclude, payload_with_texts
from citeproof.outcome._live import LiveResponse
from citeproof.outcome._rules import parse_rules
from citeproof.outcome.verify_again import verify_again
from citeproof.values import values_from_json
from tests.cli_runs import invoke

OLD = Path(__file__).resolve().parent / "fixtures" / "audit_v1"


@pytest.fixture
def old(tmp_path: Path) -> Path:
    """A copy of the old log, its checkpoints and its source store (commands may append)."""
    copy = tmp_path / "audit_v1"
    shutil.copytree(OLD, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return copy


def answers(folder: Path) -> list[LoggedRecord]:
    with open_store(folder / "audit.db", checkpoint_dir=folder / "checkpoints") as log:
        return [record for record in logged_records(log) if record.is_answer]


def test_the_old_log_verifies_and_every_answer_replays(old: Path) -> None:
    log = ["--audit", str(old / "audit.db"), "--checkpoints", str(old / "checkpoints")]
    code, out, _ = invoke("audit", "verify", *log)
    assert code == 0 and out.startswith("ok: 3 records"), out
    logged = answers(old)
    assert len(logged) == 3
    for record in logged:
        code, out, _ = invoke("audit", "replay", record.request_id, *log)
        assert code == 0 and out.endswith("same result\n"), out
    turn = next(r for r in logged if r.payload["rules"] is not None)
    code, out, _ = invoke("audit", "replay", turn.request_id, *log)
    assert "decision: logged refer, replay refer" in out


def test_every_old_answer_verifies_again_to_what_was_logged(old: Path) -> None:
    for record in answers(old):
        payload = record.payload
        again = conclude(
            verify_again(payload),
            request={k: v for k, v in payload["request"].items() if k != "request_id"},
            **_rules_as_logged(payload),
        )
        assert again.request_id == record.request_id
        assert payload["schema"] == "citeproof/audit-payload/1"
        assert again.payload["schema"] == AUDIT_SCHEMA == "citeproof/audit-payload/2"
        assert all("text" not in source for source in again.payload["sources"])
        assert again.payload["texts"] == [s["content_hash"] for s in payload["sources"]]
        today = {**payload_with_texts(again.payload, again.texts), "schema": payload["schema"]}
        del today["texts"]
        claims = today["answer"]["claims"]
        numbers = [claim.pop("number") for claim in claims]
        for quote in today["answer"]["quotes"]:
            assert quote.pop("location") is None  # the old sources carry no locations
        for claim in claims:
            for support in claim["support"]:
                if support["passage"] is not None:
                    assert support["passage"].pop("location") is None
        for source in today["sources"]:
            assert source.pop("locations") is None
        assert [n for n in numbers if n is not None] == list(range(1, len(claims) + 1))[
            : len([n for n in numbers if n is not None])
        ]
        coverage, logged = today["validation"].pop("coverage"), payload["validation"]["coverage"]
        assert set(coverage["gaps"]) <= set(logged["gaps"])
        assert coverage["claims"] == len([n for n in numbers if n is not None])
        logged_payload = {**payload, "validation": {**payload["validation"]}}
        del logged_payload["validation"]["coverage"]
        assert payload_json(today) == payload_json(logged_payload)


def _rules_as_logged(payload: dict[str, Any]) -> dict[str, Any]:
    if payload["rules"] is None:
        return {}
    return {
        "rules": parse_rules(payload["rules"], where="logged rules"),
        "facts": values_from_json(payload["facts"], where="logged facts"),
        "live_values": _LiveAsLogged(LiveResponse.from_json(payload["live"])),
    }


class _LiveAsLogged:
    """The live-value service as it answered then (the rules' neighbour, not under test)."""

    def __init__(self, response: LiveResponse) -> None:
        self.response = response

    def fetch(self, names: Sequence[str], *, request_id: str) -> LiveResponse:
        assert request_id == self.response.request_id
        assert set(names) == set(self.response.values)
        return self.response


def test_the_old_log_samples_with_each_answers_quotes(old: Path, tmp_path: Path) -> None:
    out = tmp_path / "review"
    code, _, err = invoke(
        "audit", "sample", "--audit", str(old / "audit.db"), "--checkpoints",
        str(old / "checkpoints"), "--rate", "1", "--seed", "s", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    with (out / "sample.csv").open(encoding="utf-8", newline="") as sheet:
        rows = list(csv.DictReader(sheet))
    assert [row["quotes"] for row in rows] == ["2", "1", "2"]
    assert [row["not_verified"] for row in rows] == ["2", "0", "0"]
    page = (out / rows[2]["page"]).read_text(encoding="utf-8")
    assert "Your offer of 300,000 pounds stands until 30 November" in page


def test_the_old_log_revalidates_to_the_outcomes_the_old_code_gave(old: Path) -> None:
    expected = json.loads((OLD / "expected.json").read_text(encoding="utf-8"))["revalidation"]
    code, out, err = invoke(
        "revalidate", "--audit", str(old / "audit.db"), "--store", str(old / "sources.db"),
        "--checkpoints", str(old / "new-checkpoints"), "--json",
    )  # fmt: skip
    assert code == 1, err  # the answer over the caller's own sources has none in the store
    assert [json.loads(line) for line in out.splitlines()] == expected["results"]
    assert expected["store_state"][:19] in err
