"""The full-text index of passages, one per backend of the source store: SQLite's FTS5, or
word counts in PostgreSQL tables ranked by the same BM25 (k1 = 1.2, b = 0.75, an idf that
is never below 1e-6, as FTS5's ``bm25()``).

Both read a query as FTS5 does for what `citeproof.turn._retrieve.fts5_query` writes: quoted
terms joined by ``OR``. Both split text into words the same way (letters and digits, lower
case, without diacritics), so a store copied from one backend to the other ranks alike.
"""

from __future__ import annotations

import json
import re
import unicodedata
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable

from citeproof.database import Engine
from citeproof.errors import SourceError

_WORD = re.compile(r"[^\W_]+")
_QUOTED = re.compile(r'"((?:[^"]|"")*)"')
_K1 = 1.2
_B = 0.75


def words(text: str) -> list[str]:
    """``text``'s words as the index keeps them: lower case, diacritics removed."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _WORD.findall(plain.lower())


class PassageIndex(ABC):
    """Adds passages' texts under their ids and ranks ids for a query."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @abstractmethod
    def add(self, passage_id: int, text: str) -> None:
        """Index ``text`` as passage ``passage_id`` (inside the caller's transaction)."""

    @abstractmethod
    def ranked(self, match: str, fetch: int) -> list[tuple[int, float]]:
        """The ``fetch`` best (passage id, BM25 score) for ``match``: highest first, ties by
        id."""

    @abstractmethod
    def frequencies(self, terms: Iterable[str]) -> dict[str, int]:
        """For each indexed term among ``terms``, how many passages contain it."""


class FTS5Index(PassageIndex):
    def add(self, passage_id: int, text: str) -> None:
        self.engine.run("INSERT INTO passage_index (rowid, text) VALUES (?, ?)", (passage_id, text))

    def ranked(self, match: str, fetch: int) -> list[tuple[int, float]]:
        rows = self.engine.rows(
            "SELECT rowid, -bm25(passage_index) FROM passage_index "
            "WHERE passage_index MATCH ? ORDER BY bm25(passage_index), rowid LIMIT ?",
            (match, fetch),
        )
        return [(int(rowid), float(score)) for rowid, score in rows]

    def frequencies(self, terms: Iterable[str]) -> dict[str, int]:
        rows = self.engine.rows(
            f"SELECT term, doc FROM passage_terms WHERE term IN ({self.engine.json_values('?')})",
            (json.dumps(sorted(set(terms))),),
        )
        return {str(term): int(doc) for term, doc in rows}


class WordCountIndex(PassageIndex):
    def add(self, passage_id: int, text: str) -> None:
        counts = Counter(words(text))
        self.engine.run(
            "INSERT INTO passage_sizes (passage_id, words) VALUES (?, ?)",
            (passage_id, sum(counts.values())),
        )
        self.engine.run_many(
            "INSERT INTO passage_words (term, passage_id, hits) VALUES (?, ?, ?)",
            [(term, passage_id, hits) for term, hits in sorted(counts.items())],
        )

    def ranked(self, match: str, fetch: int) -> list[tuple[int, float]]:
        terms = sorted({word for term in _query_terms(match) for word in words(term)})
        if not terms:
            return []
        rows = self.engine.rows(
            f"""
            WITH stats AS (
                SELECT COUNT(*) AS n, COALESCE(AVG(words), 1) AS mean FROM passage_sizes
            ), weights AS (
                SELECT w.term, GREATEST(LN((s.n - COUNT(*) + 0.5) / (COUNT(*) + 0.5)), 1e-6)
                       AS idf
                FROM passage_words AS w CROSS JOIN stats AS s
                WHERE w.term IN ({self.engine.json_values(":terms")})
                GROUP BY w.term, s.n
            )
            SELECT w.passage_id,
                   SUM(t.idf * (w.hits * {_K1 + 1}) / (w.hits + {_K1} * (
                       {1 - _B} + {_B} * z.words / s.mean))) AS score
            FROM passage_words AS w
            JOIN weights AS t ON t.term = w.term
            JOIN passage_sizes AS z ON z.passage_id = w.passage_id
            CROSS JOIN stats AS s
            GROUP BY w.passage_id
            ORDER BY score DESC, w.passage_id
            LIMIT :fetch
            """,
            {"terms": json.dumps(terms), "fetch": fetch},
        )
        return [(int(passage_id), float(score)) for passage_id, score in rows]

    def frequencies(self, terms: Iterable[str]) -> dict[str, int]:
        wanted = {term: " ".join(words(term)) for term in set(terms)}
        rows = self.engine.rows(
            "SELECT term, COUNT(*) FROM passage_words WHERE term IN "
            f"({self.engine.json_values('?')}) GROUP BY term",
            (json.dumps(sorted(set(wanted.values()))),),
        )
        found = {str(term): int(count) for term, count in rows}
        return {term: found[word] for term, word in wanted.items() if word in found}


def _query_terms(match: str) -> list[str]:
    """The quoted terms of an FTS5 ``"a" OR "b"`` expression, the only kind citeproof
    writes; anything else is refused, never read as another syntax."""
    terms = [term.replace('""', '"') for term in _QUOTED.findall(match)]
    rest = _QUOTED.sub("", match).replace("OR", "").strip()
    if rest or not terms:
        raise SourceError(f"not a search of quoted terms joined by OR: {match!r}")
    return terms


def passage_index(engine: Engine) -> PassageIndex:
    """The index of ``engine``'s backend."""
    return FTS5Index(engine) if engine.backend == "sqlite" else WordCountIndex(engine)


SQLITE_TABLES = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS passage_index USING fts5 ("
    "text, content = '', tokenize = 'unicode61 remove_diacritics 2')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS passage_terms USING fts5vocab (passage_index, 'row')",
)
POSTGRES_TABLES = (
    "CREATE TABLE IF NOT EXISTS passage_sizes ("
    "passage_id {int} PRIMARY KEY REFERENCES passages (id), words {int} NOT NULL)",
    "CREATE TABLE IF NOT EXISTS passage_words (term TEXT NOT NULL, "
    "passage_id {int} NOT NULL REFERENCES passages (id), hits {int} NOT NULL, "
    "PRIMARY KEY (term, passage_id))",
)
"""The index's tables on each backend (created with the store's, `_store.MIGRATIONS`)."""
