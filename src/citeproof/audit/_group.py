"""Group commit: appends from many threads share one transaction, and so one fsync.

A durable append waits for the disk (``synchronous=FULL``: one fsync per commit, 10-20 ms on
the development machine), and the log takes one writer at a time, so appends committed one by
one cap a busy service at a few dozen records a second however many threads serve it.
`GroupCommit` queues concurrent appends; whichever caller finds no commit running takes every
record queued so far and writes them with `AuditStore.append_prepared` (one transaction, in
arrival order), then hands over to the next caller still waiting. Each caller returns only
once its own record is durably committed, exactly as with `AuditStore.append`.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from citeproof.audit._record import AppendedRecord, PreparedRecord, prepare_record
from citeproof.audit._store import AuditStore


@dataclass(slots=True)
class _Pending:
    record: PreparedRecord
    texts: Mapping[str, str] | None
    done: bool = False
    result: AppendedRecord | None = None
    error: BaseException | None = field(default=None)


class GroupCommit:
    """`append` for many threads over one `AuditStore` (see the module docstring).

    ``connection`` is held around each commit: give the lock that also guards the store's
    readers when they share its connection. A record that cannot be logged fails its own append
    only; a failed commit (the database refused it) fails every append in it, since they were
    one transaction and none of them is stored; the next commit starts afresh.
    """

    def __init__(
        self, store: AuditStore, connection: AbstractContextManager[Any] | None = None
    ) -> None:
        self.store = store
        self._connection = connection if connection is not None else nullcontext()
        self._turn = threading.Condition()
        self._queue: list[_Pending] = []
        self._committing = False

    def append(
        self,
        payload: Mapping[str, Any],
        request_id: str | None = None,
        *,
        texts: Mapping[str, str] | None = None,
    ) -> AppendedRecord:
        """Append one record with the texts it names (`AuditStore.append`); returns once it is
        durably committed (with others, maybe). The record is checked and encoded in the
        caller's thread: a bad one fails alone."""
        mine = _Pending(prepare_record(payload, request_id), texts)
        with self._turn:
            self._queue.append(mine)
            while self._committing and not mine.done:
                self._turn.wait()
            if not mine.done:
                self._committing = True
                batch, self._queue = self._queue, []
        if not mine.done:
            self._commit(batch)
        if mine.error is not None:
            raise mine.error
        assert mine.result is not None
        return mine.result

    def _commit(self, batch: list[_Pending]) -> None:
        results: list[AppendedRecord] = []
        error: BaseException | None = None
        try:
            with self._connection:
                texts = {k: v for p in batch if p.texts for k, v in p.texts.items()}
                results = self.store.append_prepared([p.record for p in batch], texts)
        except BaseException as exc:  # every append of the batch reports it
            error = exc
        with self._turn:
            for position, pending in enumerate(batch):
                pending.done = True
                if error is not None:
                    pending.error = error
                else:
                    pending.result = results[position]
            self._committing = False
            self._turn.notify_all()
