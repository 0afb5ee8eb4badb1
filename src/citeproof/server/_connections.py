"""What a connection may cost the service before it has sent a request: uvicorn's HTTP/1.1
protocol (h11) with a header deadline and a cap on connections per client address.

Plain uvicorn starts no timer until a request is in: a connection that sends nothing, or its
headers a byte at a time, stays open for ever, and its default concurrency limit counts such
connections, so a thousand idle sockets from one host turn every other client's request into
503. `GuardedH11Protocol` keeps what uvicorn does and adds, per worker process:

- **header deadline** (`Limits.header_seconds`): the request line and headers must be in within
  that many seconds of the connection opening or of the previous response ending (a keep-alive
  connection waiting for its next request); else the connection is closed. Sending headers one
  byte at a time does not restart it. Bodies have their own limit (`Limits.body_read_seconds`).
- **per-client cap** (`Limits.connections_per_client`): a client address holding that many open
  connections has a new one answered ``503`` with ``Connection: close`` at once, before anything
  is read, so a flood from one host is paid for by that host and never reaches the concurrency
  limit that every client shares.
- **even workers**: under ``--workers N``, a request that reaches a worker holding more than its
  share of the connections in use (those that have sent a request) is answered with
  ``Connection: close``, so the client's next connection lands afresh
  (citeproof.server._balance).

The listen backlog (the kernel's queue of connections not yet accepted) is bounded by
`Limits.accept_backlog`; see `citeproof.cli._serve`. A reverse proxy in front sees client
addresses the service cannot (all its connections come from the proxy): it must apply these
limits itself, per real client (docs/security.md).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import Counter
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.flow_control import CLOSE_HEADER
from uvicorn.protocols.http.h11_impl import H11Protocol

from citeproof.server._balance import this_worker
from citeproof.server._config import SETTINGS_ENV, Limits

REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 1\r\n"
    b"connection: close\r\n"
    b"content-length: 51\r\n\r\n"
    b"too many open connections from this client address\n"
)


def limits_from_env() -> Limits:
    """The service's limits as `citeproof serve` handed them to the workers (defaults when
    the protocol runs outside it)."""
    raw = os.environ.get(SETTINGS_ENV)
    if raw is None:
        return Limits()
    return Limits.from_json(json.loads(raw)["limits"])


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the header deadline and per-client cap of the module."""

    open_per_client: ClassVar[Counter[str]] = Counter()
    """Open connections per client address, in this worker process."""
    _limits: ClassVar[Limits | None] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if GuardedH11Protocol._limits is None:
            GuardedH11Protocol._limits = limits_from_env()
        limits = GuardedH11Protocol._limits
        self._header_seconds = limits.header_seconds
        self._per_client = limits.connections_per_client
        self._header_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        self._shares = this_worker()
        self._in_share = False
        self._leaving = False

    @classmethod
    def use_limits(cls, limits: Limits) -> None:
        """Guard this process's connections with ``limits`` (`citeproof proxy`, one process;
        `citeproof serve` hands its workers their limits in the environment instead)."""
        GuardedH11Protocol._limits = limits

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        if self.open_per_client[address] >= self._per_client:
            transport.write(REFUSED)
            transport.close()
            return
        self.open_per_client[address] += 1
        self._counted = address
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_in()
        if self._counted is not None:
            self.open_per_client[self._counted] -= 1
            if self.open_per_client[self._counted] <= 0:
                del self.open_per_client[self._counted]
            self._counted = None
        if self._shares is not None and self._in_share:
            self._shares.closed(leaving=self._leaving)
            self._in_share = False
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._counted is None:
            return  # refused: nothing it sends is read
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._headers_in()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is cycle or self._shares is None or self._leaving:
            return
        # A connection counts in the worker's share from its first request: one that never
        # sends a whole request (idle, or headers a byte at a time) costs no work to balance.
        if not self._in_share:
            self._in_share = True
            self._shares.opened()
        if self._shares.should_leave():  # a request arrived at a worker over its share
            self._leaving = True
            self.cycle.default_headers = [*self.cycle.default_headers, CLOSE_HEADER]

    def on_response_complete(self) -> None:
        self._await_headers()  # before: a pipelined request is handled inside
        super().on_response_complete()
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            self._headers_in()

    def _await_headers(self) -> None:
        self._headers_in()
        self._header_timer = self.loop.call_later(self._header_seconds, self._headers_late)

    def _headers_in(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()
