"""Reading the log and checking what is read: what every reader of records outside
`verify_log` goes through (reports, samples, re-validation, the service's pages).

`checked_records` yields a record only when it re-hashes to its stored hash, its entry parses
(a record nested too deeply is *malformed*, never a crash), says it is the record at its
position under its request id, and the next record's ``previous_hash`` is its stored hash (so
a record rewritten with a recomputed hash is caught too: one record is held back until the
next is read). A bad record is reported in the `ReadCheck` and skipped; the run goes on.

What a record-by-record pass cannot see is said in the `ReadCheck` instead: a signed
checkpoint whose chain head differs from the records read (the records before it were
rewritten, chain and all), a checkpoint larger than the log (records were dropped from its
end), and how many records come after the last signed checkpoint (not sealed yet: dropping
them would go unnoticed until the next checkpoint). `check_stored_texts`, run once the records
are read, adds the source texts the log keeps beside its records (`citeproof.audit._texts`):
one that no longer hashes to its key (changed in the database), or that a record read names
and the log does not hold.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from citeproof.audit._chain import GENESIS_HASH, record_hash
from citeproof.audit._checkpoint import Checkpoint
from citeproof.audit._record import AuditRecord, parse_entry
from citeproof.audit._store import AuditStore
from citeproof.audit._texts import named_keys
from citeproof.errors import AuditRecordError, CheckpointError


@dataclass(frozen=True, slots=True)
class BadRecord:
    """A record that was skipped: its position, what is wrong (``content_mismatch``,
    ``chain_break``, ``malformed``, ``misplaced``, ``missing``) and a sentence saying so."""

    sequence: int
    kind: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"sequence": self.sequence, "kind": self.kind, "detail": self.detail}


@dataclass(slots=True)
class ReadCheck:
    """What checking the records read found (filled in while `checked_records` runs)."""

    read: int = 0
    """Records read, good and bad."""
    bad: list[BadRecord] = field(default_factory=list)
    checkpoint_problems: list[str] = field(default_factory=list)
    unsealed: int = 0
    """Records read after the last signed checkpoint: not yet covered by a signature."""
    signed: dict[int, Checkpoint] | None = field(default=None, repr=False, compare=False)
    """The valid signed checkpoints by size, loaded once for all the reads of this check."""
    text_problems: list[str] = field(default_factory=list)
    """Stored texts changed, unreadable or missing (`check_stored_texts`)."""
    texts: int = 0
    """Stored texts read and re-hashed by `check_stored_texts`."""
    named: set[str] = field(default_factory=set, repr=False, compare=False)
    """The keys of the texts the good records read name."""

    @property
    def ok(self) -> bool:
        return not self.bad and not self.checkpoint_problems and not self.text_problems

    def summary(self) -> str:
        """One line a person can act on."""
        parts = [f"{self.read} records read and checked"]
        if self.bad:
            parts.append(
                f"{len(self.bad)} skipped as damaged (first: record {self.bad[0].sequence}, "
                f"{self.bad[0].detail})"
            )
        parts.extend(self.checkpoint_problems)
        parts.extend(self.text_problems)
        if self.unsealed:
            parts.append(f"{self.unsealed} after the last signed checkpoint (not sealed yet)")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "read": self.read,
            "skipped": [bad.to_json() for bad in self.bad],
            "checkpoint_problems": list(self.checkpoint_problems),
            "text_problems": list(self.text_problems),
            "texts": self.texts,
            "unsealed": self.unsealed,
        }


Checked = tuple[AuditRecord, dict[str, Any]]
"""A good record and its entry's fields, parsed once."""


