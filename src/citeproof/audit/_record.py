"""What an audit record is: canonical JSON of a caller's payload, sealed into the chain.

A record's *entry* is the RFC 8785 canonical JSON (UTF-8) of::

    {"format": "citeproof-audit/1", "sequence": n, "request_id": "...",
     "recorded_at": "2024-01-01T00:00:00.000000Z", "previous_hash": "<hex>", "payload": {...}}

The entry bytes are what is stored, hashed into the chain (`chain.record_hash`) and used as the
Merkle leaf (`merkle.leaf_hash`). Everything the caller wants audited - the full response,
original and corrected, the evidence bundle, request metadata, eligibility, verdicts and
corrections, live-value payloads, rule decisions - goes into `payload` as a JSON object.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from citeproof.audit._chain import record_hash
from citeproof.canonical import canonical_json
from citeproof.errors import AuditRecordError

RECORD_FORMAT = "citeproof-audit/1"
MAX_REQUEST_ID_LENGTH = 200


def request_id_for(request: Mapping[str, Any]) -> str:
    """A reproducible request id: the same request metadata always gives the same id.

    It is ``"req-"`` followed by the first 32 hex digits of SHA-256 over the canonical JSON of
    `request`.
    """
    return "req-" + hashlib.sha256(canonical_json(dict(request))).hexdigest()[:32]


def check_request_id(request_id: str) -> str:
    """Return `request_id` when it can be logged, else raise `AuditRecordError`."""
    if not isinstance(request_id, str) or not request_id:
        raise AuditRecordError("request id must be a non-empty string")
    if len(request_id) > MAX_REQUEST_ID_LENGTH:
        raise AuditRecordError(f"request id is longer than {MAX_REQUEST_ID_LENGTH} characters")
    if not request_id.isprintable() or any(c.isspace() for c in request_id):
        raise AuditRecordError(f"request id {request_id!r} contains whitespace or control chars")
    return request_id


def utc_timestamp(moment: datetime | None = None) -> str:
    """RFC 3339 UTC timestamp with microseconds, e.g. ``2024-05-01T12:00:00.000001Z``."""
    moment = moment or datetime.now(UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def payload_json(payload: Mapping[str, Any]) -> bytes:
    """Canonical JSON of a payload, checked to be a JSON object; done before taking the lock."""
    if not isinstance(payload, Mapping):
        raise AuditRecordError(f"payload must be a JSON object, not {type(payload).__name__}")
    return canonical_json(dict(payload))


PreparedRecord = tuple[bytes, str]
"""A record ready to append: its payload's canonical JSON and its checked request id."""


def prepare_record(payload: Mapping[str, Any], request_id: str | None = None) -> PreparedRecord:
    """Check and encode one record before any lock is taken (see `AuditStore.append` for
    ``request_id``); raises `AuditRecordError` naming what is wrong."""
    body = payload_json(payload)
    if request_id is None:
        request = payload.get("request", payload)
        if not isinstance(request, Mapping):
            raise AuditRecordError("payload['request'] must be a JSON object")
        request_id = request_id_for(request)
    return body, check_request_id(request_id)


def build_entry(
    payload: bytes,
    *,
    request_id: str,
    sequence: int,
    previous_hash: str,
    recorded_at: str,
) -> bytes:
    """The canonical JSON entry of one record (see the module docstring for its shape).

    `payload` is the output of `payload_json`. The entry is assembled around it in RFC 8785 key
    order, so it equals `canonical_json` of the whole record without re-encoding the payload.
    """
    return b"".join(
        (
            b'{"format":',
            canonical_json(RECORD_FORMAT),
            b',"payload":',
            payload,
            b',"previous_hash":',
            canonical_json(previous_hash),
            b',"recorded_at":',
            canonical_json(recorded_at),
            b',"request_id":',
            canonical_json(check_request_id(request_id)),
            b',"sequence":',
            canonical_json(sequence),
            b"}",
        )
    )


def parse_entry(entry: bytes) -> dict[str, Any]:
    """The fields of a stored entry; raises `AuditRecordError` when it is not a record."""
    try:
        fields = json.loads(entry)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AuditRecordError(f"entry is not JSON: {exc}") from exc
    except RecursionError:
        raise AuditRecordError("entry is nested too deeply to read") from None
    if not isinstance(fields, dict) or fields.get("format") != RECORD_FORMAT:
        raise AuditRecordError(f"entry is not a {RECORD_FORMAT} record")
    expected = {
        "sequence": int,
        "request_id": str,
        "recorded_at": str,
        "previous_hash": str,
        "payload": dict,
    }
    for name, kind in expected.items():
        value = fields.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise AuditRecordError(f"entry field {name!r} is missing or not {kind.__name__}")
    return fields


_CHAIN_TAIL = re.compile(
    rb',"previous_hash":"([0-9a-f]{64})","recorded_at":"[^"\\]*",'
    rb'"request_id":"(?:[^"\\]|\\.)*","sequence":(0|[1-9][0-9]{0,17})\}\Z'
)
"""The end of an entry as `build_entry` writes it: the fields after the payload. None of them
can hold an unescaped quote, so a match at the very end is the entry's own fields, never text
inside the payload."""


def chain_link(entry: bytes) -> tuple[str, int]:
    """An entry's ``previous_hash`` and ``sequence``, read from its last bytes when the entry
    ends as `build_entry` writes it (a long payload is then not parsed), else from
    `parse_entry`; raises `AuditRecordError` for what is not a record."""
    if entry.startswith(b'{"format":"' + RECORD_FORMAT.encode() + b'","payload":{'):
        tail = _CHAIN_TAIL.search(entry, max(0, len(entry) - 4096))
        if tail is not None:
            return tail.group(1).decode(), int(tail.group(2))
    fields = parse_entry(entry)
    return str(fields["previous_hash"]), int(fields["sequence"])


@dataclass(frozen=True, slots=True)
class AppendedRecord:
    """What `append` acknowledges: once returned, the record is durably committed."""

    sequence: int
    """Position in the log, from 0, contiguous."""
    request_id: str
    record_hash: str
    """Hex SHA-256 of the entry; the next record's ``previous_hash``."""
    recorded_at: str


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One stored record as read back: the stored columns and the exact entry bytes.

    `sequence`, `request_id` and `record_hash` are the stored columns; the other properties
    are parsed from `entry` (and raise `AuditRecordError` if the entry was damaged).
    """

    sequence: int
    request_id: str
    record_hash: str
    entry: bytes

    @property
    def fields(self) -> dict[str, Any]:
        return parse_entry(self.entry)

    @property
    def intact(self) -> bool:
        """Whether the entry hashes to the stored hash (its chain is `verify_log`'s to check)."""
        return record_hash(self.entry) == self.record_hash

    @property
    def payload(self) -> dict[str, Any]:
        """The caller's payload, exactly as logged (JSON types: dict, list, str, int...)."""
        payload: dict[str, Any] = self.fields["payload"]
        return payload

    @property
    def recorded_at(self) -> str:
        return str(self.fields["recorded_at"])

    @property
    def previous_hash(self) -> str:
        return str(self.fields["previous_hash"])

    def to_json(self) -> dict[str, Any]:
        """The record for `citeproof audit show`: entry fields plus the stored record hash."""
        return {**self.fields, "record_hash": self.record_hash}


class AppendsRecords(Protocol):
    """What writes one record: an `AuditStore`, or a `GroupCommit` over one."""

    def append(
        self,
        payload: Mapping[str, Any],
        request_id: str | None = None,
        *,
        texts: Mapping[str, str] | None = None,
    ) -> AppendedRecord: ...
