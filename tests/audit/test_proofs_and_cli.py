"""Proofs checkable offline, signed checkpoints, and the `citeproof audit` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeproof.audit import consistency_proof, inclusion_proof, open_store, verify_proof
from citeproof.cli._audit import audit_group
from citeproof.errors import CheckpointError, ProofError
from citeproof.testing._audit_store import fill


@pytest.fixture
def log(tmp_path: Path) -> Path:
    target = tmp_path / "audit.db"
    with open_store(target, checkpoint_every=10) as store:
        fill(store, 45, batch=1)
    return target


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(audit_group, list(args))
    return result.exit_code, result.output


def test_inclusion_proof_verifies_offline_with_only_the_public_key(log: Path) -> None:
    with open_store(log) as store:
        proof = inclusion_proof(store, "req-17", tree_size=30).to_json()
        public_key = store.checkpoints.public_key()
    verify_proof(json.loads(json.dumps(proof)), public_key)
    assert json.loads(proof["entry"])["payload"]["response"]["original"] == "The LTV is 17 %."


def test_tampered_inclusion_proofs_are_rejected(log: Path) -> None:
    with open_store(log) as store:
        proof = inclusion_proof(store, "req-17", tree_size=30).to_json()
        public_key = store.checkpoints.public_key()
    forged_entry = proof["entry"].replace("The LTV is 17", "The LTV is 71")
    broken = [
        {**proof, "entry": forged_entry},
        {**proof, "leaf_index": 18},
        {**proof, "path": proof["path"][:-1]},
        {**proof, "path": [*proof["path"], proof["path"][0]]},
        {**proof, "path": ["zz", *proof["path"][1:]]},
        {**proof, "checkpoint": {**proof["checkpoint"], "root_hash": "00" * 32}},
        {**proof, "tree_size": 40},
        {**proof, "format": "other"},
    ]
    for bad in broken:
        with pytest.raises((ProofError, CheckpointError)):
            verify_proof(bad, public_key)


def test_consistency_proof_between_checkpoints(log: Path) -> None:
    with open_store(log) as store:
        proof = consistency_proof(store, 10, 40).to_json()
        public_key = store.checkpoints.public_key()
    verify_proof(proof, public_key)
    with pytest.raises(ProofError):
        verify_proof({**proof, "path": proof["path"][1:]}, public_key)
    with pytest.raises((ProofError, CheckpointError)):
        verify_proof({**proof, "old_size": 20}, public_key)


def test_proof_without_a_covering_checkpoint_writes_one(log: Path) -> None:
    with open_store(log) as store:
        proof = inclusion_proof(store, "req-44")
    assert proof.checkpoint.tree_size == 45


def test_checkpoint_signed_by_another_key_is_rejected(log: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with open_store(other) as store:
        store.append({"n": 1}, "req-1")
        store.write_checkpoint()
        other_key = store.checkpoints.public_key()
    with open_store(log) as store:
        proof = inclusion_proof(store, "req-3", tree_size=10)
    with pytest.raises(CheckpointError, match="bad signature"):
        proof.verify(other_key)


def test_cli_verify_show_proof_consistency_checkpoint(log: Path, tmp_path: Path) -> None:
    code, out = run("verify", "--audit", str(log))
    assert code == 0 and out.startswith("ok: 45 records")
    code, out = run("show", "req-5", "--audit", str(log))
    assert code == 0 and json.loads(out)["payload"]["request"]["answer_file"] == "answer-5.md"
    code, out = run("checkpoint", "--audit", str(log))
    assert code == 0 and json.loads(out.split("\nwritten")[0])["tree_size"] == 45
    code, out = run("proof", "req-5", "--audit", str(log), "--checkpoint", "20")
    assert code == 0
    proof_file = tmp_path / "proof.json"
    proof_file.write_text(out)
    public_key = str(log) + ".checkpoints/signing.pub"
    assert run("check-proof", str(proof_file), "--public-key", public_key)[0] == 0
    code, out = run("consistency", "--audit", str(log), "--from", "10", "--to", "45")
    assert code == 0 and json.loads(out)["new_size"] == 45
    proof_file.write_text(out.replace('"old_size": 10', '"old_size": 20'))
    assert run("check-proof", str(proof_file), "--public-key", public_key)[0] == 1


def test_cli_verify_exits_1_with_the_first_bad_index(log: Path) -> None:
    import sqlite3

    db = sqlite3.connect(log, isolation_level=None)
    db.execute("DROP TRIGGER audit_records_no_update")
    db.execute("UPDATE audit_records SET entry = CAST(REPLACE(CAST(entry AS TEXT), 'LTV', 'LTx')"
               " AS BLOB) WHERE sequence = 33")  # fmt: skip
    db.close()
    code, out = run("verify", "--audit", str(log))
    assert code == 1
    assert "FAILED at record 33: content_mismatch" in out
    code, out = run("verify", "--audit", str(log), "--json")
    assert code == 1 and json.loads(out)["problem"]["index"] == 33


def test_cli_show_unknown_request_and_missing_log(log: Path, tmp_path: Path) -> None:
    assert run("show", "req-nope", "--audit", str(log))[0] == 1
    code, out = run("verify", "--audit", str(tmp_path / "absent.db"))
    assert code == 1 and "no audit log" in out
