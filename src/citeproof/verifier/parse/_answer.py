"""Assemble the parse: layout → quotes → markers → claims, then tie quotes to their citations."""

from __future__ import annotations

import gc
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citeproof.model import Claim, ParsedAnswer, Quote, QuoteStyle, Span
from citeproof.verifier.parse._code import mask_code
from citeproof.verifier.parse._layout import Layout, ProseBlock, QuoteBlock, lay_out
from citeproof.verifier.parse._markers import (
    Marker,
    Reference,
    find_markers,
    fold_labels,
    resolve_footnote,
)
from citeproof.verifier.parse._quotes import InlineQuote, find_inline_quotes
from citeproof.verifier.parse._sentences import split_sentences
from citeproof.verifier.parse._text import Line, SpanIndex, has_word, split_lines, trim

_GROUP_GAP = re.compile(r"[ \t,;]*")  # what may separate markers read as one: "[1], [3]"


@dataclass(frozen=True, slots=True)
class _QuoteFound:
    span: Span
    text: str
    style: QuoteStyle
    claim: int  # index of the claim holding it
    cited: tuple[Marker, ...] | None  # a block quote's own markers; None: find them in the claim
    outer: Span  # an inline quote's marks included; a block quote's span


class _LastParse:
    """The answer parsed last, with the source names it was read with, and its parse
    (immutable): a caller that checks an answer's quotes before verifying it (the service's
    limits) does not parse it twice."""

    entry: tuple[str, frozenset[str], ParsedAnswer] | None = None


_LAST = _LastParse()


def parse_answer(text: str, source_names: Iterable[str] = ()) -> ParsedAnswer:
    """See the package docstring: claims, quotes and citations of ``text``, offsets into it.

    ``source_names``: the names the answer's sources go by (their ids, titles, doc_ids and
    urls: `citeproof.verifier.citable_names`). A bracket naming them is a citation however
    it is written (``[Contract]``, ``[src]``); without them, only brackets the marker grammar
    reads as ids are.

    Raises `AnswerError` for an answer denser in citation markers than any answer (see
    `MAX_MARKERS`) or with more than `MAX_QUOTES` quotes in a paragraph, so the work done stays
    linear in the answer's length.
    """
    known = fold_labels(source_names)
    last = _LAST.entry
    if last is not None and last[0] == text and last[1] == known:
        return last[2]
    # The parse makes many small objects and no reference cycles: without pausing the cyclic
    # collector, its repeated full passes over them make a long answer cost more than linear.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        parsed = _parse(text, known)
    finally:
        if was_enabled:
            gc.enable()
    _LAST.entry = (text, known, parsed)
    return parsed


def _parse(text: str, known: frozenset[str]) -> ParsedAnswer:
    lines = split_lines(text)
    masked, in_fence = mask_code(text, lines)
    layout = lay_out(masked, lines, in_fence)
    inline = [
        quote
        for block in layout.blocks
        if isinstance(block, ProseBlock)
        for quote in find_inline_quotes(masked, block.start, block.end)
    ]
    markers = _markers(text, masked, layout, inline, known)
    marker_starts = [m.span[0] for m in markers]
    claim_spans, found = _claims_and_block_quotes(text, masked, layout, markers, inline)
    claim_starts = [s for s, _ in claim_spans]
    for quote in inline:
        holder = _holder(claim_starts, claim_spans, quote.inner[0])
        if holder is not None:
            quoted = text[quote.inner[0] : quote.inner[1]]
            found.append(_QuoteFound(quote.inner, quoted, "inline", holder, None, quote.outer))
    found.sort(key=lambda q: q.span[0])
    return _assemble(text, claim_spans, found, markers, marker_starts)


def _claims_and_block_quotes(
    text: str,
    masked: str,
    layout: Layout,
    markers: Sequence[Marker],
    inline: Sequence[InlineQuote],
) -> tuple[list[Span], list[_QuoteFound]]:
    """Claim spans in order (sentences of prose, whole block quotes) and the block quotes."""
    marker_starts = [m.span[0] for m in markers]
    protected = SpanIndex([q.outer for q in inline] + [m.span for m in markers])
    marker_ends = {m.span[0]: m.span[1] for m in markers}
    claim_spans: list[Span] = []
    found: list[_QuoteFound] = []
    for block in layout.blocks:
        if isinstance(block, ProseBlock):
            sentences = split_sentences(masked, block.start, block.end, protected, marker_ends)
            for start, end in sentences:
                sentence = trim(text, start, end)
                if has_word(text, *sentence):
                    claim_spans.append(sentence)
        else:
            claim = _block_claim(text, block)
            if not has_word(text, *claim):
                continue
            claim_spans.append(claim)
            block_quote = _block_quote(text, masked, block, markers, marker_starts)
            if block_quote is not None:
                span, quoted, cited = block_quote
                found.append(_QuoteFound(span, quoted, "block", len(claim_spans) - 1, cited, span))
    return claim_spans, found


def _markers(
    text: str,
    masked: str,
    layout: Layout,
    inline: Sequence[InlineQuote],
    known: frozenset[str],
) -> list[Marker]:
    """Markers outside quotes and definition lines, footnote references resolved."""
    footnotes: dict[str, tuple[Reference, ...]] = {}
    for name, (start, end) in layout.footnotes:
        footnotes.setdefault(name, resolve_footnote(text[start:end], known))
    quoted = SpanIndex(q.outer for q in inline)
    definitions = SpanIndex(layout.definitions)
    return [
        marker
        for marker in find_markers(masked, footnotes, known)
        if not quoted.strictly_inside(marker.span[0]) and not definitions.covers(marker.span[0])
    ]


