"""Typed reads from a vendor response: untrusted JSON, so every error names the path.

A response may come as parsed JSON (``dict``), as JSON text, or as a vendor SDK object (a
pydantic model, read through ``model_dump``); `as_object` turns each into a plain mapping.
Keys may be looked up under several spellings (Gemini's REST API writes ``groundingMetadata``,
its Python SDK dumps ``grounding_metadata``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from citeproof.errors import AnswerError

Json = Mapping[str, Any]

MAX_JSON_CHARS = 50_000_000
"""Largest response or request read, in characters: a response with many documents is a few MB."""


def as_object(value: object, where: str) -> Json:
    """``value`` as a JSON object: a mapping, JSON text holding one, or an SDK model."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        value = dump(mode="json", by_alias=True, exclude_none=True)
    elif isinstance(value, (str, bytes)):
        if len(value) > MAX_JSON_CHARS:
            raise AnswerError(f"larger than {MAX_JSON_CHARS:,} characters", where=where)
        try:
            value = json.loads(value)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise AnswerError(f"not valid JSON ({error})", where=where) from None
    if not isinstance(value, Mapping):
        raise AnswerError(f"expected a JSON object, got {_kind(value)}", where=where)
    return value


def field(obj: Json, *keys: str) -> Any:
    """The value under the first of ``keys`` present, else None."""
    for key in keys:
        if key in obj:
            return obj[key]
    return None


def objects(obj: Json, key: str, where: str, *aliases: str) -> list[tuple[str, Json]]:
    """The objects of the list under ``key`` (missing: empty), each with its path."""
    value = field(obj, key, *aliases)
    if value is None:
        return []
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise AnswerError(f"expected a list, got {_kind(value)}", where=where, field=key)
    found: list[tuple[str, Json]] = []
    for number, item in enumerate(value):
        path = f"{where}.{key}[{number}]"
        if not isinstance(item, Mapping):
            raise AnswerError(f"expected an object, got {_kind(item)}", where=path)
        found.append((path, item))
    return found


def child(obj: Json, key: str, where: str, *aliases: str) -> Json | None:
    """The object under ``key``, None when missing."""
    value = field(obj, key, *aliases)
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise AnswerError(f"expected an object, got {_kind(value)}", where=where, field=key)
    return value


def text(obj: Json, key: str, where: str, *aliases: str, required: bool = False) -> str | None:
    """The string under ``key``; None when missing and not ``required``."""
    value = field(obj, key, *aliases)
    if value is None:
        if required:
            raise AnswerError("is missing", where=where, field=key)
        return None
    if not isinstance(value, str):
        raise AnswerError(f"expected a string, got {_kind(value)}", where=where, field=key)
    return value


def integer(obj: Json, key: str, where: str, *aliases: str, default: int | None = None) -> int:
    """The non-negative integer under ``key``; ``default`` when missing (None: required)."""
    value = field(obj, key, *aliases)
    if value is None:
        if default is None:
            raise AnswerError("is missing", where=where, field=key)
        return default
    # JSON writes 5 and 5.0 alike; Gemini's REST API sends int64 fields as strings ("12").
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AnswerError(f"expected a non-negative integer, got {value!r}", where=where, field=key)
    return value


def integers(obj: Json, key: str, where: str, *aliases: str) -> list[int]:
    """The non-negative integers of the list under ``key`` (missing: empty)."""
    value = field(obj, key, *aliases)
    if value is None:
        return []
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise AnswerError(f"expected a list, got {_kind(value)}", where=where, field=key)
    return [integer({key: item}, key, f"{where}.{key}[{n}]") for n, item in enumerate(value)]


def number(obj: Json, key: str, where: str, *aliases: str) -> float | None:
    value = field(obj, key, *aliases)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise AnswerError(f"expected a number, got {value!r}", where=where, field=key)
    return float(value)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )
