"""What a long command says while it works, on standard error: the stage it is in with the
time spent so far, then one line per finished stage (the model's start, the answer's tokens
and their rate). Nothing is printed to standard output, which holds the result."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console

from citeproof.providers import Generation, Progress
from citeproof.render import plural, visible


class _Doing:
    """What the spinner says: the stage, how far it has got (`say`), the seconds so far."""

    def __init__(self, doing: str) -> None:
        self.doing = doing
        self.detail = ""
        self.started = time.perf_counter()

    def say(self, detail: str) -> None:
        self.detail = detail

    def __rich__(self) -> str:
        detail = f" {self.detail}" if self.detail else ""
        return visible(f"{self.doing}{detail} ({time.perf_counter() - self.started:.0f} s)")


@contextmanager
def stage(console: Console, doing: str, done: str) -> Iterator[Callable[[str], None]]:
    """A spinner saying ``doing`` with the seconds so far while the block runs, then the
    line ``done (N.N s)``; on an error the spinner just stops (the error says why). The block
    gets a function that tells the spinner how far it has got."""
    shown = _Doing(doing)
    with console.status(shown, spinner="dots"):
        yield shown.say
    console.print(visible(f"{done} ({time.perf_counter() - shown.started:.1f} s)"))


def model_progress(progress: Progress) -> str:
    """``(the model has read 912 prompt tokens and written 43; it may take 260 s)``."""
    return (
        f"(the model has read {plural(progress.read, 'prompt token')} and written "
        f"{progress.written:,}; it may take {progress.budget:.0f} s)"
    )


def generation_line(generation: Generation) -> str:
    """``model: 912 prompt tokens read, 143 tokens written in 41.2 s (3.5 tokens/s)``."""
    usage = generation.usage
    parts = []
    if usage.prompt_tokens is not None:
        parts.append(f"{plural(usage.prompt_tokens, 'prompt token')} read")
    written = usage.completion_tokens
    if written is not None:
        rate = f" ({written / generation.seconds:.1f} tokens/s)" if generation.seconds > 0 else ""
        parts.append(f"{plural(written, 'token')} written in {generation.seconds:.1f} s{rate}")
    else:
        parts.append(f"answered in {generation.seconds:.1f} s")
    return f"model {generation.model}: " + ", ".join(parts)
