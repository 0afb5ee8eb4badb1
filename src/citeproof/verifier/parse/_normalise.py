"""Citation markers written slightly wrong, rewritten to ``<cite:ID#pN>`` before parsing.

Small models write the canonical marker with its ``#`` dropped or its paragraph spelled
differently: ``<cite:policyp3>``, ``<cite:policy p3>``, ``<cite:policy ¶3>``,
``<cite:policy, para 3>``, or as an element with the paragraph inside it:
``<cite:policy>p3</cite>``, ``<cite:policy></cite>``, or in square brackets:
``[cite:policy]``, ``[cite:policy#p3]``. Such a marker is rewritten only when it is
unambiguous: its id, with the paragraph taken off, is exactly one of the ids the answer may cite,
and the id as written (paragraph included) is not itself one. Everything else is left for the
parser as written. Each rewrite is recorded as a `MarkerNormalisation`, so the answer's record
says which markers citeproof read differently from how they were written.

Forms the parser already reads (``<cite: ID # p2>``, ``[ID ¶2]``) are not touched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from citeproof.model import MarkerNormalisation

MAX_MARKER = 260  # the longest `<cite:...>` looked at: ids are at most 200 characters
_LOOSE = re.compile(
    rf"<cite:[ \t]*(?P<body>[^<>\n]{{1,{MAX_MARKER}}})>"
    # Written as an element: "<cite:policy>p3</cite>", "<cite:policy></cite>".
    r"(?P<closed>[ \t]*(?:(?:p|pp\.?|¶|para\.?|paragraph)?[ \t]*(?P<inner>[0-9]{1,6}))?"
    r"[ \t]*</cite>)?"
    # In square brackets, as a footnote-style marker: "[cite:policy]", "[cite: policy p3]"
    # (a bracket followed by "(" is a Markdown link).
    rf"|\[cite:[ \t]*(?P<bracketed>[^\[\]\n]{{1,{MAX_MARKER}}})\](?!\()",
    re.IGNORECASE,
)
_CANONICAL = re.compile(
    r"[\w.:/-]{1,200}[ \t]*(?:\#[ \t]*(?:p|¶|para)?[ \t]*[0-9]{1,6})?[ \t]*", re.IGNORECASE
)
# What may follow the id in place of "#pN": glued ("policyp3") or after a space, comma or
# colon ("policy p3", "policy, para 3", "policy ¶3", "policy#para3").
_PARAGRAPH = re.compile(
    r"[ \t]*(?:[,;:#][ \t]*)?(?:p|pp\.?|¶|para\.?|paragraph)[ \t]*(?P<para>[0-9]{1,6})[ \t]*\Z",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Normalised:
    """The answer with markers rewritten, and one record per rewrite (offsets in the input)."""

    text: str
    changes: tuple[MarkerNormalisation, ...]


def normalise_markers(text: str, known_ids: Iterable[str]) -> Normalised:
    """``text`` with every unambiguous near-canonical marker rewritten to ``<cite:ID#pN>``.

    ``known_ids`` are the ids the answer may cite (the turn's sources, provided or not). Runs
    in time linear in ``text`` (one regex pass, bounded marker length).
    """
    known = set(known_ids)
    pieces: list[str] = []
    changes: list[MarkerNormalisation] = []
    last = 0
    for found in _LOOSE.finditer(text):
        body, inner = found.group("body"), found.group("inner")
        canonical = None
        if found.group("bracketed") is not None:
            canonical = _bracketed(found.group("bracketed"), known)
        elif found.group("closed") is not None:
            canonical = _closed(body, inner, known)
        if canonical is None and body is not None:
            canonical = _canonical(body, known)
        if canonical is None:
            continue
        pieces += [text[last : found.start()], canonical]
        changes.append(MarkerNormalisation(found.group(), canonical, found.start()))
        last = found.end()
    if not changes:
        return Normalised(text, ())
    pieces.append(text[last:])
    return Normalised("".join(pieces), tuple(changes))


def _canonical(body: str, known: set[str]) -> str | None:
    body = body.strip()
    if body in known or (_CANONICAL.fullmatch(body) and _read_id(body) in known):
        return None  # already read by the parser as meant
    readings = {
        (source_id, int(rest.group("para")))
        for source_id in known
        if body.startswith(source_id) and (rest := _PARAGRAPH.match(body, len(source_id)))
    }
    if len(readings) != 1:
        return None  # no reading, or more than one: left as written
    ((source_id, paragraph),) = readings
    return f"<cite:{source_id}#p{paragraph}>"


def _closed(body: str, inner: str | None, known: set[str]) -> str | None:
    """``<cite:ID>pN</cite>`` as ``<cite:ID#pN>``; ``<cite:ID></cite>`` (or with ``#pN`` in
    the opening tag) as the marker alone. None unless the id is one of ``known``."""
    body = body.strip()
    if inner is not None:
        return f"<cite:{body}#p{int(inner)}>" if body in known else None
    if body in known or (_CANONICAL.fullmatch(body) and _read_id(body) in known):
        return f"<cite:{body}>"
    return None


def _bracketed(body: str, known: set[str]) -> str | None:
    """``[cite:ID]`` or ``[cite:ID#pN]`` (or with the paragraph written loosely) as
    ``<cite:ID#pN>``; None unless the id is one of ``known`` and ``cite:ID`` is not itself
    one (the parser then reads the bracket as that id)."""
    body = body.strip()
    if f"cite:{body}" in known or f"cite:{_read_id(body)}" in known:
        return None
    if body in known or (_CANONICAL.fullmatch(body) and _read_id(body) in known):
        return f"<cite:{body}>"
    return _canonical(body, known)


def _read_id(body: str) -> str:
    return body.split("#")[0].strip()
