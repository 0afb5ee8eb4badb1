"""Retrieval: BM25 over FTS5, deterministic, never tripped by query syntax; the protocol."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof.model import Passage
from citeproof.sources import SourceStore, ingest_paths
from citeproof.turn import Retriever, StoreRetriever
from citeproof.turn._retrieve import StaticRetriever, fts5_query, query_terms
from tests.mailfixtures import build_mailbox, pdf_bytes

HOSTILE_QUERIES = [
    '"unbalanced quote',
    "loan*",
    "NEAR(loan value, 2)",
    "-valuation",
    "title:policy",
    "loan AND OR NOT",
    "^start {col} (paren",
    "",
    "   ",
    "*** --- :::",
    "__init__",
    "'; DROP TABLE sources; --",
    "ﬁnance café naïve",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SourceStore:
    root = tmp_path_factory.mktemp("retrieve")
    mailbox = build_mailbox(root / "box")
    store = SourceStore(root / "sources.db")
    ingest_paths(store, [mailbox.root])
    return store


def check_conformance(retriever: Retriever, query: str) -> None:
    """What every Retriever promises: passages, a limit, determinism, no syntax errors."""
    assert isinstance(retriever, Retriever)
    first = retriever.retrieve(query, limit=3)
    assert first == retriever.retrieve(query, limit=3)
    assert 0 < len(first) <= 3
    for passage in first:
        assert isinstance(passage, Passage)
        assert 0.0 <= passage.confidence <= 1.0
        assert passage.paragraphs[0] <= passage.paragraphs[1]
    assert retriever.retrieve(query, limit=0) == []
    for hostile in HOSTILE_QUERIES:
        assert isinstance(retriever.retrieve(hostile), list)


def test_store_retriever_conforms(store: SourceStore) -> None:
    check_conformance(StoreRetriever(store), "senior underwriter referral")


def test_static_retriever_conforms() -> None:
    passages = [
        Passage("d-1", "file:1", "v1", (1, 1), (0, 30), "refer to a senior underwriter", 0.9),
        Passage("d-2", "file:2", "v1", (2, 3), (10, 40), "the underwriter signs off", 0.4),
    ]
    check_conformance(StaticRetriever(passages), "senior underwriter referral")


def test_passage_with_the_query_terms_ranks_first(store: SourceStore) -> None:
    [top, *_] = StoreRetriever(store).retrieve("early repayment charges")
    assert top.text.endswith("The broker asked about early repayment charges.")
    assert store.get(top.source_id).title == "notes.txt"


def test_passage_points_into_its_source_version(store: SourceStore) -> None:
    for passage in StoreRetriever(store).retrieve("loan-to-value ratio underwriter", limit=8):
        source = store.get(passage.source_id)
        start, end = passage.span
        assert source.text[start:end] == passage.text
        assert (passage.doc_id, passage.version) == (source.doc_id, source.version)
        spans = source.paragraph_spans()
        first, last = passage.paragraphs
        assert (spans[first - 1][0], spans[last - 1][1]) == passage.span


def test_same_query_twice_gives_identical_results_and_scores(store: SourceStore) -> None:
    query = "valuation 412,000 pounds loan-to-value"
    one = StoreRetriever(store).retrieve(query)
    two = StoreRetriever(store).retrieve(query)
    assert one == two and len(one) >= 3
    confidences = [p.confidence for p in one]
    assert confidences == sorted(confidences, reverse=True)


def test_fts5_syntax_in_the_query_never_errors(store: SourceStore) -> None:
    retriever = StoreRetriever(store)
    for query in HOSTILE_QUERIES:
        assert isinstance(retriever.retrieve(query), list)
    assert retriever.retrieve('"senior" NEAR underwriter*')


def test_query_words_are_always_quoted() -> None:
    assert fts5_query(query_terms('title:"loan" NEAR(x) -y*')) == (
        '"title" OR "loan" OR "near" OR "x" OR "y"'
    )
    assert query_terms("what is the") == ["what", "is", "the"]
    assert query_terms("what is the rate") == ["rate"]


def test_superseded_versions_are_not_retrieved_by_default(tmp_path: Path) -> None:
    doc = tmp_path / "policy.pdf"
    doc.write_bytes(pdf_bytes(["Referral threshold: zebra percent."]))
    with SourceStore(tmp_path / "s.db") as store:
        old = store.ingest_file(doc).changes[0].source_id
        doc.write_bytes(pdf_bytes(["Referral threshold: giraffe percent."]))
        new = store.ingest_file(doc).changes[0].source_id
        assert StoreRetriever(store).retrieve("zebra") == []
        [hit] = StoreRetriever(store).retrieve("referral threshold")
        assert hit.source_id == new
        [past] = StoreRetriever(store, include_superseded=True).retrieve("zebra")
        assert past.source_id == old


def test_access_list_limits_what_a_principal_retrieves(tmp_path: Path) -> None:
    with SourceStore(tmp_path / "s.db") as store:
        mailbox = build_mailbox(tmp_path / "box")
        store.ingest_file(mailbox.text, acl=["priya"])
        store.ingest_file(mailbox.pdf)
        assert StoreRetriever(store, principals=["priya"]).retrieve("early repayment")
        assert not StoreRetriever(store, principals=["dan"]).retrieve("early repayment")
        assert StoreRetriever(store, principals=["dan"]).retrieve("loan-to-value")


def test_passages_tied_in_score_rank_the_same_wherever_the_files_live(tmp_path: Path) -> None:
    """An id hashes the file's absolute path, so ties broken by id would give the model its
    passages in another order when the same folder is ingested somewhere else; ties go by
    content instead."""
    texts = {
        "a.txt": "Refunds are paid within fourteen days of the return arriving.",
        "b.txt": "Refunds are paid within fourteen days of the claim being accepted.",
        "c.txt": "Refunds are paid within fourteen days of the order being cancelled.",
    }
    orders = set()
    for folder in ("north", "south", "east", "west", "inbox", "archive"):
        root = tmp_path / folder
        (root / "docs").mkdir(parents=True)
        for name, text in texts.items():
            (root / "docs" / name).write_text(text, encoding="utf-8")
        store = SourceStore(root / "sources.db")
        ingest_paths(store, [root / "docs"])
        passages = StoreRetriever(store).retrieve("refunds paid within fourteen days", limit=3)
        assert len(passages) == 3
        assert len({p.confidence for p in passages}) == 1  # a tie, which content breaks
        orders.add(tuple(p.text for p in passages))
        store.close()
    assert len(orders) == 1, orders
