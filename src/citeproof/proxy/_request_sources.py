"""What a vendor request carries for citeproof: its sources, and citeproof's own fields.

The sources of an answer are the ones its request gave the model; only they are eligible, so a
citation to anything else is ineligible (012.2):

- Anthropic Messages: ``document`` blocks (``doc-N``) and ``search_result`` blocks
  (``result-N``), numbered as the response's citations count them (`request_sources`);
- OpenAI Chat Completions: ``file`` content parts with inline ``file_data`` (id: the
  ``file_id``, else the ``filename``), and tool results (``role: "tool"`` messages, text or
  text parts; id: the ``tool_call_id``);
- OpenAI Responses: ``input_file`` parts with ``file_data``, and ``function_call_output``
  items (id: the ``call_id``);
- any of them: an explicit ``citeproof.sources`` list of the JSON contract's source objects
  (these win over a request source with the same id), and ``citeproof.policy``;
- or, with a store, ``citeproof.store``: sources retrieved for the question, as ``ask``
  retrieves them, with the turn's eligibility (see `citeproof.proxy._store_sources`).

The ``citeproof`` member is removed before the request goes upstream: the vendors reject
parameters they do not know. The request's own messages are never changed otherwise.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from citeproof.adapters import fields, request_sources
from citeproof.errors import InputError, SourceError
from citeproof.model import Eligibility, Policy, Source
from citeproof.outcome import read_policy, sources_from_json
from citeproof.proxy._apis import VendorApi
from citeproof.proxy._store_sources import StoreAccess, read_store_query, retrieve
from citeproof.sources import read_document

OWN_FIELD = "citeproof"
"""The request member that holds citeproof's own fields."""


@dataclass(frozen=True, slots=True)
class ProxiedRequest:
    """A vendor request split in two: what goes upstream, and what citeproof reads from it.

    ``forward`` is the request without the ``citeproof`` member; ``sources`` are the sources
    it carries (the only eligible ones); ``notes`` name what could not be read as a source
    (a file given by id only); ``stream`` is whether the caller asked for a stream.
    """

    forward: dict[str, Any]
    sources: tuple[Source, ...]
    policy: Policy
    notes: tuple[str, ...]
    stream: bool
    model: str | None
    eligibility: Eligibility | None = None


def read_request(
    api: VendorApi, body: object, base: Policy, store: StoreAccess | None = None
) -> ProxiedRequest:
    """Split ``body`` (the parsed JSON request) for ``api``; ``store`` is the source store a
    ``citeproof.store`` member retrieves from. Raises `InputError` or `SourceError` naming the
    field for a request that is not a JSON object, a bad ``citeproof`` member, or a source
    that cannot be read."""
    if not isinstance(body, dict):
        raise InputError("expected a JSON object", where="request body")
    forward = {key: value for key, value in body.items() if key != OWN_FIELD}
    own = body.get(OWN_FIELD, {})
    if not isinstance(own, dict):
        raise InputError("expected a JSON object", field=OWN_FIELD)
    unknown = sorted(set(own) - {"sources", "policy", "store"})
    if unknown:
        raise InputError(
            f"unknown member {unknown[0]!r}; expected sources, policy or store",
            field=f"{OWN_FIELD}.{unknown[0]}",
        )
    policy = base
    if own.get("policy") is not None:
        policy = read_policy(own["policy"], where=f"{OWN_FIELD}.policy", base=base)
    model = forward.get("model")
    stream = forward.get("stream") is True
    if own.get("store") is not None:
        wanted = read_store_query(own["store"], where=f"{OWN_FIELD}.store")
        if store is None:
            raise InputError(
                "this proxy has no source store to retrieve from (citeproof proxy --store DB)",
                field=f"{OWN_FIELD}.store",
            )
        if own.get("sources") is not None:
            raise InputError(
                "give sources or a store query, not both", field=f"{OWN_FIELD}.sources"
            )
        found = retrieve(api, forward, wanted, store)
        return ProxiedRequest(
            forward=found.forward,
            sources=found.sources,
            policy=policy,
            notes=(),
            stream=stream,
            model=model if isinstance(model, str) else None,
            eligibility=found.eligibility,
        )
    carried, notes = _carried(api, forward)
    given: list[Source] = []
    if own.get("sources") is not None:
        given = sources_from_json(own["sources"], where=f"{OWN_FIELD}.sources")
    ids = {source.id for source in given}
    sources = tuple(given) + tuple(s for s in carried if s.id not in ids)
    return ProxiedRequest(
        forward=forward,
        sources=sources,
        policy=policy,
        notes=notes,
        stream=stream,
        model=model if isinstance(model, str) else None,
    )


