"""Signed checkpoints, kept as files outside the database.

A checkpoint states: the log had `tree_size` records, their Merkle tree head was `root_hash`, the
last record's hash was `chain_head`, at `created_at`. It is signed with Ed25519 over the RFC 8785
canonical JSON of every other field. Checkpoints live in a directory (by default
``<db>.checkpoints/`` next to a SQLite file), one file per tree size (``000000000100.json``),
with the signing key (``signing.key``, mode 0600, created on first use) and its public key
(``signing.pub``, PEM) - hand the public key to auditors and keep copies of the checkpoints
elsewhere: a checkpoint held only next to the log cannot prove the log was not truncated by
someone who could also delete files.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from citeproof.audit._merkle import MerkleFrontier
from citeproof.audit._record import utc_timestamp
from citeproof.canonical import canonical_json
from citeproof.errors import CheckpointError

CHECKPOINT_FORMAT = "citeproof-audit-checkpoint/1"
KEY_FILE = "signing.key"
PUBLIC_KEY_FILE = "signing.pub"


def key_id(public_key: Ed25519PublicKey) -> str:
    """First 16 hex digits of SHA-256 over the raw public key."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def load_public_key(path: str | os.PathLike[str]) -> Ed25519PublicKey:
    """Read an Ed25519 public key (PEM) such as ``signing.pub``."""
    try:
        key = serialization.load_pem_public_key(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        raise CheckpointError(f"{path}: cannot read public key: {exc}") from exc
    if not isinstance(key, Ed25519PublicKey):
        raise CheckpointError(f"{path}: not an Ed25519 public key")
    return key


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A signed statement of the log's size, tree head and chain head at one moment."""

    tree_size: int
    root_hash: str
    chain_head: str
    created_at: str
    key_id: str
    frontier: tuple[str, ...] = ()
    """Perfect-subtree roots at `tree_size`, so the next checkpoint need not re-read the log."""
    signature: str = field(default="", compare=False)

    def signed_body(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "tree_size": self.tree_size,
            "root_hash": self.root_hash,
            "chain_head": self.chain_head,
            "created_at": self.created_at,
            "key_id": self.key_id,
            "frontier": list(self.frontier),
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.signed_body(), "signature": self.signature}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Checkpoint:
        """Parse a checkpoint; raises `CheckpointError` when fields are missing or mistyped."""
        if not isinstance(data, Mapping) or data.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointError(f"not a {CHECKPOINT_FORMAT} checkpoint")
        try:
            checkpoint = cls(
                tree_size=_typed(data, "tree_size", int),
                root_hash=_typed(data, "root_hash", str),
                chain_head=_typed(data, "chain_head", str),
                created_at=_typed(data, "created_at", str),
                key_id=_typed(data, "key_id", str),
                frontier=tuple(_typed(data, "frontier", list)),
                signature=_typed(data, "signature", str),
            )
        except (TypeError, ValueError) as exc:
            raise CheckpointError(f"malformed checkpoint: {exc}") from exc
        if checkpoint.tree_size < 0 or not all(isinstance(n, str) for n in checkpoint.frontier):
            raise CheckpointError("malformed checkpoint: bad tree size or frontier")
        return checkpoint

    def verify(self, public_key: Ed25519PublicKey) -> None:
        """Raise `CheckpointError` unless the signature holds for `public_key`."""
        try:
            signature = base64.b64decode(self.signature, validate=True)
            public_key.verify(signature, canonical_json(self.signed_body()))
        except (InvalidSignature, binascii.Error, ValueError) as exc:
            raise CheckpointError(
                f"checkpoint at tree size {self.tree_size}: bad signature"
            ) from exc

    def merkle_frontier(self) -> MerkleFrontier:
        """The frontier stored in the checkpoint, checked against its root hash."""
        try:
            frontier = MerkleFrontier(self.tree_size, [bytes.fromhex(n) for n in self.frontier])
        except ValueError as exc:
            raise CheckpointError(f"checkpoint {self.tree_size}: bad frontier: {exc}") from exc
        if frontier.root().hex() != self.root_hash:
            raise CheckpointError(f"checkpoint {self.tree_size}: frontier does not match root")
        return frontier


def _typed(data: Mapping[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"field {name!r} is missing or not {kind.__name__}")
    return value


def sign_checkpoint(
    key: Ed25519PrivateKey,
    *,
    tree_size: int,
    root_hash: str,
    chain_head: str,
    frontier: MerkleFrontier,
    created_at: str | None = None,
) -> Checkpoint:
    """A new checkpoint signed with `key`."""
    unsigned = Checkpoint(
        tree_size=tree_size,
        root_hash=root_hash,
        chain_head=chain_head,
        created_at=created_at or utc_timestamp(),
        key_id=key_id(key.public_key()),
        frontier=tuple(node.hex() for node in frontier.nodes),
    )
    signature = key.sign(canonical_json(unsigned.signed_body()))
    return Checkpoint(**{**_fields(unsigned), "signature": base64.b64encode(signature).decode()})


def _fields(checkpoint: Checkpoint) -> dict[str, Any]:
    return {name: getattr(checkpoint, name) for name in Checkpoint.__slots__}


class CheckpointDirectory:
    """The files of one log's checkpoints and its signing key.

    `signing_key()` creates the key on first use (mode 0600) and exports ``signing.pub``.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    @property
    def key_path(self) -> Path:
        return self.path / KEY_FILE

    @property
    def public_key_path(self) -> Path:
        return self.path / PUBLIC_KEY_FILE

    def file_for(self, tree_size: int) -> Path:
        return self.path / f"{tree_size:012d}.json"

    def signing_key(self) -> Ed25519PrivateKey:
        """The log's private key, generated and saved (0600) on first use."""
        self.path.mkdir(parents=True, exist_ok=True)
        if not self.key_path.exists():
            key = Ed25519PrivateKey.generate()
            pem = key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            try:  # O_EXCL: when two writers race, the first key wins and both use it
                fd = os.open(self.key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                pass
            else:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(pem)
                    handle.flush()
                    os.fsync(handle.fileno())
        key = self._read_private_key()
        public_pem = key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        if not self.public_key_path.exists() or self.public_key_path.read_bytes() != public_pem:
            _write_atomically(self.public_key_path, public_pem)
        return key

    def _read_private_key(self) -> Ed25519PrivateKey:
        for _ in range(50):  # a racing writer may not have finished writing the key yet
            try:
                pem = self.key_path.read_bytes()
                key = serialization.load_pem_private_key(pem, password=None)
            except ValueError:
                time.sleep(0.01)
                continue
            if not isinstance(key, Ed25519PrivateKey):
                raise CheckpointError(f"{self.key_path}: not an Ed25519 private key")
            return key
        raise CheckpointError(f"{self.key_path}: cannot read the signing key")

    def public_key(self) -> Ed25519PublicKey:
        """The exported public key (``signing.pub``)."""
        return load_public_key(self.public_key_path)

    def sizes(self) -> list[int]:
        """Tree sizes of the checkpoint files present, ascending."""
        if not self.path.is_dir():
            return []
        sizes = []
        for name in os.listdir(self.path):
            stem, dot, ext = name.partition(".")
            if dot and ext == "json" and stem.isdigit() and len(stem) == 12:
                sizes.append(int(stem))
        return sorted(sizes)

    def load(self, tree_size: int) -> Checkpoint:
        """The checkpoint for `tree_size` (not yet signature-checked)."""
        path = self.file_for(tree_size)
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError as exc:
            raise CheckpointError(f"no checkpoint at tree size {tree_size} in {self.path}") from exc
        except (OSError, ValueError) as exc:
            raise CheckpointError(f"{path}: unreadable checkpoint: {exc}") from exc
        checkpoint = Checkpoint.from_json(data)
        if checkpoint.tree_size != tree_size:
            raise CheckpointError(f"{path}: names tree size {checkpoint.tree_size}")
        return checkpoint

    def save(self, checkpoint: Checkpoint) -> Path:
        """Write the checkpoint file atomically (temp file, fsync, rename)."""
        path = self.file_for(checkpoint.tree_size)
        body = json.dumps(checkpoint.to_json(), indent=2, sort_keys=True).encode() + b"\n"
        _write_atomically(path, body)
        return path


def _write_atomically(path: Path, body: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(body)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
