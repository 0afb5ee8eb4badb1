"""Anthropic Messages: text blocks with ``citations``, and the documents of the request.

The answer is the text blocks joined as they come. Every citation becomes a marker after its
text block, and its ``cited_text`` an inline quote there (verified like any quote) and a
`LocationCheck` against the document at the stated location:

- ``char_location``: characters ``start_char_index``-``end_char_index`` (end exclusive) of a
  plain-text document, counted in code points;
- ``page_location``: pages ``start_page_number``-``end_page_number`` (1-based, end exclusive)
  of a PDF;
- ``content_block_location``: blocks ``start_block_index``-``end_block_index`` (0-based, end
  exclusive) of a custom-content document; ``search_result_location`` the same over the
  blocks of a search result;
- ``web_search_result_location``: a page found by the web search tool, whose text the
  response does not carry (it is encrypted): give it with ``--source``.

Documents are numbered as ``document_index`` counts them: the request's ``document`` blocks in
order, tool results included. Document N is source ``doc-N``, search result N ``result-N``,
the web pages ``web-1``, ``web-2``... in order of first citation; a source given by the caller
with that id, or with the document's title or url, is used instead.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from citeproof.adapters import fields
from citeproof.adapters._check import Describe, check_cited_text
from citeproof.adapters._compose import Cite, SourceSet, VendorSource, compose, paragraph_at
from citeproof.adapters._converted import Converted, LocationCheck, sources_given
from citeproof.adapters._offsets import past_the_end
from citeproof.errors import AnswerError, SourceError
from citeproof.model import Source, Span
from citeproof.verifier.match import SourceIndex, prepare

MAX_PDF_BYTES = 100_000_000
_BLOCK_SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class _Document:
    """A request document: its source, and how its pages or blocks map to its text."""

    vendor: VendorSource
    pages: tuple[Span, ...] | None = None  # PDF pages, page 1 first
    blocks: tuple[Span, ...] | None = None  # custom content blocks, block 0 first


def from_anthropic(
    response: object,
    request: object | None = None,
    sources: Sequence[Source] = (),
    *,
    quotes: bool = True,
) -> Converted:
    """Convert an Anthropic Messages response (a dict, JSON text or ``anthropic.types.Message``).

    ``request`` is the ``messages.create`` parameters (a dict or JSON text) whose ``document``
    and ``search_result`` blocks are the cited documents; ``sources`` are the caller's own
    copies (they win over the request's). ``quotes=False`` leaves the cited texts out of the
    answer (the checks are still made). Raises `AnswerError` or `SourceError` naming the
    field for a malformed response or request.
    """
    body = fields.as_object(response, "anthropic response")
    documents, results = _request_documents(request)
    known = SourceSet(sources_given(sources))
    output, blocks = _text_blocks(body)
    web: dict[str, str] = {}
    indexes: dict[str, SourceIndex] = {}
    cites: list[Cite] = []
    for words, citations in blocks:
        for path, citation in citations:
            cites.append(_cite(citation, path, words, documents, results, web, known, indexes))
    answer, converted, notes = compose(output, cites, quotes=quotes, where="anthropic response")
    return Converted(
        vendor="anthropic",
        answer=answer,
        sources=known.sources(),
        citations=converted,
        output=output,
        notes=tuple(known.notes) + notes,
    )


def _text_blocks(body: fields.Json) -> tuple[str, list[tuple[Span, list[tuple[str, fields.Json]]]]]:
    """The joined text of the text blocks, and each block's span and citations."""
    parts: list[str] = []
    blocks: list[tuple[Span, list[tuple[str, fields.Json]]]] = []
    length = 0
    content = fields.objects(body, "content", "anthropic response")
    if not content and "content" not in body:
        raise AnswerError("no 'content': not a Messages response", where="anthropic response")
    for path, block in content:
        if block.get("type") != "text":
            continue  # tool use, thinking, search results: not part of the answer text
        text = fields.text(block, "text", path, required=True) or ""
        parts.append(text)
        citations = fields.objects(block, "citations", path)
        blocks.append(((length, length + len(text)), citations))
        length += len(text)
    return "".join(parts), blocks


def _cite(
    citation: fields.Json,
    path: str,
    words: Span,
    documents: list[_Document],
    results: list[_Document],
    web: dict[str, str],
    known: SourceSet,
    indexes: dict[str, SourceIndex],
) -> Cite:
    kind = fields.text(citation, "type", path, required=True) or ""
    cited = fields.text(citation, "cited_text", path)
    if kind in ("char_location", "page_location", "content_block_location"):
        number = fields.integer(citation, "document_index", path)
        title = fields.text(citation, "document_title", path)
        document = _numbered(documents, number, f"doc-{number}", title)
    elif kind == "search_result_location":
        number = fields.integer(citation, "search_result_index", path)
        title = fields.text(citation, "title", path)
        url = fields.text(citation, "source", path)
        document = _numbered(results, number, f"result-{number}", title, url)
    elif kind == "web_search_result_location":
        url = fields.text(citation, "url", path, required=True) or ""
        web.setdefault(url, f"web-{len(web) + 1}")
        title = fields.text(citation, "title", path)
        document = _Document(VendorSource(web[url], None, title=title, url=url))
    else:
        raise AnswerError(
            f"unknown citation type {kind!r} (expected char_location, page_location, "
            "content_block_location, search_result_location or web_search_result_location)",
            where=path,
            field="type",
        )
    label = known.add(document.vendor)
    source = known.get(label)
    if source is None:
        stated = _stated_words(kind, citation, path)
        unchecked = LocationCheck("not_checked", stated, None, "the source's text is not available")
        return Cite(words, label, kind, None, cited, check=unchecked, show_quote=False)
    if label not in indexes:
        indexes[label] = prepare(source)
    # The caller's copy of a document may not have the request's pages or blocks.
    own = source.id == document.vendor.id
    counted = document.vendor.text if document.vendor.text is not None else source.text
    stated_span, stated, describe, paragraph = _location(
        kind, citation, path, source, document if own else None, counted
    )
    if cited is None:
        return Cite(words, label, kind, paragraph)
    check = check_cited_text(
        indexes[label], cited, stated_span, stated, describe, paragraph=paragraph
    )
    if check.status == "verbatim" and check.found is not None:
        # A page or a block range holds several paragraphs: name the one holding the text, so
        # the marker says what the vendor's location says; elsewhere the stated one stays, and
        # the verifier corrects it (011).
        paragraph = paragraph_at(source, check.found[0])
    return Cite(words, label, kind, paragraph, cited, check=check)


def _numbered(
    documents: list[_Document],
    number: int,
    source_id: str,
    title: str | None,
    url: str | None = None,
) -> _Document:
    """Document ``number`` of the request, else what the citation says of it."""
    if number < len(documents):
        return documents[number]
    return _Document(VendorSource(source_id, None, title=title, url=url))


def _stated_words(kind: str, citation: fields.Json, path: str) -> str:
    if kind == "char_location":
        start = fields.integer(citation, "start_char_index", path)
        end = fields.integer(citation, "end_char_index", path)
        return f"characters {start}-{end}"
    if kind == "page_location":
        start = fields.integer(citation, "start_page_number", path)
        end = fields.integer(citation, "end_page_number", path)
        return f"page {start}" if end <= start + 1 else f"pages {start}-{end - 1}"
    if kind in ("content_block_location", "search_result_location"):
        start = fields.integer(citation, "start_block_index", path)
        end = fields.integer(citation, "end_block_index", path)
        return f"block {start}" if end <= start + 1 else f"blocks {start}-{end - 1}"
    return "the page"


def _location(
    kind: str,
    citation: fields.Json,
    path: str,
    source: Source,
    document: _Document | None,
    counted: str,
) -> tuple[Span, str, Describe, int | None]:
    """The stated location as a span of the source text, in words, a way to name other
    spans the same way, and the paragraph to write in the marker. ``counted`` is the text the
    vendor's character offsets count in: the request's document, else the caller's copy."""
    stated = _stated_words(kind, citation, path)
    whole = (0, len(source.text))
    if kind == "char_location":
        start = fields.integer(citation, "start_char_index", path)
        end = fields.integer(citation, "end_char_index", path)
        if end < start:
            raise AnswerError(
                f"end_char_index {end} is before start_char_index {start}", where=path
            )
        if past_the_end(counted, end):
            length = len(counted)
            raise AnswerError(
                f"end_char_index {end} is past the end of the document ({length} characters)",
                where=path,
            )
        return (start, end), stated, _characters, paragraph_at(source, min(start, len(source.text)))
    if kind == "page_location" and document is not None and document.pages:
        first = fields.integer(citation, "start_page_number", path)
        last = fields.integer(citation, "end_page_number", path) - 1
        pages = document.pages
        if not 1 <= first <= last <= len(pages):
            return whole, f"{stated} (the PDF has {len(pages)} pages)", _characters, None
        span = (pages[first - 1][0], pages[last - 1][1])
        return span, stated, _pages_of(pages), paragraph_at(source, span[0])
    if kind in ("content_block_location", "search_result_location"):
        blocks = document.blocks if document is not None else None
        if blocks:
            first = fields.integer(citation, "start_block_index", path)
            last = fields.integer(citation, "end_block_index", path) - 1
            if 0 <= first <= last < len(blocks):
                return (blocks[first][0], blocks[last][1]), stated, _blocks_of(blocks), first + 1
            return whole, f"{stated} (there are {len(blocks)} blocks)", _blocks_of(blocks), None
    return whole, f"{stated} (its layout is not known here)", _characters, None


def _characters(span: Span) -> str:
    return f"characters {span[0]}-{span[1]}"


def _pages_of(pages: tuple[Span, ...]) -> _Namer:
    return _Namer(pages, "page", 1)


def _blocks_of(blocks: tuple[Span, ...]) -> _Namer:
    return _Namer(blocks, "block", 0)


@dataclass(frozen=True, slots=True)
class _Namer:
    """Names a span of a document by the page or block that holds its start."""

    parts: tuple[Span, ...]
    word: str
    first: int

    def __call__(self, span: Span) -> str:
        for number, (_, end) in enumerate(self.parts, start=self.first):
            if span[0] < end:
                return f"{self.word} {number}"
        return f"{self.word} {len(self.parts) - 1 + self.first}"


def _request_documents(request: object | None) -> tuple[list[_Document], list[_Document]]:
    """The request's documents and search results, in the order the indexes count them."""
    if request is None:
        return [], []
    body = fields.as_object(request, "anthropic request")
    documents: list[_Document] = []
    results: list[_Document] = []
    for path, block in _blocks(body):
        kind = block.get("type")
        if kind == "document":
            documents.append(_document(block, path, len(documents)))
        elif kind == "search_result":
            results.append(_search_result(block, path, len(results)))
    return documents, results


def _blocks(body: fields.Json) -> Iterator[tuple[str, fields.Json]]:
    """Every content block of the request's messages, tool results' contents included."""
    for path, message in fields.objects(body, "messages", "anthropic request"):
        if isinstance(message.get("content"), str):
            continue
        for block_path, block in fields.objects(message, "content", path):
            yield block_path, block
            if block.get("type") == "tool_result" and not isinstance(block.get("content"), str):
                yield from fields.objects(block, "content", block_path)


def _document(block: fields.Json, path: str, number: int) -> _Document:
    source_id = f"doc-{number}"
    title = fields.text(block, "title", path)
    source = fields.child(block, "source", path)
    if source is None:
        raise SourceError("a document block needs a 'source'", where=path, field="source")
    where = f"{path}.source"
    kind = fields.text(source, "type", where, required=True)
    if kind == "text":
        data = fields.text(source, "data", where, required=True) or ""
        return _Document(VendorSource(source_id, data, title=title))
    if kind == "base64":
        media = fields.text(source, "media_type", where) or ""
        if media != "application/pdf":
            raise SourceError(f"cannot read a base64 {media or 'untyped'} document", where=where)
        from citeproof.sources import read_pdf_pages  # pypdf: only for PDFs

        document, pages = read_pdf_pages(_decoded(source, where), where)
        vendor = VendorSource(
            source_id, document.text, title or document.title, None, document.paragraphs
        )
        return _Document(vendor, pages=pages)
    if kind == "content":
        joined, spans = _joined(_content_texts(source, where))
        vendor = VendorSource(source_id, joined, title, None, _paragraphs(spans))
        return _Document(vendor, blocks=spans)
    if kind in ("url", "file"):
        url = fields.text(source, "url", where)
        return _Document(VendorSource(source_id, None, title=title, url=url))
    raise SourceError(f"unknown document source type {kind!r}", where=where, field="type")


def _search_result(block: fields.Json, path: str, number: int) -> _Document:
    title = fields.text(block, "title", path)
    url = fields.text(block, "source", path)
    texts = [
        fields.text(item, "text", item_path, required=True) or ""
        for item_path, item in fields.objects(block, "content", path)
    ]
    joined, spans = _joined(texts)
    vendor = VendorSource(f"result-{number}", joined, title, url, _paragraphs(spans))
    return _Document(vendor, blocks=spans)


def _joined(texts: list[str]) -> tuple[str, tuple[Span, ...]]:
    """Content blocks joined by a blank line, and each block's span in the joined text."""
    spans: list[Span] = []
    position = 0
    for text in texts:
        spans.append((position, position + len(text)))
        position += len(text) + len(_BLOCK_SEPARATOR)
    return _BLOCK_SEPARATOR.join(texts), tuple(spans)


def _paragraphs(spans: tuple[Span, ...]) -> tuple[Span, ...] | None:
    """One paragraph per non-empty block, so a block index is a paragraph number minus one."""
    return tuple(span for span in spans if span[1] > span[0]) or None


def _content_texts(source: fields.Json, where: str) -> list[str]:
    content = source.get("content")
    if isinstance(content, str):
        return [content]
    return [
        fields.text(item, "text", path, required=True) or ""
        for path, item in fields.objects(source, "content", where)
        if item.get("type", "text") == "text"
    ]


def _decoded(source: fields.Json, where: str) -> bytes:
    data = fields.text(source, "data", where, required=True) or ""
    if len(data) > MAX_PDF_BYTES * 4 // 3 + 4:
        raise SourceError(f"the PDF is larger than {MAX_PDF_BYTES:,} bytes", where=where)
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise SourceError("the base64 data does not decode", where=where, field="data") from None


def request_sources(request: object) -> tuple[tuple[Source, ...], tuple[str, ...]]:
    """Every source an Anthropic Messages request carries, cited or not: its ``document``
    blocks as ``doc-N`` and its ``search_result`` blocks as ``result-N``, numbered as the
    response's ``document_index`` and ``search_result_index`` count them (tool results
    included), each with the text the request holds; and a note for each document whose text
    it does not hold (``url`` and ``file`` documents). Raises `SourceError` naming the block
    for a malformed document."""
    documents, results = _request_documents(request)
    known = SourceSet(())
    for document in documents + results:
        known.add(document.vendor)
    return known.sources(), tuple(known.notes)
