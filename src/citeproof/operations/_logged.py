"""Reading the audit log as operations see it: the records of each kind, parsed once.

The log holds several kinds of record, told apart by the payload's ``schema``: answers
(``citeproof/audit-payload/2`` and /1, written by `citeproof.outcome._recording`), re-validation
outcomes (``citeproof/revalidation/1``) and reviewers' verdicts (``citeproof/review/1``).
Records of any other schema are skipped by the readers here, never rejected: the log is
shared and may hold records this version does not know. Every record is checked as it is read
(`citeproof.audit._reading`): a damaged one is reported in the caller's `ReadCheck` and skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from citeproof.audit import AuditStore, ReadCheck, checked_records
from citeproof.errors import InputError
from citeproof.outcome import ANSWER_SCHEMAS

REVALIDATION_SCHEMA = "citeproof/revalidation/1"
"""A re-validation outcome of one logged answer against one state of the source store."""

REVIEW_SCHEMA = "citeproof/review/1"
"""A reviewer's verdict on one logged answer."""


@dataclass(frozen=True, slots=True)
class LoggedRecord:
    """One audit record: its position, request id, the time it was logged and its payload."""

    sequence: int
    request_id: str
    record_hash: str
    recorded_at: str
    payload: dict[str, Any]

    @property
    def schema(self) -> str | None:
        value = self.payload.get("schema")
        return value if isinstance(value, str) else None

    @property
    def is_answer(self) -> bool:
        return self.schema in ANSWER_SCHEMAS

    @property
    def when(self) -> datetime:
        """`recorded_at` as an aware UTC time."""
        return parse_time(self.recorded_at, where=f"audit record {self.sequence}")


def logged_records(
    log: AuditStore, start: int = 0, end: int | None = None, *, check: ReadCheck | None = None
) -> Iterator[LoggedRecord]:
    """Every good record with ``start <= sequence < end``, in log order, with its entry parsed
    once; damaged records are skipped (and added to ``check``: pass one to learn which)."""
    for record, fields in checked_records(log, check or ReadCheck(), start, end):
        yield LoggedRecord(
            sequence=record.sequence,
            request_id=record.request_id,
            record_hash=record.record_hash,
            recorded_at=str(fields["recorded_at"]),
            payload=fields["payload"],
        )


def parse_time(value: str, *, where: str) -> datetime:
    """An ISO 8601 time (``Z`` or an offset; a naive time is taken as UTC) as aware UTC."""
    moment = _parse_time(value) if isinstance(value, str) else None
    if moment is None:
        raise InputError(f"not an ISO 8601 time: {value!r}", where=where)
    return moment


@lru_cache(maxsize=4096)
def _parse_time(value: str) -> datetime | None:
    # Cached: the records of one transaction share their time, and evidence from one source
    # version shares its retrieval time, across thousands of records.
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
