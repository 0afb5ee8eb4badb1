"""``citeproof db status``, ``db migrate`` and ``db copy`` through the real command line (issue
48 §4): the schema's versions on SQLite and PostgreSQL, migrations applied once, and a data
folder made by a real service on SQLite copied into PostgreSQL, then served from there."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import PgSchemas
from tests.server.conftest import CITEPROOF, Server, free_port
from tests.server.lines import body, lending_line

MEMO = b"Underwriting memo.\n\nThe Hartley loan-to-value is 83%.\n"
QUESTION = {"question": "What is the Hartley loan-to-value?"}


def citeproof(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CITEPROOF, *args], capture_output=True, text=True, check=check)


def versions(output: str) -> dict[str, str]:
    """``component -> "version N of M ..."`` from `citeproof db status`'s lines."""
    rows = [line.split(None, 1) for line in output.splitlines()[1:]]
    return {name: rest for name, rest in rows}


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, ...]:
    if request.param == "sqlite":
        return ("--data", str(tmp_path / "data"))
    schemas: PgSchemas = request.getfixturevalue("pg_schemas")
    return ("--database", schemas.new()[1], "--data", str(tmp_path / "host"))


def test_status_lists_pending_steps_and_migrate_applies_them_once(where: tuple[str, ...]) -> None:
    before = citeproof("db", "status", *where)
    assert versions(before.stdout) == {
        "service": "version 0 of 3  pending: tokens, settings, answers, idempotency keys, "
        "batches; batch lines held one at a time: holder, lease, claims, audit size at "
        "first claim; rate limit: one token bucket per principal",
        "sources": "version 0 of 2  pending: sources, passages and their index; each "
        "source's paragraphs in the document's own terms",
        "audit": "version 0 of 3  pending: m001_audit_records; m002_append_only_triggers; "
        "m003_audit_texts",
    }
    if where[0] == "--data":  # status only reads: no SQLite file is made
        assert not Path(where[1]).exists()
    first = citeproof("db", "migrate", *where)
    assert "8 steps applied" in first.stderr
    assert set(versions(first.stdout).values()) >= {"version 3 of 3  up to date"}
    again = citeproof("db", "migrate", *where)
    assert "0 steps applied" in again.stderr
    assert versions(citeproof("db", "status", *where).stdout) == {
        "service": "version 3 of 3  up to date",
        "sources": "version 2 of 2  up to date",
        "audit": "version 3 of 3  up to date",
    }


def test_a_newer_schema_is_refused_naming_the_database(tmp_path: Path) -> None:
    data = tmp_path / "data"
    citeproof("db", "migrate", "--data", str(data))
    import sqlite3

    with sqlite3.connect(data / "service.db") as db:
        db.execute("UPDATE schema_versions SET version = 9 WHERE component = 'service'")
    refused = citeproof("db", "migrate", "--data", str(data), check=False)
    assert refused.returncode == 1
    assert "version 9, newer than this citeproof knows (3)" in refused.stderr


def test_a_sqlite_data_folder_copied_into_postgresql_is_served_from_there(
    tmp_path: Path, pg_schemas: PgSchemas
) -> None:
    old = Server(tmp_path / "old", free_port(), ("--provider", "extractive"))
    old.data.mkdir()
    secret = old.token("alice")
    bearer = {"Authorization": f"Bearer {secret}"}
    old.start()
    try:
        with old.client("alice") as alice:
            stored = alice.post("/v1/sources", files={"files": ("memo.txt", MEMO)})
            assert stored.status_code == 200, stored.text
            source_id = stored.json()["files"][0]["sources"][0]["id"]
            asked = alice.post("/v1/ask", json=QUESTION)
            assert source_id in asked.json()["eligibility"]["eligible"]
            verified = alice.post("/v1/verify", content=body(lending_line("hartley-copied")))
            assert verified.status_code == 200, verified.text
            request_id = alice.get("/v1/answers/hartley-copied").json()["request_id"]
            assert alice.get(f"/v1/audit/{request_id}/proof").status_code == 200  # signs one
            lines = b"\n".join(body(lending_line(f"line-{n}")) for n in range(3))
            batch_id = alice.post("/v1/batches", content=lines).json()["id"]
            finished = _done(alice, batch_id)
    finally:
        old.stop()

    _, url = pg_schemas.new()
    copied = citeproof("db", "copy", "--data", str(old.data), "--database", url)
    counts = dict(line.split(None, 1) for line in copied.stdout.splitlines())
    assert counts["tokens"] == "1" and counts["settings"] == "1" and counts["batches"] == "1"
    assert counts["batch_lines"] == "3" and counts["answers"] == "5"  # ask, verify, 3 lines
    assert counts["sources"].startswith("1 (passages ")
    assert counts["audit"].startswith("5 records")
    again = citeproof("db", "copy", "--data", str(old.data), "--database", url, check=False)
    assert again.returncode == 1 and "holds data already" in again.stderr
    checkpoints = old.data / "audit-checkpoints"
    assert int(counts["checkpoints"].split()[0]) >= 3  # a checkpoint, its key and public key
    log = citeproof("audit", "verify", "--audit", url, "--checkpoints", str(checkpoints))
    assert log.stdout.startswith("ok: 5 records") and "no checkpoints" not in log.stderr

    new = Server(tmp_path / "new", free_port(), ("--database", url, "--provider", "extractive"))
    new.data.mkdir()
    new.start()
    try:
        with httpx.Client(base_url=new.url, headers=bearer, timeout=60) as alice:
            asked = alice.post("/v1/ask", json=QUESTION)  # the token, and the source
            assert asked.status_code == 200, asked.text
            assert source_id in asked.json()["eligibility"]["eligible"]
            assert "83%" in asked.json()["text"]
            answer = alice.get("/v1/answers/hartley-copied")
            assert answer.status_code == 200 and answer.json()["request_id"] == request_id
            assert "hartley-copied" in alice.get("/review").text
            assert alice.get(f"/v1/audit/{request_id}/proof").status_code == 200
            assert alice.get(f"/v1/batches/{batch_id}").json()["status"] == "done"
            results = alice.get(f"/v1/batches/{batch_id}/results").text
            assert results == finished
            report = alice.get("/v1/audit/verify").json()
            assert report["ok"] is True, report
    finally:
        new.stop()


def _done(client: httpx.Client, batch_id: str) -> str:
    for _ in range(600):
        if client.get(f"/v1/batches/{batch_id}").json()["status"] == "done":
            return client.get(f"/v1/batches/{batch_id}/results").text
        time.sleep(0.1)
    raise AssertionError(f"batch {batch_id} did not finish")
