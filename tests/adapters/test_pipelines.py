"""Verification inside a real LangChain chain and a real Haystack pipeline (F.4)."""

from __future__ import annotations

import pytest
from haystack import Document as HaystackDocument
from haystack import Pipeline
from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
from haystack.document_stores.in_memory import InMemoryDocumentStore
from langchain_core.documents import Document as LangChainDocument
from langchain_core.runnables import RunnableLambda

from citeproof.adapters import haystack_verifier, langchain_verifier
from citeproof.errors import InputError

POLICY = "Valuations older than six months are not accepted."
RATES = "The standard variable rate is 7.49% from 1 March 2025."


def test_a_langchain_chain_ends_in_the_verified_answer_F_4() -> None:
    documents = [
        LangChainDocument(page_content=POLICY, id="policy"),
        LangChainDocument(page_content=RATES, id="rates"),
    ]

    def answer_with(question: str) -> dict[str, object]:
        answer = 'The policy: "Valuations older than six months are not accepted." [policy]'
        return {"answer": answer, "documents": documents}

    chain = RunnableLambda(answer_with) | langchain_verifier()
    verified = chain.invoke("Which valuations are accepted?")
    assert [(q.status, q.source) for q in verified.quotes] == [("verified", "policy")]


def test_the_langchain_runnable_names_a_missing_input_F_4() -> None:
    with pytest.raises(InputError, match="documents"):
        langchain_verifier().invoke({"answer": "x"})


def test_a_haystack_pipeline_verifies_against_what_its_retriever_found_F_4() -> None:
    store = InMemoryDocumentStore()
    policy = HaystackDocument(content=POLICY, meta={"title": "Credit policy"})
    store.write_documents([policy, HaystackDocument(content=RATES)])
    pipeline = Pipeline()
    pipeline.add_component("retriever", InMemoryBM25Retriever(document_store=store, top_k=2))
    pipeline.add_component("verifier", haystack_verifier())
    pipeline.connect("retriever.documents", "verifier.documents")
    # Haystack ids are 64 hex digits: written as <cite:ID>, the form citeproof's prompt asks for.
    answer = f'The policy: "Valuations older than six months are not accepted." <cite:{policy.id}>'
    result = pipeline.run(
        {"retriever": {"query": "valuations accepted"}, "verifier": {"answer": answer}}
    )
    verified = result["verifier"]["verified"]
    assert [(q.status, q.source) for q in verified.quotes] == [("verified", policy.id)]
    assert {s.title for s in verified.sources} >= {"Credit policy"}
