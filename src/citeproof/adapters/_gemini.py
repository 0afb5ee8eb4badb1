"""Google Gemini and Vertex AI: ``groundingMetadata`` of a candidate.

``groundingSupports[].segment`` locates the supported text by ``startIndex``/``endIndex``
counted in UTF-8 **bytes** of the part ``partIndex`` (both omitted when 0); read as string
indices, they put markers in the wrong place on any text that is not ASCII, which is the bug
this adapter exists to avoid. Each segment becomes the cited words, with one marker per
``groundingChunkIndices`` entry after it (its ``confidenceScores`` entry kept). When the
segment's ``text`` is given and differs from the bytes stated, the text wins and the check says
so. Chunk N is source ``chunk-N``: a ``retrievedContext`` chunk carries its text (RAG, file
search); a ``web`` chunk only its uri and title: give the page with ``--source chunk-N=FILE``.

Keys are read as the REST API writes them (``groundingMetadata``) or as the Python SDK dumps
them (``grounding_metadata``). Text parts marked ``thought`` are not part of the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from citeproof.adapters import fields
from citeproof.adapters._compose import Cite, SourceSet, VendorSource, compose
from citeproof.adapters._converted import Converted, LocationCheck, sources_given
from citeproof.adapters._offsets import TextOffsets
from citeproof.adapters._segments import locate_segment
from citeproof.errors import AnswerError
from citeproof.model import Source, Span


def from_gemini(response: object, sources: Sequence[Source] = ()) -> Converted:
    """Convert a ``generateContent`` response (a dict, JSON text or the SDK's
    ``GenerateContentResponse``) of its first candidate. ``sources`` are the caller's copies of
    the grounding chunks. Raises `AnswerError` naming the field for a malformed response, or an
    offset outside its part or inside a character when the segment gives no text to go by.
    """
    body = fields.as_object(response, "gemini response")
    candidates = fields.objects(body, "candidates", "gemini response")
    if not candidates:
        raise AnswerError("no candidates: nothing was answered", where="gemini response")
    path, candidate = candidates[0]
    parts, output = _parts(candidate, path)
    grounding = fields.child(candidate, "groundingMetadata", path, "grounding_metadata")
    known = SourceSet(sources_given(sources))
    cites: list[Cite] = []
    if grounding is not None:
        where = f"{path}.groundingMetadata"
        chunks = [
            _chunk(chunk, chunk_path, number)
            for number, (chunk_path, chunk) in enumerate(
                fields.objects(grounding, "groundingChunks", where, "grounding_chunks")
            )
        ]
        for support_path, support in fields.objects(
            grounding, "groundingSupports", where, "grounding_supports"
        ):
            cites.extend(_support(support, support_path, parts, chunks, known))
    answer, citations, notes = compose(output, cites, where="gemini response")
    return Converted(
        vendor="gemini",
        answer=answer,
        sources=known.sources(),
        citations=citations,
        output=output,
        notes=tuple(known.notes) + notes,
    )


def _parts(candidate: fields.Json, path: str) -> tuple[dict[int, tuple[int, TextOffsets]], str]:
    """Each answer text part by its index: its offset in the answer and its offsets."""
    content = fields.child(candidate, "content", path)
    if content is None:
        raise AnswerError("is missing", where=path, field="content")
    parts: dict[int, tuple[int, TextOffsets]] = {}
    texts: list[str] = []
    position = 0
    for number, (part_path, part) in enumerate(fields.objects(content, "parts", f"{path}.content")):
        text = fields.text(part, "text", part_path)
        if text is None or part.get("thought") is True:
            continue
        parts[number] = (position, TextOffsets(text, where=part_path))
        texts.append(text)
        position += len(text)
    return parts, "".join(texts)


def _chunk(chunk: fields.Json, path: str, number: int) -> VendorSource:
    source_id = f"chunk-{number}"
    context = fields.child(chunk, "retrievedContext", path, "retrieved_context")
    if context is not None:
        where = f"{path}.retrievedContext"
        return VendorSource(
            source_id,
            fields.text(context, "text", where),
            title=fields.text(context, "title", where),
            url=fields.text(context, "uri", where),
        )
    web = fields.child(chunk, "web", path)
    if web is not None:
        where = f"{path}.web"
        return VendorSource(
            source_id,
            None,
            title=fields.text(web, "title", where),
            url=fields.text(web, "uri", where),
        )
    return VendorSource(source_id, None)  # a kind of chunk this version does not know


def _support(
    support: fields.Json,
    path: str,
    parts: dict[int, tuple[int, TextOffsets]],
    chunks: list[VendorSource],
    known: SourceSet,
) -> list[Cite]:
    segment = fields.child(support, "segment", path)
    if segment is None:
        raise AnswerError("is missing", where=path, field="segment")
    where = f"{path}.segment"
    part_index = fields.integer(segment, "partIndex", where, "part_index", default=0)
    if part_index not in parts:
        raise AnswerError(f"part {part_index} is not a text part of the answer", where=where)
    offset, offsets = parts[part_index]
    words, check = _locate(segment, where, offsets)
    indices = fields.integers(support, "groundingChunkIndices", path, "grounding_chunk_indices")
    scores = _scores(support, path)
    cites: list[Cite] = []
    for position, number in enumerate(indices):
        if number >= len(chunks):
            raise AnswerError(
                f"chunk {number} does not exist ({len(chunks)} grounding chunks)",
                where=path,
                field="groundingChunkIndices",
            )
        label = known.add(chunks[number])
        confidence = scores[position] if position < len(scores) else None
        span = (offset + words[0], offset + words[1])
        cites.append(Cite(span, label, "grounding_support", confidence=confidence, check=check))
    return cites


def _locate(segment: fields.Json, where: str, offsets: TextOffsets) -> tuple[Span, LocationCheck]:
    """The segment's ``str`` span in its part, and whether its text is where its bytes say."""
    start = fields.integer(segment, "startIndex", where, "start_index", default=0)
    end = fields.integer(segment, "endIndex", where, "end_index", default=0)
    said = fields.text(segment, "text", where)
    return locate_segment(offsets, start, end, "utf8", said, where)


def _scores(support: fields.Json, path: str) -> list[float]:
    value = fields.field(support, "confidenceScores", "confidence_scores")
    if value is None:
        return []
    if not isinstance(value, list):
        raise AnswerError("expected a list of numbers", where=path, field="confidenceScores")
    return [
        fields.number({"score": item}, "score", f"{path}.confidenceScores[{n}]") or 0.0
        for n, item in enumerate(value)
    ]
