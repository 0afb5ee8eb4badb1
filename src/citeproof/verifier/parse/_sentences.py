"""Sentence boundaries inside one prose block.

A sentence ends at ``.``, ``!`` or ``?`` (plus any closing quotes or brackets) followed by
whitespace, or at a full-width ``。``, ``！`` or ``？`` with or without it, and then something
that starts a sentence: an uppercase or uncased letter, a digit, an opening quote or bracket.
Citation markers right after the end still belong to the sentence (``… 45%. [S1] Next``). No
boundary falls inside a quote or a marker, nor after a common abbreviation (``e.g.``, ``Dr.``,
``No.``, ``U.S.``, an initial such as ``M.``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citeproof.model import Span
from citeproof.verifier.parse._text import SpanIndex

_TERMINATOR = re.compile(r"[.!?]+|[。！？]+")
_FULL_WIDTH_END = "。！？"  # Chinese and Japanese write no space after a sentence
_CLOSING = "\"'”’»«」』)]*_"
_OPENING = "\"'“‘«»„‚「『([*_¿¡<"
_WHITESPACE = re.compile(r"\s*")
_NOT_SPACE = re.compile(r"\S")
_WORD_BEFORE_DOT = re.compile(r"(?<![A-Za-z.])[A-Za-z][A-Za-z.]{0,9}\Z")
_ABBREVIATIONS_WRITTEN = (
    "e.g i.e cf vs v mr mrs ms dr prof sr jr st no nos approx fig figs p pp para sec art ch vol "
    "inc ltd co corp dept est al jan feb apr jun jul aug sep sept oct nov dec u.s u.k u.s.a e.u "
    "ca resp"
)
_ABBREVIATIONS = frozenset(_ABBREVIATIONS_WRITTEN.split())


def split_sentences(
    text: str, start: int, end: int, protected: SpanIndex, marker_ends: Mapping[int, int]
) -> list[Span]:
    """Untrimmed spans of the sentences of ``text[start:end]`` (the code-masked answer).

    ``protected`` holds the quotes and markers no boundary may fall inside; ``marker_ends``
    maps the start of each marker to its end.
    """
    sentences: list[Span] = []
    current = start
    for terminator in _TERMINATOR.finditer(text, start, end):
        if terminator.start() < current:
            continue  # inside markers already taken into the previous sentence
        if terminator.group() == "." and _after_abbreviation(text, start, terminator.start()):
            continue
        boundary = _skip_closing(text, terminator.end(), end)
        if protected.strictly_inside(boundary):
            continue
        boundary = _take_markers(text, boundary, end, marker_ends)
        full_width = terminator.group()[0] in _FULL_WIDTH_END
        if boundary >= end or not (full_width or text[boundary].isspace()):
            continue
        following = _NOT_SPACE.search(text, boundary, end)
        if following is None:
            break
        if _starts_sentence(text[following.start()]):
            sentences.append((current, boundary))
            current = boundary
    sentences.append((current, end))
    return sentences


def _after_abbreviation(text: str, start: int, dot: int) -> bool:
    word = _WORD_BEFORE_DOT.search(text, max(start, dot - 12), dot)
    if word is None:
        return False
    written = word.group()
    return written.lower() in _ABBREVIATIONS or (len(written) == 1 and written.isupper())


def _skip_closing(text: str, at: int, end: int) -> int:
    while at < end and text[at] in _CLOSING:
        at += 1
    return at


def _take_markers(text: str, at: int, end: int, marker_ends: Mapping[int, int]) -> int:
    """The offset after the markers that follow ``at`` (separated only by whitespace)."""
    while True:
        following = _WHITESPACE.match(text, at, end)
        marker_start = following.end() if following else at
        marker_end = marker_ends.get(marker_start)
        if marker_end is None or marker_end > end:
            return at
        at = marker_end


def _starts_sentence(ch: str) -> bool:
    return ch.isdigit() or ch in _OPENING or (ch.isalpha() and not ch.islower())
