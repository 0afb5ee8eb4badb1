"""What one service instance is configured with: where its data lives and its limits."""

from __future__ import annotations

import ipaddress
import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from citeproof import environment
from citeproof.errors import InputError

SETTINGS_ENV = environment.SERVE_CONFIG.name
"""The environment variable `citeproof serve` hands its configuration to workers in."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The service's limits. Every one is checked at the edge and answered with a problem
    naming the field it concerns."""

    body_bytes: int = 2_000_000
    """Largest JSON request body (``/v1/verify``, ``/v1/ask``), counted while it is read."""
    upload_bytes: int = 20_000_000
    """Largest upload body (``/v1/sources``, ``/v1/batches``)."""
    answer_chars: int = 100_000
    source_chars: int = 1_000_000
    sources_per_answer: int = 100
    quotes_per_answer: int = 200
    question_chars: int = 4_000
    rate_per_minute: int = 600
    """Requests per principal per minute (a token bucket in the service database: shared by
    every worker, and by every host of one PostgreSQL)."""
    rate_burst: int = 120
    deadline_seconds: float = 30.0
    """A request still unanswered after this is answered 503; the client is free again."""
    body_read_seconds: float = 10.0
    """Longest wait for the next chunk of a request body (a slow client is cut off)."""
    body_seconds: float = 60.0
    """Longest time to receive a whole request body, however it trickles in (one byte every
    few seconds is cut off here). Raise it for large uploads over slow links."""
    header_seconds: float = 10.0
    """Time a connection has to send a request's line and headers, from when it opens or its
    previous response ended; then it is closed (idle and slowloris connections)."""
    connections_per_client: int = 64
    """Open connections one client address may hold per worker process; more are answered
    503 at once. Behind a reverse proxy every connection is the proxy's: raise this there."""
    accept_backlog: int = 512
    """Connections the kernel queues before the service accepts them; more are refused."""
    concurrency: int = 1000
    """Open connections per worker process before new requests are answered 503."""
    batch_lines: int = 10_000
    checkpoint_seconds: float = 10.0
    """Longest time a logged record waits for a signed checkpoint (one is also signed after
    every 100th record): records dropped from the end of the log after it are detected."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, *, where: str = "limits") -> Limits:
        """Limits from a JSON object of any of the fields; the rest keep their defaults.
        Raises `InputError` naming an unknown field or a value that is not a positive
        number."""
        if not isinstance(data, dict):
            raise InputError("expected a JSON object of limits", where=where)
        known = {f.name: f.type for f in fields(cls)}
        for name, value in data.items():
            if name not in known:
                raise InputError(
                    f"unknown limit; expected one of {', '.join(known)}", where=where, field=name
                )
            wanted = float if known[name] in (float, "float") else int
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise InputError("must be a positive number", where=where, field=name)
            if wanted is int and not isinstance(value, int):
                raise InputError("must be a whole number", where=where, field=name)
        return cls(**data)

    @classmethod
    def from_file(cls, path: Path) -> Limits:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise InputError(f"cannot read the limits: {error}", where=str(path)) from None
        return cls.from_json(data, where=str(path))


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """Where the service keeps things, and how it behaves.

    ``data`` holds the service's own database (tokens, batches, the answer index) and, by
    default, the SQLite source store and audit log; ``store``/``audit`` name others (``audit``
    may be a ``postgresql://`` URL). ``database``, a ``postgresql://`` URL, holds all of them
    instead (``store``/``audit`` still name others when given), so several hosts can share
    them; ``data`` then keeps only this host's files (uploads, checkpoints). ``dev`` lifts the
    token check, and is refused on any address but loopback.
    """

    data: Path
    store: Path | None = None
    audit: str | None = None
    database: str | None = None
    host: str = "127.0.0.1"
    dev: bool = False
    provider: str | None = None
    limits: Limits = field(default_factory=Limits)

    @property
    def service_db(self) -> Path:
        return self.data / "service.db"

    @property
    def state_target(self) -> str:
        """The service database: the ``database`` URL, else ``service.db`` in ``data``."""
        return self.database or str(self.service_db)

    @property
    def store_path(self) -> Path:
        return self.store or self.data / "sources.db"

    @property
    def store_target(self) -> str:
        """The source store: ``store``, else the ``database`` URL, else ``data/sources.db``."""
        if self.store is None and self.database:
            return self.database
        return str(self.store_path)

    @property
    def audit_target(self) -> str:
        return self.audit or self.database or str(self.data / "audit.db")

    @property
    def checkpoint_dir(self) -> Path | None:
        """Where a PostgreSQL log's signed checkpoints go: in ``data`` (a SQLite log keeps
        them beside its file)."""
        return self.data / "audit-checkpoints" if "://" in self.audit_target else None


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
