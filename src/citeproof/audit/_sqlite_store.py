"""The SQLite audit store: WAL, ``synchronous=FULL``, one writer at a time (``BEGIN IMMEDIATE``).

Writers in several processes (service workers, a CLI beside them) queue on an advisory lock
file beside the database (``<db>.writer-lock``, `fcntl.flock`) before taking SQLite's write lock:
the kernel hands the lock to the next writer the moment it is released, where SQLite's own busy
handler sleeps in steps of up to 100 ms and leaves the log idle while a writer waits. SQLite's
lock still guards against writers that do not take the file lock.

Schema changes are named migrations, applied in order and recorded in ``audit_migrations``;
a migration is never edited once released, only new ones appended to `MIGRATIONS`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from citeproof.audit._chain import GENESIS_HASH
from citeproof.audit._checkpoint import CheckpointDirectory
from citeproof.audit._record import utc_timestamp
from citeproof.audit._store import AuditStore, Row, json_path_keys
from citeproof.errors import AuditStoreError

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

BUSY_TIMEOUT_MS = 120_000
_EXTRACT_PAGE = 5_000

MIGRATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "m001_audit_records",
        (
            """CREATE TABLE audit_records (
                sequence INTEGER PRIMARY KEY,
                request_id TEXT NOT NULL,
                record_hash TEXT NOT NULL,
                entry BLOB NOT NULL
            )""",
            "CREATE INDEX audit_records_by_request ON audit_records (request_id, sequence)",
        ),
    ),
    (
        "m002_append_only_triggers",
        (
            """CREATE TRIGGER audit_records_no_update BEFORE UPDATE ON audit_records
               BEGIN SELECT RAISE(ABORT, 'citeproof audit log is append-only: UPDATE rejected');
               END""",
            """CREATE TRIGGER audit_records_no_delete BEFORE DELETE ON audit_records
               BEGIN SELECT RAISE(ABORT, 'citeproof audit log is append-only: DELETE rejected');
               END""",
        ),
    ),
    (
        "m003_audit_texts",
        (
            """CREATE TABLE audit_texts (
                key TEXT PRIMARY KEY,
                text BLOB NOT NULL
            ) WITHOUT ROWID""",
            """CREATE TRIGGER audit_texts_no_update BEFORE UPDATE ON audit_texts
               BEGIN SELECT RAISE(ABORT, 'citeproof audit log is append-only: UPDATE rejected');
               END""",
            """CREATE TRIGGER audit_texts_no_delete BEFORE DELETE ON audit_texts
               BEGIN SELECT RAISE(ABORT, 'citeproof audit log is append-only: DELETE rejected');
               END""",
        ),
    ),
)


class SQLiteAuditStore(AuditStore):
    """An audit log in one SQLite file. Safe for many processes; one writer at a time."""

    def __init__(self, path: Path, checkpoints: CheckpointDirectory, checkpoint_every: int) -> None:
        super().__init__(str(path), checkpoints, checkpoint_every)
        self.path = path
        try:
            self._db = sqlite3.connect(
                path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise AuditStoreError(f"{path}: cannot switch SQLite to WAL (got {mode})")
            self._db.execute("PRAGMA synchronous = FULL")
            self._writer_lock = _writer_lock_file(path)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise AuditStoreError(f"{path}: cannot open audit log: {exc}") from exc

    def _migrate(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "CREATE TABLE IF NOT EXISTS audit_migrations "
                "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            done = {name for (name,) in db.execute("SELECT name FROM audit_migrations")}
            for name, statements in MIGRATIONS:
                if name not in done:
                    for statement in statements:
                        db.execute(statement)
                    db.execute(
                        "INSERT INTO audit_migrations VALUES (?, ?)", (name, utc_timestamp())
                    )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _write(
        self, build: Callable[[int, str], list[Row]], texts: Sequence[tuple[str, bytes]]
    ) -> list[Row]:
        with self._writers_queue():
            return self._write_locked(build, texts)

    def _writers_queue(self) -> AbstractContextManager[object]:
        """Wait, in the kernel's queue, for every other process's write to end."""
        if self._writer_lock is None:
            return nullcontext()
        return _Flock(self._writer_lock)

    def _write_locked(
        self, build: Callable[[int, str], list[Row]], texts: Sequence[tuple[str, bytes]]
    ) -> list[Row]:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise AuditStoreError(f"{self.path}: cannot take the write lock: {exc}") from exc
        try:
            if texts:
                db.executemany("INSERT OR IGNORE INTO audit_texts VALUES (?, ?)", texts)
            last = db.execute(
                "SELECT sequence, record_hash FROM audit_records ORDER BY sequence DESC LIMIT 1"
            ).fetchone()
            next_sequence, previous = (last[0] + 1, last[1]) if last else (0, GENESIS_HASH)
            rows = build(next_sequence, previous)
            db.executemany("INSERT INTO audit_records VALUES (?, ?, ?, ?)", rows)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return rows

    def _rows(self, start: int, end: int | None) -> Iterator[Row]:
        query = "SELECT sequence, request_id, record_hash, entry FROM audit_records"
        if end is None:
            cursor = self._db.execute(f"{query} WHERE sequence >= ? ORDER BY sequence", (start,))
        else:
            cursor = self._db.execute(
                f"{query} WHERE sequence >= ? AND sequence < ? ORDER BY sequence", (start, end)
            )
        while batch := cursor.fetchmany(1000):
            for sequence, request_id, digest, entry in batch:
                yield int(sequence), str(request_id), str(digest), _as_bytes(entry)

    def extract(
        self, paths: Sequence[str], start: int = 0, end: int | None = None
    ) -> Iterator[tuple[int, list[Any]]]:
        """As `AuditStore.extract`, picked out by SQLite's ``json_extract`` a page at a time:
        only the values cross into Python. A page holding an entry that is not JSON is read
        again entry by entry, so the error is the same as without SQL."""
        for path in paths:
            json_path_keys(path)  # checked before it reaches SQL
        # json_extract with two paths or more returns a JSON array of the values: pad to two.
        arguments = [*paths, *["$.format"] * (2 - len(paths))]
        placeholders = ", ".join("?" * len(arguments))
        query = (
            f"SELECT sequence, json_extract(CAST(entry AS TEXT), {placeholders}) "
            "FROM audit_records "
            "WHERE sequence >= ? AND sequence < ? ORDER BY sequence"
        )
        stop = self.size() if end is None else end
        for first in range(start, stop, _EXTRACT_PAGE):
            last = min(first + _EXTRACT_PAGE, stop)
            try:
                rows = self._db.execute(query, (*arguments, first, last)).fetchall()
            except sqlite3.OperationalError:
                yield from super().extract(paths, first, last)
                continue
            for sequence, values in rows:
                yield int(sequence), json.loads(values)[: len(paths)]

    def _latest_for(self, request_id: str) -> Row | None:
        row = self._db.execute(
            "SELECT sequence, request_id, record_hash, entry FROM audit_records "
            "WHERE request_id = ? ORDER BY sequence DESC LIMIT 1",
            (request_id,),
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]), _as_bytes(row[3]))

    def _all_for(self, request_id: str) -> list[Row]:
        rows = self._db.execute(
            "SELECT sequence, request_id, record_hash, entry FROM audit_records "
            "WHERE request_id = ? ORDER BY sequence",
            (request_id,),
        ).fetchall()
        return [(int(s), str(r), str(d), _as_bytes(e)) for s, r, d, e in rows]

    def _texts(self, keys: Sequence[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        try:
            for first in range(0, len(keys), 500):  # under SQLite's limit on bound parameters
                page = keys[first : first + 500]
                marks = ", ".join("?" * len(page))
                query = f"SELECT key, text FROM audit_texts WHERE key IN ({marks})"
                found.update((str(k), _as_bytes(t)) for k, t in self._db.execute(query, page))
        except sqlite3.DatabaseError as exc:
            raise AuditStoreError(f"{self.path}: cannot read the source texts: {exc}") from exc
        return found

    def _all_texts(self) -> Iterator[tuple[str, bytes]]:
        try:
            cursor = self._db.execute("SELECT key, text FROM audit_texts ORDER BY key")
            while batch := cursor.fetchmany(100):
                for key, text in batch:
                    yield str(key), _as_bytes(text)
        except sqlite3.DatabaseError as exc:
            raise AuditStoreError(f"{self.path}: cannot read the source texts: {exc}") from exc

    def size(self) -> int:
        (last,) = self._db.execute("SELECT MAX(sequence) FROM audit_records").fetchone()
        return 0 if last is None else int(last) + 1

    def close(self) -> None:
        self._db.close()
        if self._writer_lock is not None:
            os.close(self._writer_lock)
            self._writer_lock = None


def _writer_lock_file(path: Path) -> int | None:
    """The descriptor of ``<db>.writer-lock`` (created if need be), or None where there is no
    `fcntl` or no file (an in-memory database)."""
    if fcntl is None or str(path) == ":memory:" or str(path).startswith("file:"):
        return None
    lock = path.with_name(path.name + ".writer-lock")
    try:
        return os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        raise AuditStoreError(f"{lock}: cannot open the writers' lock file: {exc}") from exc


class _Flock:
    """An exclusive `fcntl.flock` held for the length of a ``with`` block."""

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor

    def __enter__(self) -> None:
        fcntl.flock(self.descriptor, fcntl.LOCK_EX)

    def __exit__(self, *_: object) -> None:
        fcntl.flock(self.descriptor, fcntl.LOCK_UN)


def _as_bytes(entry: object) -> bytes:
    """The stored entry's bytes. A tampered row may hold another SQLite type (text from a
    string function, a number): its bytes are read as they are, and then fail their hash."""
    if isinstance(entry, bytes | bytearray | memoryview):
        return bytes(entry)
    return str(entry).encode("utf-8", "surrogateescape")
