"""How many bytes of upstream answers the proxy holds at once, across all its requests.

A non-streamed answer is read whole before it is verified (up to 50 MB); a stream holds its
partial event and what it keeps of the answer to verify it (its text, an Anthropic block
whose citations came before its text, the events held for correction). Each request takes
its share of one `BufferBudget` as its buffer grows (`Held.resize`) and gives it back when
its reply has been sent (`Held.release`). A request whose answer would take the proxy past
the budget is refused (`OverBudget`) instead of buffered: ``retry`` when other requests hold
the budget now, not when the one answer is larger than the whole budget. A stream past it
stops verifying and lets go of what it kept; its events still pass, and only an event too
large for the budget by itself cuts it. Each worker process has a budget of its own.

The budget counts the answer's bytes as they came; parsing and verifying them holds a few
times as much for a while, so the process's peak is a small multiple of the budget.
"""

from __future__ import annotations

BUFFER_BYTES = 100_000_000
"""The default budget: two of the largest non-streamed answers read at once."""


class OverBudget(Exception):
    """An answer that would take the proxy past its buffer budget; ``retry``: it fits once
    other requests are done."""

    def __init__(self, message: str, *, retry: bool) -> None:
        super().__init__(message)
        self.retry = retry


class BufferBudget:
    """The bytes all in-flight requests of this process may hold (used from the event loop
    only: nothing here waits, so no lock is needed)."""

    def __init__(self, total: int = BUFFER_BYTES) -> None:
        if total <= 0:
            raise ValueError(f"the buffer budget must be positive, got {total}")
        self.total = total
        self.held = 0

    def hold(self) -> Held:
        """A new request's share, empty until it grows."""
        return Held(self)


class Held:
    """One request's share of a `BufferBudget`."""

    def __init__(self, budget: BufferBudget) -> None:
        self._budget = budget
        self.size = 0

    @property
    def total(self) -> int:
        """The whole budget this share is drawn from."""
        return self._budget.total

    def resize(self, size: int) -> None:
        """The request now holds ``size`` bytes. Raises `OverBudget` (holding what it held)
        when that is more than the whole budget, or more than the others leave."""
        budget = self._budget
        more = size - self.size
        if more > 0 and size > budget.total:
            raise OverBudget(
                f"the upstream's answer is over the proxy's buffer budget of {budget.total:,} "
                "bytes",
                retry=False,
            )
        if more > 0 and budget.held + more > budget.total:
            raise OverBudget(
                f"the proxy's buffer budget of {budget.total:,} bytes for upstream answers is "
                "held by other requests; retry shortly",
                retry=True,
            )
        budget.held += more
        self.size = size

    def release(self) -> None:
        """Give the share back (again: nothing happens)."""
        self._budget.held -= self.size
        self.size = 0
