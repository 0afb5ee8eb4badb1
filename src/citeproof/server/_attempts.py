"""Work a request runs in a thread, and what happens to it when the caller stops waiting.

A request past its deadline is answered 503 at once (the client may retry); its thread cannot
be killed, so the work is told instead. An `Attempt` is in one of three states: running,
committing (it is writing its audit record: the caller gets that result, however late), or
abandoned (the caller was answered 503: the work stops at its next check and never writes a
record, so a retry does not leave two). Going from running to either of the others is one
decision under a lock: the record is written only when the caller will get the answer.

The work's checks are `citeproof.stopping` checkpoints: verification passes one between
quotes and between claims, so abandoned work stops within one step. Work abandoned before
its thread began never begins. `AbandonedWork` counts the abandoned threads still running
(each counted once when abandoned and once when it ends, on every path); once there are
``most`` of them a new request is answered 503 without starting, so they stay bounded, and a
worker that stays so past a grace period is not live (``/healthz`` fails, so it is
restarted).

Work in a `FairLane` (the verify lane) waits for its principal's turn in its thread, and
gives way to other principals at its checkpoints.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any, Generic, TypeVar

from citeproof.audit import AppendedRecord, AppendsRecords
from citeproof.server._lanes import FairLane
from citeproof.stopping import checked_by

T = TypeVar("T")

_CURRENT: ContextVar[Attempt[Any] | None] = ContextVar("citeproof_attempt", default=None)


class Abandoned(Exception):
    """The caller was answered already: the work stops here and records nothing."""


class AbandonedWork:
    """How many abandoned attempts are still running in this process."""

    def __init__(self, most: int, on_change: Callable[[int], None] | None = None) -> None:
        self.most = most
        self._running = 0
        self._full_since: float | None = None
        self._lock = threading.Lock()
        self._on_change = on_change

    @property
    def running(self) -> int:
        return self._running

    @property
    def full(self) -> bool:
        return self._running >= self.most

    def full_for(self) -> float:
        """Seconds since the count last reached ``most`` and stayed there (0 when not full)."""
        since = self._full_since
        return 0.0 if since is None else time.monotonic() - since

    def started(self) -> None:
        self._change(+1)

    def finished(self) -> None:
        self._change(-1)

    def _change(self, step: int) -> None:
        with self._lock:
            self._running += step
            if self._running < self.most:
                self._full_since = None
            elif self._full_since is None:
                self._full_since = time.monotonic()
        if self._on_change is not None:
            self._on_change(step)


class Attempt(Generic[T]):
    """One request's work in a thread (see the module docstring)."""

    def __init__(self, abandoned: AbandonedWork) -> None:
        self._abandoned = abandoned
        self._lock = threading.Lock()
        self._state = "running"
        self._began = False
        self._ended = False
        self.done = threading.Event()
        self._result: T | None = None
        self._error: BaseException | None = None

    def run(self, work: Callable[[], T], *, lane: tuple[FairLane, str] | None = None) -> T:
        """Run ``work`` in this thread as this attempt (what `current` returns inside it),
        checked at its checkpoints; with ``lane`` (the lane and the principal), in its turn
        there. Raises `Abandoned` at once when the caller stopped waiting before it began."""
        with self._lock:
            if self._state == "abandoned":
                self.done.set()
                raise Abandoned
            self._began = True
        token = _CURRENT.set(self)
        try:
            if lane is None:
                with checked_by(self.check):
                    self._result = work()
            else:
                fair, principal = lane
                with fair.turn(principal, self.check) as turn:

                    def check_and_give_way() -> None:
                        self.check()
                        fair.give_way(turn, self.check)

                    with checked_by(check_and_give_way):
                        self._result = work()
            return self._result
        except BaseException as error:
            self._error = error
            raise
        finally:
            _CURRENT.reset(token)
            with self._lock:
                abandoned = self._state == "abandoned"
                self._ended = True
            self.done.set()
            if abandoned:
                self._abandoned.finished()

    def check(self) -> None:
        """Raise `Abandoned` when the caller stopped waiting (a point where work may stop)."""
        if self._state == "abandoned":
            raise Abandoned

    def commit(self) -> None:
        """Claim the right to write the record: `Abandoned` when the caller stopped waiting;
        afterwards the caller waits for this work to end and gets its result."""
        with self._lock:
            if self._state == "abandoned":
                raise Abandoned
            self._state = "committing"

    def abandon(self) -> bool:
        """Give up on the work (the caller will be answered 503); False when it is writing its
        record already, and the caller must wait for it (`outcome`). Work whose thread is
        running is counted abandoned until it ends; work that never began never will."""
        with self._lock:
            if self._state == "committing":
                return False
            if self._state == "abandoned":
                return True
            self._state = "abandoned"
            if self._began and not self._ended:  # its end is counted after this
                self._abandoned.started()
        return True

    def outcome(self) -> T:
        """What the finished work returned (or raised)."""
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]


def current() -> Attempt[Any] | None:
    """The attempt the calling thread runs as, if any (None in the batch runner, the CLI)."""
    return _CURRENT.get()


def check() -> None:
    """`Attempt.check` of the current attempt, if any."""
    attempt = current()
    if attempt is not None:
        attempt.check()


class CommitOnce:
    """An audit log for `conclude` that writes only when the current attempt may commit."""

    def __init__(self, log: AppendsRecords, attempt: Attempt[Any]) -> None:
        self._log = log
        self._attempt = attempt

    def append(
        self,
        payload: Mapping[str, Any],
        request_id: str | None = None,
        *,
        texts: Mapping[str, str] | None = None,
    ) -> AppendedRecord:
        self._attempt.commit()
        return self._log.append(payload, request_id, texts=texts)
