"""The verify lane: one verification at a time in a worker process, shared between principals
in turn.

Verification is CPU under one interpreter lock, so a worker runs one at a time (two side by
side only take the lock from each other). Arrival order is not fair: one principal's heavy
answers would keep every other principal waiting for seconds. So each principal has a queue,
and the lane goes round them: when it is free, the next principal in turn that waits gets it.
And a verification gives way: at each of its checkpoints (`citeproof.stopping`: between
quotes, between claims) where another principal waits, it puts itself back at the head of its
own principal's queue and lets the next principal run one step. A principal's heavy work
then delays only that principal; another's one-quote answer waits one step of it, not all.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

POLL_SECONDS = 0.1
"""How often a waiting thread runs its check (so work abandoned while it waits ends)."""


class Turn:
    """One piece of work's place in the lane."""

    def __init__(self, principal: str) -> None:
        self.principal = principal


class FairLane:
    """One holder at a time; waiters served a principal at a time, in rotation."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._holder: Turn | None = None
        self._queues: dict[str, deque[Turn]] = {}
        self._rotation: deque[str] = deque()
        self._served: str | None = None

    @property
    def waiting(self) -> int:
        """How many pieces of work wait for the lane."""
        with self._changed:
            return sum(len(queue) for queue in self._queues.values())

    @contextmanager
    def turn(self, principal: str, check: Callable[[], None]) -> Iterator[Turn]:
        """Hold the lane for the body, after waiting for this principal's turn. ``check``
        runs while waiting: what it raises ends the wait (and leaves the queue)."""
        turn = Turn(principal)
        self._wait(turn, check, front=False)
        try:
            yield turn
        finally:
            with self._changed:  # it may have left while waiting to come back (`give_way`)
                self._leave(turn)

    def give_way(self, turn: Turn, check: Callable[[], None]) -> None:
        """At a checkpoint of the holder's work: when another principal waits, let it have
        the lane first, and come back at the head of this principal's queue."""
        with self._changed:
            if self._holder is not turn or not any(p != turn.principal for p in self._rotation):
                return
            self._holder = None
            self._enqueue(turn, front=True)
            self._grant()
        self._wait(turn, check, front=True, queued=True)

    def _wait(
        self, turn: Turn, check: Callable[[], None], *, front: bool, queued: bool = False
    ) -> None:
        with self._changed:
            if not queued:
                self._enqueue(turn, front=front)
                self._grant()
            while self._holder is not turn:
                try:
                    check()
                except BaseException:
                    self._leave(turn)
                    raise
                self._changed.wait(POLL_SECONDS)

    def _enqueue(self, turn: Turn, *, front: bool) -> None:
        queue = self._queues.setdefault(turn.principal, deque())
        if front:
            queue.appendleft(turn)
        else:
            queue.append(turn)
        if turn.principal not in self._rotation:
            self._rotation.append(turn.principal)

    def _leave(self, turn: Turn) -> None:
        """``turn`` stops waiting (with the lock held)."""
        if self._holder is turn:  # granted in the meantime: pass it on
            self._holder = None
        else:
            queue = self._queues.get(turn.principal)
            if queue is not None and turn in queue:
                queue.remove(turn)
                if not queue:
                    del self._queues[turn.principal]
                    self._rotation.remove(turn.principal)
        self._grant()

    def _grant(self) -> None:
        """Give a free lane to the next principal in rotation (with the lock held)."""
        if self._holder is not None or not self._rotation:
            return
        if len(self._rotation) > 1 and self._rotation[0] == self._served:
            self._rotation.rotate(-1)  # the principal served last waits behind the others
        principal = self._rotation.popleft()
        self._served = principal
        queue = self._queues[principal]
        self._holder = queue.popleft()
        if queue:
            self._rotation.append(principal)
        else:
            del self._queues[principal]
        self._changed.notify_all()
