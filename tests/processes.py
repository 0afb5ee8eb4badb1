"""What a running process holds, read from Linux's /proc: its children and the files and
sockets its descriptors are open on (the worker tests of `citeproof serve` and `citeproof
proxy` look at their workers this way)."""

from __future__ import annotations

import os
from pathlib import Path


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (for uvicorn's supervisor: its workers and, under the spawn
    start method, multiprocessing's resource tracker)."""
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def workers(pid: int) -> list[int]:
    """The worker processes of a supervisor ``pid``, not its resource tracker."""
    return [c for c in children(pid) if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]


def open_on(pid: int) -> list[str]:
    """What each of ``pid``'s descriptors is open on: a path, or ``socket:[inode]``."""
    targets = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            targets.append(os.readlink(fd))
        except OSError:
            continue  # closed since the listing
    return targets
