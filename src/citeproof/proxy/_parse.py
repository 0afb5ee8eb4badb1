"""The one parse of JSON an upstream sends: each event of a stream, and a whole answer.

The upstream is not trusted, so the parse is bounded and total: it never raises. JSON nested
deeper than `MAX_DEPTH` (Python's parser recurses once per level, and so does everything that
walks the value after it), a string holding a lone surrogate (not text: it cannot be written as
UTF-8, in a record or to the client), or any failure of the parser gives the reason it cannot
be read instead of a value.

The nesting is measured before anything is parsed, in time linear in the text for each level
allowed: strings are taken out, then the innermost pairs of brackets, once per level.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from citeproof.json_input import MAX_JSON_DEPTH

MAX_DEPTH = MAX_JSON_DEPTH
"""Deepest nesting read; vendors' answers and events nest a dozen levels."""
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_PAIR = re.compile(r"\[\]|\{\}")


def read_json(text: str | bytes) -> tuple[Any, str | None]:
    """``text`` read as JSON: its value and None; None and None when it is not JSON at all
    (``[DONE]``, an empty ping); None and the reason when it is JSON that cannot be read."""
    try:
        decoded = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        if too_deep(decoded, MAX_DEPTH):
            return None, f"its JSON nests more than {MAX_DEPTH} levels deep"
        try:
            return orjson.loads(decoded), None
        except orjson.JSONDecodeError:
            pass  # what orjson refuses but Python reads: a lone surrogate, a huge integer
        try:
            value = json.loads(decoded)
        except ValueError:
            return None, None
        if "\\u" in decoded:  # only an escape makes a lone surrogate (the text was UTF-8)
            json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return None, "its JSON holds a lone surrogate, which is not text"
    except Exception as error:  # the parse is total: any failure is a reason
        return None, f"its JSON cannot be read ({type(error).__name__})"
    return value, None


def too_deep(text: str, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` levels deep in ``text`` (brackets
    inside strings not counted; unbalanced brackets are the parser's to refuse)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(limit):
        inner = _PAIR.sub("", brackets)
        if inner == brackets:
            return False
        brackets = inner
    return _PAIR.search(brackets) is not None
