"""`AuditStore`: the audit log's one abstraction, with the logic every backend shares.

A backend supplies eight primitives (`_write`, `_rows`, `_latest_for`, `_all_for`,
`_texts`, `_all_texts`, `size`, `close`); this module turns them into the append-only log:
entries built under the backend's write lock so the chain never forks, the texts records name
by hash written in the same transaction (`citeproof.audit._texts`), checkpoints written after
the commit, never before it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

from citeproof.audit._chain import GENESIS_HASH, record_hash
from citeproof.audit._checkpoint import Checkpoint, CheckpointDirectory, sign_checkpoint
from citeproof.audit._merkle import MerkleFrontier, leaf_hash
from citeproof.audit._record import (
    AppendedRecord,
    AuditRecord,
    PreparedRecord,
    build_entry,
    chain_link,
    check_request_id,
    parse_entry,
    prepare_record,
    utc_timestamp,
)
from citeproof.audit._texts import KnownTexts, ReadTexts, stored_text, texts_to_write
from citeproof.errors import (
    AuditRecordError,
    AuditStoreError,
    CheckpointError,
    InputError,
    RecordNotFoundError,
)

DEFAULT_CHECKPOINT_EVERY = 100
"""A signed checkpoint is written after every 100th record unless told otherwise."""

Row = tuple[int, str, str, bytes]
"""A stored row: (sequence, request_id, record_hash, entry)."""


class AuditStore(ABC):
    """An append-only, tamper-evident log of audit records: what the SQLite and PostgreSQL
    stores share; `open_store` returns one.

    Callers may rely on: `append` returns only after the record is durably committed;
    sequence numbers are contiguous from 0; concurrent writers (threads or processes) never
    fork the chain; stored records cannot be updated or deleted through the database's own
    interface (triggers reject it); anything done around that is caught by `verify_log`.
    """

    def __init__(
        self, location: str, checkpoints: CheckpointDirectory, checkpoint_every: int
    ) -> None:
        if checkpoint_every < 0:
            raise InputError("must be 0 (never) or a positive number", field="checkpoint_every")
        self.location = location
        self.checkpoints = checkpoints
        self.checkpoint_every = checkpoint_every
        self._known_texts = KnownTexts()
        self._read_texts = ReadTexts()

    # -- backend primitives -------------------------------------------------------------
    @abstractmethod
    def _write(
        self, build: Callable[[int, str], list[Row]], texts: Sequence[tuple[str, bytes]]
    ) -> list[Row]:
        """In one write transaction holding the log's write lock: store each ``(key, text)``
        of `texts` whose key is not stored yet, read the last row, call
        ``build(next_sequence, previous_hash)``, insert the rows it returns, commit."""

    @abstractmethod
    def _texts(self, keys: Sequence[str]) -> dict[str, bytes]:
        """The stored bytes of those of `keys` that are stored."""

    @abstractmethod
    def _all_texts(self) -> Iterator[tuple[str, bytes]]:
        """Every stored text as ``(key, bytes)``, in key order."""

    @abstractmethod
    def _rows(self, start: int, end: int | None) -> Iterator[Row]:
        """Stored rows with start <= sequence < end, by sequence."""

    @abstractmethod
    def _latest_for(self, request_id: str) -> Row | None:
        """The stored row with this request id and the highest sequence, if any."""

    @abstractmethod
    def _all_for(self, request_id: str) -> list[Row]:
        """Every stored row with this request id, by sequence."""

    @abstractmethod
    def size(self) -> int:
        """Number of records the log claims: last sequence + 1 (0 when empty)."""

    @abstractmethod
    def close(self) -> None:
        """Release the connection; the store cannot be used afterwards."""

    # -- the log ---------------------------------------------------------------------------
    def append(
        self,
        payload: Mapping[str, Any],
        request_id: str | None = None,
        *,
        texts: Mapping[str, str] | None = None,
    ) -> AppendedRecord:
        """Append one record and return once it is durably committed.

        `payload` is any JSON object (str keys; str, int, float, bool, None, list, dict values;
        integers within ±2**53). `request_id` is the caller's reproducible id for the request;
        when None it is derived with `request_id_for` from ``payload["request"]`` if present,
        else from the whole payload. Request ids need not be unique: `get` returns the latest.
        `texts` are texts the payload names by key (`text_key`: ``sha256:`` and the hash of
        the text), stored once for the whole log in the same transaction and read back with
        `texts`; a key that is not its text's hash is refused (`AuditRecordError`).
        """
        return self.append_many([(payload, request_id)], texts=texts)[0]

    def append_many(
        self,
        items: Iterable[tuple[Mapping[str, Any], str | None]],
        *,
        texts: Mapping[str, str] | None = None,
    ) -> list[AppendedRecord]:
        """Append several records in one transaction (all or none), in the given order, with
        the `texts` they name (see `append`)."""
        return self.append_prepared([prepare_record(p, r) for p, r in items], texts)

    def append_prepared(
        self, prepared: Iterable[PreparedRecord], texts: Mapping[str, str] | None = None
    ) -> list[AppendedRecord]:
        """As `append_many`, for records already encoded: each ``(body, request_id)`` holds the
        bytes `payload_json` returns for the payload, as `prepare_record` makes them (the
        caller vouches for the body: it is stored and hashed as given; the request id is
        checked). For writers that encode outside a lock, or log many copies of one payload
        shape and encode it once."""
        prepared = [(body, check_request_id(request_id)) for body, request_id in prepared]
        if not prepared:
            return []
        new_texts = texts_to_write(texts or {}, self._known_texts)

        stamps: list[str] = []

        def build(sequence: int, previous: str) -> list[Row]:
            rows: list[Row] = []
            recorded_at = utc_timestamp()
            stamps[:] = [recorded_at]
            for offset, (body, request_id) in enumerate(prepared):
                entry = build_entry(
                    body,
                    request_id=request_id,
                    sequence=sequence + offset,
                    previous_hash=previous,
                    recorded_at=recorded_at,
                )
                previous = record_hash(entry)
                rows.append((sequence + offset, request_id, previous, entry))
            return rows

        rows = self._write(build, new_texts)
        self._known_texts.add(key for key, _ in new_texts)
        appended = [AppendedRecord(seq, rid, digest, stamps[0]) for seq, rid, digest, _ in rows]
        self._checkpoint_after(rows[0][0], rows[-1][0] + 1)
        return appended

    def _checkpoint_after(self, first: int, end: int) -> None:
        every = self.checkpoint_every
        if every and (end // every) > (first // every):
            self.write_checkpoint((end // every) * every)

    def get(self, request_id: str) -> AuditRecord:
        """The latest record logged under `request_id`; `RecordNotFoundError` if none."""
        row = self._latest_for(request_id)
        if row is None:
            raise RecordNotFoundError(f"no audit record with request id {request_id!r}")
        return AuditRecord(*row)

    def find(self, request_id: str, sequence: int | None = None) -> list[AuditRecord]:
        """Every record logged under `request_id`, oldest first (only the one at ``sequence``
        when given). A request id names a request, and the same request may be logged more
        than once: a lookup never hides the other records. `RecordNotFoundError` if none."""
        rows = [row for row in self._all_for(request_id) if sequence in (None, row[0])]
        if not rows:
            at = f" at sequence {sequence}" if sequence is not None else ""
            raise RecordNotFoundError(f"no audit record with request id {request_id!r}{at}")
        return [AuditRecord(*row) for row in rows]

    def one(self, request_id: str, sequence: int | None = None) -> AuditRecord:
        """The one record of `request_id` (at ``sequence``): `RecordNotFoundError` naming the
        sequences to choose from when several match."""
        found = self.find(request_id, sequence)
        if len(found) > 1:
            sequences = ", ".join(str(record.sequence) for record in found)
            raise RecordNotFoundError(
                f"{len(found)} audit records have request id {request_id!r} "
                f"(sequences {sequences}); name one with --sequence"
            )
        return found[0]

    def texts(self, keys: Iterable[str]) -> dict[str, str]:
        """The stored texts of `keys` (as `append` took them), by key; a key the log does not
        hold is left out. Raises `AuditRecordError` for a stored text changed since it was
        written (it no longer hashes to its key)."""
        wanted = list(dict.fromkeys(keys))
        found = {key: text for key in wanted if (text := self._read_texts.get(key)) is not None}
        missing = [key for key in wanted if key not in found]
        stored = self._texts(missing) if missing else {}
        for key in missing:
            if key in stored:
                found[key] = stored_text(key, stored[key])
                self._read_texts.put(key, found[key])
        return {key: found[key] for key in wanted if key in found}

    def check_texts(self) -> tuple[set[str], list[tuple[str, str]]]:
        """Every stored text read and hashed once: the keys stored, and each text that no longer
        hashes to its key as ``(key, what is wrong)`` (key ``""`` when they cannot be read)."""
        checked: set[str] = set()
        problems = []
        try:
            for key, data in self._all_texts():
                checked.add(key)
                try:
                    stored_text(key, data)
                except AuditRecordError as error:
                    problems.append((key, str(error)))
        except AuditStoreError as error:  # the table itself is gone or unreadable
            problems.append(("", str(error)))
        return checked, problems

    def records(self, start: int = 0, end: int | None = None) -> Iterator[AuditRecord]:
        """Stored records with ``start <= sequence < end`` (to the end when None), in order."""
        for row in self._rows(start, end):
            yield AuditRecord(*row)

    def extract(
        self, paths: Sequence[str], start: int = 0, end: int | None = None
    ) -> Iterator[tuple[int, list[Any]]]:
        """For each record with ``start <= sequence < end`` (to the end when None), in order:
        its sequence and the values at ``paths`` in its entry (``$.payload.schema``: dotted
        object keys from the entry's root), None where a path is absent.

        The values are those of the parsed entry (`AuditRecord.fields`); a backend may pick
        them out in the database so whole entries are not shipped to Python. Raises
        `AuditRecordError` for an entry that is not JSON."""
        keys = [json_path_keys(path) for path in paths]
        for row in self._rows(start, end):
            fields = parse_entry(row[3])
            yield row[0], [value_at(fields, path) for path in keys]

    def leaf_hashes(self, tree_size: int) -> list[bytes]:
        """Merkle leaf hashes of the first `tree_size` records (reads them all)."""
        hashes = [leaf_hash(row[3]) for row in self._rows(0, tree_size)]
        if len(hashes) != tree_size:
            raise CheckpointError(f"log has {len(hashes)} of the {tree_size} records asked for")
        return hashes

    def write_checkpoint(self, tree_size: int | None = None) -> Checkpoint:
        """Sign and save a checkpoint at `tree_size` (default: the current size) and return it.

        Starts from the latest valid checkpoint below it, so only newer records are read.
        Refuses (`CheckpointError`) to sign records whose chain does not hold. An existing
        checkpoint at that size is returned as it is.
        """
        size = self.size() if tree_size is None else tree_size
        key = self.checkpoints.signing_key()
        public_key = key.public_key()
        if self.checkpoints.file_for(size).exists():
            existing = self.checkpoints.load(size)
            existing.verify(public_key)
            return existing
        frontier, head = self._checkpoint_base(size, public_key)
        for record in self.records(frontier.size, size):
            where = f"refusing to sign checkpoint {size}: record {record.sequence}"
            if record.sequence != frontier.size:
                raise CheckpointError(f"{where}: expected record {frontier.size}")
            if record_hash(record.entry) != record.record_hash:
                raise CheckpointError(f"{where}: content does not match its hash")
            previous_hash, sequence = chain_link(record.entry)
            if previous_hash != head or sequence != record.sequence:
                raise CheckpointError(f"{where}: does not continue the chain")
            frontier.append(leaf_hash(record.entry))
            head = record.record_hash
        if frontier.size != size:
            raise CheckpointError(f"cannot sign checkpoint {size}: log has {frontier.size}")
        checkpoint = sign_checkpoint(
            key,
            tree_size=size,
            root_hash=frontier.root().hex(),
            chain_head=head,
            frontier=frontier,
        )
        self.checkpoints.save(checkpoint)
        return checkpoint

    def seal(self) -> Checkpoint | None:
        """Sign a checkpoint at the current size when records were appended after the latest
        one, and return it (None when there was nothing new). Called on a timer, it bounds how
        long a record stays unsealed: records dropped from the end of the log after they were
        sealed are caught by `verify_log` as *truncated*."""
        size = self.size()
        sizes = self.checkpoints.sizes()
        if size == 0 or (sizes and sizes[-1] >= size):
            return None
        return self.write_checkpoint(size)

    def _checkpoint_base(self, size: int, public_key: Any) -> tuple[MerkleFrontier, str]:
        for earlier in reversed([s for s in self.checkpoints.sizes() if s <= size][-3:]):
            try:
                checkpoint = self.checkpoints.load(earlier)
                checkpoint.verify(public_key)
                return checkpoint.merkle_frontier(), checkpoint.chain_head
            except CheckpointError:
                continue  # a damaged checkpoint is verify's business; rebuild from further back
        return MerkleFrontier(), GENESIS_HASH

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def json_path_keys(path: str) -> tuple[str, ...]:
    """``$.a.b`` → ``("a", "b")``: the keys of a path `AuditStore.extract` takes; `InputError`
    for anything else."""
    keys = tuple(path.split("."))
    if keys[0] != "$" or not all(key.isidentifier() for key in keys[1:]):
        raise InputError(f"expected a path like $.payload.schema, not {path!r}", field="paths")
    return keys[1:]


def value_at(value: Any, keys: Sequence[str]) -> Any:
    """The value under ``keys`` (from `json_path_keys`) in a parsed JSON value, or None."""
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value
