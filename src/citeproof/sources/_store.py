"""The source store: every version of every source, in one SQLite file (WAL mode) or in
PostgreSQL.

What callers may rely on:

- A source row is never deleted and never changes its text. Re-ingesting an unchanged file
  changes nothing; a changed file adds a new version (``revision`` + 1) and marks the previous
  one superseded (``superseded_by`` the new id), which stays readable by id.
- Each file is ingested in one transaction (`ingest_file`), or with the others of its batch in
  one (`put_many`, as `ingest_files` stores): a file that fails to read or to store leaves the
  store exactly as it was.
- An access list belongs to a document, not to one of its versions: ingesting a file (added,
  new version, unchanged or restored) sets the readers of every version of each document it
  holds to the ``acl`` given, and `set_readers` changes them explicitly. What a reply reports
  as a source's readers is what the store then holds: a reader left out is revoked, old
  versions included.
- Passages (paragraph windows) of every version are indexed for retrieval (FTS5 in SQLite,
  word counts ranked by the same BM25 in PostgreSQL); searches see only current versions
  unless asked otherwise.
- The store is one SQLite file, or a PostgreSQL database named by URL that several hosts
  share (`citeproof.database`): ingests and access-list changes are serialised across them.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import ClassVar, Literal, Self

from citeproof.database import (
    Engine,
    Migration,
    is_database_url,
    migrate,
    open_engine,
)
from citeproof.errors import DatabaseError, SourceError, UnknownSourceError
from citeproof.model import Source, SourceKind, Span
from citeproof.sources._build import Draft, FileDrafts, read_file
from citeproof.sources._limits import DEFAULT_LIMITS, ReadLimits
from citeproof.sources._passage_index import POSTGRES_TABLES, SQLITE_TABLES, passage_index
from citeproof.sources._windows import passage_windows

SCHEMA_VERSION = 2
"""The last step of `MIGRATIONS`."""
COMPONENT = "sources"
MIGRATIONS = (
    Migration(
        1,
        "sources, passages and their index",
        both=(
            """CREATE TABLE IF NOT EXISTS sources (
    id             TEXT PRIMARY KEY,
    doc_id         TEXT NOT NULL,
    revision       {int} NOT NULL,
    version        TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('document', 'attachment', 'email_body')),
    title          TEXT,
    url            TEXT,
    text           TEXT NOT NULL,
    paragraphs     TEXT NOT NULL,
    quoted_spans   TEXT NOT NULL,
    retrieved_at   TEXT NOT NULL,
    parent_doc_id  TEXT,
    message_id     TEXT,
    acl            TEXT,
    superseded     {int} NOT NULL DEFAULT 0,
    superseded_by  TEXT,
    origin         TEXT NOT NULL,
    content_hash   TEXT NOT NULL,
    UNIQUE (doc_id, revision)
)""",
            "CREATE INDEX IF NOT EXISTS sources_by_doc ON sources (doc_id, superseded)",
            "CREATE INDEX IF NOT EXISTS sources_by_parent ON sources (parent_doc_id)",
            "CREATE INDEX IF NOT EXISTS sources_by_message ON sources (message_id)",
            """CREATE TABLE IF NOT EXISTS passages (
    id         {rowid},
    source_id  TEXT NOT NULL REFERENCES sources (id),
    first      {int} NOT NULL,
    last       {int} NOT NULL,
    start      {int} NOT NULL,
    "end"      {int} NOT NULL
)""",
            "CREATE INDEX IF NOT EXISTS passages_by_source ON passages (source_id)",
        ),
        sqlite=SQLITE_TABLES,
        postgresql=POSTGRES_TABLES,
    ),
    Migration(
        2,
        "each source's paragraphs in the document's own terms",
        both=("ALTER TABLE sources ADD COLUMN locations TEXT",),
    ),
)
"""The store's schema, step by step (`citeproof.database.migrate`); a store made before
migrations were recorded holds step 1 already. ``locations`` (step 2) is a JSON list, one
location per paragraph (`Source.locations`), NULL where none was read: sources stored before
it keep their paragraph counts."""

_COLUMNS = (
    "id, doc_id, revision, version, kind, title, url, text, paragraphs, quoted_spans, "
    "retrieved_at, parent_doc_id, message_id, acl, superseded, superseded_by, origin, "
    "content_hash, locations"
)

ChangeStatus = Literal["added", "new_version", "unchanged", "restored", "withdrawn"]


@dataclass(frozen=True, slots=True)
class StoredSource:
    """A source as stored, with what the store knows about it.

    ``revision`` counts the versions of ``source.doc_id`` from 1; ``acl`` is the principals
    allowed to read it (``None``: everyone); ``parent_doc_id`` and ``message_id`` link an
    attachment to its message; ``quoted_spans`` are the spans of quoted reply history in the
    text; ``origin`` the file it was read from.
    """

    source: Source
    revision: int
    acl: tuple[str, ...] | None
    superseded: bool
    superseded_by: str | None
    parent_doc_id: str | None
    message_id: str | None
    quoted_spans: tuple[Span, ...]
    origin: str
    content_hash: str

    @property
    def id(self) -> str:
        return self.source.id

    @property
    def doc_id(self) -> str:
        return self.source.doc_id or ""

    @property
    def kind(self) -> SourceKind:
        return self.source.kind

    def quoted_paragraphs(self) -> tuple[int, ...]:
        """1-based numbers of the paragraphs that are quoted reply history."""
        return tuple(
            number
            for number, (start, end) in enumerate(self.source.paragraph_spans(), start=1)
            if any(qs <= start and end <= qe for qs, qe in self.quoted_spans)
        )

    def readable_by(self, principals: Iterable[str]) -> bool:
        """Whether any of ``principals`` may read this source (always, without an acl)."""
        return self.acl is None or not set(self.acl).isdisjoint(principals)


@dataclass(frozen=True, slots=True)
class StoredChange:
    """What ingesting did to one source: ``added`` (a new document), ``new_version``,
    ``unchanged``, ``restored`` (the file went back to an earlier version's content) or
    ``withdrawn`` (an attachment no longer in its changed message, now superseded)."""

    source_id: str
    doc_id: str
    kind: SourceKind
    title: str | None
    revision: int
    status: ChangeStatus


@dataclass(frozen=True, slots=True)
class IngestResult:
    """The outcome of ingesting one file.

    ``problems`` name parts that failed to read (a damaged attachment) while the rest of the
    file was stored; ``skipped`` name attachments in formats citeproof does not read;
    ``clashes`` name messages from other files that carry the same Message-ID (both are kept
    as distinct sources: a header never makes one message replace another).
    """

    path: Path
    changes: tuple[StoredChange, ...]
    problems: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    clashes: tuple[str, ...] = ()

    def count(self, status: ChangeStatus) -> int:
        return sum(change.status == status for change in self.changes)


@dataclass(frozen=True, slots=True)
class PassageHit:
    """One FTS5 match: a passage of a source and its BM25 score (higher is better)."""

    source_id: str
    doc_id: str
    version: str
    first: int
    last: int
    span: Span
    text: str
    score: float


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso_utc(moment: datetime) -> str:
    """``2026-03-10T16:42:05Z``: ISO 8601, UTC, whole seconds."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def is_source_store(path: Path) -> bool:
    """Whether ``path`` is an existing citeproof source store, checked without writing to it
    (opening a `SourceStore` creates the tables in whatever SQLite file it is given)."""
    if not path.is_file():
        return False
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as db:
            found = db.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                "AND name IN ('sources', 'passages')"
            ).fetchone()[0]
    except sqlite3.DatabaseError:
        return False
    return bool(found == 2)


