"""Re-validating the answers of an audit log against a source store, resumably.

`revalidate_log` is the driver: it reads the log and the store (the only parts that touch a
database), ships chunks of plain values to an engine (`citeproof.operations._engines`), and
appends each chunk's outcomes to the log as ``citeproof/revalidation/1`` records, in one
transaction per chunk. It never rewrites a record.

A run is keyed by the *store state*: a hash of the current sources' ids and content hashes.
Each outcome record names the state and the answer (sequence and record hash) it is about, so:

- a run killed at any point and started again finds the outcomes already in the log for this
  state and re-validates only the answers without one: nothing is done twice;
- running again on an unchanged store appends nothing and reports the same outcomes
  (idempotent); after the store changes, a new run appends a new outcome per answer, and the
  log keeps the history of both.

Only the answers logged before the run started are re-validated.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from citeproof.audit import AuditStore, ReadCheck, checked_records
from citeproof.errors import AuditRecordError, InputError
from citeproof.operations._engines import Engine, ordered_map
from citeproof.operations._logged import REVALIDATION_SCHEMA, LoggedRecord, logged_records
from citeproof.operations._revalidation import (
    OUTCOMES,
    RevalidationFailed,
    answer_task,
    revalidate_chunk,
)
from citeproof.outcome import payload_with_texts, source_to_json
from citeproof.sources import SourceStore, StoredSource

DEFAULT_CHUNK_SIZE = 64
"""Answers per chunk: per worker task and per appended transaction."""

_PAGE = 2_000
_MARK = b'"schema":"' + REVALIDATION_SCHEMA.encode() + b'"'


@dataclass(frozen=True, slots=True)
class RevalidationRun:
    """The outcomes of every answer for one store state, by log sequence.

    ``appended`` outcomes were computed by this call; ``reused`` were already in the log
    (from an earlier or interrupted run against the same store state).
    """

    store_state: str
    results: tuple[dict[str, Any], ...]
    appended: int
    reused: int
    integrity: ReadCheck | None = None
    """What checking the records read found: damaged records were skipped."""

    def counts(self) -> dict[str, int]:
        """Answers per outcome, every outcome present."""
        tally = Counter(str(result["outcome"]) for result in self.results)
        return {outcome: tally[outcome] for outcome in OUTCOMES}

    @property
    def ok(self) -> bool:
        """True when every answer's evidence holds."""
        return all(result["outcome"] == "holds" for result in self.results)


def store_state(store: SourceStore) -> str:
    """``sha256:`` over the current sources' ids and content hashes, in id order."""
    digest = hashlib.sha256()
    for stored in store.current():
        digest.update(f"{stored.id}\0{stored.content_hash}\n".encode())
    return "sha256:" + digest.hexdigest()


def revalidate_log(
    log: AuditStore,
    store: SourceStore,
    *,
    engine: Engine = "local",
    workers: int | None = None,
    address: str | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
) -> RevalidationRun:
    """Re-validate every logged answer that has no outcome for the store's current state,
    on ``engine`` (see `ordered_map`), ``chunk_size`` answers per task and per transaction."""
    state = store_state(store)
    end = log.size()
    check = ReadCheck()
    done = _outcomes_in_log(log, state, ReadCheck())  # the same records are checked below
    resolver = _Resolver(store)
    record_hashes: dict[int, str] = {}
    pending = _pending_answers(log, end, done, check)
    chunks = _chunks(log, pending, resolver, chunk_size, record_hashes)
    appended = 0
    try:
        for outcomes in ordered_map(
            revalidate_chunk, chunks, engine=engine, workers=workers, address=address
        ):
            records = []
            for item in outcomes:
                answer_hash = record_hashes.pop(int(item["sequence"]))
                records.append((_record(state, item, answer_hash), _record_id(state, item)))
            log.append_many(records)
            for item in outcomes:
                done[int(item["sequence"])] = item
            appended += len(outcomes)
    except RevalidationFailed as error:
        # Outcomes appended so far stay: the next run continues after them.
        raise InputError(str(error.args[0])) from None
    if appended:
        log.write_checkpoint()
    results = tuple(done[sequence] for sequence in sorted(done) if sequence < end)
    return RevalidationRun(state, results, appended, len(results) - appended, check)