def checked_records(
    store: AuditStore, check: ReadCheck, start: int = 0, end: int | None = None
) -> Iterator[Checked]:
    """The good records with ``start <= sequence < end`` (to the end when None), in order,
    each with its parsed fields; each bad one is added to ``check`` and skipped (see the
    module docstring)."""
    if check.signed is None:
        check.signed = _signed_checkpoints(store, check)
    signed = check.signed
    expected_previous = _hash_before(store, start)
    position = start
    held: Checked | None = None  # good so far; yielded once the next record links to it
    for record in store.records(start, end):
        check.read += 1
        if record.sequence != position:
            check.bad.append(
                BadRecord(
                    position,
                    "missing",
                    f"records {position}..{record.sequence - 1} are not in the log",
                )
            )
            expected_previous = None  # what the next record links to is gone
        position = record.sequence + 1
        problem, fields = _problem(record)
        previous = fields.get("previous_hash")
        if held is not None:
            if problem is None and previous != held[0].record_hash:
                check.bad.append(
                    BadRecord(
                        held[0].sequence,
                        "chain_break",
                        f"its hash is not the one record {record.sequence} sealed: rewritten",
                    )
                )
                expected_previous = None  # this record links to the original: not its fault
            else:
                yield held
            held = None
        if problem is None and expected_previous is not None and previous != expected_previous:
            problem = BadRecord(
                record.sequence, "chain_break", "it does not continue the chain before it"
            )
        if problem is not None:
            check.bad.append(problem)
            expected_previous = None
            continue
        expected_previous = record.record_hash
        check.named.update(named_keys(fields.get("payload")))
        _compare_checkpoint(signed.get(record.sequence + 1), record, check)
        held = record, fields
    if held is not None:
        yield held
    largest = max(signed, default=0)
    if end is None and largest > position:
        check.checkpoint_problems.append(
            f"records {position}..{largest - 1} are missing from the end of the log "
            f"(checkpoint {largest} signed them)"
        )
    check.unsealed = max(0, position - max(largest, start))


def check_stored_texts(store: AuditStore, check: ReadCheck) -> None:
    """Read and re-hash every text ``store`` keeps (once), adding to ``check`` each one that
    no longer hashes to its key, and the texts the records read so far name that the log
    does not hold; run it after `checked_records`."""
    stored, changed = store.check_texts()
    check.texts = len(stored)
    if changed:
        more = f" ({len(changed) - 1} more texts too)" if len(changed) > 1 else ""
        check.text_problems.append(changed[0][1] + more)
    lost = sorted(check.named - stored)
    if lost:
        more = f" ({len(lost) - 1} more too)" if len(lost) > 1 else ""
        check.text_problems.append(
            f"the records name the text {lost[0]}, which the log does not hold{more}"
        )


def _problem(record: AuditRecord) -> tuple[BadRecord | None, dict[str, Any]]:
    """What is wrong with the record on its own (None: nothing), and its fields."""
    if record_hash(record.entry) != record.record_hash:
        detail = "its content does not hash to its stored hash"
        return BadRecord(record.sequence, "content_mismatch", detail), {}
    try:
        fields = parse_entry(record.entry)
    except AuditRecordError as error:
        return BadRecord(record.sequence, "malformed", str(error)), {}
    if fields["sequence"] != record.sequence or fields["request_id"] != record.request_id:
        detail = f"its entry says record {fields['sequence']} ({fields['request_id']!r})"
        return BadRecord(record.sequence, "misplaced", detail), fields
    return None, fields


def _hash_before(store: AuditStore, start: int) -> str | None:
    if start <= 0:
        return GENESIS_HASH
    before = list(store.records(start - 1, start))
    return before[0].record_hash if before else None


def _signed_checkpoints(store: AuditStore, check: ReadCheck) -> dict[int, Checkpoint]:
    sizes = store.checkpoints.sizes()
    if not sizes:
        return {}
    try:
        public_key = store.checkpoints.public_key()
    except CheckpointError as error:
        check.checkpoint_problems.append(f"checkpoints not checked: {error}")
        return {}
    signed: dict[int, Checkpoint] = {}
    for size in sizes:
        try:
            checkpoint = store.checkpoints.load(size)
            checkpoint.verify(public_key)
        except CheckpointError as error:
            check.checkpoint_problems.append(f"checkpoint {size} is not valid: {error}")
            continue
        signed[size] = checkpoint
    return signed


def _compare_checkpoint(
    checkpoint: Checkpoint | None, record: AuditRecord, check: ReadCheck
) -> None:
    if checkpoint is not None and checkpoint.chain_head != record.record_hash:
        check.checkpoint_problems.append(
            f"the records up to {record.sequence} are not the ones checkpoint "
            f"{checkpoint.tree_size} signed (rewritten with recomputed hashes)"
        )
