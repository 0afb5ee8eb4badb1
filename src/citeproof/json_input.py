"""JSON from outside, read with a bound on its nesting.

Python's JSON parser recurses once per level, so a file of a hundred thousand ``[`` ends in a
RecursionError (a traceback, not an answer); a document just under that limit parses and
then crashes whatever walks it. `load_json` measures the nesting first (strings left out),
refuses anything deeper than `MAX_JSON_DEPTH` with an `InputError` naming the file, and turns
every parse failure into one too. Used for every JSON file the CLI reads: answers and
requests of ``verify --from``, ``--facts``, ``--rules``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from decimal import Decimal
from itertools import accumulate
from typing import Any

from citeproof.errors import InputError

MAX_JSON_DEPTH = 200
"""Deepest nesting of arrays and objects read; real API responses nest a dozen levels."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (brackets inside strings not counted)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(_STEP[c] for c in brackets), default=0)


def load_json(
    text: str,
    *,
    where: str,
    what: str = "the file",
    parse_float: Callable[[str], Any] | type[Decimal] | None = None,
    max_depth: int = MAX_JSON_DEPTH,
) -> Any:
    """The JSON value of ``text``. Raises `InputError` naming ``where`` when it is not JSON
    or nests deeper than ``max_depth``."""
    depth = nesting_depth(text)
    if depth > max_depth:
        raise InputError(
            f"{what} nests {depth:,} levels deep; the limit is {max_depth}", where=where
        )
    try:
        return json.loads(text, parse_float=parse_float)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise InputError(f"{what} is nested too deeply", where=where) from None
    except json.JSONDecodeError as error:
        raise InputError(
            f"{what} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}",
            where=where,
        ) from None
