"""Offset helpers shared by the parser: lines, trimming, and "is this offset inside a span"."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from typing import NamedTuple

from citeproof.model import Span


class Line(NamedTuple):
    """One line of the answer: ``end`` is before the line break (``\\n`` or ``\\r\\n``)."""

    start: int
    end: int


def split_lines(text: str) -> list[Line]:
    """Every line of ``text``; only ``\\n`` breaks a line (not ``str.splitlines``' set)."""
    lines: list[Line] = []
    start = 0
    for piece in text.split("\n"):
        end = start + len(piece)
        lines.append(Line(start, end - 1 if piece.endswith("\r") else end))
        start = end + 1
    return lines


def trim(text: str, start: int, end: int) -> Span:
    """``(start, end)`` narrowed to exclude surrounding whitespace (empty spans collapse)."""
    piece = text[start:end]
    stripped = piece.lstrip()
    start += len(piece) - len(stripped)
    return start, start + len(stripped.rstrip())


def has_word(text: str, start: int, end: int) -> bool:
    """Whether the span holds a letter or digit: text without one is not a claim or a quote."""
    return any(ch.isalnum() for ch in text[start:end])


class SpanIndex:
    """Sorted spans that answer "is this offset strictly inside one of them?" in log time."""

    def __init__(self, spans: Iterable[Span]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self._starts = [s for s, _ in merged]
        self._ends = [e for _, e in merged]

    def strictly_inside(self, offset: int) -> bool:
        i = bisect_left(self._starts, offset) - 1
        return i >= 0 and self._ends[i] > offset

    def covers(self, offset: int) -> bool:
        """Whether ``start <= offset < end`` for one of the spans."""
        i = bisect_right(self._starts, offset) - 1
        return i >= 0 and self._ends[i] > offset
