"""The answer's Markdown layout: which lines are prose, block quotes, headings or definitions.

Only what the parser needs is recognised: paragraphs, list items and table rows (prose that
holds claims), block quotes with the attribution line right after them, and the lines that are
not claims (headings, rules, code fences, footnote and link definitions).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from citeproof.model import Span
from citeproof.verifier.parse._text import Line

_BLANK = re.compile(r"[ \t\r\f\v]*")
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_RULE = re.compile(r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|=+[ \t]*)")
_FOOTNOTE_DEFINITION = re.compile(r" {0,3}\[\^(?P<name>[^\[\]\s]{1,100})\]:[ \t]*")
_LINK_DEFINITION = re.compile(r" {0,3}\[[^\[\]\n]{1,80}\]:(?:[ \t]|$)")
_BLOCK_QUOTE = re.compile(r" {0,3}>")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+•]|[0-9]{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_TABLE_ROW = re.compile(r" {0,3}\|")
# A line naming the source of the block quote above it: "[S1 ¶4]", "— <cite:S1>", "Source: [2]".
_ATTRIBUTION = re.compile(
    r"[ \t]*(?:(?:[—–]|-{1,2})[ \t]*)?(?:sources?[ \t]*:[ \t]*)?"
    r"(?:(?:<cite:[^<>\n]{1,200}>|\[[^\[\]\n]{1,80}\])(?:[ \t,;.&]|and)*)+",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ProseBlock:
    """A paragraph, list item or table row; ``start`` is after any list bullet."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class QuoteBlock:
    """Consecutive ``>`` lines and the attribution line right after them, if any."""

    lines: tuple[Line, ...]
    attribution: Line | None


@dataclass(slots=True)
class Layout:
    blocks: list[ProseBlock | QuoteBlock] = field(default_factory=list)
    footnotes: list[tuple[str, Span]] = field(default_factory=list)  # name, definition text
    definitions: list[Span] = field(default_factory=list)  # lines whose markers cite nothing


def lay_out(text: str, lines: Sequence[Line], in_fence: Sequence[bool]) -> Layout:
    """Group the lines of the code-masked answer into blocks, in order."""
    layout = Layout()
    prose: list[int] | None = None  # start, end of the open prose block
    quote_lines: list[Line] = []

    def close_prose() -> None:
        nonlocal prose
        if prose is not None:
            layout.blocks.append(ProseBlock(prose[0], prose[1]))
            prose = None

    def close_quote(attribution: Line | None = None) -> None:
        if quote_lines:
            layout.blocks.append(QuoteBlock(tuple(quote_lines), attribution))
            quote_lines.clear()

    for number, line in enumerate(lines):
        if _BLOCK_QUOTE.match(text, line.start, line.end) and not in_fence[number]:
            close_prose()
            quote_lines.append(line)
            continue
        if quote_lines and _ATTRIBUTION.fullmatch(text, line.start, line.end):
            close_quote(line)
            continue
        close_quote()
        if in_fence[number] or _is_structure(text, line, layout):
            close_prose()
            continue
        if _TABLE_ROW.match(text, line.start, line.end):
            close_prose()
            layout.blocks.append(ProseBlock(line.start, line.end))
            continue
        item = _LIST_ITEM.match(text, line.start, line.end)
        if item is not None:
            close_prose()
            prose = [item.end(), line.end]
        elif prose is not None:
            prose[1] = line.end  # a paragraph, or a list item, continues on this line
        else:
            prose = [line.start, line.end]
    close_quote()
    close_prose()
    return layout


def _is_structure(text: str, line: Line, layout: Layout) -> bool:
    """Blank lines, headings, rules and definitions: lines that end prose and are not claims."""
    if _BLANK.fullmatch(text, line.start, line.end) or _HEADING.match(text, line.start, line.end):
        return True
    if _RULE.fullmatch(text, line.start, line.end):
        return True
    footnote = _FOOTNOTE_DEFINITION.match(text, line.start, line.end)
    if footnote is not None:
        layout.footnotes.append((footnote.group("name"), (footnote.end(), line.end)))
        layout.definitions.append((line.start, line.end))
        return True
    if _LINK_DEFINITION.match(text, line.start, line.end):
        layout.definitions.append((line.start, line.end))
        return True
    return False
