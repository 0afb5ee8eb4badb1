"""Text surgery shared by the renderers: where each quote and citation marker sits in the
corrected answer, and how to splice replacements in without shifting other offsets.
"""

from __future__ import annotations

from dataclasses import dataclass

from citeproof.model import CitedSource, Span, VerifiedAnswer, VerifiedQuote

# Opening and closing quotation marks LLMs write around inline quotes.
OPENING_MARKS = frozenset("\"'“‘„‚«‹「『＂")
CLOSING_MARKS = frozenset("\"'”’“‘»›」』＂")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``text[start:end]`` with ``replacement`` (an insertion when start == end)."""

    start: int
    end: int
    replacement: str


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits, all given against the same original ``text``.

    Insertions at the same place keep the order they were given in, so expanders placed after
    one paragraph stay in the order their quotes appear.
    """
    ordered = sorted(enumerate(edits), key=lambda pair: (pair[1].start, pair[1].end, pair[0]))
    pieces: list[str] = []
    cursor = 0
    for _, edit in ordered:
        if edit.start < cursor:
            raise ValueError(f"overlapping edit at {edit.start}")
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.replacement)
        cursor = edit.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def with_quote_marks(text: str, span: Span) -> Span:
    """Widen an inline quote's span to take in the quotation marks around it, if present.

    The renderers draw their own marks, and put the badge after the closing one, not inside it.
    """
    start, end = span
    if (
        start > 0
        and end < len(text)
        and text[start - 1] in OPENING_MARKS
        and text[end] in CLOSING_MARKS
    ):
        return start - 1, end + 1
    return span


def _valid(span: Span, text: str) -> bool:
    start, end = span
    return 0 <= start < end <= len(text)


@dataclass(frozen=True, slots=True)
class Layout:
    """What goes where in the corrected answer.

    ``quotes`` and ``markers`` have non-overlapping spans (inline quotes widened to their
    quotation marks). A marker inside a block quote is listed under that block in
    ``markers_in_block`` (its chip is drawn with the block). ``unplaced`` quotes have spans
    that are missing, invalid or overlap another quote; they are shown apart from the text.
    """

    quotes: list[tuple[Span, VerifiedQuote]]
    markers: list[tuple[Span, CitedSource]]
    markers_in_block: dict[str, list[CitedSource]]
    unplaced: list[VerifiedQuote]


def _overlaps(span: Span, taken: list[Span]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in taken)


def layout(answer: VerifiedAnswer) -> Layout:
    text = answer.text
    quotes: list[tuple[Span, VerifiedQuote]] = []
    unplaced: list[VerifiedQuote] = []
    taken: list[Span] = []
    # Longer spans first, so a block quote wins over an inline quote nested inside it.
    by_position = sorted(answer.quotes, key=lambda q: (q.corrected_span[0], -q.corrected_span[1]))
    for quote in by_position:
        span = quote.corrected_span
        if quote.style == "inline" and _valid(span, text):
            span = with_quote_marks(text, span)
        if not _valid(span, text) or _overlaps(span, taken):
            unplaced.append(quote)
            continue
        quotes.append((span, quote))
        taken.append(span)

    markers: list[tuple[Span, CitedSource]] = []
    in_block: dict[str, list[CitedSource]] = {}
    seen: set[Span] = set()
    for claim in answer.claims:
        for cite in claim.citations:
            span = cite.answer_span
            if not _valid(span, text) or span in seen:
                continue  # a removed marker has no text left to draw
            seen.add(span)
            holder = next(
                (q for qspan, q in quotes if qspan[0] <= span[0] and span[1] <= qspan[1]), None
            )
            if holder is not None and holder.style == "block":
                in_block.setdefault(holder.id, []).append(cite)
            elif not _overlaps(span, taken):
                markers.append((span, cite))
    # Quote order in the reader's eyes is text order; unplaced ones keep the verifier's order.
    quotes.sort(key=lambda pair: pair[0][0])
    return Layout(quotes, markers, in_block, unplaced)


def line_indent(text: str, position: int) -> str:
    """Spaces as wide as the text before ``position`` on its line (list item nesting)."""
    line_start = text.rfind("\n", 0, position) + 1
    return " " * (position - line_start)


def unused_token_base(text: str, stem: str = "citeproofslot") -> str:
    """An alphanumeric stem that does not occur in ``text``; deterministic for golden files."""
    base = stem
    while base.lower() in text.lower():
        base += "x"
    return base
