"""The service's own state: tokens, the answer index, idempotency keys and persisted
batches, in one database: a SQLite file (WAL) in the data folder, or PostgreSQL when the
service is given a URL (`citeproof.database`). Several worker processes, and several hosts on
one PostgreSQL, share it; the SQL is the same on both, the engine supplies what differs.

What callers may rely on: a token's secret is never stored, only its SHA-256; a batch and
each line's result are committed as they happen, so a restarted service resumes a batch
where it stopped; a batch line is held by one worker at a time under a lease, and a line is
finished once (a holder whose lease was taken over cannot write it); an idempotency key
returns the first response stored under it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from citeproof.database import (
    Engine,
    Migration,
    is_database_url,
    migrate,
    open_engine,
)
from citeproof.errors import DatabaseError, InputError, ServiceStateError
from citeproof.server._rate import TABLE as RATE_BUCKETS
from citeproof.server._rate import UNLOGGED_TABLE as UNLOGGED_RATE_BUCKETS

COMPONENT = "service"
MIGRATIONS = (
    Migration(
        1,
        "tokens, settings, answers, idempotency keys, batches",
        both=(
            """CREATE TABLE IF NOT EXISTS settings (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
)""",
            """CREATE TABLE IF NOT EXISTS tokens (
    name        TEXT PRIMARY KEY,
    digest      TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
)""",
            """CREATE TABLE IF NOT EXISTS answers (
    seq             {serial},
    answer_id       TEXT NOT NULL,
    principal       TEXT NOT NULL,
    request_id      TEXT NOT NULL,
    audit_sequence  {int} NOT NULL,
    kind            TEXT NOT NULL,
    counts          TEXT NOT NULL,
    text            TEXT NOT NULL,
    created_at      TEXT NOT NULL
)""",
            "CREATE INDEX IF NOT EXISTS answers_by_id ON answers (principal, answer_id, seq)",
            """CREATE TABLE IF NOT EXISTS idempotency (
    principal   TEXT NOT NULL,
    key         TEXT NOT NULL,
    digest      TEXT NOT NULL,
    response    TEXT,
    created_at  TEXT NOT NULL,
    claimed_at  {real} NOT NULL,
    PRIMARY KEY (principal, key)
)""",
            """CREATE TABLE IF NOT EXISTS batches (
    id           TEXT PRIMARY KEY,
    principal    TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done')),
    total        {int} NOT NULL,
    lease_until  {real} NOT NULL DEFAULT 0,
    finished_at  TEXT
)""",
            """CREATE TABLE IF NOT EXISTS batch_lines (
    batch_id  TEXT NOT NULL REFERENCES batches (id),
    line      {int} NOT NULL,
    input     {blob} NOT NULL,
    output    TEXT,
    failed    {int} NOT NULL DEFAULT 0,
    PRIMARY KEY (batch_id, line)
)""",
        ),
    ),
    Migration(
        2,
        "batch lines held one at a time: holder, lease, claims, audit size at first claim",
        both=(
            "ALTER TABLE batch_lines ADD COLUMN holder TEXT",
            "ALTER TABLE batch_lines ADD COLUMN lease_until {real} NOT NULL DEFAULT 0",
            "ALTER TABLE batch_lines ADD COLUMN claims {int} NOT NULL DEFAULT 0",
            "ALTER TABLE batch_lines ADD COLUMN audit_from {int} NOT NULL DEFAULT 0",
            "CREATE INDEX IF NOT EXISTS batch_lines_open ON batch_lines (lease_until) "
            "WHERE output IS NULL",
        ),
    ),
    Migration(
        3,
        "rate limit: one token bucket per principal",
        sqlite=(RATE_BUCKETS,),
        postgresql=(UNLOGGED_RATE_BUCKETS,),
    ),
)
"""The service database's schema, step by step (`citeproof.database.migrate`): a data folder
from before migrations holds step 1's tables already, and only gains steps 2 and 3."""

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


