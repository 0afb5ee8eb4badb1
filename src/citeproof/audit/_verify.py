"""Re-hash a whole log and report the first thing wrong with it.

`verify_log` reads every record in sequence order and checks, for record i: it is stored at
position i (else *missing*), its content hashes to its stored hash (else *content_mismatch*: a
changed byte), its entry says it is record i (else *reordered* / *inserted* / *missing*), it names
record i-1's hash as its previous hash (else *chain_break*), and its request id column matches
its entry (else *request_id_mismatch*). Each signed checkpoint must carry a valid signature and
match the recomputed Merkle root and chain head at its size; a checkpoint larger than the log
means the tail was *truncated*. Every text a record names by hash (`citeproof.audit._texts`)
must be stored (else *text_missing*) and still hash to its key (else *text_mismatch*;
*texts_unreadable* when they cannot be read).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from citeproof.audit._chain import GENESIS_HASH, record_hash
from citeproof.audit._checkpoint import Checkpoint, CheckpointDirectory, load_public_key
from citeproof.audit._merkle import MerkleFrontier, leaf_hash
from citeproof.audit._record import AuditRecord, parse_entry
from citeproof.audit._store import AuditStore
from citeproof.audit._texts import named_keys
from citeproof.errors import AuditRecordError, CheckpointError


@dataclass(frozen=True, slots=True)
class Problem:
    """The first thing found wrong.

    `kind` is one of: content_mismatch, malformed, missing, reordered, inserted, chain_break,
    request_id_mismatch, truncated, checkpoint_mismatch, checkpoint_signature,
    checkpoint_unreadable, text_missing, text_mismatch, texts_unreadable. `index` is the first
    bad record's sequence number (None when the problem is a checkpoint's or a text's own);
    `checkpoint` the tree size of the checkpoint involved.
    """

    kind: str
    index: int | None
    detail: str
    checkpoint: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "index": self.index,
            "detail": self.detail,
            "checkpoint": self.checkpoint,
        }


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The outcome of `verify_log`; `ok` is True only when nothing was wrong."""

    records: int
    """Records read and re-hashed."""
    root_hash: str
    """Merkle tree head of the records verified (up to the first problem)."""
    chain_head: str
    checkpoints: int
    """Checkpoints whose signature and root were checked."""
    problem: Problem | None
    texts: int = 0
    """Stored texts read and re-hashed."""

    @property
    def ok(self) -> bool:
        return self.problem is None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "records": self.records,
            "root_hash": self.root_hash,
            "chain_head": self.chain_head,
            "checkpoints": self.checkpoints,
            "texts": self.texts,
            "problem": None if self.problem is None else self.problem.to_json(),
        }


def verify_log(
    store: AuditStore,
    *,
    checkpoints: CheckpointDirectory | None = None,
    public_key: Ed25519PublicKey | None = None,
) -> VerifyReport:
    """Re-hash every record of `store` and check it against its signed checkpoints.

    `checkpoints` defaults to the store's directory and `public_key` to its ``signing.pub``;
    pass a pinned public key (and a directory of copies kept elsewhere) for an independent
    audit. Never raises for a damaged log: the damage is in the report.
    """
    directory = checkpoints or store.checkpoints
    signed, checkpoint_problem = _load_checkpoints(directory, public_key)
    frontier = MerkleFrontier()
    problem: Problem | None = None
    head, before_head = GENESIS_HASH, GENESIS_HASH
    last_good_checkpoint = 0
    named: dict[str, int] = {}  # each text a record names: the first record naming it
    rows = store.records()
    for record in rows:
        position = frontier.size
        problem = _check_record(record, position, head, before_head, rows, named)
        if problem is not None:
            break
        frontier.append(leaf_hash(record.entry))
        before_head, head = head, record.record_hash
        checkpoint = signed.get(frontier.size)
        if checkpoint is not None:
            if checkpoint.root_hash != frontier.root().hex() or checkpoint.chain_head != head:
                problem = Problem(
                    "checkpoint_mismatch",
                    last_good_checkpoint,
                    f"records {last_good_checkpoint}..{frontier.size - 1} are not the ones "
                    f"checkpoint {frontier.size} signed (rewritten with recomputed hashes)",
                    frontier.size,
                )
                break
            last_good_checkpoint = frontier.size
    if problem is None and signed and max(signed) > frontier.size:
        largest = max(signed)
        problem = Problem(
            "truncated",
            frontier.size,
            f"the log ends after {frontier.size} records but checkpoint {largest} signed "
            f"{largest}: records {frontier.size}..{largest - 1} are missing",
            largest,
        )
    stored, changed = store.check_texts()
    if problem is None and changed:
        key, detail = changed[0]
        more = f" ({len(changed) - 1} more texts too)" if len(changed) > 1 else ""
        problem = Problem("text_mismatch" if key else "texts_unreadable", None, detail + more)
    lost = sorted((sequence, key) for key, sequence in named.items() if key not in stored)
    if problem is None and lost:
        sequence, key = lost[0]
        more = f" ({len(lost) - 1} more texts too)" if len(lost) > 1 else ""
        detail = f"record {sequence} names the text {key}, which the log does not hold{more}"
        problem = Problem("text_missing", sequence, detail)
    checked = sum(1 for size in signed if size <= frontier.size)
    return VerifyReport(
        records=frontier.size,
        root_hash=frontier.root().hex(),
        chain_head=head,
        checkpoints=checked,
        problem=problem or checkpoint_problem,
        texts=len(stored),
    )


