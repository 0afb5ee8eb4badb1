"""Mistral: ``reference`` chunks in the answer, against the references its tools returned.

The assistant message's ``content`` is a list of chunks: ``text`` chunks make the answer, and a
``reference`` chunk (``reference_ids``) cites the sentence before it. The references are what
the request's ``tool`` messages returned, as Mistral's citation guide builds them: a JSON
object from reference id to ``{"url", "title", "snippets" | "snippet" | "description", ...}``.
Reference N is source ``ref-N``, its snippets one paragraph each. A ``tool_reference`` chunk
(the agents API's built-in connectors) cites its ``url`` the same way, as ``web-1``, ``web-2``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from citeproof.adapters import fields
from citeproof.adapters._compose import Cite, SourceSet, VendorSource, compose, sentence_before
from citeproof.adapters._converted import Converted, sources_given
from citeproof.errors import AnswerError
from citeproof.model import Source, Span

_SNIPPET_SEPARATOR = "\n\n"


def from_mistral(
    response: object, request: object | None = None, sources: Sequence[Source] = ()
) -> Converted:
    """Convert a Mistral chat completion (a dict, JSON text or the SDK's response object).

    ``request`` is the chat request whose ``tool`` messages hold the references; without it,
    give the references as ``sources`` with ids ``ref-N``. Raises `AnswerError` naming the
    field for a malformed response or tool result.
    """
    body = fields.as_object(response, "mistral response")
    choices = fields.objects(body, "choices", "mistral response")
    if not choices:
        raise AnswerError("no choices: nothing was answered", where="mistral response")
    path, choice = choices[0]
    message = fields.child(choice, "message", path)
    if message is None:
        raise AnswerError("is missing", where=path, field="message")
    where = f"{path}.message"
    references = _references(request)
    known = SourceSet(sources_given(sources))
    content = message.get("content")
    if isinstance(content, str) or content is None:
        output = content or ""
        cites: list[Cite] = []
    else:
        output, cites = _chunks(message, where, references, known)
    answer, converted, notes = compose(output, cites, where="mistral response")
    return Converted(
        vendor="mistral",
        answer=answer,
        sources=known.sources(),
        citations=converted,
        output=output,
        notes=tuple(known.notes) + notes,
    )


def _chunks(
    message: fields.Json, where: str, references: Mapping[str, VendorSource], known: SourceSet
) -> tuple[str, list[Cite]]:
    texts: list[str] = []
    pending: list[tuple[int, str, VendorSource]] = []
    length = 0
    web: dict[str, str] = {}
    for path, chunk in fields.objects(message, "content", where):
        kind = chunk.get("type")
        if kind == "text":
            text = fields.text(chunk, "text", path, required=True) or ""
            texts.append(text)
            length += len(text)
        elif kind == "reference":
            for number in fields.integers(chunk, "reference_ids", path):
                vendor = references.get(str(number)) or VendorSource(f"ref-{number}", None)
                pending.append((length, "reference", vendor))
        elif kind == "tool_reference":
            url = fields.text(chunk, "url", path)
            title = fields.text(chunk, "title", path, required=True)
            key = url or title or ""
            web.setdefault(key, f"web-{len(web) + 1}")
            pending.append((length, kind, VendorSource(web[key], None, title=title, url=url)))
    output = "".join(texts)
    cites: list[Cite] = []
    for at, kind, vendor in pending:
        words: Span = sentence_before(output, at)
        cites.append(Cite(words, known.add(vendor), kind, at=at))
    return output, cites


def _references(request: object | None) -> dict[str, VendorSource]:
    """The references of every tool message of the request, by reference id."""
    if request is None:
        return {}
    body = fields.as_object(request, "mistral request")
    found: dict[str, VendorSource] = {}
    for path, message in fields.objects(body, "messages", "mistral request"):
        if message.get("role") != "tool":
            continue
        content = message.get("content")
        if isinstance(content, list):  # [{"type": "text", "text": "..."}]
            content = "".join(
                fields.text(chunk, "text", f"{path}.content[{n}]") or ""
                for n, chunk in enumerate(content)
                if isinstance(chunk, Mapping)
            )
        if not isinstance(content, str):
            continue
        try:
            data = json.loads(content)
        except json.JSONDecodeError:
            continue  # a tool that returned no references
        if not isinstance(data, Mapping):
            continue
        for key, reference in data.items():
            if isinstance(reference, Mapping):
                found[str(key)] = _reference(str(key), reference)
    return found


def _reference(key: str, reference: Mapping[str, object]) -> VendorSource:
    snippets = _snippets(reference.get("snippets")) or _snippets(
        reference.get("snippet") or reference.get("content") or reference.get("description")
    )
    spans: list[Span] = []
    position = 0
    for snippet in snippets:
        spans.append((position, position + len(snippet)))
        position += len(snippet) + len(_SNIPPET_SEPARATOR)
    title = reference.get("title")
    url = reference.get("url")
    return VendorSource(
        f"ref-{key}",
        _SNIPPET_SEPARATOR.join(snippets) if snippets else None,
        title=title if isinstance(title, str) else None,
        url=url if isinstance(url, str) else None,
        paragraphs=tuple(spans) or None,
    )


def _snippets(value: object) -> list[str]:
    """Every string in ``value``, nested lists flattened (Mistral nests snippets twice)."""
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [text for item in value for text in _snippets(item)]
    return []
