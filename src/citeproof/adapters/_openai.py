"""OpenAI Responses and Chat Completions: ``output_text`` annotations.

- ``file_citation``: ``index`` is where the citation sits in the text; the sentence ending
  there is the cited claim. The file's text is the ``file_search_call`` results for that
  ``file_id`` (ask for them with ``include=["file_search_call.results"]``), each result a
  paragraph; else the caller's source with the file id as its id, or the filename as title.
- ``url_citation``: ``start_index``-``end_index`` is the link in the text; the sentence
  holding it is the cited claim. The page's text is not in the response: give it with
  ``--source`` (matched by url or title), else the citation is reported as not provided.
- ``container_file_citation``: the same, for a file of a code interpreter container.

No quote is given, so each citation is a cited claim for claim support to check. Indices are
read as Python ``str`` indices (code points) into their own ``output_text`` part; the parts
of an answer are joined with a blank line. Chat Completions carry ``url_citation`` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from citeproof.adapters import fields
from citeproof.adapters._compose import Cite, SourceSet, VendorSource, compose, sentence_before
from citeproof.adapters._converted import Converted, sources_given
from citeproof.errors import AnswerError
from citeproof.model import Source, Span

_PART_SEPARATOR = "\n\n"


def from_openai(response: object, sources: Sequence[Source] = ()) -> Converted:
    """Convert an OpenAI Responses or Chat Completions response (a dict, JSON text, or the
    SDK's ``Response`` or ``ChatCompletion``). ``sources`` are the caller's copies of the
    cited files and pages. Raises `AnswerError` naming the field for a malformed response.
    """
    body = fields.as_object(response, "openai response")
    known = SourceSet(sources_given(sources))
    if "output" in body:
        output, cites = _responses(body, known)
    elif "choices" in body:
        output, cites = _chat_completion(body, known)
    else:
        raise AnswerError(
            "neither 'output' (Responses) nor 'choices' (Chat Completions)",
            where="openai response",
        )
    answer, citations, notes = compose(output, cites, where="openai response")
    return Converted(
        vendor="openai",
        answer=answer,
        sources=known.sources(),
        citations=citations,
        output=output,
        notes=tuple(known.notes) + notes,
    )


def _responses(body: fields.Json, known: SourceSet) -> tuple[str, list[Cite]]:
    items = fields.objects(body, "output", "openai response")
    files = _file_search_results(items)
    parts: list[str] = []
    cites: list[Cite] = []
    offset = 0
    web: dict[str, str] = {}
    for path, item in items:
        if item.get("type") != "message":
            continue
        for part_path, part in fields.objects(item, "content", path):
            if part.get("type") != "output_text":
                continue
            text = fields.text(part, "text", part_path, required=True) or ""
            if parts:
                offset += len(_PART_SEPARATOR)
            for note_path, note in fields.objects(part, "annotations", part_path):
                cite = _annotation(note, note_path, text, offset, files, web, known)
                if cite is not None:
                    cites.append(cite)
            parts.append(text)
            offset += len(text)
    return _PART_SEPARATOR.join(parts), cites


def _chat_completion(body: fields.Json, known: SourceSet) -> tuple[str, list[Cite]]:
    choices = fields.objects(body, "choices", "openai response")
    if not choices:
        raise AnswerError("no choices: nothing was answered", where="openai response")
    path, choice = choices[0]
    message = fields.child(choice, "message", path)
    if message is None:
        raise AnswerError("is missing", where=path, field="message")
    where = f"{path}.message"
    text = fields.text(message, "content", where) or ""
    cites: list[Cite] = []
    web: dict[str, str] = {}
    for note_path, note in fields.objects(message, "annotations", where):
        # Chat Completions nest the fields: {"type": "url_citation", "url_citation": {...}}
        inner = fields.child(note, "url_citation", note_path)
        if note.get("type") == "url_citation" and inner is not None:
            flat = {"type": "url_citation", **inner}
            cite = _annotation(flat, f"{note_path}.url_citation", text, 0, {}, web, known)
            if cite is not None:
                cites.append(cite)
    return text, cites


def _file_search_results(items: list[tuple[str, fields.Json]]) -> dict[str, VendorSource]:
    """Each file's retrieved chunks, joined (one paragraph per distinct chunk)."""
    chunks: dict[str, list[str]] = {}
    names: dict[str, str | None] = {}
    for path, item in items:
        if item.get("type") != "file_search_call":
            continue
        for result_path, result in fields.objects(item, "results", path):
            file_id = fields.text(result, "file_id", result_path)
            text = fields.text(result, "text", result_path)
            if not file_id or not text or not text.strip():
                continue
            names.setdefault(file_id, fields.text(result, "filename", result_path))
            if text not in chunks.setdefault(file_id, []):
                chunks[file_id].append(text)
    files: dict[str, VendorSource] = {}
    for file_id, texts in chunks.items():
        spans: list[Span] = []
        position = 0
        for text in texts:
            spans.append((position, position + len(text)))
            position += len(text) + len(_PART_SEPARATOR)
        joined = _PART_SEPARATOR.join(texts)
        files[file_id] = VendorSource(file_id, joined, names[file_id], None, tuple(spans))
    return files


def _annotation(
    note: fields.Json,
    path: str,
    text: str,
    offset: int,
    files: dict[str, VendorSource],
    web: dict[str, str],
    known: SourceSet,
) -> Cite | None:
    kind = fields.text(note, "type", path, required=True)
    if kind == "file_citation":
        at = _index(note, "index", path, text)
        file_id = fields.text(note, "file_id", path, required=True) or ""
        name = fields.text(note, "filename", path)
        vendor = files.get(file_id) or VendorSource(file_id, None, title=name)
        words = sentence_before(text, at)
        label = known.add(vendor)
        return Cite((offset + words[0], offset + words[1]), label, kind, at=offset + at)
    if kind in ("url_citation", "container_file_citation"):
        start = _index(note, "start_index", path, text)
        end = _index(note, "end_index", path, text)
        if end < start:
            raise AnswerError(f"end_index {end} is before start_index {start}", where=path)
        title = fields.text(note, "title", path)
        if kind == "url_citation":
            url = fields.text(note, "url", path, required=True) or ""
            web.setdefault(url, f"web-{len(web) + 1}")
            vendor = VendorSource(web[url], None, title=title, url=url)
        else:
            file_id = fields.text(note, "file_id", path, required=True) or ""
            vendor = VendorSource(file_id, None, title=fields.text(note, "filename", path))
        begin = sentence_before(text, start)[0] if start else 0
        # The link may open the sentence ("([site](url))" right after a full stop).
        begin = min(begin, start)
        label = known.add(vendor)
        return Cite((offset + begin, offset + end), label, kind, at=offset + end)
    return None  # file_path: a file the model wrote, not a citation


def _index(note: fields.Json, key: str, path: str, text: str) -> int:
    value = fields.integer(note, key, path)
    if value > len(text):
        raise AnswerError(
            f"{key} {value} is past the end of its text ({len(text)} characters)", where=path
        )
    return value
