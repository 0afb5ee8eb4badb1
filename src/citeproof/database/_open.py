"""Which backend a target names: a SQLite file path or a ``postgresql://`` URL."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from urllib.parse import urlsplit

from citeproof.database._engine import Engine
from citeproof.errors import extra_needed

_URL_SCHEMES = ("postgresql://", "postgres://")
_shared: dict[tuple[int, str], Engine] = {}
_shared_lock = threading.Lock()


def is_database_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` is a PostgreSQL URL rather than a file path."""
    return os.fspath(target).startswith(_URL_SCHEMES)


def shown_url(url: str) -> str:
    """``url`` without its user and password: what a message or a log may show."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or ''}:{parts.port or 5432}{parts.path}"


def open_engine(target: str | os.PathLike[str]) -> Engine:
    """The engine of ``target``: a SQLite file (created when missing) or a PostgreSQL URL.

    One engine per URL and process is kept and shared (its connections are a pool); a SQLite
    engine is made per call and gives each thread its own connection."""
    text = os.fspath(target)
    if not is_database_url(text):
        from citeproof.database._sqlite import SQLiteEngine

        return SQLiteEngine(Path(text))
    with extra_needed("postgres", "the service's state in PostgreSQL"):
        from citeproof.database._postgres import PostgresEngine
    key = (os.getpid(), text)  # a forked worker opens its own connections
    with _shared_lock:
        engine = _shared.get(key)
        if engine is None:
            engine = _shared[key] = PostgresEngine(text, shown_url(text))
        return engine
