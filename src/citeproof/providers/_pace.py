"""How long a model on this machine may take: scaled to the work, and alive while it moves.

A fixed timeout in seconds is wrong for a model running on the user's own cores: the same
answer takes 40 s on an idle laptop and three minutes while the machine builds something
(`citeproof ask` gave up at 119.8 s at load 10). So the embedded model's answer is streamed,
and its budget follows the work it was given and the progress it makes:

- it has ``start_seconds`` plus the time to read the prompt at `Pace.read_floor` tokens a
  second for its first token (reading is all it does until then);
- then it must write each next token within ``1 / write_floor`` seconds of the last, and the
  whole answer within the time for ``max_tokens`` at that rate.

The floors are far below what the smallest machine citeproof runs on reads and writes when
busy: a model that falls under them has stalled. While it works, `report_progress` gives
whoever listens (the CLI's spinner) the tokens read and written so far.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

CHARS_PER_TOKEN = 3.0
"""Characters a prompt token stands for, rounded down (so the estimate errs long)."""


@dataclass(frozen=True)
class Progress:
    """How far a model call has got: prompt tokens read (estimated until the model says),
    tokens written, seconds so far, and the seconds it may take at most at this point."""

    read: int
    written: int
    seconds: float
    budget: float


@dataclass(frozen=True)
class Pace:
    """The slowest reading and writing still taken as progress (tokens a second)."""

    read_floor: float = 10.0
    write_floor: float = 0.5
    start_seconds: float = 30.0

    def first_token_seconds(self, prompt_tokens: int) -> float:
        """The most the model may take to read ``prompt_tokens`` and write its first token."""
        return self.start_seconds + prompt_tokens / self.read_floor

    @property
    def token_seconds(self) -> float:
        """The most the model may take for each next token."""
        return 1.0 / self.write_floor

    def total_seconds(self, prompt_tokens: int, max_tokens: int) -> float:
        """The most the whole answer may take."""
        return self.first_token_seconds(prompt_tokens) + max_tokens * self.token_seconds


def estimated_tokens(texts: Iterator[str] | list[str]) -> int:
    """The prompt tokens of ``texts``, estimated from their length (erring long)."""
    return int(sum(len(text) for text in texts) / CHARS_PER_TOKEN) + 16


_LISTENER: ContextVar[Callable[[Progress], None] | None] = ContextVar(
    "citeproof_model_progress", default=None
)


@contextmanager
def progress_to(listener: Callable[[Progress], None]) -> Iterator[None]:
    """Call ``listener`` with each `Progress` of the model calls made in the body."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def report_progress(progress: Progress) -> None:
    """Tell the current listener, if any, how far the model call has got."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(progress)
