"""Points where long work may stop, or give way, when whoever runs it says so.

A verification of thousands of claims runs for seconds. Whoever started it (the service,
answering a request under a deadline) may need it to stop once the caller has gone, or to let
another caller's work run for a while. It says so by running the work under `checked_by`;
the work calls `checkpoint` between its steps (between quotes, between claims), and the
check raises there to stop it, or blocks to let others run. Without a check, as in the
library, the CLI and a batch, a checkpoint costs one context-variable lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_CHECK: ContextVar[Callable[[], None] | None] = ContextVar("citeproof_check", default=None)


def checkpoint() -> None:
    """A point where the current work may stop (the check raises) or give way (it blocks)."""
    check = _CHECK.get()
    if check is not None:
        check()


@contextmanager
def checked_by(check: Callable[[], None]) -> Iterator[None]:
    """Run the body with ``check`` called at every `checkpoint` in this context."""
    token = _CHECK.set(check)
    try:
        yield
    finally:
        _CHECK.reset(token)
