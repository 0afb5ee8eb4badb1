"""Paragraph segmentation with character offsets into the stored text.

Every function here returns half-open ``(start, end)`` spans into the exact text it was given
(or builds), in order, non-overlapping and trimmed of surrounding whitespace: the same
contract as `citeproof.model.Source.paragraphs`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citeproof.model import Span, blank_line_paragraphs
from citeproof.sources._locations import paragraph_locations

PARAGRAPH_SEPARATOR = "\n\n"

_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_QUOTE_LINE = re.compile(r"^[ \t]*>")
_ATTRIBUTION = re.compile(
    r"^[ \t]*(?:On\b.{0,200}\bwrote:|Le\b.{0,200}\ba écrit\s?:|Am\b.{0,200}\bschrieb\b.*)[ \t]*$"
)
_ATTRIBUTION_START = re.compile(r"^[ \t]*On\b")
_ORIGINAL_MESSAGE = re.compile(r"^[ \t]*-{2,}[ \t]*Original Message[ \t]*-{2,}[ \t]*$", re.I)
_SENTENCE_END = re.compile(r"[.!?:;)\]\"”']$")


@dataclass(frozen=True, slots=True)
class Block:
    """One paragraph's text before joining; ``quoted`` marks quoted reply history,
    ``heading`` a heading of the format (a Word heading style, an HTML ``<h2>``), ``page`` the
    page it is on (``page 3``)."""

    text: str
    quoted: bool = False
    heading: bool = False
    page: str | None = None


@dataclass(frozen=True, slots=True)
class Segmented:
    """A text as read: its paragraph spans, the spans of quoted reply history in it, and the
    title the format gives (a Markdown heading, an HTML ``<title>``, PDF or DOCX metadata)."""

    text: str
    paragraphs: tuple[Span, ...]
    quoted_spans: tuple[Span, ...] = ()
    title: str | None = None
    locations: tuple[str | None, ...] = ()
    """Each paragraph in the document's own terms (`paragraph_locations`); empty when not read."""


def join_blocks(blocks: Iterable[Block], *, title: str | None = None) -> Segmented:
    """Join non-empty blocks with a blank line between them; one paragraph per block.

    Each block is trimmed; quoted blocks give quoted spans (adjacent ones merged, the blank
    line between them included).
    """
    parts: list[str] = []
    paragraphs: list[Span] = []
    quoted: list[Span] = []
    headings: list[bool] = []
    pages: list[str | None] = []
    offset = 0
    for block in blocks:
        text = block.text.strip()
        if not text:
            continue
        if parts:
            parts.append(PARAGRAPH_SEPARATOR)
            offset += len(PARAGRAPH_SEPARATOR)
        span = (offset, offset + len(text))
        parts.append(text)
        offset += len(text)
        paragraphs.append(span)
        headings.append(block.heading)
        pages.append(block.page)
        if block.quoted:
            quoted.append(span)
    joined = "".join(parts)
    places = paragraph_locations(joined, paragraphs, headings=headings, pages=pages)
    return Segmented(joined, tuple(paragraphs), merge_adjacent(joined, quoted), title, places)


def merge_adjacent(text: str, spans: Sequence[Span]) -> tuple[Span, ...]:
    """Sorted spans, with those that overlap or are separated only by whitespace merged."""
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and (start <= merged[-1][1] or not text[merged[-1][1] : start].strip()):
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)


def plain_paragraphs(text: str) -> tuple[Span, ...]:
    """Blank-line-separated blocks; an empty or blank text has no paragraphs."""
    if not text.strip():
        return ()
    return blank_line_paragraphs(text)


def markdown_paragraphs(text: str) -> tuple[Span, ...]:
    """Blank-line blocks, with ATX headings (``# Title``) split off as their own paragraphs.

    Lines inside fenced code blocks are never taken for headings.
    """
    spans: list[Span] = []
    in_fence = False
    for start, end in plain_paragraphs(text):
        piece_start = start
        position = start
        for line in text[start:end].splitlines(keepends=True):
            line_end = position + len(line)
            if _FENCE.match(line):
                in_fence = not in_fence
            elif not in_fence and _ATX_HEADING.match(line):
                spans.extend(_trimmed(text, piece_start, position))
                spans.extend(_trimmed(text, position, line_end))
                piece_start = line_end
            position = line_end
        spans.extend(_trimmed(text, piece_start, end))
    return tuple(spans)


