"""The documents of the common frameworks ↔ `Source`, keeping ids and metadata.

LangChain ``Document``, LlamaIndex ``TextNode`` / ``NodeWithScore`` and Haystack ``Document``
all hold a text, an id and a metadata mapping. A `Source` takes the framework's id (a source
cited as ``[id]`` is the framework's document), and from the metadata its ``title``, ``url``,
``version`` and ``doc_id`` (the document a chunk comes from: ``doc_id``, ``source`` or
``file_path``). A ``page`` is kept in the title (``report.pdf, page 3``), since a chunk of one
page is what the reader will open. Back to a framework, the source's fields are the metadata.
A document without an id gets ``doc-<12 hex of its text>``, the same for the same text.

The framework packages are optional extras (``citeproof[langchain]``, ``citeproof[llamaindex]``,
``citeproof[haystack]``); each function imports its framework when called.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from citeproof.errors import SourceError
from citeproof.model import Source, SourceKind

if TYPE_CHECKING:
    from haystack import Document as HaystackDocument
    from langchain_core.documents import Document as LangChainDocument
    from llama_index.core.schema import NodeWithScore, TextNode

_DOC_ID_KEYS = ("doc_id", "document_id", "source", "file_path", "ref_doc_id")


def from_langchain(document: LangChainDocument, *, kind: SourceKind = "document") -> Source:
    """A LangChain ``Document`` as a `Source` (id: ``document.id``, else ``metadata["id"]``)."""
    metadata = dict(document.metadata or {})
    return _source(document.id or metadata.get("id"), document.page_content, metadata, kind)


def to_langchain(source: Source) -> LangChainDocument:
    """A LangChain ``Document`` with the source's id, text and fields as metadata."""
    from langchain_core.documents import Document

    return Document(page_content=source.text, metadata=_metadata(source), id=source.id)


def from_llamaindex(node: TextNode | NodeWithScore, *, kind: SourceKind = "document") -> Source:
    """A LlamaIndex ``TextNode`` (or a retrieved ``NodeWithScore``) as a `Source`."""
    from llama_index.core.schema import NodeWithScore

    inner = node.node if isinstance(node, NodeWithScore) else node
    metadata = dict(inner.metadata or {})
    if inner.ref_doc_id and "doc_id" not in metadata:
        metadata["doc_id"] = inner.ref_doc_id
    return _source(inner.node_id, inner.get_content(), metadata, kind)


def to_llamaindex(source: Source) -> TextNode:
    """A LlamaIndex ``TextNode`` with the source's id, text and fields as metadata."""
    from llama_index.core.schema import TextNode

    return TextNode(text=source.text, id_=source.id, metadata=_metadata(source))


def from_haystack(document: HaystackDocument, *, kind: SourceKind = "document") -> Source:
    """A Haystack ``Document`` as a `Source`; a document without text content is refused."""
    if document.content is None:
        raise SourceError("the Haystack document has no text content", where=document.id)
    return _source(document.id, document.content, dict(document.meta or {}), kind)


def to_haystack(source: Source) -> HaystackDocument:
    """A Haystack ``Document`` with the source's id, text and fields as ``meta``."""
    from haystack import Document

    return Document(id=source.id, content=source.text, meta=_metadata(source))


def _source(
    document_id: object, text: str, metadata: Mapping[str, Any], kind: SourceKind
) -> Source:
    if not isinstance(text, str):
        raise SourceError(f"the document text is {type(text).__name__}, not text", field="text")
    source_id = str(document_id) if document_id else _content_id(text)
    origin = next((_text(metadata, key) for key in _DOC_ID_KEYS if _text(metadata, key)), None)
    title = _text(metadata, "title") or _text(metadata, "file_name") or origin
    page = _text(metadata, "page_label") or _text(metadata, "page")
    if page is not None and title and ", page " not in title:
        title = f"{title}, page {page}"
    url = _text(metadata, "url")
    if url is None and origin and origin.startswith(("http://", "https://")):
        url = origin
    return Source(
        id=source_id,
        kind=kind,
        text=text,
        title=title,
        doc_id=origin,
        version=_text(metadata, "version"),
        url=url,
        retrieved_at=_text(metadata, "retrieved_at"),
    )


def _metadata(source: Source) -> dict[str, Any]:
    fields = {
        "title": source.title,
        "url": source.url,
        "version": source.version,
        "doc_id": source.doc_id,
        "kind": source.kind,
        "retrieved_at": source.retrieved_at,
    }
    return {key: value for key, value in fields.items() if value is not None}


def _text(metadata: Mapping[str, Any], key: str) -> str | None:
    value = metadata.get(key)
    if value is None or isinstance(value, bool):
        return None
    return str(value) if isinstance(value, (str, int, float)) and str(value).strip() else None


def _content_id(text: str) -> str:
    return "doc-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
