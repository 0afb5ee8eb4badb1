"""Listening sockets for ``citeproof serve --workers N``: one per worker, balanced by the kernel.

uvicorn's multi-worker mode binds one socket in the parent and hands it to every worker. Two
things go wrong with that on Linux, both measured with 32 keep-alive clients on two workers:
- the workers race to ``accept`` on the one queue, and the first to wake takes every pending
  connection: one worker served all 32 clients while the other sat idle;
- the parent's socket is made without ``IPPROTO_TCP``, so asyncio does not set ``TCP_NODELAY``
  on the connections it accepts, and every keep-alive request after the first waits about
  40 ms for the client's delayed ACK (``GET /healthz``: 9 ms p50 on one worker, 44 ms on two).

Here each worker binds its own TCP socket to the same address with ``SO_REUSEPORT``: the kernel
spreads new connections over the workers' queues by hashing their addresses, and accepted
connections get ``TCP_NODELAY``. The parent binds first (resolving port 0, failing at once when
the address is taken) and keeps that socket, bound but not listening, so the address stays
reserved while workers restart. The socket a worker listens on is made in the worker, when
uvicorn's supervisor hands the worker its sockets: `WorkerListener` is what the parent hands over,
and unpickling it in the worker binds the worker's own socket and joins the table that keeps
the workers' keep-alive connections even (citeproof.server._balance).
"""

from __future__ import annotations

import socket
import sys
from dataclasses import dataclass

from citeproof.server._balance import join

BALANCED = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
"""Whether the kernel balances connections over ``SO_REUSEPORT`` sockets (Linux only: macOS and
the BSDs accept the option but send every connection to one socket)."""


def bind_reuse_port(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``(host, port)`` with ``SO_REUSEPORT`` (and ``SO_REUSEADDR``), not
    yet listening. Raises `OSError` when the address cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock  # not inheritable: a process a worker starts must not hold its listener


def _worker_socket(host: str, port: int, table: str | None) -> socket.socket:
    sock = bind_reuse_port(host, port)
    if table is not None:
        join(table)
    return sock


@dataclass(frozen=True)
class WorkerListener:
    """What the supervisor hands each worker in place of a socket: unpickled in the worker, it
    becomes that worker's own socket on ``(host, port)``, its connections balanced with the
    other workers' over ``table`` (`citeproof.server.create_table`) when there is one."""

    host: str
    port: int
    table: str | None = None

    def __reduce__(self) -> tuple[object, tuple[str, int, str | None]]:
        return _worker_socket, (self.host, self.port, self.table)


def reserve(host: str, port: int, table: str | None = None) -> tuple[socket.socket, WorkerListener]:
    """Bind the parent's socket (resolving port 0 to a free port) and say where the workers
    listen, and over which table they balance their connections. The caller keeps the socket
    open for as long as the workers run."""
    held = bind_reuse_port(host, port)
    return held, WorkerListener(host, int(held.getsockname()[1]), table)