def _block_claim(text: str, block: QuoteBlock) -> Span:
    last = block.attribution or block.lines[-1]
    return trim(text, block.lines[0].start, last.end)


def _block_quote(
    text: str,
    masked: str,
    block: QuoteBlock,
    markers: Sequence[Marker],
    marker_starts: Sequence[int],
) -> tuple[Span, str, tuple[Marker, ...]] | None:
    """The quoted lines (``>`` and one space removed), their span, and the markers citing them."""
    inside = _between(markers, marker_starts, block.lines[0].start, block.lines[-1].end)
    trailing = _trailing_markers(masked, block.lines[-1], inside)
    contents: list[tuple[int, int, int]] = []  # ">" offset, content start, content end
    for line in block.lines:
        mark = masked.index(">", line.start, line.end)
        start = mark + 2 if text.startswith(" ", mark + 1) else mark + 1
        start = min(start, line.end)
        if trailing and line is block.lines[-1]:
            end = _trim_dash(text, start, trailing[0].span[0])
        else:
            end = start + len(text[start : line.end].rstrip())
        contents.append((mark, start, end))
    kept = [i for i, (_, start, end) in enumerate(contents) if has_word(text, start, end)]
    if not kept:
        return None
    chosen = contents[kept[0] : kept[-1] + 1]
    quoted = "\n".join(text[start:end] for _, start, end in chosen)
    after = block.attribution
    attributed = _between(markers, marker_starts, after.start, after.end) if after else []
    cited = tuple(trailing) + tuple(attributed) or tuple(inside)
    return (chosen[0][0], chosen[-1][2]), quoted, cited


def _trailing_markers(masked: str, last: Line, inside: Sequence[Marker]) -> list[Marker]:
    """The markers ending the last line of a block quote (``> … text. [S1 ¶4]``)."""
    trailing: list[Marker] = []
    end = last.end
    for marker in reversed(inside):
        if marker.span[0] < last.start or masked[marker.span[1] : end].strip(" \t,;.") != "":
            break
        trailing.insert(0, marker)
        end = marker.span[0]
    return trailing


def _trim_dash(text: str, start: int, end: int) -> int:
    """End of ``text[start:end]`` without trailing spaces and an attribution dash ("— ")."""
    written = text[start:end].rstrip()
    without_dash = written.rstrip("—–-")
    if len(without_dash) < len(written) and (not without_dash or without_dash[-1].isspace()):
        written = without_dash.rstrip()
    return start + len(written)


def _between(
    markers: Sequence[Marker], marker_starts: Sequence[int], start: int, end: int
) -> list[Marker]:
    return list(markers[bisect_left(marker_starts, start) : bisect_left(marker_starts, end)])


def _holder(claim_starts: Sequence[int], claim_spans: Sequence[Span], offset: int) -> int | None:
    """Index of the claim whose span holds ``offset``."""
    i = bisect_right(claim_starts, offset) - 1
    return i if i >= 0 and offset < claim_spans[i][1] else None


def _assemble(
    text: str,
    claim_spans: Sequence[Span],
    found: Sequence[_QuoteFound],
    markers: Sequence[Marker],
    marker_starts: Sequence[int],
) -> ParsedAnswer:
    claim_ids = [f"c{n}" for n in range(1, len(claim_spans) + 1)]
    claim_markers = [_between(markers, marker_starts, *span) for span in claim_spans]
    groups: dict[int, _Groups] = {}  # per claim, built when a quote there needs them
    quote_ids: list[list[str]] = [[] for _ in claim_spans]
    quotes: list[Quote] = []
    for number, quote in enumerate(found, start=1):
        cited = quote.cited
        if cited is None:
            if quote.claim not in groups:
                groups[quote.claim] = _Groups(text, claim_markers[quote.claim])
            cited = groups[quote.claim].nearest(quote.outer)
        citations = tuple(c for marker in cited for c in marker.citations)
        quote_id = f"q{number}"
        quote_ids[quote.claim].append(quote_id)
        quotes.append(
            Quote(quote_id, quote.text, quote.style, quote.span, citations, claim_ids[quote.claim])
        )
    claims = tuple(
        Claim(
            claim_ids[i],
            text[start:end],
            (start, end),
            tuple(c for m in claim_markers[i] for c in m.citations),
            tuple(quote_ids[i]),
        )
        for i, (start, end) in enumerate(claim_spans)
    )
    citations = tuple(c for marker in markers for c in marker.citations)
    return ParsedAnswer(text, claims, tuple(quotes), citations)


class _Groups:
    """A claim's markers, those written together (``[1][3]``, ``[1], [3]``) read as one."""

    def __init__(self, text: str, markers: Sequence[Marker]) -> None:
        self.groups: list[tuple[Marker, ...]] = []
        current: list[Marker] = []
        for marker in markers:
            if current:
                gap = _GROUP_GAP.match(text, current[-1].span[1], marker.span[0])
                if gap is None or gap.end() != marker.span[0]:
                    self.groups.append(tuple(current))
                    current = []
            current.append(marker)
        if current:
            self.groups.append(tuple(current))
        self.starts = [group[0].span[0] for group in self.groups]
        self.ends = [group[-1].span[1] for group in self.groups]

    def nearest(self, outer: Span) -> tuple[Marker, ...]:
        """The first markers after the quote in its sentence, else the last ones before it."""
        after = bisect_left(self.starts, outer[1])
        if after < len(self.groups):
            return self.groups[after]
        before = bisect_right(self.ends, outer[0]) - 1
        return self.groups[before] if before >= 0 else ()