class SourceStore:
    """Sources in one SQLite file, or in the PostgreSQL database ``path`` names by URL. Use as
    a context manager, or call `close`.

    ``clock`` gives the time recorded as ``retrieved_at`` when a version is first stored.
    """

    COMPONENT: ClassVar[str] = COMPONENT
    MIGRATIONS: ClassVar[tuple[Migration, ...]] = MIGRATIONS
    """The store's schema, as `citeproof.database.schema_status` reads it."""

    def __init__(self, path: Path | str, *, clock: Callable[[], datetime] = utc_now) -> None:
        url = is_database_url(path)
        self.path = Path(path) if not url else Path(".")
        self._clock = clock
        self._engine: Engine | None = None
        try:
            self._engine = open_engine(os.fspath(path))
            self.where = self._engine.where
            if not url:
                _check_sqlite_version(self._engine)
            migrate(self._engine, COMPONENT, MIGRATIONS)
        except DatabaseError as error:
            where = self._engine.where if self._engine else os.fspath(path)
            if url:
                where = where if self._engine else "the PostgreSQL URL given"
            self.close()
            raise SourceError(f"not a citeproof store: {error}", where=where) from None
        self._index = passage_index(self._engine)

    @property
    def engine(self) -> Engine:
        assert self._engine is not None  # set or raised in __init__
        return self._engine

    # --- lifecycle -----------------------------------------------------------------------
    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # --- writing -------------------------------------------------------------------------
    def ingest_file(
        self,
        path: Path | str,
        *,
        acl: Sequence[str] | None = None,
        version: str | None = None,
        trusted_roots: Sequence[Path] = (),
        limits: ReadLimits = DEFAULT_LIMITS,
    ) -> IngestResult:
        """Read ``path`` and store what it holds, in one transaction.

        ``acl`` lists the principals allowed to read the documents read from it, every version
        (``None``: everyone);
        ``version`` overrides the content-hash version; ``trusted_roots`` are folders whose
        messages are identified by Message-ID (see `citeproof.sources._build.read_file`);
        ``limits`` bound the reading. Raises `SourceError` naming the file when it cannot be
        read or breaks a limit; nothing is stored for it then.
        """
        file = read_file(Path(path), version=version, trusted_roots=trusted_roots, limits=limits)
        return self.put(file, acl=acl)

    def put(self, file: FileDrafts, *, acl: Sequence[str] | None = None) -> IngestResult:
        """Store the drafts read from one file (see `ingest_file`)."""
        (result,) = self.put_many([file], acl=acl)
        return result

    def put_many(
        self, files: Sequence[FileDrafts], *, acl: Sequence[str] | None = None
    ) -> list[IngestResult]:
        """Store the drafts read from several files, one after the other, in one transaction:
        what `put` of each in turn would store and report, or nothing at all when one of them
        raises. A commit per file costs more than most files' rows (SQLite writes the WAL and
        FTS5 flushes a new index segment at each), so `ingest_files` stores its files a batch
        at a time this way."""
        acl_json = json.dumps(sorted(set(acl))) if acl is not None else None
        with self.engine.transaction():
            self.engine.lock(_WRITE_LOCK)
            return [self._put_file(file, acl_json, iso_utc(self._clock())) for file in files]

    def _put_file(self, file: FileDrafts, acl_json: str | None, now: str) -> IngestResult:
        changes: list[StoredChange] = []
        clashes = self._clashes(file)
        for draft in file.drafts:
            changes.append(self._put_draft(draft, acl_json, now))
        body_ids = {d.id for d in file.drafts}
        if file.drafts and file.drafts[0].kind == "email_body":
            changes.extend(self._withdraw_missing(file.doc_id, body_ids, file.drafts[0].id))
        for doc_id in dict.fromkeys(change.doc_id for change in changes):
            self._set_acl(doc_id, acl_json)
        return IngestResult(file.path, tuple(changes), file.problems, file.skipped, clashes)

    def set_readers(self, doc_id: str, acl: Sequence[str] | None) -> tuple[str, ...] | None:
        """Make ``acl`` (``None``: everyone) the readers of every version of ``doc_id`` and
        return the access list now stored. Raises `UnknownSourceError` for an unknown doc_id."""
        acl_json = json.dumps(sorted(set(acl))) if acl is not None else None
        with self.engine.transaction():
            self.engine.lock(_WRITE_LOCK)
            if not self._set_acl(doc_id, acl_json):
                raise UnknownSourceError(f"no document {doc_id!r} in the store")
        return self.readers(doc_id)

    def readers(self, doc_id: str) -> tuple[str, ...] | None:
        """The access list stored for ``doc_id`` (``None``: everyone). Raises
        `UnknownSourceError` for an unknown doc_id."""
        row = self.engine.row(
            "SELECT acl FROM sources WHERE doc_id = ? ORDER BY revision DESC LIMIT 1", (doc_id,)
        )
        if row is None:
            raise UnknownSourceError(f"no document {doc_id!r} in the store")
        return tuple(json.loads(row[0])) if isinstance(row[0], str) else None

    def _set_acl(self, doc_id: str, acl_json: str | None) -> bool:
        return (
            self.engine.run("UPDATE sources SET acl = ? WHERE doc_id = ?", (acl_json, doc_id)) > 0
        )

    def _clashes(self, file: FileDrafts) -> tuple[str, ...]:
        """Current messages of other origins that carry this file's Message-ID."""
        body = file.drafts[0] if file.drafts else None
        if body is None or body.kind != "email_body" or not body.message_id:
            return ()
        rows = self.engine.rows(
            "SELECT DISTINCT origin FROM sources WHERE kind = 'email_body' AND message_id = ? "
            "AND doc_id != ? AND superseded = 0 ORDER BY origin",
            (body.message_id, body.doc_id),
        )
        return tuple(
            f"{file.path}: Message-ID <{body.message_id}> is also the Message-ID of {origin}; "
            "both are kept as separate sources"
            for (origin,) in rows
        )

    def _put_draft(self, draft: Draft, acl_json: str | None, now: str) -> StoredChange:
        row = self.engine.row(
            "SELECT doc_id, content_hash, revision, superseded FROM sources WHERE id = ?",
            (draft.id,),
        )
        current = self.engine.row(
            "SELECT id FROM sources WHERE doc_id = ? AND superseded = 0", (draft.doc_id,)
        )
        if row is not None:
            if (row[0], row[1]) != (draft.doc_id, draft.content_hash):  # pragma: no cover
                raise SourceError(f"id collision on {draft.id}", where=draft.origin)
            if not row[3]:
                return _change(draft, row[2], "unchanged")
            self._supersede(current[0] if current else None, draft.id)
            self.engine.run(
                "UPDATE sources SET superseded = 0, superseded_by = NULL WHERE id = ?",
                (draft.id,),
            )
            return _change(draft, row[2], "restored")
        found = self.engine.row(
            "SELECT COALESCE(MAX(revision), 0) + 1 FROM sources WHERE doc_id = ?",
            (draft.doc_id,),
        )
        revision = int(found[0]) if found else 1
        self._supersede(current[0] if current else None, draft.id)
        self._insert(draft, revision, acl_json, now)
        return _change(draft, revision, "added" if revision == 1 else "new_version")

    def _supersede(self, old_id: str | None, new_id: str) -> None:
        if old_id is not None:
            self.engine.run(
                "UPDATE sources SET superseded = 1, superseded_by = ? WHERE id = ?",
                (new_id, old_id),
            )

    def _insert(self, draft: Draft, revision: int, acl_json: str | None, now: str) -> None:
        self.engine.run(
            f"INSERT INTO sources ({_COLUMNS}) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, ?)",
            (
                draft.id,
                draft.doc_id,
                revision,
                draft.version,
                draft.kind,
                draft.title,
                draft.url,
                draft.text,
                json.dumps(draft.paragraphs),
                json.dumps(draft.quoted_spans),
                now,
                draft.parent_doc_id,
                draft.message_id,
                acl_json,
                draft.origin,
                draft.content_hash,
                _locations_json(draft.locations),
            ),
        )
        for window in passage_windows(draft.paragraphs, draft.quoted_spans):
            start, end = window.span
            added = self.engine.row(
                'INSERT INTO passages (source_id, first, last, start, "end") '
                "VALUES (?, ?, ?, ?, ?) RETURNING id",
                (draft.id, window.first, window.last, start, end),
            )
            assert added is not None  # RETURNING gives the new row
            self._index.add(int(added[0]), draft.text[start:end])

    def _withdraw_missing(
        self, message_doc_id: str, kept: set[str], body_id: str
    ) -> list[StoredChange]:
        """Supersede current attachments of a message that its new version no longer has."""
        rows = self.engine.rows(
            "SELECT id FROM sources WHERE parent_doc_id = ? AND superseded = 0 ORDER BY id",
            (message_doc_id,),
        )
        changes: list[StoredChange] = []
        for (source_id,) in rows:
            if source_id in kept:
                continue
            self._supersede(source_id, body_id)
            record = self.record(source_id)
            changes.append(
                StoredChange(
                    source_id,
                    record.doc_id,
                    record.kind,
                    record.source.title,
                    record.revision,
                    "withdrawn",
                )
            )
        return changes

    def copy_from(self, other: SourceStore) -> tuple[int, int]:
        """Write every source of ``other`` (each version, superseded or not, with its access
        list, origin and locations, as stored) and its passages into this empty store, in one
        transaction, indexing the passages for this backend; return (sources, passages).
        Raises `SourceError` when this store holds sources already (nothing is written)."""
        passages = 0
        with self.engine.transaction():
            self.engine.lock(_WRITE_LOCK)
            held = self.count(include_superseded=True)
            if held:
                raise SourceError(
                    f"holds {held} sources already: a copy goes into an empty store only",
                    where=self.where,
                )
            rows = other.engine.rows(f"SELECT {_COLUMNS} FROM sources ORDER BY doc_id, revision")
            marks = ", ".join("?" for _ in _COLUMNS.split(","))
            for row in rows:
                self.engine.run(f"INSERT INTO sources ({_COLUMNS}) VALUES ({marks})", row)
                source_id, text = str(row[0]), str(row[7])
                windows = other.engine.rows(
                    'SELECT first, last, start, "end" FROM passages WHERE source_id = ? '
                    "ORDER BY id",
                    (source_id,),
                )
                for first, last, start, end in windows:
                    added = self.engine.row(
                        'INSERT INTO passages (source_id, first, last, start, "end") '
                        "VALUES (?, ?, ?, ?, ?) RETURNING id",
                        (source_id, first, last, start, end),
                    )
                    assert added is not None  # RETURNING gives the new row
                    self._index.add(int(added[0]), text[int(start) : int(end)])
                passages += len(windows)
        return len(rows), passages

    # --- reading -------------------------------------------------------------------------
    def get(self, source_id: str) -> Source:
        """The source with that id, current or superseded. Raises `UnknownSourceError`."""
        return self.record(source_id).source

    def record(self, source_id: str) -> StoredSource:
        """The stored record of that id. Raises `UnknownSourceError`."""
        row = self.engine.row(f"SELECT {_COLUMNS} FROM sources WHERE id = ?", (source_id,))
        if row is None:
            raise UnknownSourceError(f"no source {source_id!r} in {self.where}")
        return _stored(row)

    def current(self, ids: Iterable[str] | None = None) -> list[StoredSource]:
        """Current (not superseded) sources, ordered by id; only those in ``ids`` if given."""
        if ids is None:
            rows = self.engine.rows(
                f"SELECT {_COLUMNS} FROM sources WHERE superseded = 0 ORDER BY id"
            )
        else:
            rows = self.engine.rows(
                f"SELECT {_COLUMNS} FROM sources WHERE superseded = 0 "
                f"AND id IN ({self.engine.json_values('?')}) ORDER BY id",
                (json.dumps(list(ids)),),
            )
        return [_stored(row) for row in rows]

    def versions(self, doc_id: str) -> list[StoredSource]:
        """Every version of one document, oldest (revision 1) first."""
        rows = self.engine.rows(
            f"SELECT {_COLUMNS} FROM sources WHERE doc_id = ? ORDER BY revision", (doc_id,)
        )
        return [_stored(row) for row in rows]

    def attachments(self, message_doc_id: str) -> list[StoredSource]:
        """The current attachments of a message, by file name."""
        rows = self.engine.rows(
            f"SELECT {_COLUMNS} FROM sources WHERE parent_doc_id = ? AND superseded = 0 "
            "ORDER BY title, id",
            (message_doc_id,),
        )
        return [_stored(row) for row in rows]

    def count(self, *, include_superseded: bool = False) -> int:
        """How many sources (current ones only, by default)."""
        where = "" if include_superseded else " WHERE superseded = 0"
        return _count(self.engine.row("SELECT COUNT(*) FROM sources" + where))

    def passage_count(self) -> int:
        """How many passages the index holds (every version)."""
        return _count(self.engine.row("SELECT COUNT(*) FROM passages"))

    def passage_frequencies(self, terms: Iterable[str]) -> dict[str, int]:
        """For each indexed term among ``terms``, how many passages contain it (every
        version). Terms are as FTS5 indexes them: lowercased, without diacritics."""
        return self._index.frequencies(terms)

    def search(
        self,
        match: str,
        *,
        limit: int,
        include_superseded: bool = False,
        principals: Iterable[str] | None = None,
    ) -> list[PassageHit]:
        """The ``limit`` best passages matching the FTS5 expression ``match``: highest BM25
        score first, ties broken by source id then paragraph. Only current versions unless
        ``include_superseded``; with ``principals``, only sources readable by one of them.

        The expression is passed to FTS5 as is: build it with `citeproof.turn._retrieve`, which
        quotes user text.
        """
        if limit <= 0:
            return []
        readers = json.dumps(sorted(set(principals))) if principals is not None else None
        fetch = max(2 * limit, 32)
        while True:
            ranked = self._index.ranked(match, fetch)
            scores = dict(ranked)
            allowed = self._allowed(list(scores), include_superseded, readers)
            # Ties by content (the version's hash), not by id: an id hashes the file's path,
            # and the same files ingested in another folder must rank the same.
            allowed.sort(key=lambda row: (-scores[row[0]], row[3], row[1], row[2]))
            if len(ranked) < fetch:
                break  # every match was seen
            lowest = float(ranked[-1][1])
            if len(allowed) >= limit and scores[allowed[limit - 1][0]] > lowest:
                break  # nothing unseen can reach the top `limit`, not even on a tie
            fetch *= 4
        return [self._hit(passage_id, scores[passage_id]) for passage_id, *_ in allowed[:limit]]

    def _allowed(
        self, passage_ids: list[int], include_superseded: bool, readers: str | None
    ) -> list[tuple[int, str, int, str]]:
        values = self.engine.json_values
        rows = self.engine.rows(
            f"""
            SELECT p.id, p.source_id, p.first, s.version
            FROM passages AS p JOIN sources AS s ON s.id = p.source_id
            WHERE p.id IN ({values(":ids", integer=True)})
              AND (:all = 1 OR s.superseded = 0)
              AND (:anyone = 1 OR s.acl IS NULL OR EXISTS (
                    SELECT 1 FROM ({values("s.acl")}) AS a
                    WHERE a.value IN ({values(":readers")})))
            """,
            {
                "ids": json.dumps(passage_ids),
                "all": int(include_superseded),
                "anyone": int(readers is None),
                "readers": readers or "[]",
            },
        )
        return [(int(pid), str(sid), int(first), str(v)) for pid, sid, first, v in rows]

    def _hit(self, passage_id: int, score: float) -> PassageHit:
        row = self.engine.row(
            'SELECT p.source_id, s.doc_id, s.version, p.first, p.last, p.start, p."end", '
            'substr(s.text, CAST(p.start + 1 AS INTEGER), CAST(p."end" - p.start AS INTEGER)) '
            "FROM passages AS p JOIN sources AS s ON s.id = p.source_id WHERE p.id = ?",
            (passage_id,),
        )
        assert row is not None  # a ranked passage exists
        source_id, doc_id, version, first, last, start, end, text = row
        return PassageHit(
            str(source_id),
            str(doc_id),
            str(version),
            int(first),
            int(last),
            (int(start), int(end)),
            str(text),
            score,
        )


