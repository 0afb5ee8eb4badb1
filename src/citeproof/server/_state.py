"""The service's own database (SQLite, WAL): tokens, the answer index, idempotency keys and
persisted batches. Several worker processes share it; each thread has its own connection.

What callers may rely on: a token's secret is never stored, only its SHA-256; a batch and
each line's result are committed as they happen, so a restarted service resumes a batch
where it stopped; an idempotency key returns the first response stored under it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from citeproof.errors import InputError, ServiceStateError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    name        TEXT PRIMARY KEY,
    digest      TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    answer_id       TEXT NOT NULL,
    principal       TEXT NOT NULL,
    request_id      TEXT NOT NULL,
    audit_sequence  INTEGER NOT NULL,
    kind            TEXT NOT NULL,
    counts          TEXT NOT NULL,
    text            TEXT NOT NULL,
    created_at      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_id ON answers (principal, answer_id, seq);
CREATE TABLE IF NOT EXISTS idempotency (
    principal   TEXT NOT NULL,
    key         TEXT NOT NULL,
    digest      TEXT NOT NULL,
    response    TEXT,
    created_at  TEXT NOT NULL,
    claimed_at  REAL NOT NULL,
    PRIMARY KEY (principal, key)
);
CREATE TABLE IF NOT EXISTS batches (
    id           TEXT PRIMARY KEY,
    principal    TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done')),
    total        INTEGER NOT NULL,
    lease_until  REAL NOT NULL DEFAULT 0,
    finished_at  TEXT
);
CREATE TABLE IF NOT EXISTS batch_lines (
    batch_id  TEXT NOT NULL REFERENCES batches (id),
    line      INTEGER NOT NULL,
    input     BLOB NOT NULL,
    output    TEXT,
    failed    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (batch_id, line)
);
"""

TOKEN_PREFIX = "cpt_"
SEARCH_TEXT_CHARS = 4_000
"""How much of an answer the index keeps for searching the review list."""


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class AnswerEntry:
    """One answer the service recorded: who made it and where its audit record is."""

    answer_id: str
    principal: str
    request_id: str
    audit_sequence: int
    kind: str
    counts: dict[str, int]
    text: str
    created_at: str


@dataclass(frozen=True, slots=True)
class BatchInfo:
    id: str
    principal: str
    created_at: str
    status: str
    total: int
    done: int
    failed: int
    finished_at: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "total": self.total,
            "done": self.done,
            "failed": self.failed,
            "created_at": self.created_at,
            "finished_at": self.finished_at,
        }


Claim = Literal["new", "stored", "busy"]


