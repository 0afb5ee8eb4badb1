"""Inclusion and consistency proofs that an auditor can check offline.

A proof carries everything needed besides the log's public key: the signed checkpoint(s) and,
for inclusion, the record's exact entry and the texts it names by hash (the sources' full texts,
which the log keeps once: `citeproof.audit._texts`), each checked against the hash the entry
names. ``proof.verify(public_key)`` (or `verify_proof` on the JSON) raises `ProofError` /
`CheckpointError` unless the proof holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from citeproof.audit._checkpoint import Checkpoint
from citeproof.audit._merkle import consistency_proof as merkle_consistency
from citeproof.audit._merkle import inclusion_proof as merkle_inclusion
from citeproof.audit._merkle import leaf_hash, root_hash, verify_consistency, verify_inclusion
from citeproof.audit._record import parse_entry
from citeproof.audit._store import AuditStore
from citeproof.audit._texts import named_keys, text_key
from citeproof.errors import AuditRecordError, CheckpointError, ProofError

INCLUSION = "citeproof-audit-inclusion/1"
CONSISTENCY = "citeproof-audit-consistency/1"


def _hashes(values: object, name: str) -> list[bytes]:
    if not isinstance(values, list | tuple) or not all(isinstance(v, str) for v in values):
        raise ProofError(f"{name} must be a list of hex strings")
    try:
        return [bytes.fromhex(value) for value in values]
    except ValueError as exc:
        raise ProofError(f"{name} holds a value that is not hex") from exc


def _hash(value: str, name: str) -> bytes:
    return _hashes([value], name)[0]


@dataclass(frozen=True, slots=True)
class InclusionProof:
    """Proof that the record `entry` is leaf `leaf_index` of the tree `checkpoint` signed."""

    request_id: str
    leaf_index: int
    entry: str
    """The record's canonical JSON, exactly as logged."""
    path: tuple[str, ...]
    checkpoint: Checkpoint
    texts: Mapping[str, str] = field(default_factory=dict)
    """The texts the entry names by hash (``sha256:...``), by that hash."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": INCLUSION,
            "request_id": self.request_id,
            "leaf_index": self.leaf_index,
            "tree_size": self.checkpoint.tree_size,
            "entry": self.entry,
            "texts": dict(self.texts),
            "path": list(self.path),
            "checkpoint": self.checkpoint.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> InclusionProof:
        if data.get("format") != INCLUSION:
            raise ProofError(f"not a {INCLUSION} proof")
        fields = _require(data, request_id=str, leaf_index=int, entry=str, tree_size=int)
        checkpoint = Checkpoint.from_json(_require(data, checkpoint=dict)["checkpoint"])
        if fields["tree_size"] != checkpoint.tree_size:
            raise ProofError("proof tree size differs from its checkpoint's")
        _hashes(data.get("path"), "path")
        texts = data.get("texts", {})  # proofs written before texts were kept once have none
        if not isinstance(texts, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in texts.items()
        ):
            raise ProofError("texts must map each text's hash to the text")
        return cls(
            request_id=fields["request_id"],
            leaf_index=fields["leaf_index"],
            entry=fields["entry"],
            path=tuple(data["path"]),
            checkpoint=checkpoint,
            texts=dict(texts),
        )

    def verify(self, public_key: Ed25519PublicKey) -> None:
        """Raise unless the checkpoint is signed by `public_key` and the entry is in its tree."""
        self.checkpoint.verify(public_key)
        try:
            fields = parse_entry(self.entry.encode())
        except AuditRecordError as exc:
            raise ProofError(f"entry is not an audit record: {exc}") from exc
        if fields["request_id"] != self.request_id or fields["sequence"] != self.leaf_index:
            raise ProofError("entry does not carry the proof's request id and index")
        named = set(named_keys(fields["payload"]))
        for key, text in self.texts.items():
            if key not in named:
                raise ProofError(f"the entry names no text {key}")
            if text_key(text) != key:
                raise ProofError(f"text {key} does not hash to its key: it was changed")
        verify_inclusion(
            leaf_hash(self.entry.encode()),
            self.leaf_index,
            self.checkpoint.tree_size,
            _hashes(list(self.path), "path"),
            _hash(self.checkpoint.root_hash, "checkpoint root hash"),
        )


@dataclass(frozen=True, slots=True)
class ConsistencyProof:
    """Proof that the log `old` signed is a prefix of the log `new` signed (nothing rewritten)."""

    old: Checkpoint
    new: Checkpoint
    path: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": CONSISTENCY,
            "old_size": self.old.tree_size,
            "new_size": self.new.tree_size,
            "path": list(self.path),
            "old_checkpoint": self.old.to_json(),
            "new_checkpoint": self.new.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ConsistencyProof:
        if data.get("format") != CONSISTENCY:
            raise ProofError(f"not a {CONSISTENCY} proof")
        fields = _require(data, old_checkpoint=dict, new_checkpoint=dict)
        proof = cls(
            old=Checkpoint.from_json(fields["old_checkpoint"]),
            new=Checkpoint.from_json(fields["new_checkpoint"]),
            path=tuple(_hex_list(data.get("path"))),
        )
        if (data.get("old_size"), data.get("new_size")) != (
            proof.old.tree_size,
            proof.new.tree_size,
        ):
            raise ProofError("proof sizes differ from its checkpoints'")
        return proof

    def verify(self, public_key: Ed25519PublicKey) -> None:
        """Raise unless both checkpoints are signed by `public_key` and consistent."""
        self.old.verify(public_key)
        self.new.verify(public_key)
        verify_consistency(
            self.old.tree_size,
            self.new.tree_size,
            _hash(self.old.root_hash, "old root hash"),
            _hash(self.new.root_hash, "new root hash"),
            _hashes(list(self.path), "path"),
        )


def _hex_list(values: object) -> list[str]:
    _hashes(values, "path")
    assert isinstance(values, list)
    return [str(value) for value in values]


def _require(data: Mapping[str, Any], **kinds: type) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, kind in kinds.items():
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ProofError(f"proof field {name!r} is missing or not {kind.__name__}")
        found[name] = value
    return found


def verify_proof(data: Mapping[str, Any], public_key: Ed25519PublicKey) -> None:
    """Check a proof read from JSON (either kind); raises unless it holds."""
    if not isinstance(data, Mapping):
        raise ProofError("a proof is a JSON object")
    if data.get("format") == INCLUSION:
        InclusionProof.from_json(data).verify(public_key)
    elif data.get("format") == CONSISTENCY:
        ConsistencyProof.from_json(data).verify(public_key)
    else:
        raise ProofError(f"unknown proof format {data.get('format')!r}")


def _leaf_hashes_matching(store: AuditStore, checkpoint: Checkpoint) -> list[bytes]:
    hashes = store.leaf_hashes(checkpoint.tree_size)
    if root_hash(hashes).hex() != checkpoint.root_hash:
        raise CheckpointError(
            f"the log's first {checkpoint.tree_size} records do not match checkpoint "
            f"{checkpoint.tree_size}: run `citeproof audit verify`"
        )
    return hashes


def _checkpoint(store: AuditStore, tree_size: int) -> Checkpoint:
    checkpoint = store.checkpoints.load(tree_size)
    checkpoint.verify(store.checkpoints.public_key())
    return checkpoint


def inclusion_proof(
    store: AuditStore,
    request_id: str,
    *,
    tree_size: int | None = None,
    sequence: int | None = None,
) -> InclusionProof:
    """Prove the record of `request_id` is in the log: the one at ``sequence`` when several
    records share the request id (`RecordNotFoundError` naming them otherwise).

    Against the checkpoint at `tree_size` when given (it must exist and contain the record),
    else against the latest checkpoint, writing a new checkpoint first if none covers it yet.
    """
    record = store.one(request_id, sequence)
    if tree_size is None:
        sizes = store.checkpoints.sizes()
        if sizes and sizes[-1] > record.sequence:
            checkpoint = _checkpoint(store, sizes[-1])
        else:
            checkpoint = store.write_checkpoint()
    else:
        checkpoint = _checkpoint(store, tree_size)
    if record.sequence >= checkpoint.tree_size:
        raise ProofError(
            f"record {record.sequence} ({request_id}) is not in checkpoint {checkpoint.tree_size}"
        )
    hashes = _leaf_hashes_matching(store, checkpoint)
    path = merkle_inclusion(hashes, record.sequence)
    return InclusionProof(
        request_id=request_id,
        leaf_index=record.sequence,
        entry=record.entry.decode(),
        path=tuple(node.hex() for node in path),
        checkpoint=checkpoint,
        texts=store.texts(named_keys(record.payload)),
    )


def consistency_proof(
    store: AuditStore, old_size: int, new_size: int | None = None
) -> ConsistencyProof:
    """Prove checkpoint `old_size` is a prefix of checkpoint `new_size` (default: the latest).

    Both checkpoints must exist (write one with `store.write_checkpoint()`).
    """
    if new_size is None:
        sizes = store.checkpoints.sizes()
        if not sizes:
            raise CheckpointError("the log has no checkpoints yet")
        new_size = sizes[-1]
    old = _checkpoint(store, old_size)
    new = _checkpoint(store, new_size)
    if old_size > new_size:
        raise ProofError(f"old size {old_size} is larger than new size {new_size}")
    hashes = _leaf_hashes_matching(store, new)
    path = merkle_consistency(hashes, old_size) if old_size else []
    return ConsistencyProof(old=old, new=new, path=tuple(node.hex() for node in path))