def layout_paragraphs(text: str) -> tuple[Span, ...]:
    """Paragraphs of text extracted from a page layout (a PDF page) that has no blank lines.

    Blank lines separate paragraphs; inside a block, a line that ends a sentence and is
    clearly shorter than the block's longest line ends its paragraph.
    """
    spans: list[Span] = []
    for start, end in plain_paragraphs(text):
        lines = text[start:end].splitlines(keepends=True)
        widest = max(len(line.rstrip()) for line in lines)
        piece_start = start
        position = start
        for line in lines[:-1]:
            position += len(line)
            body = line.rstrip()
            if len(body) < 0.7 * widest and _SENTENCE_END.search(body):
                spans.extend(_trimmed(text, piece_start, position))
                piece_start = position
        spans.extend(_trimmed(text, piece_start, end))
    return tuple(spans)


def email_paragraphs(text: str) -> Segmented:
    """Paragraphs of a plain-text email body, with quoted reply history marked.

    Quoted history is: lines starting with ``>``, the "On ... wrote:" line introducing them
    (also when wrapped over two lines), and everything from an ``-----Original Message-----``
    line on. Paragraphs are split where quoting starts or stops, so each paragraph is either
    wholly quoted or not quoted at all.
    """
    lines = text.splitlines(keepends=True)
    flags = _quoted_lines(lines)
    spans: list[Span] = []
    quoted: list[Span] = []
    position = 0
    piece_start = 0
    piece_quoted: bool | None = None
    for line, flag in zip(lines, flags, strict=True):
        if not line.strip():
            _close(text, piece_start, position, piece_quoted, spans, quoted)
            piece_start, piece_quoted = position + len(line), None
        elif piece_quoted is not None and flag != piece_quoted:
            _close(text, piece_start, position, piece_quoted, spans, quoted)
            piece_start, piece_quoted = position, flag
        else:
            piece_quoted = flag
        position += len(line)
    _close(text, piece_start, position, piece_quoted, spans, quoted)
    return Segmented(text, tuple(spans), merge_adjacent(text, quoted))


def _close(
    text: str,
    start: int,
    end: int,
    quoted_flag: bool | None,
    spans: list[Span],
    quoted: list[Span],
) -> None:
    for span in _trimmed(text, start, end):
        spans.append(span)
        if quoted_flag:
            quoted.append(span)


def _quoted_lines(lines: Sequence[str]) -> list[bool]:
    flags = [bool(_QUOTE_LINE.match(line)) for line in lines]
    for number, line in enumerate(lines):
        if _ORIGINAL_MESSAGE.match(line):
            for rest in range(number, len(lines)):
                flags[rest] = True
            break
    for number, line in enumerate(lines):
        if flags[number]:
            continue
        if _ATTRIBUTION.match(line.rstrip("\r\n")):
            if _quoted_next(lines, flags, number + 1):
                flags[number] = True
        elif (
            _ATTRIBUTION_START.match(line)
            and number + 1 < len(lines)
            and lines[number + 1].rstrip().endswith("wrote:")
            and _quoted_next(lines, flags, number + 2)
        ):
            flags[number] = flags[number + 1] = True
    return flags


def _quoted_next(lines: Sequence[str], flags: Sequence[bool], start: int) -> bool:
    """Whether the next non-blank line (within two blank lines) is quoted."""
    for number in range(start, min(start + 3, len(lines))):
        if lines[number].strip():
            return flags[number]
    return False


def _trimmed(text: str, start: int, end: int) -> list[Span]:
    block = text[start:end]
    lead = len(block) - len(block.lstrip())
    trail = len(block) - len(block.rstrip())
    if end - trail > start + lead:
        return [(start + lead, end - trail)]
    return []
