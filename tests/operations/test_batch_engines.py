"""``verify --batch`` gives the same output and the same audit log on every engine (issue 13,
scale-out; SPEC 003.4, E)."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from citeproof.audit import open_store
from citeproof.model import Policy
from citeproof.operations import BatchLine, BatchSettings, verify_lines
from citeproof.operations._batch import LineResult
from citeproof.sources import ReadLimits
from tests.cli_runs import invoke
from tests.lending import EMAIL, MEMO, POLICY


def source_json(source: object) -> dict[str, object]:
    return {k: getattr(source, k) for k in ("id", "kind", "text", "title")}


ANSWERS = [
    ('"Applications above 95% are declined." [S1]', [POLICY]),
    ('Dan wrote that "the valuation came back at £412,000" [S2].', [EMAIL]),
    ('"the valuation came back at £412,000, so the loan to value is now 83%" [S2]', [EMAIL]),
    ('"Approval of the single year of accounts was given by M. Osei" [S1]', [POLICY, MEMO]),
    ('Refer: "must be referred to a senior underwriter" [S1], Dan says [S2].', [POLICY, EMAIL]),
    ('"a senior underwriter before we send the offer" [S2] and [S9]', [EMAIL, MEMO]),
]  # fmt: skip
"""Verified, mismatched, corrected and ineligible quotes over a document, an email body and
an attachment."""


def write_batch(path: Path, lines: int = 40) -> None:
    """``lines`` answers cycling through `ANSWERS`, a broken line 7 and a blank line 12."""
    rows = []
    for number in range(1, lines + 1):
        if number == 7:
            rows.append('{"id": "broken", "answer": ')
        elif number == 12:
            rows.append("")
        else:
            text, sources = ANSWERS[number % len(ANSWERS)]
            line = {
                "id": f"a{number}",
                "answer": text,
                "sources": [source_json(s) for s in sources],
            }
            rows.append(json.dumps(line, ensure_ascii=False))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")
"""The batch's clock as corrections are stamped with it."""


@dataclass
class BatchRun:
    code: int
    output: str
    messages: str
    audit: list[tuple[int, str, str]]
    stamps: set[str]


def run_batch(tmp_path: Path, name: str, *engine: str) -> BatchRun:
    """``verify --batch`` with ``--audit`` and ``--fail-on any`` on ``engine`` options, in a
    folder of its own; the exit code, output bytes, messages and the audit records."""
    folder = tmp_path / name
    folder.mkdir()
    batch = tmp_path / "in.jsonl"
    if not batch.exists():
        write_batch(batch)
    out, audit = folder / "out.jsonl", folder / "audit.db"
    code, _, err = invoke(
        "verify", "--batch", str(batch), "--out", str(out), "--audit", str(audit),
        "--fail-on", "any", *engine,
    )  # fmt: skip
    with open_store(audit) as log:
        records = [(r.sequence, r.request_id, json.dumps(r.payload)) for r in log.records()]
    verified = invoke("audit", "verify", "--audit", str(audit))
    assert verified[0] == 0, verified
    output = out.read_text(encoding="utf-8")
    stamps = set(STAMP.findall(output))
    # The run's one clock reading, set aside so runs in different seconds compare equal.
    return BatchRun(
        code,
        STAMP.sub("NOW", output),
        err.replace(str(out), "OUT"),
        [(n, rid, STAMP.sub("NOW", payload)) for n, rid, payload in records],
        stamps,
    )


def test_one_process_and_the_process_pool_give_the_same_output_and_log_003_4_E(
    tmp_path: Path,
) -> None:
    one = run_batch(tmp_path, "one", "--engine", "local", "--workers", "1")
    pool = run_batch(tmp_path, "pool", "--engine", "local", "--workers", "2")
    default = run_batch(tmp_path, "default")
    for other in (pool, default):
        assert other.output == one.output
        assert other.messages == one.messages
        assert other.audit == one.audit
        assert other.code == one.code == 1
        assert len(other.stamps) == 1  # every line stamped with the batch's clock
    records = [json.loads(line) for line in one.output.splitlines()]
    assert [r.get("id") for r in records[:8]] == ["a1", "a2", "a3", "a4", "a5", "a6", None, "a8"]
    assert len(records) == 39  # 40 lines, one blank
    assert records[6]["line"] == 7
    assert "in.jsonl: line 7" in records[6]["error"]["message"]
    assert "skipped" in one.messages and "in.jsonl: line 7" in one.messages
    statuses = {q["status"] for r in records if "quotes" in r for q in r["quotes"]}
    assert {"verified", "mismatch", "corrected"} <= statuses
    kinds = {s["kind"] for r in records if "sources" in r for s in r["sources"]}
    assert kinds == {"document", "email_body", "attachment"}
    assert "38 answers verified, 1 line rejected" in one.messages
    # One audit record per verified line, in input order, each naming its line.
    lines = [json.loads(payload)["request"]["batch_line"] for _, _, payload in one.audit]
    assert lines == [n for n in range(1, 41) if n not in (7, 12)]


def test_ray_gives_the_same_output_and_log_as_one_process_003_4_E(
    tmp_path: Path, local_ray: None
) -> None:
    one = run_batch(tmp_path, "one", "--engine", "local", "--workers", "1")
    ray = run_batch(tmp_path, "ray", "--engine", "ray")
    assert ray.output == one.output
    assert ray.messages == one.messages
    assert ray.audit == one.audit
    assert ray.code == one.code == 1


def results_on(engine: str, workers: int | None, tmp_path: Path) -> list[LineResult]:
    """The line results of the test batch, audited, at a fixed batch time, on ``engine``."""
    batch = tmp_path / "in.jsonl"
    if not batch.exists():
        write_batch(batch)
    lines = [
        BatchLine(number, len(raw), raw)
        for number, raw in enumerate(batch.read_bytes().splitlines(keepends=True), 1)
        if raw.strip()
    ]
    now = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    settings = BatchSettings(str(batch), Policy(), ReadLimits(), now, "any", audited=True)
    return list(verify_lines(lines, settings, engine=engine, workers=workers))  # type: ignore[arg-type]


def test_every_engine_gives_equal_line_results_at_the_same_batch_time_003_4_E(
    tmp_path: Path, local_ray: None
) -> None:
    one = results_on("local", 1, tmp_path)
    assert results_on("local", 2, tmp_path) == one
    assert results_on("ray", None, tmp_path) == one
    assert [r.number for r in one] == [n for n in range(1, 41) if n != 12]
    assert one[6].problem is not None and "line 7" in one[6].problem
    assert sum(r.audit is not None for r in one) == 38


def test_ray_missing_is_an_error_naming_the_pip_command_E(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as when not installed
    batch = tmp_path / "in.jsonl"
    write_batch(batch, lines=3)
    code, _, err = invoke(
        "verify", "--batch", str(batch), "--out", str(tmp_path / "out.jsonl"), "--engine", "ray"
    )
    assert code == 1
    assert "pip install 'citeproof[ray]'" in err


def test_engine_options_without_a_batch_are_a_usage_error_E(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text('"Applications above 95% are declined." [S1]', encoding="utf-8")
    policy = tmp_path / "policy.md"
    policy.write_text("Applications above 95% are declined.", encoding="utf-8")
    code, _, err = invoke("verify", str(answer), "--source", f"S1={policy}", "--engine", "ray")
    assert code == 2
    assert "--engine, --address and --workers go with --batch" in err
