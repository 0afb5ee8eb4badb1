"""Inclusion and consistency proofs as documents: what they carry, how each field is read and
refused, and which checkpoint a proof is made against."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from citeproof.audit import (
    Checkpoint,
    CheckpointDirectory,
    ConsistencyProof,
    InclusionProof,
    MerkleFrontier,
    build_entry,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    open_store,
    payload_json,
    verify_proof,
)
from citeproof.audit._checkpoint import sign_checkpoint
from citeproof.audit._merkle import consistency_proof as merkle_consistency
from citeproof.audit._merkle import inclusion_proof as merkle_inclusion
from citeproof.audit._merkle import root_hash
from citeproof.errors import CheckpointError, ProofError, RecordNotFoundError


@pytest.fixture
def log(tmp_path: Path) -> Path:
    target = tmp_path / "audit.db"
    with open_store(target, checkpoint_every=10) as store:
        for n in range(25):
            store.append({"n": n}, f"req-{n}")
    return target


def public_key(log: Path) -> Ed25519PublicKey:
    return CheckpointDirectory(str(log) + ".checkpoints").public_key()


def leaves(log: Path, size: int) -> list[bytes]:
    with open_store(log) as store:
        return [leaf_hash(r.entry) for r in store.records(0, size)]


def inclusion(log: Path, request_id: str = "req-7", tree_size: int = 20) -> dict[str, Any]:
    with open_store(log) as store:
        return inclusion_proof(store, request_id, tree_size=tree_size).to_json()


def consistency(log: Path, old: int = 10, new: int = 20) -> dict[str, Any]:
    with open_store(log) as store:
        return consistency_proof(store, old, new).to_json()


def test_an_inclusion_proof_carries_the_entry_its_path_and_the_signed_checkpoint(
    log: Path,
) -> None:
    with open_store(log) as store:
        record = store.get("req-7")
        checkpoint = store.checkpoints.load(20)
        proof = inclusion_proof(store, "req-7", tree_size=20)
    assert proof.to_json() == {
        "format": "citeproof-audit-inclusion/1",
        "request_id": "req-7",
        "leaf_index": 7,
        "tree_size": 20,
        "entry": record.entry.decode(),
        "texts": {},  # the record names no text by hash
        "path": [node.hex() for node in merkle_inclusion(leaves(log, 20), 7)],
        "checkpoint": checkpoint.to_json(),
    }
    again = InclusionProof.from_json(json.loads(json.dumps(proof.to_json())))
    assert again == proof
    again.verify(public_key(log))


def test_a_consistency_proof_carries_both_checkpoints_and_the_path(log: Path) -> None:
    with open_store(log) as store:
        old, new = store.checkpoints.load(10), store.checkpoints.load(20)
        proof = consistency_proof(store, 10, 20)
    assert proof.to_json() == {
        "format": "citeproof-audit-consistency/1",
        "old_size": 10,
        "new_size": 20,
        "path": [node.hex() for node in merkle_consistency(leaves(log, 20), 10)],
        "old_checkpoint": old.to_json(),
        "new_checkpoint": new.to_json(),
    }
    again = ConsistencyProof.from_json(json.loads(json.dumps(proof.to_json())))
    assert again == proof
    again.verify(public_key(log))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "citeproof-audit-consistency/1"}, "not a citeproof-audit-inclusion/1 proof"),
        ({"request_id": None}, "proof field 'request_id' is missing or not str"),
        ({"request_id": 7}, "proof field 'request_id' is missing or not str"),
        ({"leaf_index": "7"}, "proof field 'leaf_index' is missing or not int"),
        ({"leaf_index": True}, "proof field 'leaf_index' is missing or not int"),
        ({"entry": b"x"}, "proof field 'entry' is missing or not str"),
        ({"tree_size": None}, "proof field 'tree_size' is missing or not int"),
        ({"checkpoint": None}, "proof field 'checkpoint' is missing or not dict"),
        ({"checkpoint": "x"}, "proof field 'checkpoint' is missing or not dict"),
        ({"tree_size": 21}, "proof tree size differs from its checkpoint's"),
        ({"path": None}, "path must be a list of hex strings"),
        ({"path": "ab"}, "path must be a list of hex strings"),
        ({"path": ["ab", 1]}, "path must be a list of hex strings"),
        ({"path": ["ab", "xy"]}, "path holds a value that is not hex"),
        ({"texts": ["x"]}, "texts must map each text's hash to the text"),
        ({"texts": {"sha256:00": 1}}, "texts must map each text's hash to the text"),
    ],
)
def test_a_malformed_inclusion_proof_is_refused_naming_the_field(
    log: Path, change: dict[str, Any], message: str
) -> None:
    data = {**inclusion(log), **change}
    data = {name: value for name, value in data.items() if value is not None}
    with pytest.raises(ProofError, match=f"^{message}$"):
        InclusionProof.from_json(data)
    if "format" not in change:  # the format chooses which kind verify_proof reads
        with pytest.raises(ProofError, match=f"^{message}$"):
            verify_proof(data, public_key(log))


def test_an_inclusion_proof_whose_checkpoint_is_malformed_is_refused(log: Path) -> None:
    data = inclusion(log)
    data["checkpoint"] = {**data["checkpoint"], "root_hash": 5}
    with pytest.raises(CheckpointError, match=r"^malformed checkpoint: field 'root_hash'"):
        InclusionProof.from_json(data)


def forged_entry(request_id: str, sequence: int) -> str:
    return build_entry(
        payload_json({"n": sequence}),
        request_id=request_id,
        sequence=sequence,
        previous_hash="0" * 64,
        recorded_at="2026-01-01T00:00:00.000000Z",
    ).decode()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"entry": "not json"}, "entry is not an audit record: entry is not JSON: Expecting"),
        ({"entry": "[]"}, "entry is not an audit record: entry is not a citeproof-audit/1 rec"),
        ({"entry": forged_entry("req-8", 7)}, "entry does not carry the proof's request id and"),
        ({"entry": forged_entry("req-7", 8)}, "entry does not carry the proof's request id and"),
        ({"request_id": "req-8"}, "entry does not carry the proof's request id and index$"),
        ({"leaf_index": 8}, "entry does not carry the proof's request id and index$"),
        ({"entry": forged_entry("req-7", 7)}, "inclusion proof does not lead to the root hash$"),
        ({"path": ["00" * 32]}, "inclusion proof has fewer nodes than the tree needs$"),
    ],
)
def test_an_inclusion_proof_must_be_of_its_entry_at_its_index(
    log: Path, change: dict[str, Any], message: str
) -> None:
    data = {**inclusion(log), **change}
    with pytest.raises(ProofError, match=f"^{message}"):
        verify_proof(data, public_key(log))


def test_an_inclusion_proof_checks_the_signature_before_anything_else(log: Path) -> None:
    data = inclusion(log)
    data["entry"] = "not json"
    stranger = Ed25519PrivateKey.generate().public_key()
    with pytest.raises(CheckpointError, match=r"^checkpoint at tree size 20: bad signature$"):
        verify_proof(data, stranger)


def test_an_inclusion_proof_made_by_hand_with_a_path_that_is_not_hex_is_refused(
    log: Path,
) -> None:
    with open_store(log) as store:
        proof = inclusion_proof(store, "req-7", tree_size=20)
    bent = InclusionProof(
        proof.request_id,
        proof.leaf_index,
        proof.entry,
        ("zz",),
        proof.checkpoint,
    )
    with pytest.raises(ProofError, match=r"^path holds a value that is not hex$"):
        bent.verify(public_key(log))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "citeproof-audit-inclusion/1"}, "not a citeproof-audit-consistency/1 proof"),
        ({"old_checkpoint": None}, "proof field 'old_checkpoint' is missing or not dict"),
        ({"new_checkpoint": []}, "proof field 'new_checkpoint' is missing or not dict"),
        ({"path": None}, "path must be a list of hex strings"),
        ({"path": [3]}, "path must be a list of hex strings"),
        ({"path": ["q"]}, "path holds a value that is not hex"),
        ({"old_size": 11}, "proof sizes differ from its checkpoints'"),
        ({"new_size": 21}, "proof sizes differ from its checkpoints'"),
        ({"old_size": None}, "proof sizes differ from its checkpoints'"),
    ],
)
def test_a_malformed_consistency_proof_is_refused_naming_the_field(
    log: Path, change: dict[str, Any], message: str
) -> None:
    data = {**consistency(log), **change}
    data = {name: value for name, value in data.items() if value is not None}
    with pytest.raises(ProofError, match=f"^{message}$"):
        ConsistencyProof.from_json(data)
    if "format" not in change:  # the format chooses which kind verify_proof reads
        with pytest.raises(ProofError, match=f"^{message}$"):
            verify_proof(data, public_key(log))


@pytest.mark.parametrize("which", ["old_checkpoint", "new_checkpoint"])
def test_a_consistency_proof_needs_both_checkpoints_signed(log: Path, which: str) -> None:
    data = consistency(log)
    size = data[which]["tree_size"]
    data[which] = {**data[which], "created_at": "1999-01-01T00:00:00.000000Z"}
    with pytest.raises(CheckpointError, match=f"^checkpoint at tree size {size}: bad signature$"):
        verify_proof(data, public_key(log))


def test_a_consistency_proof_with_a_wrong_path_is_refused(log: Path) -> None:
    data = consistency(log)
    data["path"] = [*data["path"][1:], data["path"][0]]
    with pytest.raises(ProofError, match=r"^consistency proof does not lead to the old root$"):
        verify_proof(data, public_key(log))


def test_verify_proof_takes_only_a_json_object_of_a_known_format(log: Path) -> None:
    key = public_key(log)
    with pytest.raises(ProofError, match=r"^a proof is a JSON object$"):
        verify_proof([], key)  # type: ignore[arg-type]
    with pytest.raises(ProofError, match=r"^unknown proof format 'other'$"):
        verify_proof({"format": "other"}, key)
    with pytest.raises(ProofError, match=r"^unknown proof format None$"):
        verify_proof({}, key)
    verify_proof(inclusion(log), key)
    verify_proof(consistency(log), key)


def test_an_inclusion_proof_uses_the_latest_checkpoint_that_covers_the_record(
    log: Path,
) -> None:
    with open_store(log) as store:
        early = inclusion_proof(store, "req-3")
        last_covered = inclusion_proof(store, "req-19")
        assert store.checkpoints.sizes() == [10, 20]
        store.append({"n": 25}, "req-25")
        store.write_checkpoint()
        latest = inclusion_proof(store, "req-3")
        store.append({"n": 26}, "req-26")
        past_the_middle = inclusion_proof(store, "req-22")  # covered by 26, not by 20
        assert store.checkpoints.sizes() == [10, 20, 26]
    assert (early.checkpoint.tree_size, last_covered.checkpoint.tree_size) == (20, 20)
    assert (latest.checkpoint.tree_size, past_the_middle.checkpoint.tree_size) == (26, 26)


def test_an_inclusion_proof_past_the_latest_checkpoint_signs_a_new_one(log: Path) -> None:
    with open_store(log) as store:
        proof = inclusion_proof(store, "req-20")
        assert store.checkpoints.sizes() == [10, 20, 25]
    assert proof.checkpoint.tree_size == 25
    proof.verify(public_key(log))


def test_an_inclusion_proof_in_a_log_without_checkpoints_signs_one(tmp_path: Path) -> None:
    with open_store(tmp_path / "a.db", checkpoint_every=0) as store:
        store.append({"n": 0}, "req-0")
        store.append({"n": 1}, "req-1")
        proof = inclusion_proof(store, "req-0")
        assert store.checkpoints.sizes() == [2]
    assert (proof.checkpoint.tree_size, proof.leaf_index) == (2, 0)


def test_an_inclusion_proof_against_a_checkpoint_too_small_is_refused(log: Path) -> None:
    with (
        open_store(log) as store,
        pytest.raises(ProofError, match=r"^record 10 \(req-10\) is not in checkpoint 10$"),
    ):
        inclusion_proof(store, "req-10", tree_size=10)
    with open_store(log) as store:
        assert inclusion_proof(store, "req-9", tree_size=10).leaf_index == 9


def test_an_inclusion_proof_against_a_checkpoint_that_is_absent_or_forged_is_refused(
    log: Path,
) -> None:
    directory = CheckpointDirectory(str(log) + ".checkpoints")
    with open_store(log) as store, pytest.raises(CheckpointError, match=r"^no checkpoint at tree"):
        inclusion_proof(store, "req-3", tree_size=15)
    data = json.loads(directory.file_for(20).read_text())
    directory.file_for(20).write_text(json.dumps({**data, "chain_head": "ab" * 32}))
    with (
        open_store(log) as store,
        pytest.raises(CheckpointError, match=r"^checkpoint at tree size 20: bad signature$"),
    ):
        inclusion_proof(store, "req-3")


def test_a_proof_is_refused_when_the_log_differs_from_its_checkpoint(log: Path) -> None:
    import sqlite3

    db = sqlite3.connect(log, isolation_level=None)
    db.execute("DROP TRIGGER audit_records_no_update")
    db.execute("UPDATE audit_records SET entry = CAST('{}' AS BLOB) WHERE sequence = 12")
    db.close()
    message = (
        r"^the log's first 20 records do not match checkpoint 20: run `citeproof audit verify`$"
    )
    with open_store(log) as store, pytest.raises(CheckpointError, match=message):
        inclusion_proof(store, "req-3", tree_size=20)
    with open_store(log) as store, pytest.raises(CheckpointError, match=message):
        consistency_proof(store, 10, 20)
    with open_store(log) as store:
        assert inclusion_proof(store, "req-3", tree_size=10).leaf_index == 3


def test_an_inclusion_proof_for_a_request_logged_twice_needs_its_sequence(
    tmp_path: Path,
) -> None:
    with open_store(tmp_path / "a.db", checkpoint_every=0) as store:
        store.append({"n": 0}, "req-a")
        store.append({"n": 1}, "req-a")
        with pytest.raises(RecordNotFoundError, match="sequences 0, 1"):
            inclusion_proof(store, "req-a")
        proof = inclusion_proof(store, "req-a", sequence=1)
    assert (proof.leaf_index, json.loads(proof.entry)["payload"]) == (1, {"n": 1})


def test_a_consistency_proof_defaults_to_the_latest_checkpoint(log: Path) -> None:
    with open_store(log) as store:
        proof = consistency_proof(store, 10)
        store.write_checkpoint()
        latest = consistency_proof(store, 10)
    assert (proof.old.tree_size, proof.new.tree_size) == (10, 20)
    assert list(proof.path) == [n.hex() for n in merkle_consistency(leaves(log, 20), 10)]
    assert (latest.old.tree_size, latest.new.tree_size) == (10, 25)


def test_a_consistency_proof_made_by_hand_with_a_path_that_is_not_hex_is_refused(
    log: Path,
) -> None:
    with open_store(log) as store:
        proof = consistency_proof(store, 10, 20)
    with pytest.raises(ProofError, match=r"^path holds a value that is not hex$"):
        replace(proof, path=("zz",)).verify(public_key(log))


def test_a_consistency_proof_between_one_checkpoint_and_itself_is_empty(log: Path) -> None:
    with open_store(log) as store:
        proof = consistency_proof(store, 20, 20)
    assert proof.path == ()
    proof.verify(public_key(log))


def test_a_consistency_proof_needs_checkpoints_in_order(tmp_path: Path, log: Path) -> None:
    with (
        open_store(log) as store,
        pytest.raises(ProofError, match=r"^old size 20 is larger than new size 10$"),
    ):
        consistency_proof(store, 20, 10)
    with open_store(log) as store, pytest.raises(CheckpointError, match=r"^no checkpoint at tree"):
        consistency_proof(store, 15, 20)
    with (
        open_store(tmp_path / "empty.db") as store,
        pytest.raises(CheckpointError, match=r"^the log has no checkpoints yet$"),
    ):
        consistency_proof(store, 10)


def signed_by_the_log(log: Path, size: int, root: str) -> Checkpoint:
    """A checkpoint at `size` over `root`, signed with the log's own key."""
    directory = CheckpointDirectory(str(log) + ".checkpoints")
    frontier = MerkleFrontier()
    for leaf in leaves(log, size):
        frontier.append(leaf)
    return sign_checkpoint(
        directory.signing_key(),
        tree_size=size,
        root_hash=root,
        chain_head="0" * 64,
        frontier=frontier,
    )


def test_a_consistency_proof_from_the_empty_tree_has_an_empty_path(log: Path) -> None:
    CheckpointDirectory(str(log) + ".checkpoints").save(
        signed_by_the_log(log, 0, root_hash([]).hex())
    )
    with open_store(log) as store:
        proof = consistency_proof(store, 0, 20)
    assert (proof.old.tree_size, proof.new.tree_size, proof.path) == (0, 20, ())


def test_a_signed_root_hash_that_is_not_hex_is_named(log: Path) -> None:
    key = public_key(log)
    with open_store(log) as store:
        inclusion_at_20 = inclusion_proof(store, "req-7", tree_size=20)
        between = consistency_proof(store, 10, 20)
    bent = signed_by_the_log(log, 20, "zz" * 32)
    with pytest.raises(ProofError, match=r"^checkpoint root hash holds a value that is not hex$"):
        replace(inclusion_at_20, checkpoint=bent).verify(key)
    with pytest.raises(ProofError, match=r"^new root hash holds a value that is not hex$"):
        replace(between, new=bent).verify(key)
    with pytest.raises(ProofError, match=r"^old root hash holds a value that is not hex$"):
        replace(between, old=signed_by_the_log(log, 10, "zz" * 32)).verify(key)
