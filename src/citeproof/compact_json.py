"""Compact JSON in and out where speed matters (the service's replies, the proxy's bodies):
orjson, and the standard library for what orjson refuses but Python handles, such as an
integer beyond 64 bits. Canonical JSON for hashing is `citeproof.canonical`; JSON files from
outside are read by `citeproof.json_input`, which bounds their nesting."""

from __future__ import annotations

import json
from typing import Any

import orjson


def loads(raw: bytes | str) -> Any:
    """The JSON value of ``raw``. Raises ``ValueError`` when it is not JSON, or
    ``RecursionError`` when it nests too deeply to read."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


def dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON, non-ASCII characters as themselves."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
