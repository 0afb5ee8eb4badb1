"""Where the service keeps its state: one SQLite file, or a PostgreSQL database named by URL.

An `Engine` runs the stores' SQL on either backend. The stores (the service's tokens, answer
index, idempotency keys and batches; the source store) write their SQL once, in the dialect
both backends share, and ask the engine for the few pieces that differ (a JSON member, a list
parameter, a lock that skips rows another host holds). `migrate` brings a store's tables to
its latest schema once, whichever process or host opens it first; `schema_status` says where
a database stands.
"""

from __future__ import annotations

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.database._engine import Engine, Row
    from citeproof.database._migrations import Migration, SchemaStatus, migrate, schema_status
    from citeproof.database._open import is_database_url, open_engine, shown_url


_WHERE = {
    "Engine": "citeproof.database._engine",
    "Migration": "citeproof.database._migrations",
    "Row": "citeproof.database._engine",
    "SchemaStatus": "citeproof.database._migrations",
    "is_database_url": "citeproof.database._open",
    "migrate": "citeproof.database._migrations",
    "open_engine": "citeproof.database._open",
    "schema_status": "citeproof.database._migrations",
    "shown_url": "citeproof.database._open",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "Engine",
    "Migration",
    "Row",
    "SchemaStatus",
    "is_database_url",
    "migrate",
    "open_engine",
    "schema_status",
    "shown_url",
]