def _carried(api: VendorApi, body: Mapping[str, Any]) -> tuple[list[Source], tuple[str, ...]]:
    if api.vendor == "anthropic":
        sources, notes = request_sources(body)
        return list(sources), notes
    found = _Found()
    if api.name == "chat.completions":
        for path, message in fields.objects(body, "messages", "request"):
            _chat_message(message, path, found)
    else:
        items = body.get("input")
        if isinstance(items, list):
            for path, item in fields.objects(body, "input", "request"):
                _responses_item(item, path, found)
    return found.sources, tuple(found.notes)


class _Found:
    def __init__(self) -> None:
        self.sources: list[Source] = []
        self.notes: list[str] = []

    def add(self, source: Source) -> None:
        if any(s.id == source.id for s in self.sources):
            raise SourceError(f"two sources have the id {source.id!r}", field="id")
        self.sources.append(source)


def _chat_message(message: fields.Json, path: str, found: _Found) -> None:
    content = message.get("content")
    if message.get("role") == "tool":
        source_id = fields.text(message, "tool_call_id", path, required=True) or ""
        text = content if isinstance(content, str) else _texts(message, path)
        if text.strip():
            title = fields.text(message, "name", path)
            found.add(Source(id=source_id, kind="document", text=text, title=title))
        return
    if not isinstance(content, list):
        return
    for part_path, part in fields.objects(message, "content", path):
        if part.get("type") == "file":
            inner = fields.child(part, "file", part_path)
            if inner is not None:
                _file(inner, f"{part_path}.file", found)


def _responses_item(item: fields.Json, path: str, found: _Found) -> None:
    if item.get("type") == "function_call_output":
        source_id = fields.text(item, "call_id", path, required=True) or ""
        output = item.get("output")
        text = output if isinstance(output, str) else _texts(item, path, key="output")
        if text.strip():
            found.add(Source(id=source_id, kind="document", text=text))
        return
    if not isinstance(item.get("content"), list):
        return
    for part_path, part in fields.objects(item, "content", path):
        if part.get("type") == "input_file":
            _file(part, part_path, found)


def _texts(obj: fields.Json, path: str, key: str = "content") -> str:
    """The text parts of a content list, joined by a blank line."""
    return "\n\n".join(
        fields.text(part, "text", part_path) or ""
        for part_path, part in fields.objects(obj, key, path)
        if part.get("type") in ("text", "input_text", "output_text")
    )


def _file(part: fields.Json, path: str, found: _Found) -> None:
    """A file given inline (``file_data``, a ``data:`` URL or plain base64) is read as the
    document it is; a file given by ``file_id`` alone is on the vendor's side: noted."""
    file_id = fields.text(part, "file_id", path)
    name = fields.text(part, "filename", path)
    data = fields.text(part, "file_data", path)
    source_id = file_id or name
    if data is None:
        if source_id:
            found.notes.append(
                f"{source_id}: the request gives the file by id only; give its text in "
                "citeproof.sources to check what cites it"
            )
        return
    if not source_id:
        raise SourceError("a file given inline needs a filename or a file_id", where=path)
    media, raw = _decoded(data, path)
    document = read_document(raw, name=name or source_id, where=path, content_type=media)
    found.add(
        Source(
            id=source_id,
            kind="document",
            text=document.text,
            title=name or document.title,
            paragraphs=document.paragraphs,
        )
    )


def _decoded(data: str, path: str) -> tuple[str | None, bytes]:
    media = None
    if data.startswith("data:"):
        header, _, data = data.partition(",")
        media = header.removeprefix("data:").split(";")[0] or None
    try:
        return media, base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise SourceError(
            "the base64 data does not decode", where=path, field="file_data"
        ) from None
