"""The one parse of JSON an upstream sends: each event of a stream, and a whole answer.

The upstream is not trusted, so the parse is bounded and total: it never raises. JSON nested
deeper than `MAX_DEPTH` (Python's parser recurses once per level, and so does everything that
walks the value after it), a string holding a lone surrogate (not text: it cannot be written as
UTF-8, in a record or to the client), a number no float can hold (``1e999999`` reads as
infinity, and ``NaN`` and ``Infinity`` are not JSON at all: written again, as a corrected
event is, they would not be JSON), or any failure of the parser gives the reason it cannot be
read instead of a value.

The nesting, and how many arrays and objects there are, is measured before anything is
parsed, in one pass linear in the text: strings are taken out, then the brackets left are
counted a slice at a time. Past `MAX_CONTAINERS` arrays and objects an event is refused too:
the parser builds them in one call that no other thread can interrupt (the interpreter lock),
so bounding them bounds how long a large event, read in a worker thread, can keep the event
loop from running; the slices of the pass let it run in between.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

import orjson

from citeproof.json_input import MAX_JSON_DEPTH

MAX_DEPTH = MAX_JSON_DEPTH
"""Deepest nesting read; vendors' answers and events nest a dozen levels."""
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_SLICE = 1 << 18
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
MAX_CONTAINERS = 500_000
"""Most arrays and objects read in one event or answer: a vendor's 10 MB event holds tens of
thousands."""
_NUMBER_SHOWN = 40


class _NotFinite(Exception):
    """A number of the text that no float can hold (not a `ValueError`: the parser would
    take it for text that is not JSON)."""


def read_json(text: str | bytes) -> tuple[Any, str | None]:
    """``text`` read as JSON: its value and None; None and None when it is not JSON at all
    (``[DONE]``, an empty ping); None and the reason when it is JSON that cannot be read."""
    try:
        decoded = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        depth, containers = measure(decoded)
        if depth > MAX_DEPTH:
            return None, f"its JSON nests more than {MAX_DEPTH} levels deep"
        if containers > MAX_CONTAINERS:
            return None, f"its JSON holds more than {MAX_CONTAINERS:,} arrays and objects"
        try:
            return orjson.loads(decoded), None
        except orjson.JSONDecodeError:
            pass  # what orjson refuses but Python reads: a lone surrogate, a huge integer
        try:
            value = json.loads(decoded, parse_float=_finite, parse_constant=_constant)
        except _NotFinite as error:
            return None, f"its JSON holds a number out of range ({error})"
        except ValueError:
            return None, None
        if "\\u" in decoded:  # only an escape makes a lone surrogate (the text was UTF-8)
            json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return None, "its JSON holds a lone surrogate, which is not text"
    except Exception as error:  # the parse is total: any failure is a reason
        return None, f"its JSON cannot be read ({type(error).__name__})"
    return value, None


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(text if len(text) <= _NUMBER_SHOWN else text[: _NUMBER_SHOWN - 1] + "…")
    return value


def _constant(text: str) -> float:
    raise _NotFinite(text)  # NaN, Infinity, -Infinity: Python reads them, JSON has none


def too_deep(text: str, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` levels deep in ``text`` (brackets
    inside strings not counted; unbalanced brackets are the parser's to refuse)."""
    return measure(text)[0] > limit


def measure(text: str) -> tuple[int, int]:
    """How deep arrays and objects nest in ``text``, and how many there are (brackets inside
    strings not counted), a slice at a time (see the module docstring)."""
    most = text.count("[") + text.count("{")
    if most <= 1:
        return most, most
    if '"' in text:
        text = _STRING.sub("", text)
    depth = deepest = opened = 0
    for start in range(0, len(text), _SLICE):
        brackets = _NOT_BRACKET.sub("", text[start : start + _SLICE])
        if not brackets:
            continue
        here = brackets.count("[") + brackets.count("{")
        deepest = max(deepest, max(accumulate(map(_STEP.__getitem__, brackets), initial=depth)))
        depth += 2 * here - len(brackets)
        opened += here
    return deepest, opened
