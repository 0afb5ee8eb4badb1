"""How many sockets listen on a port: when a server with several workers has fully started.

On Linux each worker of ``citeproof serve --workers N`` (and of the proxy) listens on a socket
of its own (SO_REUSEPORT), and the first answers ``/healthz`` before the others listen:
connections opened then all go to it, so a benchmark's load or a test of how connections
spread would see one worker only. The tests and the benchmarks wait for this count.
"""

from __future__ import annotations

from pathlib import Path


def listening_sockets(port: int) -> int:
    """How many sockets listen on loopback ``port``, from the kernel's TCP tables
    (``/proc/net/tcp`` and ``tcp6``; 0 where there are none, as off Linux)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            _, local, _, state = row.split()[:4]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                count += 1
    return count