def _check_record(
    record: AuditRecord,
    position: int,
    head: str,
    before_head: str,
    rest: Iterator[AuditRecord],
    named: dict[str, int],
) -> Problem | None:
    """The first thing wrong with `record` at `position`, or None; the keys of the texts its
    payload names go into `named` (with its sequence, if no record before named them)."""
    if record.sequence != position:
        return Problem(
            "missing",
            position,
            f"record {position} is missing: the next stored record is {record.sequence}",
        )
    if record_hash(record.entry) != record.record_hash:
        return Problem(
            "content_mismatch",
            position,
            f"record {position} does not hash to its stored hash: its content was altered",
        )
    try:
        fields = parse_entry(record.entry)
    except AuditRecordError as exc:
        return Problem("malformed", position, f"record {position} is not a record: {exc}")
    claimed = fields["sequence"]
    if claimed != position:
        return _misplaced(position, claimed, fields, before_head, rest)
    if fields["previous_hash"] != head:
        if position == 0:
            return Problem("chain_break", 0, "record 0 does not start the chain")
        return Problem(
            "chain_break",
            position - 1,
            f"record {position - 1} was rewritten: its hash is not the previous hash "
            f"recorded by record {position}",
        )
    if fields["request_id"] != record.request_id:
        return Problem(
            "request_id_mismatch",
            position,
            f"record {position} is filed under request id {record.request_id!r} but is "
            f"{fields['request_id']!r}",
        )
    for key in named_keys(fields.get("payload")):
        named.setdefault(key, position)
    return None


def _misplaced(
    position: int,
    claimed: int,
    fields: dict[str, Any],
    before_head: str,
    rest: Iterator[AuditRecord],
) -> Problem:
    stored_at = f"position {position} holds record {claimed}"
    if claimed == position - 1 and fields["previous_hash"] == before_head:
        return Problem(
            "inserted",
            position - 1,
            f"record {position - 1} was inserted: {stored_at}, which it displaced",
        )
    for later in rest:  # only after a failure: find where record `position` went
        try:
            if json.loads(later.entry).get("sequence") == position:
                return Problem(
                    "reordered",
                    position,
                    f"records are out of order: {stored_at}; record {position} is at "
                    f"position {later.sequence}",
                )
        except (ValueError, AttributeError):
            continue
    if claimed > position:
        return Problem(
            "missing",
            position,
            f"records {position}..{claimed - 1} are missing: {stored_at}",
        )
    return Problem("inserted", position, f"record {position} was inserted: {stored_at}")


def _load_checkpoints(
    directory: CheckpointDirectory, public_key: Ed25519PublicKey | None
) -> tuple[dict[int, Checkpoint], Problem | None]:
    sizes = directory.sizes()
    if not sizes:
        return {}, None
    if public_key is None:
        try:
            public_key = load_public_key(directory.public_key_path)
        except CheckpointError as exc:
            return {}, Problem("checkpoint_signature", None, f"cannot check checkpoints: {exc}")
    signed: dict[int, Checkpoint] = {}
    first: Problem | None = None
    for size in sizes:
        try:
            checkpoint = directory.load(size)
        except CheckpointError as exc:
            first = first or Problem("checkpoint_unreadable", None, str(exc), size)
            continue
        try:
            checkpoint.verify(public_key)
        except CheckpointError as exc:
            first = first or Problem("checkpoint_signature", None, str(exc), size)
            continue
        signed[size] = checkpoint
    return signed, first
