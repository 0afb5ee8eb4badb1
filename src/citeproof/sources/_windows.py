"""Passages: the paragraph windows retrieval searches and returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citeproof.model import Span

TARGET_CHARS = 600
MAX_PARAGRAPHS = 3


@dataclass(frozen=True, slots=True)
class Window:
    """Paragraphs ``first``..``last`` (1-based, inclusive) and their character span."""

    first: int
    last: int
    span: Span


def passage_windows(
    paragraphs: Sequence[Span],
    quoted_spans: Sequence[Span] = (),
    *,
    target_chars: int = TARGET_CHARS,
    max_paragraphs: int = MAX_PARAGRAPHS,
) -> tuple[Window, ...]:
    """Consecutive, non-overlapping windows covering every paragraph once.

    A window grows paragraph by paragraph while it is shorter than ``target_chars`` and has
    fewer than ``max_paragraphs``; it never mixes quoted reply history with new text, so a
    passage is either wholly quoted or not quoted at all.
    """
    windows: list[Window] = []
    first = 0
    while first < len(paragraphs):
        quoted = _is_quoted(paragraphs[first], quoted_spans)
        last = first
        while (
            last + 1 < len(paragraphs)
            and last - first + 1 < max_paragraphs
            and paragraphs[last][1] - paragraphs[first][0] < target_chars
            and _is_quoted(paragraphs[last + 1], quoted_spans) == quoted
        ):
            last += 1
        windows.append(Window(first + 1, last + 1, (paragraphs[first][0], paragraphs[last][1])))
        first = last + 1
    return tuple(windows)


def _is_quoted(paragraph: Span, quoted_spans: Sequence[Span]) -> bool:
    start, end = paragraph
    return any(qs <= start and end <= qe for qs, qe in quoted_spans)
