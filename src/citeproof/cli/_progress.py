"""What a long command says while it works, on standard error: the stage it is in with the
time spent so far, then one line per finished stage (the model's start, the answer's tokens
and their rate). Nothing is printed to standard output, which holds the result."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console

from citeproof.providers import Generation
from citeproof.render import plural, visible


@contextmanager
def stage(console: Console, doing: str, done: str) -> Iterator[None]:
    """A spinner saying ``doing`` (with the seconds so far) while the block runs, then the
    line ``done (N.N s)``; on an error the spinner just stops (the error says why)."""
    started = time.perf_counter()
    with console.status(visible(doing), spinner="dots"):
        yield
    console.print(visible(f"{done} ({time.perf_counter() - started:.1f} s)"))


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
