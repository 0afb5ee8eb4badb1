"""Signed checkpoints: what is signed, how a checkpoint file is read and refused, and the
directory that holds the checkpoints and the signing key."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from citeproof.audit import (
    Checkpoint,
    CheckpointDirectory,
    MerkleFrontier,
    leaf_hash,
    load_public_key,
)
from citeproof.audit._checkpoint import key_id, sign_checkpoint
from citeproof.canonical import canonical_json
from citeproof.errors import CheckpointError

LEAVES = [leaf_hash(bytes([n])) for n in range(8)]
STAMP = "2026-12-01T10:00:00.000000Z"


def frontier_of(size: int) -> MerkleFrontier:
    frontier = MerkleFrontier()
    for leaf in LEAVES[:size]:
        frontier.append(leaf)
    return frontier


def signed(key: Ed25519PrivateKey, size: int = 5, **changes: object) -> Checkpoint:
    frontier = frontier_of(size)
    fields: dict[str, object] = {
        "tree_size": size,
        "root_hash": frontier.root().hex(),
        "chain_head": "ab" * 32,
        "frontier": frontier,
        "created_at": STAMP,
        **changes,
    }
    return sign_checkpoint(key, **fields)  # type: ignore[arg-type]


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def test_the_key_id_is_the_first_16_hex_digits_of_the_raw_public_key_hash(
    key: Ed25519PrivateKey,
) -> None:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert key_id(key.public_key()) == hashlib.sha256(raw).hexdigest()[:16]


def test_the_signature_is_ed25519_over_the_canonical_json_of_every_other_field(
    key: Ed25519PrivateKey,
) -> None:
    checkpoint = signed(key)
    frontier = frontier_of(5)
    body = {
        "format": "citeproof-audit-checkpoint/1",
        "tree_size": 5,
        "root_hash": frontier.root().hex(),
        "chain_head": "ab" * 32,
        "created_at": STAMP,
        "key_id": key_id(key.public_key()),
        "frontier": [node.hex() for node in frontier.nodes],
    }
    assert checkpoint.signed_body() == body
    assert checkpoint.to_json() == {**body, "signature": checkpoint.signature}
    key.public_key().verify(base64.b64decode(checkpoint.signature), canonical_json(body))
    checkpoint.verify(key.public_key())


def test_a_checkpoint_is_stamped_now_in_utc_unless_told_when(key: Ed25519PrivateKey) -> None:
    frontier = frontier_of(2)
    stamped = sign_checkpoint(
        key, tree_size=2, root_hash=frontier.root().hex(), chain_head="c" * 64, frontier=frontier
    )
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", stamped.created_at)
    assert signed(key).created_at == STAMP


def test_a_checkpoint_round_trips_through_its_json(key: Ed25519PrivateKey) -> None:
    checkpoint = signed(key)
    again = Checkpoint.from_json(json.loads(json.dumps(checkpoint.to_json())))
    assert again == checkpoint and again.signature == checkpoint.signature
    again.verify(key.public_key())


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("tree_size", None, "field 'tree_size' is missing or not int"),
        ("tree_size", "5", "field 'tree_size' is missing or not int"),
        ("tree_size", True, "field 'tree_size' is missing or not int"),
        ("root_hash", 5, "field 'root_hash' is missing or not str"),
        ("chain_head", None, "field 'chain_head' is missing or not str"),
        ("created_at", 1, "field 'created_at' is missing or not str"),
        ("key_id", [], "field 'key_id' is missing or not str"),
        ("frontier", "ab", "field 'frontier' is missing or not list"),
        ("signature", None, "field 'signature' is missing or not str"),
    ],
)
def test_a_checkpoint_field_missing_or_mistyped_is_named(
    key: Ed25519PrivateKey, field: str, value: object, message: str
) -> None:
    data = signed(key).to_json()
    if value is None:
        del data[field]
    else:
        data[field] = value
    with pytest.raises(CheckpointError, match=f"^malformed checkpoint: {re.escape(message)}$"):
        Checkpoint.from_json(data)


@pytest.mark.parametrize(
    "change", [{"tree_size": -1}, {"frontier": ["ab", 3]}, {"frontier": [None]}]
)
def test_a_negative_size_or_a_frontier_of_non_strings_is_refused(
    key: Ed25519PrivateKey, change: dict[str, object]
) -> None:
    data = {**signed(key).to_json(), **change}
    with pytest.raises(CheckpointError, match=r"^malformed checkpoint: bad tree size or frontier$"):
        Checkpoint.from_json(data)


def test_a_checkpoint_of_size_0_is_read(key: Ed25519PrivateKey) -> None:
    empty = signed(key, 0)
    assert Checkpoint.from_json(empty.to_json()).tree_size == 0


@pytest.mark.parametrize(
    "data", [[], "checkpoint", {"format": "citeproof-audit-checkpoint/0"}, {"tree_size": 5}]
)
def test_what_is_not_a_checkpoint_of_this_format_is_refused(data: object) -> None:
    with pytest.raises(CheckpointError, match=r"^not a citeproof-audit-checkpoint/1 checkpoint$"):
        Checkpoint.from_json(data)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "signature", ["", "not base64!", base64.b64encode(b"\x00" * 64).decode(), "AAAA"]
)
def test_a_bad_signature_names_the_checkpoint(key: Ed25519PrivateKey, signature: str) -> None:
    data = {**signed(key, 5).to_json(), "signature": signature}
    with pytest.raises(CheckpointError, match=r"^checkpoint at tree size 5: bad signature$"):
        Checkpoint.from_json(data).verify(key.public_key())


def test_a_signature_is_only_good_for_its_own_key(key: Ed25519PrivateKey) -> None:
    with pytest.raises(CheckpointError, match=r"^checkpoint at tree size 5: bad signature$"):
        signed(key).verify(Ed25519PrivateKey.generate().public_key())


def test_the_stored_frontier_is_read_back_checked_against_the_root(
    key: Ed25519PrivateKey,
) -> None:
    frontier = signed(key, 7).merkle_frontier()
    assert (frontier.size, frontier.nodes) == (7, frontier_of(7).nodes)
    assert frontier.root() == frontier_of(7).root()


@pytest.mark.parametrize(
    ("frontier", "message"),
    [
        (["zz"], "checkpoint 5: bad frontier: non-hexadecimal number"),
        ([], "checkpoint 5: bad frontier: a frontier of size 5 needs 2 nodes"),
        (["ab"], "checkpoint 5: bad frontier: a frontier of size 5 needs 2 nodes"),
        (["ab", "cd"], "checkpoint 5: bad frontier: proof node 0 is not a 32-byte hash"),
        ([LEAVES[0].hex(), LEAVES[1].hex()], "checkpoint 5: frontier does not match root"),
    ],
)
def test_a_bad_stored_frontier_is_refused(
    key: Ed25519PrivateKey, frontier: list[str], message: str
) -> None:
    data = {**signed(key, 5).to_json(), "frontier": frontier}
    with pytest.raises(CheckpointError, match=f"^{message}"):
        Checkpoint.from_json(data).merkle_frontier()


def test_a_public_key_file_that_cannot_be_read_or_is_not_ed25519_is_named(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "absent.pub"
    with pytest.raises(CheckpointError, match=f"^{re.escape(str(missing))}: cannot read public "):
        load_public_key(missing)
    garbage = tmp_path / "garbage.pub"
    garbage.write_text("not a key")
    with pytest.raises(CheckpointError, match=f"^{re.escape(str(garbage))}: cannot read public "):
        load_public_key(garbage)
    ec = tmp_path / "ec.pub"
    ec.write_bytes(
        generate_private_key(SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    with pytest.raises(CheckpointError, match=f"^{re.escape(str(ec))}: not an Ed25519 public key$"):
        load_public_key(ec)


def test_the_directory_names_its_files(tmp_path: Path) -> None:
    directory = CheckpointDirectory(str(tmp_path / "cp"))
    assert directory.path == tmp_path / "cp"
    assert directory.key_path == tmp_path / "cp" / "signing.key"
    assert directory.public_key_path == tmp_path / "cp" / "signing.pub"
    assert directory.file_for(100) == tmp_path / "cp" / "000000000100.json"
    assert directory.file_for(0) == tmp_path / "cp" / "000000000000.json"


def test_the_signing_key_is_made_once_private_and_its_public_key_exported(
    tmp_path: Path,
) -> None:
    directory = CheckpointDirectory(tmp_path / "a" / "cp")
    key = directory.signing_key()
    assert oct(directory.key_path.stat().st_mode & 0o777) == "0o600"
    loaded = serialization.load_pem_private_key(directory.key_path.read_bytes(), password=None)
    assert isinstance(loaded, Ed25519PrivateKey)
    assert key_id(loaded.public_key()) == key_id(key.public_key())
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    assert directory.public_key_path.read_bytes() == public_pem
    assert key_id(directory.public_key()) == key_id(key.public_key())
    assert key_id(directory.signing_key().public_key()) == key_id(key.public_key())


def test_a_public_key_file_replaced_is_written_back_from_the_private_key(
    tmp_path: Path,
) -> None:
    directory = CheckpointDirectory(tmp_path)
    key = directory.signing_key()
    exported = directory.public_key_path.read_bytes()
    directory.public_key_path.write_bytes(b"someone else's key")
    directory.signing_key()
    assert directory.public_key_path.read_bytes() == exported
    directory.public_key_path.unlink()
    directory.signing_key()
    assert directory.public_key_path.read_bytes() == exported
    assert key_id(directory.public_key()) == key_id(key.public_key())


def test_a_signing_key_that_is_not_ed25519_is_refused(tmp_path: Path) -> None:
    directory = CheckpointDirectory(tmp_path)
    directory.key_path.write_bytes(
        generate_private_key(SECP256R1()).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    with pytest.raises(
        CheckpointError, match=f"^{re.escape(str(directory.key_path))}: not an Ed25519 private "
    ):
        directory.signing_key()


def test_an_unreadable_signing_key_is_waited_for_half_a_second_then_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)
    directory = CheckpointDirectory(tmp_path)
    directory.key_path.write_bytes(b"-----BEGIN PRIVATE KEY-----\nhalf written")
    with pytest.raises(
        CheckpointError,
        match=f"^{re.escape(str(directory.key_path))}: cannot read the signing key$",
    ):
        directory.signing_key()
    assert len(waits) == 50 and sum(waits) == pytest.approx(0.5)


def test_a_key_written_while_waiting_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = CheckpointDirectory(tmp_path)
    real = CheckpointDirectory(tmp_path / "real").signing_key()
    pem = (tmp_path / "real" / "signing.key").read_bytes()
    directory.key_path.write_bytes(pem[:20])  # a racing writer has not finished yet

    def writer_finishes(seconds: float) -> None:
        directory.key_path.write_bytes(pem)

    monkeypatch.setattr(time, "sleep", writer_finishes)
    assert key_id(directory.signing_key().public_key()) == key_id(real.public_key())


def test_sizes_lists_only_checkpoint_files_ascending(tmp_path: Path) -> None:
    directory = CheckpointDirectory(tmp_path / "cp")
    assert directory.sizes() == []
    directory.path.mkdir()
    for name in (
        "000000000020.json",
        "000000000003.json",
        "000000000100.json",
        "00000000010.json",
        "0000000000100.json",
        "00000000001a.json",
        "000000000030.txt",
        "000000000040",
        "000000000050.json.part",
        ".tmp-1.part",
        "signing.key",
    ):
        (directory.path / name).write_text("{}")
    assert directory.sizes() == [3, 20, 100]
    (tmp_path / "file").write_text("")
    assert CheckpointDirectory(tmp_path / "file").sizes() == []


def test_a_saved_checkpoint_is_loaded_as_it_was(key: Ed25519PrivateKey, tmp_path: Path) -> None:
    directory = CheckpointDirectory(tmp_path / "new" / "cp")
    checkpoint = signed(key, 5)
    path = directory.save(checkpoint)
    assert path == directory.file_for(5)
    expected = json.dumps(checkpoint.to_json(), indent=2, sort_keys=True) + "\n"
    assert path.read_text() == expected
    assert sorted(os.listdir(directory.path)) == ["000000000005.json"]
    loaded = directory.load(5)
    assert loaded == checkpoint and loaded.signature == checkpoint.signature


def test_a_checkpoint_is_written_beside_its_file_under_a_hidden_name_then_renamed(
    key: Ed25519PrivateKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renamed: list[tuple[Path, Path]] = []
    real_replace = os.replace

    def replace(source: str, target: Path) -> None:
        renamed.append((Path(source), Path(target)))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    directory = CheckpointDirectory(tmp_path)
    directory.save(signed(key, 5))
    ((source, target),) = renamed
    assert target == directory.file_for(5)
    assert source.parent == tmp_path
    assert source.name.startswith(".tmp-") and source.name.endswith(".part")


def test_a_write_that_fails_leaves_no_file_behind(
    key: Ed25519PrivateKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(source: str, target: Path) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        CheckpointDirectory(tmp_path).save(signed(key, 5))
    assert os.listdir(tmp_path) == []


def test_loading_names_a_missing_unreadable_or_misnamed_checkpoint(
    key: Ed25519PrivateKey, tmp_path: Path
) -> None:
    directory = CheckpointDirectory(tmp_path)
    with pytest.raises(
        CheckpointError, match=f"^no checkpoint at tree size 7 in {re.escape(str(tmp_path))}$"
    ):
        directory.load(7)
    directory.file_for(7).write_text("{not json")
    with pytest.raises(
        CheckpointError,
        match=f"^{re.escape(str(directory.file_for(7)))}: unreadable checkpoint: Expecting",
    ):
        directory.load(7)
    directory.file_for(7).write_text(json.dumps(signed(key, 5).to_json()))
    with pytest.raises(
        CheckpointError, match=f"^{re.escape(str(directory.file_for(7)))}: names tree size 5$"
    ):
        directory.load(7)
    directory.file_for(7).write_text(json.dumps({"format": "other"}))
    with pytest.raises(CheckpointError, match=r"^not a citeproof-audit-checkpoint/1 checkpoint$"):
        directory.load(7)


def test_a_signature_is_read_as_strict_base64(key: Ed25519PrivateKey) -> None:
    checkpoint = signed(key, 5)
    for padded in (checkpoint.signature + "!", "*" + checkpoint.signature):
        data = {**checkpoint.to_json(), "signature": padded}
        with pytest.raises(CheckpointError, match=r"^checkpoint at tree size 5: bad signature$"):
            Checkpoint.from_json(data).verify(key.public_key())


def test_a_failed_write_whose_temporary_file_is_gone_reports_its_own_error(
    key: Ed25519PrivateKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def lose_it(source: str, target: Path) -> None:
        os.unlink(source)
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", lose_it)
    with pytest.raises(OSError, match="disk full"):
        CheckpointDirectory(tmp_path).save(signed(key, 5))
    assert os.listdir(tmp_path) == []