@dataclass(frozen=True, slots=True)
class BatchLine:
    """A batch line a worker holds: ``claims`` counts how often it was taken (more than 1:
    an earlier holder stopped), ``audit_from`` the audit log's size when it was first taken
    (a record that holder wrote is at or after it)."""

    batch_id: str
    principal: str
    line: int
    input: bytes
    claims: int
    audit_from: int


Claim = Literal["new", "stored", "busy"]


def holder_name() -> str:
    """A name for this process that no other process, here or on another host, shares."""
    return f"{os.uname().nodename}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class ServiceState:
    """The service database at ``target``: a SQLite file path (created when missing) or a
    ``postgresql://`` URL. Its schema is brought up to date on opening (once, whichever
    process or host opens it first)."""

    def __init__(self, target: Path | str) -> None:
        self.path = target
        if not is_database_url(target):
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.engine: Engine = open_engine(target)
            migrate(self.engine, COMPONENT, MIGRATIONS)
        except DatabaseError as error:
            raise ServiceStateError(f"not a citeproof service database: {error}") from None

    @property
    def where(self) -> str:
        """The database as a message may name it (a URL without its password)."""
        return self.engine.where

    # --- the deployment's secret ----------------------------------------------------------
    def deployment_key(self) -> bytes:
        """32 random bytes made the first time any worker asks and kept in this database: the
        key of what must not be derivable by callers (the upload folders, hence source ids).
        Every worker of one data folder (every host of one PostgreSQL) gets the same key."""
        self.engine.run(
            "INSERT INTO settings (name, value) VALUES ('deployment_key', ?) "
            "ON CONFLICT (name) DO NOTHING",
            (secrets.token_hex(32),),
        )
        row = self.engine.row("SELECT value FROM settings WHERE name = 'deployment_key'")
        assert row is not None  # inserted above unless there already
        return bytes.fromhex(str(row[0]))

    # --- tokens ----------------------------------------------------------------------------
    def add_token(self, name: str, *, replace: bool = False) -> str:
        """A new bearer token for principal ``name``; only its digest is kept. Raises
        `InputError` when ``name`` has a token already (unless ``replace``)."""
        if not name or not name.strip() or len(name) > 200 or not name.isprintable():
            raise InputError("must be 1 to 200 printable characters", field="name")
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        on_conflict = (
            "DO UPDATE SET digest = excluded.digest, created_at = excluded.created_at"
            if replace
            else "DO NOTHING"
        )
        added = self.engine.run(
            "INSERT INTO tokens (name, digest, created_at) VALUES (?, ?, ?) "
            f"ON CONFLICT (name) {on_conflict}",
            (name, digest(secret), utc_now()),
        )
        if not added:
            raise InputError(
                f"{name!r} has a token already (--replace issues a new one)", field="name"
            )
        return secret

    def principal_for(self, secret: str) -> str | None:
        """The principal whose token is ``secret``, or None. The digests are compared in
        constant time."""
        wanted = digest(secret)
        row = self.engine.row("SELECT name, digest FROM tokens WHERE digest = ?", (wanted,))
        if row is None or not hmac.compare_digest(str(row[1]), wanted):
            return None
        return str(row[0])

    def token_names(self) -> list[str]:
        return [str(name) for (name,) in self.engine.rows("SELECT name FROM tokens ORDER BY 1")]

    def tokens(self) -> list[tuple[str, str]]:
        """(principal, created at) of every token, by name; never a secret or its digest."""
        rows = self.engine.rows("SELECT name, created_at FROM tokens ORDER BY name")
        return [(str(name), str(created)) for name, created in rows]

    def revoke_token(self, name: str) -> bool:
        """Stop ``name``'s token at once; False when ``name`` has none."""
        return self.engine.run("DELETE FROM tokens WHERE name = ?", (name,)) > 0

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
        self.engine.run(
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
        row = self.engine.row(
            f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE principal = ? AND answer_id = ? "
            "ORDER BY seq DESC LIMIT 1",
            (principal, answer_id),
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
            f"WHEN {self._count_sql(keys)} > 0 THEN {len(severity) - n}"
            for n, keys in enumerate(severity)
        )
        order = f"CASE {worst} ELSE 0 END DESC, seq DESC" if severity else "seq DESC"
        where, values = self._matching(principal, search)
        if status:
            where += f" AND {self._count_sql(status.split('|'))} > 0"
        rows = self.engine.rows(
            f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE {where} ORDER BY {order} LIMIT :limit",
            {**values, "limit": limit},
        )
        return [_answer(row) for row in rows]

    def answer_tally(
        self, principal: str, groups: Mapping[str, Sequence[str]], *, search: str = ""
    ) -> dict[str, int]:
        """How many of ``principal``'s answers matching ``search`` count at least one of each
        group's key (read as in `recent_answers`), and ``""``: how many match at all."""
        columns = ", ".join(
            f"COALESCE(SUM(CASE WHEN {self._count_sql(keys)} > 0 THEN 1 ELSE 0 END), 0)"
            for keys in groups.values()
        )
        where, values = self._matching(principal, search)
        row = self.engine.row(
            f"SELECT COUNT(*){', ' + columns if columns else ''} FROM answers WHERE {where}",
            values,
        )
        assert row is not None  # an aggregate always gives a row
        return {"": int(row[0]), **{name: int(n) for name, n in zip(groups, row[1:], strict=True)}}

    def request_sequences(self, principal: str, request_id: str) -> list[int]:
        """The audit sequences of the records ``principal`` logged under ``request_id``,
        oldest first (another principal's records under the same id are not among them)."""
        rows = self.engine.rows(
            "SELECT audit_sequence FROM answers WHERE principal = ? AND request_id = ? "
            "ORDER BY audit_sequence",
            (principal, request_id),
        )
        return [int(sequence) for (sequence,) in rows]

    def _count_sql(self, keys: Sequence[str]) -> str:
        """The first of ``keys`` an answer's counts hold, else 0, as SQL. Keys are
        citeproof's own names (lowercase words): anything else is refused rather than
        quoted."""
        for key in keys:
            if not _COUNT_KEY.fullmatch(key):
                raise InputError(f"not a count: {key!r}", field="status")
        reads = ", ".join(self.engine.json_int("counts", key) for key in keys)
        return f"COALESCE({reads}, 0)"

    def _matching(self, principal: str, search: str) -> tuple[str, dict[str, str]]:
        pattern = "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        like = self.engine.like
        return (
            f"principal = :who AND (answer_id {like} :p ESCAPE '\\' OR text {like} :p ESCAPE '\\')",
            {"who": principal, "p": pattern},
        )

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
        now = time.time()
        with self.engine.transaction():
            self.engine.lock(f"idempotency:{principal}:{key}")
            row = self.engine.row(
                "SELECT digest, response, claimed_at FROM idempotency "
                "WHERE principal = ? AND key = ?",
                (principal, key),
            )
            stale = row is not None and row[1] is None and now - float(row[2]) > stale_seconds
            if row is None or stale:
                self.engine.run(
                    "INSERT INTO idempotency (principal, key, digest, created_at, claimed_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (principal, key) DO UPDATE SET "
                    "digest = excluded.digest, response = NULL, "
                    "created_at = excluded.created_at, claimed_at = excluded.claimed_at",
                    (principal, key, body_digest, utc_now(), now),
                )
        if row is None or stale:
            return "new", None
        if row[0] != body_digest:
            raise InputError(
                "this key was used with a different request body", field="Idempotency-Key"
            )
        return ("busy", None) if row[1] is None else ("stored", str(row[1]))

    def store_response(self, principal: str, key: str, response: str) -> None:
        self.engine.run(
            "UPDATE idempotency SET response = ? WHERE principal = ? AND key = ?",
            (response, principal, key),
        )

    def release_key(self, principal: str, key: str) -> None:
        """Forget a claimed key whose request failed, so it can be tried again."""
        self.engine.run(
            "DELETE FROM idempotency WHERE principal = ? AND key = ? AND response IS NULL",
            (principal, key),
        )

    # --- batches ---------------------------------------------------------------------------
    def create_batch(self, principal: str, lines: Sequence[bytes]) -> str:
        """Persist a batch of input lines (committed before this returns) and its id."""
        batch_id = "batch_" + uuid.uuid4().hex
        with self.engine.transaction():
            self.engine.run(
                "INSERT INTO batches (id, principal, created_at, status, total) "
                "VALUES (?, ?, ?, 'queued', ?)",
                (batch_id, principal, utc_now(), len(lines)),
            )
            self.engine.run_many(
                "INSERT INTO batch_lines (batch_id, line, input) VALUES (?, ?, ?)",
                [(batch_id, number, raw) for number, raw in enumerate(lines, start=1)],
            )
        return batch_id

    def batch(self, principal: str, batch_id: str) -> BatchInfo | None:
        row = self.engine.row(
            "SELECT b.id, b.principal, b.created_at, b.status, b.total, "
            "(SELECT COUNT(*) FROM batch_lines WHERE batch_id = b.id AND output IS NOT NULL), "
            "(SELECT COUNT(*) FROM batch_lines WHERE batch_id = b.id AND failed = 1), "
            "b.finished_at FROM batches AS b WHERE b.id = ? AND b.principal = ?",
            (batch_id, principal),
        )
        if row is None:
            return None
        key, who, created, status, total, done, failed, finished = row
        return BatchInfo(
            str(key),
            str(who),
            str(created),
            str(status),
            int(total),
            int(done),
            int(failed),
            finished if finished is None else str(finished),
        )

    def batch_results(self, batch_id: str) -> Iterator[str]:
        """The output records (JSON text) of the finished lines, in line order."""
        rows = self.engine.rows(
            "SELECT output FROM batch_lines WHERE batch_id = ? AND output IS NOT NULL "
            "ORDER BY line",
            (batch_id,),
        )
        for (output,) in rows:
            yield str(output)

    def claim_line(self, holder: str, lease_seconds: float, audit_size: int) -> BatchLine | None:
        """Take the next unfinished line nobody holds (a lease that ran out means its holder
        stopped), oldest batch first, for ``lease_seconds``: or None. On PostgreSQL the
        line's row is locked while it is taken and lines other hosts are taking are passed
        over, so one line goes to one holder. ``audit_size`` is recorded on its first claim."""
        now = time.time()
        row = self.engine.row(
            "UPDATE batch_lines SET holder = :holder, lease_until = :until, "
            "claims = claims + 1, "
            "audit_from = CASE WHEN claims = 0 THEN :size ELSE audit_from END "
            "WHERE (batch_id, line) IN (SELECT batch_id, line FROM batch_lines "
            "WHERE output IS NULL AND lease_until < :now "
            "ORDER BY (SELECT created_at FROM batches WHERE id = batch_id), batch_id, line "
            f"LIMIT 1 {self.engine.skip_locked}) "
            "RETURNING batch_id, line, input, claims, audit_from",
            {"holder": holder, "until": now + lease_seconds, "size": audit_size, "now": now},
        )
        if row is None:
            return None
        batch_id, line, raw, claims, audit_from = row
        self.engine.run(
            "UPDATE batches SET status = 'running' WHERE id = ? AND status = 'queued'",
            (batch_id,),
        )
        owner = self.engine.row("SELECT principal FROM batches WHERE id = ?", (batch_id,))
        assert owner is not None  # a line belongs to a batch (foreign key)
        return BatchLine(
            str(batch_id), str(owner[0]), int(line), bytes(raw), int(claims), int(audit_from)
        )

    def renew_line(self, line: BatchLine, holder: str, lease_seconds: float) -> bool:
        """Extend ``holder``'s lease on ``line``; False when it is no longer ``holder``'s."""
        return (
            self.engine.run(
                "UPDATE batch_lines SET lease_until = ? WHERE batch_id = ? AND line = ? "
                "AND holder = ? AND output IS NULL",
                (time.time() + lease_seconds, line.batch_id, line.line, holder),
            )
            > 0
        )

    def finish_line(self, line: BatchLine, holder: str, output: str, *, failed: bool) -> bool:
        """Store ``line``'s output record, if ``holder`` still holds it (the line keeps its
        holder's name: who finished it), and mark its batch done when it was the last line.
        False (nothing stored) when another holder took the line over or finished it."""
        with self.engine.transaction():
            stored = self.engine.run(
                "UPDATE batch_lines SET output = ?, failed = ? "
                "WHERE batch_id = ? AND line = ? AND holder = ? AND output IS NULL",
                (output, int(failed), line.batch_id, line.line, holder),
            )
            self.engine.run(
                "UPDATE batches SET status = 'done', finished_at = ? WHERE id = ? "
                "AND status != 'done' AND NOT EXISTS (SELECT 1 FROM batch_lines "
                "WHERE batch_id = ? AND output IS NULL)",
                (utc_now(), line.batch_id, line.batch_id),
            )
        return stored > 0

    # --- copying -----------------------------------------------------------------------------
    def row_counts(self) -> dict[str, int]:
        """How many rows each of the service's tables holds (``settings`` included)."""
        return {
            table: _count(self.engine.row(f"SELECT COUNT(*) FROM {table}")) for table in _COPIED
        }

    def copy_from(self, other: ServiceState) -> dict[str, int]:
        """Write every row of ``other``'s tables into this (empty) database, in one
        transaction, and return how many of each: the deployment key and token digests as
        they are, answers in the order they were recorded, batches with their lines, leases
        and results, idempotency keys with their stored responses. Raises `ServiceStateError`
        when this database holds rows already (nothing is written then)."""
        with self.engine.transaction():
            held = {table: n for table, n in self.row_counts().items() if n}
            if held:
                shown = ", ".join(f"{n} in {table}" for table, n in held.items())
                raise ServiceStateError(
                    f"{self.where}: holds service data already ({shown}): "
                    "a copy goes into an empty database only"
                )
            copied = {}
            for table, columns in _COPIED.items():
                order = _COPY_ORDER.get(table, columns.split(",")[0])
                rows = other.engine.rows(f"SELECT {columns} FROM {table} ORDER BY {order}")
                marks = ", ".join("?" for _ in columns.split(","))
                self.engine.run_many(
                    f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                    [_portable(row) for row in rows],
                )
                copied[table] = len(rows)
        return copied


_COUNT_KEY = re.compile(r"[a-z_]{1,40}")


_COPIED = {
    "settings": "name, value",
    "tokens": "name, digest, created_at",
    "answers": "answer_id, principal, request_id, audit_sequence, kind, counts, text, created_at",
    "idempotency": "principal, key, digest, response, created_at, claimed_at",
    "batches": "id, principal, created_at, status, total, lease_until, finished_at",
    "batch_lines": "batch_id, line, input, output, failed, holder, lease_until, claims, audit_from",
}
"""The service's tables and the columns a copy carries (an answer's ``seq`` is given anew,
in the original order)."""
_COPY_ORDER = {"answers": "seq", "batch_lines": "batch_id, line", "idempotency": "principal, key"}


def _count(row: tuple[Any, ...] | None) -> int:
    return int(row[0]) if row else 0


def _portable(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row read from one backend as the other takes it (a memoryview as bytes)."""
    return tuple(bytes(value) if isinstance(value, memoryview) else value for value in row)


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
