"""Framework documents ↔ `Source`, against the real LangChain, LlamaIndex and Haystack (F.4)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from haystack import Document as HaystackDocument
from langchain_core.documents import Document as LangChainDocument
from llama_index.core.schema import NodeWithScore, TextNode

from citeproof import verify
from citeproof.adapters import (
    from_haystack,
    from_langchain,
    from_llamaindex,
    to_haystack,
    to_langchain,
    to_llamaindex,
)
from citeproof.errors import SourceError
from citeproof.model import Source

POLICY = (
    "Applications above 80% loan-to-value must be referred to a senior underwriter.\n\n"
    "Valuations older than six months are not accepted."
)
ANSWER = 'The policy: "Valuations older than six months are not accepted." [{id}]'
DOC = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"


def test_a_langchain_document_keeps_its_id_and_metadata_F_4() -> None:
    document = LangChainDocument(
        page_content=POLICY,
        id="policy-7",
        metadata={"source": "https://intranet.example/policy.pdf", "page": 3, "version": "v12"},
    )
    source = from_langchain(document)
    assert (source.id, source.version, source.url) == (
        "policy-7",
        "v12",
        "https://intranet.example/policy.pdf",
    )
    assert source.title == "https://intranet.example/policy.pdf, page 3"
    assert verify(ANSWER.format(id="policy-7"), [source]).quotes[0].status == "verified"
    back = to_langchain(source)
    assert back.id == "policy-7" and back.page_content == POLICY
    assert back.metadata["doc_id"] == "https://intranet.example/policy.pdf"
    assert back.metadata["version"] == "v12"


def test_a_langchain_document_without_an_id_gets_the_same_id_for_the_same_text_F_4() -> None:
    first = from_langchain(LangChainDocument(page_content=POLICY))
    second = from_langchain(LangChainDocument(page_content=POLICY, metadata={"title": "P"}))
    assert first.id == second.id and first.id.startswith("doc-")


def test_a_retrieved_llamaindex_node_keeps_its_node_id_and_document_F_4() -> None:
    node = TextNode(
        text=POLICY,
        id_="node-3f2a",
        metadata={"file_name": "policy.pdf", "page_label": "3", "url": "https://x.example/p"},
    )
    source = from_llamaindex(NodeWithScore(node=node, score=0.82))
    assert source.id == "node-3f2a"
    assert source.title == "policy.pdf, page 3" and source.url == "https://x.example/p"
    assert verify(ANSWER.format(id="node-3f2a"), [source]).quotes[0].status == "verified"
    back = to_llamaindex(source)
    assert back.node_id == "node-3f2a" and back.get_content() == POLICY
    assert back.metadata["title"] == "policy.pdf, page 3"


def test_a_haystack_document_keeps_its_content_hash_id_and_meta_F_4() -> None:
    document = HaystackDocument(
        content=POLICY, meta={"title": "Credit policy", "version": "2025-03"}
    )
    source = from_haystack(document, kind="attachment")
    assert source.id == document.id and len(source.id) == 64
    assert (source.title, source.version, source.kind) == ("Credit policy", "2025-03", "attachment")
    back = to_haystack(source)
    assert back.id == document.id and back.content == POLICY
    assert back.meta == {"title": "Credit policy", "version": "2025-03", "kind": "attachment"}


def test_a_haystack_document_without_text_is_refused_with_its_id_F_4() -> None:
    document = HaystackDocument(id="img-1", blob=None, content=None)
    with pytest.raises(SourceError, match=r"img-1.*no text content"):
        from_haystack(document)


def test_a_round_trip_through_every_framework_keeps_the_source_F_4() -> None:
    source = Source(
        id="policy",
        kind="document",
        text=POLICY,
        title="Credit policy",
        doc_id="file:0123456789abcdef",
        version="v3",
        url="https://intranet.example/policy",
    )
    assert from_langchain(to_langchain(source)) == source
    assert from_llamaindex(to_llamaindex(source)) == source
    assert from_haystack(to_haystack(source)) == source


def test_the_documented_langchain_example_runs_F_4() -> None:
    block = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)[1]
    assert len([line for line in block.splitlines() if line.strip()]) <= 10
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(DOC), "exec"), {"policy_text": POLICY})
    assert printed.getvalue().splitlines() == ["verified policy.pdf, page 3", "policy.pdf"]


@pytest.mark.parametrize(
    ("number", "printed"),
    [(2, ["verified policy.pdf, page 3"]), (3, ["verified"])],
    ids=["llamaindex", "haystack"],
)
def test_the_documented_llamaindex_and_haystack_examples_run_F_4(
    number: int, printed: list[str]
) -> None:
    block = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)[number]
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(block, str(DOC), "exec"), {"policy_text": POLICY})
    assert output.getvalue().splitlines() == printed
