"""Copy an audit log, record for record, into another store (SQLite to PostgreSQL, for
``citeproof db copy``), and say where a log's schema stands.

The records travel as stored: the same sequence numbers, request ids, hashes and entry
bytes, so the copy's chain is the original's and checkpoints signed over the original hold
for the copy. The target must be empty: a copy never goes on top of records already logged.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TypeVar

from citeproof.audit._chain import GENESIS_HASH
from citeproof.audit._store import AuditStore, Row
from citeproof.errors import AuditStoreError

_T = TypeVar("_T")
PAGE = 1000
"""Records (or texts) written per transaction."""


@dataclass(frozen=True, slots=True)
class CopiedLog:
    """What `copy_log` wrote: records and the texts they name."""

    records: int
    texts: int


def copy_log(source: AuditStore, target: AuditStore) -> CopiedLog:
    """Write every record and text of ``source`` into ``target`` as stored, in pages.

    Raises `AuditStoreError` when ``target`` already holds records (nothing is written then),
    or when a page would not continue the target's chain where the previous page ended."""
    if target.size():
        raise AuditStoreError(
            f"{target.location}: the audit log holds {target.size()} records already: "
            "a copy goes into an empty log only"
        )
    texts = 0
    for page in _pages(source._all_texts()):
        target._write(lambda _sequence, _previous: [], page)
        texts += len(page)
    records = 0
    for rows in _pages(source._rows(0, None)):
        target._write(_continuing(target.location, rows), ())
        records += len(rows)
    return CopiedLog(records, texts)


def _continuing(location: str, rows: list[Row]) -> Callable[[int, str], list[Row]]:
    def build(sequence: int, previous: str) -> list[Row]:
        first = rows[0]
        expected = GENESIS_HASH if first[0] == 0 else None
        if sequence != first[0] or (expected is not None and previous != expected):
            raise AuditStoreError(
                f"{location}: record {first[0]} would be stored at {sequence}: "
                "another writer appended during the copy"
            )
        return rows

    return build


def _pages(items: Iterator[_T]) -> Iterator[list[_T]]:
    while page := list(islice(items, PAGE)):
        yield page


def audit_schema_steps(target: str | os.PathLike[str]) -> tuple[str, ...]:
    """The names of the schema steps a log at ``target`` (a SQLite path or a PostgreSQL URL)
    is brought through on opening, in order (recorded in its ``audit_migrations`` table)."""
    if os.fspath(target).startswith(("postgresql://", "postgres://")):
        from citeproof.audit._postgres_store import MIGRATIONS as POSTGRES

        return tuple(name for name, _ in POSTGRES)
    from citeproof.audit._sqlite_store import MIGRATIONS as SQLITE

    return tuple(name for name, _ in SQLITE)