_WRITE_LOCK = "source-store-writes"
"""Ingests and access-list changes hold it, so hosts sharing a PostgreSQL store take turns
(SQLite's writers queue for its write lock already)."""


def _check_sqlite_version(engine: Engine) -> None:
    """A SQLite store written by a newer citeproof (``user_version`` beyond ours) is refused
    rather than changed."""
    row = engine.row("PRAGMA user_version")
    version = int(row[0]) if row else 0
    if version > SCHEMA_VERSION:
        raise DatabaseError(f"the store was written by a newer citeproof (schema {version})")
    if version < SCHEMA_VERSION:
        engine.run(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _count(row: tuple[object, ...] | None) -> int:
    return int(str(row[0])) if row else 0


def _change(draft: Draft, revision: int, status: ChangeStatus) -> StoredChange:
    return StoredChange(draft.id, draft.doc_id, draft.kind, draft.title, revision, status)


def _spans(value: str) -> tuple[Span, ...]:
    return tuple((int(s), int(e)) for s, e in json.loads(value))


def _locations_json(locations: Sequence[str | None] | None) -> str | None:
    """The ``locations`` column: a JSON list, or NULL when no paragraph has a location."""
    return json.dumps(list(locations), ensure_ascii=False) if locations and any(locations) else None


def _locations(value: object) -> tuple[str | None, ...] | None:
    """The ``locations`` column read back (NULL: a source stored without them)."""
    if not isinstance(value, str):
        return None
    return tuple(item if isinstance(item, str) else None for item in json.loads(value)) or None


def _stored(row: tuple[object, ...]) -> StoredSource:
    (
        source_id,
        doc_id,
        revision,
        version,
        kind,
        title,
        url,
        text,
        paragraphs,
        quoted,
        retrieved_at,
        parent_doc_id,
        message_id,
        acl,
        superseded,
        superseded_by,
        origin,
        digest,
        locations,
    ) = row
    source = Source(
        id=str(source_id),
        kind=kind,  # type: ignore[arg-type]  # CHECK constraint keeps it a SourceKind
        text=str(text),
        title=title if isinstance(title, str) else None,
        doc_id=str(doc_id),
        version=str(version),
        url=url if isinstance(url, str) else None,
        paragraphs=_spans(str(paragraphs)) or None,
        retrieved_at=str(retrieved_at),
        locations=_locations(locations),
    )
    return StoredSource(
        source=source,
        revision=int(str(revision)),
        acl=tuple(json.loads(acl)) if isinstance(acl, str) else None,
        superseded=bool(superseded),
        superseded_by=superseded_by if isinstance(superseded_by, str) else None,
        parent_doc_id=parent_doc_id if isinstance(parent_doc_id, str) else None,
        message_id=message_id if isinstance(message_id, str) else None,
        quoted_spans=_spans(str(quoted)),
        origin=str(origin),
        content_hash=str(digest),
    )
