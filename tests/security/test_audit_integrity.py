"""The audit log at its edges: every reader checks what it reads (an edited record is not
reported or sampled), a record nested too deeply is skipped and named (no RecursionError), the
service seals its records on time so dropping the last ones is caught, and a proof names one
record of one principal."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeproof.audit import open_store, verify_proof
from citeproof.cli import main
from tests.operations.world import World, make_world
from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def unguarded(audit: str) -> sqlite3.Connection:
    db = sqlite3.connect(audit, isolation_level=None)
    db.execute("DROP TRIGGER IF EXISTS audit_records_no_update")
    db.execute("DROP TRIGGER IF EXISTS audit_records_no_delete")
    return db


def edit_with_recomputed_hash(audit: str, sequence: int, old: str, new: str) -> None:
    db = unguarded(audit)
    (entry,) = db.execute(
        "SELECT entry FROM audit_records WHERE sequence = ?", (sequence,)
    ).fetchone()
    edited = bytes(entry).replace(old.encode(), new.encode())
    assert edited != bytes(entry)
    db.execute(
        "UPDATE audit_records SET entry = ?, record_hash = ? WHERE sequence = ?",
        (edited, hashlib.sha256(edited).hexdigest(), sequence),
    )
    db.close()


@pytest.fixture
def world(tmp_path: Path) -> World:
    return make_world(tmp_path, str(tmp_path / "audit.db"))  # four answers, records 0..3


def sequence_of(world: World, name: str) -> int:
    with world.open_log() as log:
        return log.get(world.request_ids[name]).sequence


def test_an_edited_record_is_neither_reported_nor_sampled(world: World, tmp_path: Path) -> None:
    memo = sequence_of(world, "memo")
    assert memo < 3  # not the last record: the next one's previous hash gives it away
    edit_with_recomputed_hash(world.audit, memo, "412,000 pounds", "512,000 pounds")
    assert cli("audit", "verify", "--audit", world.audit)[0] == 1

    code, out, _ = cli("report", "--audit", world.audit, "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["answers"] == 3
    assert [bad["sequence"] for bad in report["integrity"]["skipped"]] == [memo]
    assert report["integrity"]["ok"] is False
    code, text, _ = cli("report", "--audit", world.audit)
    assert "1 skipped as damaged" in text

    code, _, err = cli(
        "audit", "sample", "--audit", world.audit, "--rate", "1", "--seed", "s",
        "--out", str(tmp_path / "sample"),
    )  # fmt: skip
    assert code == 0
    sheet = (tmp_path / "sample" / "sample.csv").read_text(encoding="utf-8")
    assert world.request_ids["memo"] not in sheet and "512,000" not in sheet
    assert f"record {memo}" in err


def test_a_deeply_nested_record_is_skipped_and_named_not_a_crash(
    world: World, tmp_path: Path
) -> None:
    deep = b'{"schema":"x","nest":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with world.open_log() as log:
        [appended] = log.append_prepared([(deep, "req-deep")])
        log.append({"schema": "citeproof/review/1", "verdict": "ok"}, "after-deep")
    assert appended.sequence == 4

    code, out, _ = cli("report", "--audit", world.audit, "--format", "json")
    assert code == 0, out
    report = json.loads(out)
    assert report["answers"] == 4
    assert report["integrity"]["skipped"][0]["sequence"] == 4
    assert "nested too deeply" in report["integrity"]["skipped"][0]["detail"]

    code, _, _ = cli(
        "audit", "sample", "--audit", world.audit, "--rate", "1", "--seed", "s",
        "--out", str(tmp_path / "sample"),
    )  # fmt: skip
    assert code == 0
    code, out, err = cli("audit", "show", "req-deep", "--audit", world.audit)
    assert code == 1 and "nested too deeply" in out + err
    code, _, err = cli("revalidate", "--audit", world.audit, "--store", str(world.store_path))
    assert "Traceback" not in err and "RecursionError" not in err
    assert "record 4" in err


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("sealed"), limits={"checkpoint_seconds": 0.2})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("proofs"))


def test_a_proof_names_one_record_of_one_principal(server: Server) -> None:
    line = body(lending_line("proved"))
    with server.client("alice") as alice, server.client("bob") as bob:
        first = alice.post("/v1/verify", content=line)
        again = alice.post("/v1/verify", content=line)
        theirs = bob.post("/v1/verify", content=line)  # the same content: the same request id
        assert {first.status_code, again.status_code, theirs.status_code} == {200}
        entry = alice.get("/v1/answers/proved").json()
        request_id, latest = entry["request_id"], entry["audit_sequence"]
        bobs = bob.get("/v1/answers/proved").json()["audit_sequence"]
        assert bob.get("/v1/answers/proved").json()["request_id"] == request_id

        proof = alice.get(f"/v1/audit/{request_id}/proof")
        assert proof.status_code == 200, proof.text
        assert proof.json()["leaf_index"] == latest
        earlier = alice.get(f"/v1/audit/{request_id}/proof", params={"sequence": latest - 1})
        assert earlier.status_code == 200 and earlier.json()["leaf_index"] == latest - 1
        assert bob.get(f"/v1/audit/{request_id}/proof").json()["leaf_index"] == bobs
        not_hers = alice.get(f"/v1/audit/{request_id}/proof", params={"sequence": bobs})
        assert not_hers.status_code == 404
    with open_store(str(server.data / "audit.db")) as log:
        verify_proof(proof.json(), log.checkpoints.public_key())


def test_the_service_seals_records_on_time_so_a_dropped_tail_is_caught(
    sealed: Server,
) -> None:
    with sealed.client("alice") as http:
        for number in range(3):
            reply = http.post("/v1/verify", content=body(lending_line(f"tail-{number}")))
            assert reply.status_code == 200
    audit = str(sealed.data / "audit.db")
    with open_store(audit) as log:
        size = log.size()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and log.checkpoints.sizes()[-1:] != [size]:
            time.sleep(0.2)  # waiting for the service's timer, not timing it
        assert log.checkpoints.sizes()[-1] == size < 100  # sealed long before the 100th
    db = unguarded(audit)
    db.execute(
        "DELETE FROM audit_records WHERE sequence = (SELECT MAX(sequence) FROM audit_records)"
    )
    db.close()
    code, out, _ = cli("audit", "verify", "--audit", audit)
    assert code == 1 and "truncated" in out
