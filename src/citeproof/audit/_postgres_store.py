"""The PostgreSQL audit store (psycopg 3).

Triggers reject UPDATE, DELETE and TRUNCATE on ``audit_records`` and ``audit_texts``. Writers
take ``LOCK TABLE audit_records IN SHARE ROW EXCLUSIVE MODE`` inside their transaction, which
conflicts with itself, so concurrent writers queue and each sees the previous writer's last
record: the chain never forks. Readers are not blocked. Tables live in the connection's
``search_path`` schema (pass ``?options=-csearch_path%3Dmy_schema`` in the URL to choose one).
Migrations are named, applied in order under an advisory lock and recorded in
``audit_migrations``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psycopg

from citeproof.audit._chain import GENESIS_HASH
from citeproof.audit._checkpoint import CheckpointDirectory
from citeproof.audit._record import utc_timestamp
from citeproof.audit._store import AuditStore, Row
from citeproof.errors import AuditStoreError

PAGE_SIZE = 2000

# Serialises migrations of concurrent first opens (any 64-bit constant unique to citeproof).
MIGRATION_LOCK = int.from_bytes(hashlib.sha256(b"citeproof-audit-migrations").digest()[:8]) >> 1

MIGRATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "m001_audit_records",
        (
            """CREATE TABLE audit_records (
                sequence BIGINT PRIMARY KEY,
                request_id TEXT NOT NULL,
                record_hash TEXT NOT NULL,
                entry BYTEA NOT NULL
            )""",
            "CREATE INDEX audit_records_by_request ON audit_records (request_id, sequence)",
        ),
    ),
    (
        "m002_append_only_triggers",
        (
            """CREATE FUNCTION audit_records_reject_change() RETURNS trigger
               LANGUAGE plpgsql AS $$
               BEGIN
                 RAISE EXCEPTION 'citeproof audit log is append-only: % rejected', TG_OP;
               END $$""",
            """CREATE TRIGGER audit_records_no_update_delete
               BEFORE UPDATE OR DELETE ON audit_records
               FOR EACH ROW EXECUTE FUNCTION audit_records_reject_change()""",
            """CREATE TRIGGER audit_records_no_truncate
               BEFORE TRUNCATE ON audit_records
               FOR EACH STATEMENT EXECUTE FUNCTION audit_records_reject_change()""",
        ),
    ),
    (
        "m003_audit_texts",
        (
            """CREATE TABLE audit_texts (
                key TEXT PRIMARY KEY,
                text BYTEA NOT NULL
            )""",
            """CREATE TRIGGER audit_texts_no_update_delete
               BEFORE UPDATE OR DELETE ON audit_texts
               FOR EACH ROW EXECUTE FUNCTION audit_records_reject_change()""",
            """CREATE TRIGGER audit_texts_no_truncate
               BEFORE TRUNCATE ON audit_texts
               FOR EACH STATEMENT EXECUTE FUNCTION audit_records_reject_change()""",
        ),
    ),
)


def default_checkpoint_dir(url: str) -> Path:
    """``~/.citeproof/checkpoints/<host>-<port>-<database>[-<schema>]`` for a PostgreSQL URL.

    Logs in different schemas of one database are different logs: each gets its own
    checkpoints, or one log's checkpoints would be checked against another's records.
    """
    parts = urlsplit(url)
    database = parts.path.lstrip("/") or "postgres"
    name = f"{parts.hostname or 'localhost'}-{parts.port or 5432}-{database}"
    for option in parse_qs(parts.query).get("options", []):
        found = re.search(r"search_path\s*=\s*([A-Za-z0-9_]+)", option)
        if found:
            name += f"-{found.group(1)}"
    return Path.home() / ".citeproof" / "checkpoints" / name


class PostgresAuditStore(AuditStore):
    """An audit log in a PostgreSQL database. Many writers may append concurrently."""

    def __init__(self, url: str, checkpoints: CheckpointDirectory, checkpoint_every: int) -> None:
        parts = urlsplit(url)
        shown = f"{parts.scheme}://{parts.hostname or ''}:{parts.port or 5432}{parts.path}"
        super().__init__(shown, checkpoints, checkpoint_every)
        try:
            self._db = psycopg.connect(url, autocommit=True)
            self._migrate()
        except psycopg.Error as exc:
            raise AuditStoreError(f"{shown}: cannot open audit log: {exc}") from exc

    def _migrate(self) -> None:
        with self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS audit_migrations "
                "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            done = {row[0] for row in self._db.execute("SELECT name FROM audit_migrations")}
            for name, statements in MIGRATIONS:
                if name not in done:
                    for statement in statements:
                        self._db.execute(statement.encode())
                    self._db.execute(
                        "INSERT INTO audit_migrations VALUES (%s, %s)", (name, utc_timestamp())
                    )

    def _write(
        self, build: Callable[[int, str], list[Row]], texts: Sequence[tuple[str, bytes]]
    ) -> list[Row]:
        try:
            with self._db.transaction():
                self._db.execute("LOCK TABLE audit_records IN SHARE ROW EXCLUSIVE MODE")
                if texts:  # under the writers' lock: two writers never wait on each other's
                    with self._db.cursor() as cursor:  # uncommitted texts
                        cursor.executemany(
                            "INSERT INTO audit_texts VALUES (%s, %s) ON CONFLICT DO NOTHING",
                            texts,
                        )
                last = self._db.execute(
                    "SELECT sequence, record_hash FROM audit_records ORDER BY sequence DESC LIMIT 1"
                ).fetchone()
                next_sequence, previous = (last[0] + 1, last[1]) if last else (0, GENESIS_HASH)
                rows = build(next_sequence, previous)
                with self._db.cursor() as cursor:
                    cursor.executemany("INSERT INTO audit_records VALUES (%s, %s, %s, %s)", rows)
        except psycopg.Error as exc:
            raise AuditStoreError(f"{self.location}: append failed: {exc}") from exc
        return rows

    def _texts(self, keys: Sequence[str]) -> dict[str, bytes]:
        try:
            rows = self._db.execute(
                "SELECT key, text FROM audit_texts WHERE key = ANY(%s)", (list(keys),)
            ).fetchall()
        except psycopg.Error as exc:
            raise AuditStoreError(f"{self.location}: cannot read the source texts: {exc}") from exc
        return {str(key): bytes(text) for key, text in rows}

    def _all_texts(self) -> Iterator[tuple[str, bytes]]:
        # Keyset pages by key, as `_rows` pages by sequence.
        after = ""
        while True:
            try:
                batch = self._db.execute(
                    "SELECT key, text FROM audit_texts WHERE key > %s ORDER BY key LIMIT 100",
                    (after,),
                ).fetchall()
            except psycopg.Error as exc:
                where = f"{self.location}: cannot read the source texts"
                raise AuditStoreError(f"{where}: {exc}") from exc
            for key, text in batch:
                yield str(key), bytes(text)
            if len(batch) < 100:
                return
            after = str(batch[-1][0])

    def _rows(self, start: int, end: int | None) -> Iterator[Row]:
        # Keyset pages: records never change, so pages need no common snapshot.
        query = (
            "SELECT sequence, request_id, record_hash, entry FROM audit_records "
            "WHERE sequence >= %s AND (%s::bigint IS NULL OR sequence < %s) "
            "ORDER BY sequence LIMIT %s"
        )
        cursor = start
        while True:
            batch = self._db.execute(query, (cursor, end, end, PAGE_SIZE)).fetchall()
            for sequence, request_id, digest, entry in batch:
                yield int(sequence), str(request_id), str(digest), bytes(entry)
            if len(batch) < PAGE_SIZE:
                return
            cursor = int(batch[-1][0]) + 1

    def _latest_for(self, request_id: str) -> Row | None:
        row = self._db.execute(
            "SELECT sequence, request_id, record_hash, entry FROM audit_records "
            "WHERE request_id = %s ORDER BY sequence DESC LIMIT 1",
            (request_id,),
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]), bytes(row[3]))

    def _all_for(self, request_id: str) -> list[Row]:
        rows = self._db.execute(
            "SELECT sequence, request_id, record_hash, entry FROM audit_records "
            "WHERE request_id = %s ORDER BY sequence",
            (request_id,),
        ).fetchall()
        return [(int(s), str(r), str(d), bytes(e)) for s, r, d, e in rows]

    def size(self) -> int:
        row = self._db.execute("SELECT MAX(sequence) FROM audit_records").fetchone()
        return 0 if row is None or row[0] is None else int(row[0]) + 1

    def close(self) -> None:
        self._db.close()
