"""Sources from a source store: ``citeproof.store`` asks the proxy to retrieve, as ``ask`` does.

With ``citeproof proxy --store DB``, a request may carry ``"citeproof": {"store": {...}}``
instead of its sources: the proxy retrieves passages for the question (the last user message,
or ``query``) from the store, decides eligibility once (the store's access lists, read as
``--principal``; the prompt budget), and sends the upstream citeproof's own prompt: its rules
as the first system instructions and, in place of the last user message, the eligible sources
fenced and numbered, then the question. The answer is verified against those sources, with
that eligibility: a citation to any other source is ineligible and says why.

``store`` members: ``query`` (default: the question), ``limit`` (passages retrieved, 1-50,
default 8), ``budget_chars`` (characters of source text in the prompt, default 24,000).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from citeproof.errors import InputError
from citeproof.model import Eligibility, Source
from citeproof.proxy._apis import VendorApi
from citeproof.sources import SourceStore, StoreLibrary
from citeproof.turn import DEFAULT_BUDGET_CHARS, Prompt, StoreRetriever, select_sources


class StoreQuery(BaseModel):
    """The ``citeproof.store`` member."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    query: str | None = Field(default=None, min_length=1, max_length=4_000)
    limit: int = Field(default=8, ge=1, le=50)
    budget_chars: int = Field(default=DEFAULT_BUDGET_CHARS, ge=100, le=200_000)


@dataclass(frozen=True, slots=True)
class StoreAccess:
    """The store a proxy retrieves from, and the principal it reads as."""

    path: Path
    principal: str


@dataclass(frozen=True, slots=True)
class Retrieved:
    """What retrieval gave one request: the request to send, the eligible sources, the
    eligibility decided."""

    forward: dict[str, Any]
    sources: tuple[Source, ...]
    eligibility: Eligibility


def read_store_query(raw: object, where: str) -> StoreQuery:
    try:
        return StoreQuery.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or None
        raise InputError(first["msg"], where=where, field=field) from None


def retrieve(
    api: VendorApi, forward: Mapping[str, Any], wanted: StoreQuery, access: StoreAccess
) -> Retrieved:
    """Retrieve for the request's question and put citeproof's prompt in the request."""
    question = last_question(api, forward)
    with SourceStore(access.path) as store:
        readers = [access.principal]
        selection = select_sources(
            wanted.query or question,
            retriever=StoreRetriever(store, principals=readers),
            library=StoreLibrary(store, principals=readers),
            user=access.principal,
            budget_chars=wanted.budget_chars,
            limit=wanted.limit,
        )
    prompt = selection.prompt(question)
    return Retrieved(with_prompt(api, forward, prompt), selection.eligible, selection.eligibility)


def last_question(api: VendorApi, forward: Mapping[str, Any]) -> str:
    """The text of the request's last user message: the question."""
    found = _last_user(api, forward)
    if found is None:
        raise InputError("the request has no user message to retrieve for", field="messages")
    holder, key = found
    content = holder[key]
    if isinstance(content, str):
        return content
    texts = [
        part.get("text", "")
        for part in content
        if isinstance(part, dict) and part.get("type") in ("text", "input_text")
    ]
    if not any(text.strip() for text in texts):
        raise InputError("the last user message has no text", field="messages")
    return "\n\n".join(texts)


def with_prompt(api: VendorApi, forward: Mapping[str, Any], prompt: Prompt) -> dict[str, Any]:
    """``forward`` with the prompt's rules first among the instructions and its sources and
    question in place of the last user message; everything else as the caller sent it."""
    body = copy.deepcopy(dict(forward))
    system, user = prompt.messages[0].content, prompt.messages[1].content
    found = _last_user(api, body)
    assert found is not None  # last_question found it
    holder, key = found
    holder[key] = user
    if api.vendor == "anthropic":
        own = body.get("system")
        if isinstance(own, list):
            body["system"] = [{"type": "text", "text": system}, *own]
        else:
            body["system"] = system + (f"\n\n{own}" if own else "")
    elif api.name == "responses":
        own = body.get("instructions")
        body["instructions"] = system + (f"\n\n{own}" if own else "")
    else:
        body["messages"] = [{"role": "system", "content": system}, *body["messages"]]
    return body


def _last_user(api: VendorApi, body: Mapping[str, Any]) -> tuple[Any, Any] | None:
    """The container and key of the last user message's content."""
    if api.name == "responses":
        items = body.get("input")
        if isinstance(items, str):
            return body, "input"
        messages = items if isinstance(items, list) else []
    else:
        listed = body.get("messages")
        messages = listed if isinstance(listed, list) else []
    for message in reversed(messages):
        user = isinstance(message, dict) and message.get("role") == "user"
        if user and isinstance(message.get("content"), str | list):
            return message, "content"
    return None