def _record(state: str, result: Mapping[str, Any], record_hash: str) -> dict[str, Any]:
    answer = {
        "sequence": result["sequence"],
        "request_id": result["request_id"],
        "record_hash": record_hash,
    }
    return {
        "schema": REVALIDATION_SCHEMA,
        "store_state": state,
        "answer": answer,
        "result": dict(result),
    }


def _record_id(state: str, result: Mapping[str, Any]) -> str:
    key = f"{state}\0{result['sequence']}\0{result['request_id']}"
    return "rv-" + hashlib.sha256(key.encode()).hexdigest()[:32]


def _outcomes_in_log(log: AuditStore, state: str, check: ReadCheck) -> dict[int, dict[str, Any]]:
    """The outcomes already logged for this store state, by answer sequence (damaged records
    are skipped: an outcome that does not check is not taken as done)."""
    done: dict[int, dict[str, Any]] = {}
    for record, fields in checked_records(log, check):
        if _MARK not in record.entry:  # canonical JSON: a cheap test
            continue
        payload = fields["payload"]
        if payload.get("schema") == REVALIDATION_SCHEMA and payload.get("store_state") == state:
            result = payload["result"]
            done[int(result["sequence"])] = result
    return done


def _pending_answers(
    log: AuditStore, end: int, done: Mapping[int, Any], check: ReadCheck
) -> Iterator[LoggedRecord]:
    """Good answer records before ``end`` with no outcome yet, read a page at a time (no
    cursor stays open while the driver appends); damaged records go to ``check``."""
    for start in range(0, end, _PAGE):
        page = list(logged_records(log, start, min(start + _PAGE, end), check=check))
        for logged in page:
            if logged.sequence not in done and logged.is_answer:
                yield logged


def _chunks(
    log: AuditStore,
    answers: Iterator[LoggedRecord],
    resolver: _Resolver,
    size: int,
    record_hashes: dict[int, str],
) -> Iterator[dict[str, Any]]:
    """Chunks of answer tasks (the sources' texts read back from ``log``); notes each
    answer's record hash for its outcome record."""
    tasks: list[dict[str, Any]] = []
    for record in answers:
        record_hashes[record.sequence] = record.record_hash
        where = f"audit record {record.sequence} ({record.request_id})"
        try:
            payload = payload_with_texts(record.payload, log)
        except (InputError, AuditRecordError) as error:  # a text lost or changed
            raise InputError(str(error), where=where) from None
        try:
            tasks.append(answer_task(record.sequence, record.request_id, payload))
        except (KeyError, TypeError, AttributeError) as error:
            raise InputError(f"malformed answer record: {error!r}", where=where) from None
        if len(tasks) >= size:
            yield _chunk(tasks, resolver)
            tasks = []
    if tasks:
        yield _chunk(tasks, resolver)


def _chunk(tasks: list[dict[str, Any]], resolver: _Resolver) -> dict[str, Any]:
    current: dict[str, dict[str, Any] | None] = {}
    for task in tasks:
        for logged in task["sources"]:
            if logged["id"] not in current:
                current[logged["id"]] = resolver.current_json(logged)
    return {"answers": tasks, "current": current}


class _Resolver:
    """The current version of a logged source: the same id if it is still current, else the
    current version of its doc_id; None when there is none. Cached for the run."""

    def __init__(self, store: SourceStore) -> None:
        self._store = store
        self._cache: dict[str, dict[str, Any] | None] = {}

    def current_json(self, logged: Mapping[str, Any]) -> dict[str, Any] | None:
        key = f"{logged['id']}\0{logged.get('doc_id')}"
        if key not in self._cache:
            found = self._current(str(logged["id"]), logged.get("doc_id"))
            self._cache[key] = (
                source_to_json(found.source, content_hash=found.content_hash)
                if found is not None
                else None
            )
        return self._cache[key]

    def _current(self, source_id: str, doc_id: object) -> StoredSource | None:
        versions = self._store.versions(doc_id) if isinstance(doc_id, str) and doc_id else []
        if not versions:
            try:
                versions = [self._store.record(source_id)]
            except LookupError:
                return None
            versions = self._store.versions(versions[0].doc_id) or versions
        current = [stored for stored in versions if not stored.superseded]
        return current[-1] if current else None
