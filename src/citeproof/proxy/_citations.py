"""Vendor citations the adapters refuse, flagged instead of failing the answer.

An adapter raises `AnswerError` naming the citation whose location cannot be right: an offset
that is negative, past the end of the text or before its own start, or a number no text is
long enough for. Coming from a proxied upstream, that is the upstream's fault, not the
caller's: `convert_flagging` takes that one citation out of (a copy of) the response, keeps
it as an `InvalidCitation` (where it was in the response, why it was refused), and converts
again, so the answer and its other citations are still verified. Past `MAX_INVALID` such
citations, every citation of the response is left out at once (converting once per citation
would let a response of many bad ones cost the proxy quadratic time).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from citeproof.adapters import Converted
from citeproof.errors import AnswerError

MAX_INVALID = 20
"""Citations taken out one at a time; past this many, all of them are."""
_LISTS = ("citations", "annotations")
_ROOT = re.compile(r"^(?:anthropic|openai) response(?=\.|$)")
_STEP = re.compile(r"\.([A-Za-z_]+)(?:\[(\d+)\])?")
_LONG = 160


@dataclass(frozen=True, slots=True)
class InvalidCitation:
    """A citation left out unchecked: ``where`` it was in the upstream's response
    (``content[1].citations[0]``), and the ``reason`` its location is invalid."""

    where: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"where": self.where, "reason": self.reason}

    def failure(self) -> str:
        return f"citation {self.where} is invalid and was not checked: {self.reason}"


def convert_flagging(
    convert: Callable[[Any], Converted], response: Any
) -> tuple[Converted, tuple[InvalidCitation, ...]]:
    """``convert(response)``, with each citation the adapter refuses taken out and flagged
    (see the module docstring). Raises what ``convert`` raises for anything but a citation."""
    body = response
    invalid: list[InvalidCitation] = []
    kept: dict[tuple[tuple[str, int | None], ...], list[int]] = {}  # original indexes
    while True:
        try:
            return convert(body), tuple(invalid)
        except AnswerError as error:
            steps = _citation_steps(error.where)
            if steps is None:
                raise
            reason = _reason(error)
            if len(invalid) == MAX_INVALID:
                body = _without_citations(body)
                invalid.append(InvalidCitation("every citation", _too_many(reason)))
                return convert(body), tuple(invalid)
            if body is response:
                body = copy.deepcopy(response)
            where = _remove(body, steps, kept)
            if where is None:
                raise
            invalid.append(InvalidCitation(where, reason))


def _citation_steps(where: str | None) -> list[tuple[str, int | None]] | None:
    """The path of ``where`` up to the citation it names (the last ``citations[N]`` or
    ``annotations[N]`` in it), as (key, index) steps; None when it names no citation of the
    response."""
    root = _ROOT.match(where or "")
    if where is None or root is None:
        return None
    rest = where[root.end() :]
    steps: list[tuple[str, int | None]] = []
    at = 0
    while at < len(rest):
        step = _STEP.match(rest, at)
        if step is None:
            return None
        steps.append((step[1], int(step[2]) if step[2] is not None else None))
        at = step.end()
    last = max(
        (n for n, (key, index) in enumerate(steps) if key in _LISTS and index is not None),
        default=None,
    )
    return None if last is None else steps[: last + 1]


def _remove(
    body: Any,
    steps: list[tuple[str, int | None]],
    kept: dict[tuple[tuple[str, int | None], ...], list[int]],
) -> str | None:
    """Take the citation at ``steps`` out of ``body``; where it was in the response as the
    upstream sent it (None: the path does not lead to one)."""
    node = body
    for key, index in steps[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
        if index is not None:
            node = node[index] if isinstance(node, list) and index < len(node) else None
    key, index = steps[-1]
    listed = node.get(key) if isinstance(node, dict) else None
    if not isinstance(listed, list) or index is None or index >= len(listed):
        return None
    prefix = (*steps[:-1], (key, None))
    original = kept.setdefault(prefix, list(range(len(listed))))
    del listed[index]
    at = original.pop(index)
    named = [f"{k}[{i}]" if i is not None else k for k, i in steps[:-1]]
    return ".".join([*named, f"{key}[{at}]"])


def _without_citations(body: Any) -> Any:
    """A copy of ``body`` with every list of citations emptied (walked without recursion:
    the response's nesting is the upstream's)."""
    copied = copy.deepcopy(body)
    stack = [copied]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in _LISTS:
                if isinstance(node.get(key), list):
                    node[key] = []
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return copied


def _reason(error: AnswerError) -> str:
    reason = f"{error.field}: {error.detail}" if error.field else error.detail
    return reason if len(reason) <= _LONG else reason[: _LONG - 1] + "…"


def _too_many(reason: str) -> str:
    return f"over {MAX_INVALID} citations are invalid (the last: {reason}); none was checked"
