"""Cohere Chat v2: ``message.citations``.

Each citation's ``start``/``end`` locate the cited words in the answer text (counted in
characters, as Python counts them) and ``text`` repeats those words: it is the answer's text,
not the source's, so it is checked against the answer (the check says so when the offsets
are off) and the sentence holding it becomes the cited claim. ``sources`` name the documents
(``type: document``, with the document's fields) or tool results (``type: tool``, with
``tool_output``) behind it; each becomes a source under its Cohere id (``doc:0``). A document's
text is its ``text``, ``snippet`` or ``content`` field, else its other fields as
``key: value`` lines, as Cohere shows them to the model. The request's ``documents`` fill in
a document the response only names. Citations of the thinking or the tool plan are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from citeproof.adapters import fields
from citeproof.adapters._compose import Cite, SourceSet, VendorSource, compose
from citeproof.adapters._converted import Converted, sources_given
from citeproof.adapters._offsets import TextOffsets
from citeproof.adapters._segments import locate_segment
from citeproof.errors import AnswerError
from citeproof.model import Source

_TEXT_FIELDS = ("text", "snippet", "content", "body")
_PART_SEPARATOR = "\n\n"


def from_cohere(
    response: object, request: object | None = None, sources: Sequence[Source] = ()
) -> Converted:
    """Convert a Cohere v2 chat response (a dict, JSON text or the SDK's ``V2ChatResponse``).

    ``request`` is the chat request, whose ``documents`` give the text of documents the
    response cites without it. Raises `AnswerError` naming the field for a malformed response.
    """
    body = fields.as_object(response, "cohere response")
    message = fields.child(body, "message", "cohere response")
    if message is None:
        raise AnswerError("no 'message': not a v2 chat response", where="cohere response")
    where = "cohere response.message"
    requested = _request_documents(request)
    parts: list[tuple[int, TextOffsets]] = []
    texts: list[str] = []
    position = 0
    for part_path, part in fields.objects(message, "content", where):
        if part.get("type", "text") != "text":
            continue
        text = fields.text(part, "text", part_path, required=True) or ""
        if texts:
            position += len(_PART_SEPARATOR)
        parts.append((position, TextOffsets(text, where=part_path)))
        texts.append(text)
        position += len(text)
    known = SourceSet(sources_given(sources))
    cites: list[Cite] = []
    for path, citation in fields.objects(message, "citations", where):
        if citation.get("type", "TEXT_CONTENT") != "TEXT_CONTENT":
            continue
        index = fields.integer(citation, "content_index", path, default=0)
        if index >= len(parts):
            raise AnswerError(f"content {index} is not a text of the answer", where=path)
        offset, offsets = parts[index]
        start = fields.integer(citation, "start", path)
        end = fields.integer(citation, "end", path)
        said = fields.text(citation, "text", path)
        words, check = locate_segment(offsets, start, end, "code_points", said, path)
        span = (offset + words[0], offset + words[1])
        for source_path, source in fields.objects(citation, "sources", path):
            label = known.add(_source(source, source_path, requested))
            cites.append(Cite(span, label, "citation", check=check))
    output = _PART_SEPARATOR.join(texts)
    answer, converted, notes = compose(output, cites, where="cohere response")
    return Converted(
        vendor="cohere",
        answer=answer,
        sources=known.sources(),
        citations=converted,
        output=output,
        notes=tuple(known.notes) + notes,
    )


def _source(source: fields.Json, path: str, requested: Mapping[str, fields.Json]) -> VendorSource:
    source_id = fields.text(source, "id", path, required=True) or ""
    if source.get("type") == "tool":
        output = fields.child(source, "tool_output", path) or {}
        return VendorSource(
            source_id, _document_text(output), title=fields.text(output, "title", path)
        )
    document = dict(requested.get(source_id, {}))
    document.update(fields.child(source, "document", path) or {})
    title = document.get("title")
    url = document.get("url")
    return VendorSource(
        source_id,
        _document_text(document),
        title=title if isinstance(title, str) else None,
        url=url if isinstance(url, str) else None,
    )


def _document_text(document: Mapping[str, object]) -> str | None:
    for key in _TEXT_FIELDS:
        value = document.get(key)
        if isinstance(value, str) and value.strip():
            return value
    lines = [
        f"{key}: {value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)}"
        for key, value in document.items()
        if key not in ("id", "title", "url") and value is not None
    ]
    return "\n".join(lines) or None


def _request_documents(request: object | None) -> dict[str, fields.Json]:
    """The request's documents by the id Cohere gives them (``doc:N`` when they have none)."""
    if request is None:
        return {}
    body = fields.as_object(request, "cohere request")
    documents: dict[str, fields.Json] = {}
    raw = fields.field(body, "documents")
    if raw is None:
        return documents
    if not isinstance(raw, list):
        raise AnswerError("expected a list", where="cohere request", field="documents")
    for number, item in enumerate(raw):
        path = f"cohere request.documents[{number}]"
        if isinstance(item, str):
            documents[f"doc:{number}"] = {"text": item}
            continue
        if not isinstance(item, Mapping):
            raise AnswerError("expected a string or an object", where=path)
        data = fields.child(item, "data", path) or {}
        document_id = fields.text(item, "id", path) or f"doc:{number}"
        documents[document_id] = data
    return documents
