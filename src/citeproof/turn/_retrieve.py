"""Retrieval: passages of the stored sources that answer a question (the retriever).

A `Retriever` returns `Passage` values: a paragraph window of one source version, with its
source id, doc_id, version, paragraph range, character span, text and a deterministic
confidence in [0, 1]. The default, `StoreRetriever`, ranks with BM25 over the store's SQLite
FTS5 index.

Retrieval returns *evidence text only*. A rate sheet or a price list is retrieved as the text
it held when it was ingested, which may be out of date; current numeric values (today's
rate) come from the live-value service, never from a retriever, and are never stored as
evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from citeproof.model import Passage
from citeproof.sources import PassageHit, SourceStore

MAX_QUERY_TERMS = 32
WORD = re.compile(r"[^\W_]+")  # a searchable word: letters and digits, as FTS5 splits them
# Words too common to help ranking; they are still searched when a query has nothing else.
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers him his how i if in into is it its itself me
    more most my no nor not of off on once only or other our ours out over own same she should
    so some such than that the their theirs them then there these they this those through to
    too under until up very was we were what when where which while who whom why will with
    would you your yours""".split()  # noqa: SIM905 - a word list reads better as text
)


@runtime_checkable
class Retriever(Protocol):
    """Anything that finds passages for a query.

    Implementations must be deterministic: the same query over the same sources gives the
    same passages, in the same order, with the same confidences; ``limit`` caps the count;
    a query with no searchable words gives ``[]``; no query text ever raises.
    """

    def retrieve(self, query: str, *, limit: int = 8) -> list[Passage]: ...


def query_terms(query: str) -> list[str]:
    """The distinct searchable words of ``query``, lowercased, in first-seen order; common
    words are dropped unless the query has nothing else. At most `MAX_QUERY_TERMS`."""
    words = list(dict.fromkeys(word.casefold() for word in WORD.findall(query)))
    meaningful = [word for word in words if word not in STOPWORDS]
    return (meaningful or words)[:MAX_QUERY_TERMS]


def fts5_query(terms: Sequence[str]) -> str:
    """An FTS5 expression matching any of ``terms``, each a quoted string, so no user text
    is ever read as FTS5 syntax (``NEAR``, ``*``, ``-``, ``:``, column filters...)."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


class StoreRetriever:
    """BM25 over the store's FTS5 passage index.

    ``include_superseded`` also searches old versions; ``principals``, when given, keeps only
    sources whose access list names one of them (or that have none).

    Confidence: ``coverage * s / (s + 2)``, where ``coverage`` is the share of the query's
    searchable words found in the passage and ``s`` the BM25 score per query word (words in
    more than half of all passages are not searched: they carry no BM25 weight). It is a
    deterministic ranking signal, not a probability. Passages are returned by confidence,
    then BM25 score, then source id and paragraph: the same inputs, the same output.
    """

    def __init__(
        self,
        store: SourceStore,
        *,
        include_superseded: bool = False,
        principals: Iterable[str] | None = None,
    ) -> None:
        self.store = store
        self.include_superseded = include_superseded
        self.principals = frozenset(principals) if principals is not None else None

    def retrieve(self, query: str, *, limit: int = 8) -> list[Passage]:
        terms = query_terms(query)
        if not terms or limit <= 0:
            return []
        hits = self.store.search(
            fts5_query(self._weighted(terms)),
            limit=max(limit * 3, 24),
            include_superseded=self.include_superseded,
            principals=self.principals,
        )
        scored = [(confidence(hit, terms), hit) for hit in hits]
        # Ties by content (the version's hash) before id: an id hashes the file's path.
        scored.sort(
            key=lambda pair: (
                -pair[0],
                -pair[1].score,
                pair[1].version,
                pair[1].source_id,
                pair[1].first,
            )
        )
        return [_passage(hit, score) for score, hit in scored[:limit]]

    def _weighted(self, terms: list[str]) -> list[str]:
        """The terms worth searching: a word in more than half of the passages has no BM25
        weight (FTS5 clamps its idf to ~0), so searching it only slows the query down; it is
        dropped unless every word of the query is that common."""
        half = self.store.passage_count() / 2
        frequencies = self.store.passage_frequencies(terms)
        kept = [term for term in terms if frequencies.get(term, 0) <= half]
        return kept or terms


def confidence(hit: PassageHit, terms: Sequence[str]) -> float:
    """The confidence of one hit for the query ``terms`` (see `StoreRetriever`)."""
    words = {word.casefold() for word in WORD.findall(hit.text)}
    found = sum(term in words for term in terms)
    coverage = found / len(terms)
    per_term = max(hit.score, 0.0) / len(terms)
    return round(coverage * per_term / (per_term + 2.0), 4)


def _passage(hit: PassageHit, score: float) -> Passage:
    return Passage(
        source_id=hit.source_id,
        doc_id=hit.doc_id,
        version=hit.version,
        paragraphs=(hit.first, hit.last),
        span=hit.span,
        text=hit.text,
        confidence=score,
    )


class StaticRetriever:
    """A fixed list of passages, for tests of other stages: returns those sharing a word
    with the query, by confidence (then source id and paragraph), at most ``limit``."""

    def __init__(self, passages: Iterable[Passage]) -> None:
        self.passages = tuple(passages)

    def retrieve(self, query: str, *, limit: int = 8) -> list[Passage]:
        terms = set(query_terms(query))
        if not terms or limit <= 0:
            return []
        found = [
            passage
            for passage in self.passages
            if terms & {word.casefold() for word in WORD.findall(passage.text)}
        ]
        found.sort(key=lambda p: (-p.confidence, p.source_id, p.paragraphs))
        return found[:limit]
