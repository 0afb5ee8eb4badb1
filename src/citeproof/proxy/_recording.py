"""Where proxied answers are recorded: the audit log, and the review app's answer index.

Every proxied answer that was verified is appended to the audit log (ADR 2's record: the
evidence, the validation, the request metadata), under citeproof's reproducible request id,
with the vendor's ids of the request and response in the metadata. With a service data folder
(``citeproof serve --data``), the answer is also indexed there, so the review app lists it for
the principal the proxy records under. The caller's credentials are never part of a record.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from citeproof.audit import GroupCommit, open_store
from citeproof.model import VerifiedAnswer
from citeproof.outcome import conclude
from citeproof.server import Service, ServiceConfig


class Recorder(Protocol):
    def record(self, verified: VerifiedAnswer, request: Mapping[str, Any]) -> str | None:
        """Record one answer with its request metadata; its request id (None: not kept)."""

    def close(self) -> None: ...


class NotRecorded:
    """No audit log was given: answers are verified, not kept."""

    def record(self, verified: VerifiedAnswer, request: Mapping[str, Any]) -> str | None:
        return None

    def close(self) -> None:
        pass


class AuditRecorder:
    """Appends to one audit log (a SQLite file or a ``postgresql://`` URL); concurrent
    answers share commits."""

    def __init__(self, target: str) -> None:
        self._store = open_store(target)
        self._lock = threading.Lock()
        self._appends = GroupCommit(self._store, self._lock)

    def record(self, verified: VerifiedAnswer, request: Mapping[str, Any]) -> str | None:
        return conclude(verified, request=request, log=self._appends).request_id

    def close(self) -> None:
        with self._lock:
            self._store.close()


class ReviewRecorder:
    """Records through the service of ``data`` (its audit log, ``audit`` if given, and its
    answer index), as ``principal``: the review app lists the answers for that principal."""

    def __init__(self, data: Path, audit: str | None, principal: str) -> None:
        self._service = Service(ServiceConfig(data=data, audit=audit))
        self.principal = principal

    def record(self, verified: VerifiedAnswer, request: Mapping[str, Any]) -> str | None:
        outcome = self._service.record(verified, self.principal, request, kind="proxy")
        return outcome.request_id

    def close(self) -> None:
        self._service.close()


def recorder_for(audit: str | None, data: Path | None, principal: str) -> Recorder:
    """The recorder the options name: the service's with ``data``, the log's with ``audit``,
    else none."""
    if data is not None:
        return ReviewRecorder(data, audit, principal)
    if audit is not None:
        return AuditRecorder(audit)
    return NotRecorded()