class ServiceState:
    """The service database at ``path`` (created when missing)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = self._db()
        try:
            db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise ServiceStateError(f"{path}: not a citeproof service database: {error}") from None

    def _db(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            try:
                db = sqlite3.connect(self.path, isolation_level=None, timeout=60)
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
                db.execute("PRAGMA busy_timeout = 60000")
            except sqlite3.DatabaseError as error:
                raise ServiceStateError(f"{self.path}: cannot open: {error}") from None
            self._local.db = db
        return db

    # --- the deployment's secret ----------------------------------------------------------
    def deployment_key(self) -> bytes:
        """32 random bytes made the first time any worker asks and kept in this database: the
        key of what must not be derivable by callers (the upload folders, hence source ids).
        Every worker of one data folder gets the same key."""
        db = self._db()
        db.execute(
            "INSERT OR IGNORE INTO settings (name, value) VALUES ('deployment_key', ?)",
            (secrets.token_hex(32),),
        )
        row = db.execute("SELECT value FROM settings WHERE name = 'deployment_key'").fetchone()
        return bytes.fromhex(str(row[0]))

    # --- tokens ----------------------------------------------------------------------------
    def add_token(self, name: str, *, replace: bool = False) -> str:
        """A new bearer token for principal ``name``; only its digest is kept. Raises
        `InputError` when ``name`` has a token already (unless ``replace``)."""
        if not name or not name.strip() or len(name) > 200 or not name.isprintable():
            raise InputError("must be 1 to 200 printable characters", field="name")
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        db = self._db()
        verb = "INSERT OR REPLACE" if replace else "INSERT"
        try:
            db.execute(
                f"{verb} INTO tokens (name, digest, created_at) VALUES (?, ?, ?)",
                (name, digest(secret), utc_now()),
            )
        except sqlite3.IntegrityError:
            raise InputError(
                f"{name!r} has a token already (--replace issues a new one)", field="name"
            ) from None
        return secret

    def principal_for(self, secret: str) -> str | None:
        """The principal whose token is ``secret``, or None. The digests are compared in
        constant time."""
        wanted = digest(secret)
        row = (
            self._db()
            .execute("SELECT name, digest FROM tokens WHERE digest = ?", (wanted,))
            .fetchone()
        )
        if row is None or not hmac.compare_digest(str(row[1]), wanted):
            return None
        return str(row[0])

    def token_names(self) -> list[str]:
        return [str(name) for (name,) in self._db().execute("SELECT name FROM tokens ORDER BY 1")]

    def tokens(self) -> list[tuple[str, str]]:
        """(principal, created at) of every token, by name; never a secret or its digest."""
        rows = self._db().execute("SELECT name, created_at FROM tokens ORDER BY name")
        return [(str(name), str(created)) for name, created in rows]

    def revoke_token(self, name: str) -> bool:
        """Stop ``name``'s token at once; False when ``name`` has none."""
        return self._db().execute("DELETE FROM tokens WHERE name = ?", (name,)).rowcount > 0

    # --- answers ---------------------------------------------------------------------------
    def record_answer(
        self,
        *,
        answer_id: str,
        principal: str,
        request_id: str,
        audit_sequence: int,
        kind: str,
        counts: dict[str, int],
        text: str,
    ) -> None:
        self._db().execute(
            "INSERT INTO answers (answer_id, principal, request_id, audit_sequence, kind, "
            "counts, text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                answer_id,
                principal,
                request_id,
                audit_sequence,
                kind,
                json.dumps(counts),
                text[:SEARCH_TEXT_CHARS],
                utc_now(),
            ),
        )

    def answer(self, principal: str, answer_id: str) -> AnswerEntry | None:
        """The latest answer ``principal`` recorded under ``answer_id``."""
        row = (
            self._db()
            .execute(
                f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE principal = ? AND answer_id = ? "
                "ORDER BY seq DESC LIMIT 1",
                (principal, answer_id),
            )
            .fetchone()
        )
        return _answer(row) if row else None

    def recent_answers(
        self,
        principal: str,
        *,
        search: str = "",
        status: str = "",
        limit: int = 50,
        severity: Sequence[Sequence[str]] = (),
    ) -> list[AnswerEntry]:
        """``principal``'s answers whose id or text contains ``search`` and, with ``status``,
        that count at least one ``status`` (a key of their counts; ``a|b`` reads ``b`` where
        an answer has no ``a``). Newest first; with ``severity`` (groups of such keys, worst
        first), those with the worst group first, then newest."""
        worst = " ".join(
            f"WHEN {_count_sql(keys)} > 0 THEN {len(severity) - n}"
            for n, keys in enumerate(severity)
        )
        order = f"CASE {worst} ELSE 0 END DESC, seq DESC" if severity else "seq DESC"
        where, values = _matching(principal, search)
        if status:
            where += f" AND {_count_sql(status.split('|'))} > 0"
        rows = self._db().execute(
            f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE {where} ORDER BY {order} LIMIT :limit",
            {**values, "limit": limit},
        )
        return [_answer(row) for row in rows]

    def answer_tally(
        self, principal: str, groups: Mapping[str, Sequence[str]], *, search: str = ""
    ) -> dict[str, int]:
        """How many of ``principal``'s answers matching ``search`` count at least one of each
        group's key (read as in `recent_answers`), and ``""``: how many match at all."""
        columns = ", ".join(f"COALESCE(SUM({_count_sql(keys)} > 0), 0)" for keys in groups.values())
        where, values = _matching(principal, search)
        row = (
            self._db()
            .execute(
                f"SELECT COUNT(*){', ' + columns if columns else ''} FROM answers WHERE {where}",
                values,
            )
            .fetchone()
        )
        return {"": int(row[0]), **{name: int(n) for name, n in zip(groups, row[1:], strict=True)}}

    def request_sequences(self, principal: str, request_id: str) -> list[int]:
        """The audit sequences of the records ``principal`` logged under ``request_id``,
        oldest first (another principal's records under the same id are not among them)."""
        rows = self._db().execute(
            "SELECT audit_sequence FROM answers WHERE principal = ? AND request_id = ? "
            "ORDER BY audit_sequence",
            (principal, request_id),
        )
        return [int(sequence) for (sequence,) in rows]

    # --- idempotency -----------------------------------------------------------------------
    def claim_key(
        self, principal: str, key: str, body_digest: str, *, stale_seconds: float = 300.0
    ) -> tuple[Claim, str | None]:
        """Claim idempotency ``key`` for a request whose body has ``body_digest``.

        ``new``: the caller does the work and calls `store_response` (or `release_key`);
        ``stored``: the response stored for the same key and body; ``busy``: the first
        request with this key is still running (a claim older than ``stale_seconds`` with no
        response was left by a stopped process and is taken over). Raises `InputError` when
        the key was used with another body."""
        db = self._db()
        now = time.time()
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute(
                "SELECT digest, response, claimed_at FROM idempotency "
                "WHERE principal = ? AND key = ?",
                (principal, key),
            ).fetchone()
            stale = row is not None and row[1] is None and now - float(row[2]) > stale_seconds
            if row is None or stale:
                db.execute(
                    "INSERT OR REPLACE INTO idempotency "
                    "(principal, key, digest, created_at, claimed_at) VALUES (?, ?, ?, ?, ?)",
                    (principal, key, body_digest, utc_now(), now),
                )
        finally:
            db.execute("COMMIT")
        if row is None or stale:
            return "new", None
        if row[0] != body_digest:
            raise InputError(
                "this key was used with a different request body", field="Idempotency-Key"
            )
        return ("busy", None) if row[1] is None else ("stored", str(row[1]))

    def store_response(self, principal: str, key: str, response: str) -> None:
        self._db().execute(
            "UPDATE idempotency SET response = ? WHERE principal = ? AND key = ?",
            (response, principal, key),
        )

    def release_key(self, principal: str, key: str) -> None:
        """Forget a claimed key whose request failed, so it can be tried again."""
        self._db().execute(
            "DELETE FROM idempotency WHERE principal = ? AND key = ? AND response IS NULL",
            (principal, key),
        )

    # --- batches ---------------------------------------------------------------------------
    def create_batch(self, principal: str, lines: Sequence[bytes]) -> str:
        """Persist a batch of input lines (committed before this returns) and its id."""
        batch_id = "batch_" + uuid.uuid4().hex
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "INSERT INTO batches (id, principal, created_at, status, total) "
                "VALUES (?, ?, ?, 'queued', ?)",
                (batch_id, principal, utc_now(), len(lines)),
            )
            db.executemany(
                "INSERT INTO batch_lines (batch_id, line, input) VALUES (?, ?, ?)",
                [(batch_id, number, raw) for number, raw in enumerate(lines, start=1)],
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return batch_id

    def batch(self, principal: str, batch_id: str) -> BatchInfo | None:
        row = (
            self._db()
            .execute(
                "SELECT b.id, b.principal, b.created_at, b.status, b.total, "
                "(SELECT COUNT(*) FROM batch_lines WHERE batch_id = b.id AND output IS NOT NULL), "
                "(SELECT COUNT(*) FROM batch_lines WHERE batch_id = b.id AND failed = 1), "
                "b.finished_at FROM batches AS b WHERE b.id = ? AND b.principal = ?",
                (batch_id, principal),
            )
            .fetchone()
        )
        return BatchInfo(*row) if row else None

    def batch_results(self, batch_id: str) -> Iterator[str]:
        """The output records (JSON text) of the finished lines, in line order."""
        rows = self._db().execute(
            "SELECT output FROM batch_lines WHERE batch_id = ? AND output IS NOT NULL "
            "ORDER BY line",
            (batch_id,),
        )
        for (output,) in rows:
            yield str(output)

    def claim_batch(self, lease_seconds: float) -> tuple[str, str] | None:
        """Take an unfinished batch nobody holds (a lease that ran out means its holder
        stopped): its id and principal, or None."""
        now = time.time()
        row = (
            self._db()
            .execute(
                "UPDATE batches SET status = 'running', lease_until = ? WHERE id = ("
                "SELECT id FROM batches WHERE status != 'done' AND lease_until < ? "
                "ORDER BY created_at LIMIT 1) RETURNING id, principal",
                (now + lease_seconds, now),
            )
            .fetchone()
        )
        return (str(row[0]), str(row[1])) if row else None

    def renew_lease(self, batch_id: str, lease_seconds: float) -> None:
        self._db().execute(
            "UPDATE batches SET lease_until = ? WHERE id = ?",
            (time.time() + lease_seconds, batch_id),
        )

    def pending_lines(self, batch_id: str) -> Iterator[tuple[int, bytes]]:
        rows = (
            self._db()
            .execute(
                "SELECT line, input FROM batch_lines WHERE batch_id = ? AND output IS NULL "
                "ORDER BY line",
                (batch_id,),
            )
            .fetchall()
        )
        for line, raw in rows:
            yield int(line), bytes(raw)

    def finish_line(self, batch_id: str, line: int, output: str, *, failed: bool) -> None:
        self._db().execute(
            "UPDATE batch_lines SET output = ?, failed = ? WHERE batch_id = ? AND line = ?",
            (output, int(failed), batch_id, line),
        )

    def finish_batch(self, batch_id: str) -> None:
        self._db().execute(
            "UPDATE batches SET status = 'done', finished_at = ? WHERE id = ?",
            (utc_now(), batch_id),
        )


_COUNT_KEY = re.compile(r"[a-z_]{1,40}")


def _count_sql(keys: Sequence[str]) -> str:
    """The first of ``keys`` an answer's counts hold, else 0, as SQL. Keys are citeproof's
    own names (lowercase words): anything else is refused rather than quoted."""
    for key in keys:
        if not _COUNT_KEY.fullmatch(key):
            raise InputError(f"not a count: {key!r}", field="status")
    reads = ", ".join(f"json_extract(counts, '$.{key}')" for key in keys)
    return f"COALESCE({reads}, 0)"


def _matching(principal: str, search: str) -> tuple[str, dict[str, str]]:
    pattern = "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return (
        "principal = :who AND (answer_id LIKE :p ESCAPE '\\' OR text LIKE :p ESCAPE '\\')",
        {"who": principal, "p": pattern},
    )


_ANSWER_COLUMNS = "answer_id, principal, request_id, audit_sequence, kind, counts, text, created_at"


def _answer(row: tuple[Any, ...]) -> AnswerEntry:
    answer_id, principal, request_id, sequence, kind, counts, text, created_at = row
    return AnswerEntry(
        str(answer_id),
        str(principal),
        str(request_id),
        int(sequence),
        str(kind),
        json.loads(counts),
        str(text),
        str(created_at),
    )
