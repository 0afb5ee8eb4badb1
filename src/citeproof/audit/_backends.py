"""Which audit store a target names: a SQLite file path or a PostgreSQL URL."""

from __future__ import annotations

import os
from pathlib import Path

from citeproof.audit._checkpoint import CheckpointDirectory
from citeproof.audit._store import DEFAULT_CHECKPOINT_EVERY, AuditStore
from citeproof.errors import AuditStoreError, extra_needed


def open_store(
    target: str | os.PathLike[str],
    *,
    checkpoint_dir: str | os.PathLike[str] | None = None,
    checkpoint_every: int = DEFAULT_CHECKPOINT_EVERY,
) -> AuditStore:
    """Open (creating if needed) the audit log at `target` and return its store.

    `target` is a SQLite file path or a ``postgresql://`` (or ``postgres://``) URL. Checkpoints
    go to `checkpoint_dir`; by default ``<db>.checkpoints/`` next to a SQLite file and
    ``~/.citeproof/checkpoints/<host>-<port>-<database>/`` for PostgreSQL. A signed checkpoint
    is written after every `checkpoint_every` records (0: only when asked). Typical use::

        with open_store("audit.db") as log:
            log.append({"request": {...}, "response": {...}}, request_id)
    """
    text = os.fspath(target)
    if text.startswith(("postgresql://", "postgres://")):
        with extra_needed("postgres", "a PostgreSQL audit log"):
            from citeproof.audit._postgres_store import PostgresAuditStore, default_checkpoint_dir

        directory = Path(checkpoint_dir) if checkpoint_dir else default_checkpoint_dir(text)
        return PostgresAuditStore(text, CheckpointDirectory(directory), checkpoint_every)
    from citeproof.audit._sqlite_store import SQLiteAuditStore

    path = Path(text)
    default = path.with_name(path.name + ".checkpoints")
    directory = Path(checkpoint_dir) if checkpoint_dir else default
    return SQLiteAuditStore(path, CheckpointDirectory(directory), checkpoint_every)


def open_existing_store(
    target: str | os.PathLike[str], *, checkpoint_dir: str | os.PathLike[str] | None = None
) -> AuditStore:
    """`open_store` for reading a log that must already exist: a SQLite path with no file
    raises `AuditStoreError` ("no audit log at ...") instead of creating an empty log."""
    text = os.fspath(target)
    if not text.startswith(("postgresql://", "postgres://")) and not Path(text).is_file():
        raise AuditStoreError(f"no audit log at {text}")
    return open_store(text, checkpoint_dir=checkpoint_dir)
