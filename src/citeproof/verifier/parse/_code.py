"""Code fences and code spans: what they hold is not prose, so their quotes and markers are ignored.

``mask_code`` returns a copy of the answer of the same length in which every character of code
(except line breaks, so lines keep their offsets) is replaced by ``MASK``. The other stages
search the masked copy and report offsets that are valid in the original.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from citeproof.model import Span
from citeproof.verifier.parse._text import Line

MASK = "\x00"

_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")
_NOT_NEWLINE = re.compile(r"[^\n]")


def mask_code(text: str, lines: Sequence[Line]) -> tuple[str, list[bool]]:
    """The masked copy of ``text`` and, per line, whether the line belongs to a code fence."""
    fences, in_fence = _fences(text, lines)
    masked = _mask(text, fences)
    return _mask(masked, _code_spans(masked)), in_fence


def _fences(text: str, lines: Sequence[Line]) -> tuple[list[Span], list[bool]]:
    """Fenced code blocks (CommonMark: an unclosed fence runs to the end of the answer)."""
    spans: list[Span] = []
    in_fence = [False] * len(lines)
    fence: tuple[str, int, int] | None = None  # fence character, run length, start offset
    for number, line in enumerate(lines):
        if fence is None:
            opening = _FENCE_OPEN.match(text, line.start, line.end)
            # A backtick fence's info string cannot hold a backtick: that line is inline code.
            if opening is None or (
                opening.group(1)[0] == "`" and "`" in text[opening.end() : line.end]
            ):
                continue
            fence = (opening.group(1)[0], len(opening.group(1)), line.start)
            in_fence[number] = True
            continue
        in_fence[number] = True
        closing = text[line.start : line.end].strip()
        if len(closing) >= fence[1] and closing == fence[0] * len(closing):
            spans.append((fence[2], line.end))
            fence = None
    if fence is not None:
        spans.append((fence[2], len(text)))
    return spans, in_fence


def _code_spans(text: str) -> list[Span]:
    """Inline code: a backtick run closed by the next run of the same length, in one paragraph."""
    runs = [(m.start(), m.end() - m.start()) for m in _BACKTICKS.finditer(text)]
    starts_by_length: dict[int, list[int]] = {}
    for start, length in runs:
        starts_by_length.setdefault(length, []).append(start)
    blank_lines = [m.start() for m in _BLANK_LINE.finditer(text)]
    spans: list[Span] = []
    resume = 0
    for start, length in runs:
        if start < resume:
            continue
        same_length = starts_by_length[length]
        k = bisect_right(same_length, start)
        if k == len(same_length):
            continue  # no closing run: the backticks are literal
        closer = same_length[k]
        gap = bisect_right(blank_lines, start)
        if gap < len(blank_lines) and blank_lines[gap] < closer:
            continue  # a code span never crosses a paragraph break
        spans.append((start, closer + length))
        resume = closer + length
    return spans


def _mask(text: str, spans: Sequence[Span]) -> str:
    if not spans:
        return text
    pieces: list[str] = []
    previous = 0
    for start, end in spans:
        pieces.append(text[previous:start])
        pieces.append(_NOT_NEWLINE.sub(MASK, text[start:end]))
        previous = end
    pieces.append(text[previous:])
    return "".join(pieces)
