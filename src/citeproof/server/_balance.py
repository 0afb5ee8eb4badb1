"""Keep-alive connections spread evenly over the workers of ``--workers N``.

The kernel hands each new connection to one worker's socket by a hash of its addresses
(citeproof.server._listen). Keep-alive clients open their connections once, so the split stays
where the hash put it: 32 clients of the service benchmark landed 21 and 11 on two workers, and
the worker holding 21 answered each of them at about twice the latency of the other.

Here the workers share a small table, one slot per worker, each holding that worker's count of
connections in use: open and past their first request (an idle connection, or one sending its
headers a byte at a time, costs no work; GuardedH11Protocol counts a connection at its first
request). A request that arrives at a worker holding more than its fair share (the workers'
connections divided among the live workers, rounded up) gets its response with
``Connection: close``: the client opens a new connection for its next request, and the kernel
places that one afresh. Each such decision counts against the worker at once, so it never sends
away more than its excess, and it decides again only once the connections it sent away have
had time to land (`SETTLE_SECONDS`); once the split is even, no connection is closed. HTTP/1.1
clients reconnect after ``Connection: close`` as a matter of course (RFC 9112, section 9.6):
the response is whole and nothing is retried.

A worker claims its slot with an advisory lock on the slot's byte of the table's file
(``fcntl.lockf``), which the kernel drops when the worker exits: a restarted worker takes the
slot of the one it replaces, and a slot whose lock another worker can take belongs to no
living worker and is not counted.
"""

from __future__ import annotations

import fcntl
import logging
import math
import mmap
import os
import struct
import tempfile
import time
from pathlib import Path

SLOTS = 64
"""Slots in a table: workers (with their restarts' overlap) of one server."""

SETTLE_SECONDS = 0.1
"""After a connection it sent away closes, how long a worker waits before sending another: a
client reconnects within milliseconds, and until it has, the open connections look fewer
than they are (the worker would send away more than its excess)."""

_EMPTY = -1
_FORMAT = f"{SLOTS}i"

_log = logging.getLogger("citeproof.server")


def create_table() -> Path:
    """A fresh table for one server's workers, every slot empty, in ``/dev/shm`` where the
    machine has it (memory, never written to disk). The caller removes it when the workers are
    done."""
    shm = Path("/dev/shm")
    folder = shm if shm.is_dir() and os.access(shm, os.W_OK) else None
    fd, name = tempfile.mkstemp(prefix="citeproof-workers-", dir=folder)
    try:
        os.write(fd, struct.pack(_FORMAT, *[_EMPTY] * SLOTS))
    finally:
        os.close(fd)
    return Path(name)


class ConnectionShares:
    """This worker's slot of a table (`create_table`), and its view of the others'."""

    def __init__(
        self, table: str | os.PathLike[str], *, settle_seconds: float = SETTLE_SECONDS
    ) -> None:
        self._settle_seconds = settle_seconds
        self._settle_until = 0.0
        self._fd = os.open(table, os.O_RDWR)
        try:
            self._map = mmap.mmap(self._fd, struct.calcsize(_FORMAT))
            self._counts = memoryview(self._map).cast("i")
            self.slot = self._claim(table)
        except BaseException:
            os.close(self._fd)
            raise
        self.open = 0
        self.leaving = 0
        self._counts[self.slot] = 0

    def _claim(self, table: str | os.PathLike[str]) -> int:
        for slot in range(SLOTS):
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, slot)
            except OSError:
                continue
            return slot
        raise OSError(f"every one of the {SLOTS} worker slots in {os.fspath(table)} is taken")

    def opened(self) -> None:
        """A connection came into use."""
        self.open += 1
        self._counts[self.slot] = self.open

    def closed(self, *, leaving: bool) -> None:
        """A connection in use closed; ``leaving``: one `should_leave` sent away."""
        self.open -= 1
        if leaving:
            self.leaving -= 1
            self._settle_until = time.monotonic() + self._settle_seconds
        self._counts[self.slot] = self.open

    def should_leave(self) -> bool:
        """Whether the connection whose request just arrived should close after its response:
        True while this worker holds more than its fair share of the connections in use (it is
        then counted as leaving)."""
        if time.monotonic() < self._settle_until:
            return False
        staying = self.open - self.leaving
        counts = self._counts.tolist()
        while True:
            live = [(count, slot) for slot, count in enumerate(counts) if count >= 0]
            total = sum(count for count, _ in live)  # this worker's own slot included
            fair = math.ceil(total / len(live))
            if staying <= fair:
                return False
            # The least loaded other worker must be alive: a dead one's count is stale.
            fewest = min((c, s) for c, s in live if s != self.slot)[1]
            if self._alive(fewest):
                self.leaving += 1
                return True
            counts[fewest] = _EMPTY

    def _alive(self, slot: int) -> bool:
        """Whether a living process holds ``slot`` (never this worker's own)."""
        try:
            fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, slot)
        except OSError:
            return True
        self._counts[slot] = _EMPTY  # before the lock goes: a new worker's claim comes after
        fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, slot)
        return False

    def close(self) -> None:
        """Give up the slot (a worker exiting gives it up without this)."""
        self._counts[self.slot] = _EMPTY
        self._counts.release()
        self._map.close()
        os.close(self._fd)  # drops the slot's lock


_joined: ConnectionShares | None = None


def join(table: str) -> None:
    """Balance this worker process's connections with the other workers of ``table``; a table
    that cannot be opened leaves the worker serving, unbalanced, with a warning."""
    global _joined
    try:
        _joined = ConnectionShares(table)
    except OSError as error:
        _log.warning("connections will not be balanced over the workers: %s", error)


def this_worker() -> ConnectionShares | None:
    """This process's slot, when it is one of several workers (`join`)."""
    return _joined
