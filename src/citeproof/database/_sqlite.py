"""The SQLite backend: one file in WAL mode, a connection per thread, ``BEGIN IMMEDIATE``
for every write transaction (SQLite's writers queue for its one write lock)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from citeproof.database._engine import Engine, Params, Row
from citeproof.errors import DatabaseError

_TYPES = {
    "int": "INTEGER",
    "real": "REAL",
    "blob": "BLOB",
    "serial": "INTEGER PRIMARY KEY AUTOINCREMENT",
    "rowid": "INTEGER PRIMARY KEY",
}


class SQLiteEngine(Engine):
    backend = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        self._local = threading.local()
        self._connection()

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            try:
                db = sqlite3.connect(self.path, isolation_level=None, timeout=60)
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
                db.execute("PRAGMA busy_timeout = 60000")
                db.execute("PRAGMA foreign_keys = ON")
            except sqlite3.DatabaseError as error:
                raise DatabaseError(f"{self.path}: cannot open: {error}") from None
            self._local.db = db
            self._local.depth = 0
        return db

    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            return [tuple(row) for row in self._connection().execute(sql, params).fetchall()]
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path}: {error}") from error

    def run(self, sql: str, params: Params = ()) -> int:
        try:
            return self._connection().execute(sql, params).rowcount
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path}: {error}") from error

    def run_many(self, sql: str, params: Sequence[Params]) -> None:
        try:
            self._connection().executemany(sql, params)
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path}: {error}") from error

    @contextmanager
    def transaction(self) -> Iterator[None]:
        db = self._connection()
        outer = self._local.depth == 0
        if outer:
            self.run("BEGIN IMMEDIATE")
        self._local.depth += 1
        try:
            yield
        except BaseException:
            self._local.depth -= 1
            if outer:
                db.execute("ROLLBACK")
            raise
        self._local.depth -= 1
        if outer:
            self.run("COMMIT")

    def lock(self, name: str) -> None:
        """``BEGIN IMMEDIATE`` already holds the database's one write lock."""

    def close(self) -> None:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def json_int(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    def json_values(self, json_sql: str, *, integer: bool = False) -> str:
        return f"SELECT value FROM json_each({json_sql})"

    @property
    def skip_locked(self) -> str:
        return ""

    @property
    def like(self) -> str:
        return "LIKE"

    def ddl(self, text: str) -> str:
        return text.format(**_TYPES)

    def _table_names(self) -> Iterator[str]:
        for (name,) in self.rows("SELECT name FROM sqlite_master WHERE type = 'table'"):
            yield str(name)
