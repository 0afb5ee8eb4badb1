"""Sentence boundaries inside one prose block of an answer.

A sentence ends at ``.``, ``!``, ``?`` or ``…`` (plus any closing quotes or brackets) followed
by whitespace, or at a full-width ``。``, ``！`` or ``？`` with or without it, and then something
that starts a sentence: an uppercase or uncased letter, a digit, an opening quote or bracket.
Citation markers right after the end still belong to the sentence (``… 45%. [S1] Next``). No
boundary falls inside a quote or a marker, nor after an abbreviation or an initial: those of
the source-sentence segmenter (`citeproof.sources.is_abbreviation`), so an answer's
sentences and its sources' sentences end by the same rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citeproof.model import Span
from citeproof.sources import CLOSING, FULL_WIDTH_STOPS, is_abbreviation, starts_sentence
from citeproof.verifier.parse._text import SpanIndex

_TERMINATOR = re.compile(rf"[.!?…]+|[{FULL_WIDTH_STOPS}]+")
_WHITESPACE = re.compile(r"\s*")
_NOT_SPACE = re.compile(r"\S")


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
        boundary = _skip_closing(text, terminator.end(), end)
        if protected.strictly_inside(boundary):
            continue
        boundary = _take_markers(text, boundary, end, marker_ends)
        full_width = terminator.group()[0] in FULL_WIDTH_STOPS
        if boundary >= end or not (full_width or text[boundary].isspace()):
            continue
        following = _NOT_SPACE.search(text, boundary, end)
        if following is None:
            break
        first = text[following.start()]
        if terminator.group() == "." and is_abbreviation(text, terminator.start(), first, start):
            continue
        if starts_sentence(first):
            sentences.append((current, boundary))
            current = boundary
    sentences.append((current, end))
    return sentences


def _skip_closing(text: str, at: int, end: int) -> int:
    while at < end and text[at] in CLOSING:
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
