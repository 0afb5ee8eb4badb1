"""Finding a quote: exact first, then candidates and bounded alignment; elided quotes by
segment, in order, each gap bounded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from citeproof.model import Match
from citeproof.verifier._differences import COSMETIC_KINDS, FACT_KINDS, compare
from citeproof.verifier.match._align import (
    char_similarity,
    infix,
    similarity,
    snap_options,
    word_infix,
)
from citeproof.verifier.match._index import FORGOTTEN, SourceIndex
from citeproof.verifier.match._quote import parse_quote
from citeproof.verifier.match._scan import is_word

# Sources (or paragraphs) this short are aligned whole: cheaper than asking the index, and
# the alignment then sees every possible placement.
_ALIGN_WHOLE = 50_000
_CANDIDATES = 6  # index windows aligned per quote
_FIRST_SEGMENTS = 20  # placements of an elided quote's first segment tried
_CHAR_SIMILARITY_FLOOR = 0.6  # edits searched for, whatever the word similarity
_WORD_TIE_EDITS = 3  # edits by which a placement with the quote's word count may trail
_WORD_RE = re.compile(r"\w+")
_COST_SLACK = 0.1  # placements costlier than the cheapest by more than this are not scored
_SNAPPED = 4  # cheapest placements snapped to words and scored, per quote
_FUZZY_MIN_WORDS = 3  # shorter quotes match word for word or not at all...
_FUZZY_MIN_CHARS = 20  # ...unless they are this long (one long name, a URL)
SHORT_QUOTE_WORDS = 6
"""A quote of at most this many words is too short to tell a misquote from another sentence:
it matches approximately only where the source has the same words (spelling, case and
punctuation aside)."""
FACT_CONTEXT_WORDS = 6
"""Words a longer quote must share, in order, with a passage whose number, name, date or
negation differs, for that passage to be the one it misquotes (F.1). Fewer shared words and
the passage is another statement, not this one misquoted."""


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How close is close enough.

    - ``min_similarity``: lowest similarity in [0, 1] for an approximate match.
    - ``max_ellipsis_gap``: most source characters between two segments of an elided quote.
    """

    min_similarity: float = 0.8
    max_ellipsis_gap: int = 2000


@dataclass(frozen=True, slots=True)
class _Hit:
    """A placement in normalised source text."""

    start: int
    end: int
    score: float


def find_quote(
    text: str,
    index: SourceIndex,
    *,
    paragraph: int | None = None,
    settings: MatchSettings = MatchSettings(),
    exact_only: bool = False,
    near: tuple[int, ...] = (),
) -> Match | None:
    """Where ``text`` occurs in ``index.source``, or None.

    Callers may rely on: ``match.text == source.text[match.span[0]:match.span[1]]``;
    ``method == "exact"`` (score 1.0) only when the normalised quote (or every segment of an
    elided one) occurs verbatim, case and letters included; otherwise ``method == "fuzzy"``
    and ``settings.min_similarity <= score < 1`` with the span snapped to whole source words;
    among equal placements the one in ``paragraph`` (1-based) wins, then the earliest;
    ``segments`` holds one original span per segment of an elided quote, else ``()``.
    With ``exact_only`` only a verbatim occurrence is looked for (no approximate search).
    ``near``: offsets in the source text where an approximate occurrence may start (found
    by a search over many sources, `Corpus.places`): an approximate search of a quote
    without an ellipsis aligns it there only (and in the cited paragraph), not wherever
    the source's own candidates are.
    """
    key = (text, paragraph, settings, exact_only, near)
    found = index.core.recall(key)
    if found is FORGOTTEN:
        found = _find(text, index, paragraph, settings, exact_only, near)
        index.core.remember(key, found)
    if not isinstance(found, Match) or found.source_id == index.source.id:
        return found if isinstance(found, Match) else None
    # Found before for another source with the same text.
    return replace(found, source_id=index.source.id)


def _find(
    text: str,
    index: SourceIndex,
    paragraph: int | None,
    settings: MatchSettings,
    exact_only: bool,
    near: tuple[int, ...] = (),
) -> Match | None:
    quote = parse_quote(text)
    if not quote.full:
        return None
    prefer = index.paragraph_range(paragraph)
    for form in dict.fromkeys((quote.full, quote.bare)):
        # Quotation marks at the quote's edges may be the source's own: try them first.
        start = _first_exact(index, form, prefer) if form else None
        if start is not None:
            return _match(index, [_Hit(start, start + len(form), 1.0)], elided=False)
    if exact_only:
        return None
    if len(quote.segments) > 1:
        chain = _find_chain(index, quote.segments, prefer, settings)
        return None if chain is None else _match(index, chain, elided=True)
    if not _long_enough(quote.segments[0]):
        return None
    if near:
        regions = _regions_near(index, quote.segments[0], prefer, near)
    else:
        regions = _regions(index, quote.segments[0], prefer)
    hits = _fuzzy(index, quote.segments[0], regions, settings, whole=True)
    best = _best(hits, prefer)
    return None if best is None else _match(index, [best], elided=False)


def _first_exact(index: SourceIndex, quote: str, prefer: tuple[int, int] | None) -> int | None:
    if prefer is not None:
        inside = index.exact(quote, prefer[0], prefer[1], 1)
        if inside:
            return inside[0]
    found = index.exact(quote, 0, len(index.text), 1)
    return found[0] if found else None


# -- approximate ------------------------------------------------------------------------


def _long_enough(quote: str) -> bool:
    """Too short to tell a misquote from another word: "forged" is not a typo of "forges"."""
    return len(quote.split()) >= _FUZZY_MIN_WORDS or len(quote) >= _FUZZY_MIN_CHARS


def _max_edits(quote: str, settings: MatchSettings) -> int:
    """Most edits a placement can have and still reach ``min_similarity``.

    From 1 - d / max(len(q), len(m)) >= s with len(m) <= len(q) + d.
    """
    # Word similarity can accept placements whose character similarity is lower.
    s = min(settings.min_similarity, _CHAR_SIMILARITY_FLOOR)
    return math.floor(len(quote) * (1 - s) / s + 1e-9)


def _regions(
    index: SourceIndex, quote: str, prefer: tuple[int, int] | None
) -> list[tuple[int, int]]:
    """Normalised windows worth aligning ``quote`` against."""
    size = len(index.text)
    if size <= _ALIGN_WHOLE:
        return [(0, size)]
    regions: list[tuple[int, int]] = []
    if prefer is not None and prefer[1] - prefer[0] <= _ALIGN_WHOLE:
        regions.append(prefer)
    slack = len(quote) // 3 + 8
    for start in index.candidates(quote, _CANDIDATES):
        regions.append((max(0, start - slack), min(size, start + len(quote) + 2 * slack)))
    return regions


def _regions_near(
    index: SourceIndex, quote: str, prefer: tuple[int, int] | None, near: tuple[int, ...]
) -> list[tuple[int, int]]:
    """Normalised windows around ``near`` (original offsets), as `_regions` makes them
    around the index's candidates, and the preferred paragraph when it is short."""
    size = len(index.text)
    regions: list[tuple[int, int]] = []
    if prefer is not None and prefer[1] - prefer[0] <= _ALIGN_WHOLE:
        regions.append(prefer)
    slack = len(quote) // 3 + 8
    for start in index.to_normalised(near):
        regions.append((max(0, start - slack), min(size, start + len(quote) + 2 * slack)))
    return regions


def _fuzzy(
    index: SourceIndex,
    quote: str,
    regions: Iterable[tuple[int, int]],
    settings: MatchSettings,
    *,
    whole: bool = False,
) -> list[_Hit]:
    """Best word-snapped placements of ``quote`` in each region, at or above the threshold,
    that `_same_statement` accepts (``whole``: the quote is not a segment of an elided one)."""
    text = index.text
    limit = _max_edits(quote, settings)
    words = max(len(quote.split()), 1)
    word_limit = max(2, words // 2)
    # Each region's best placements, by character and by word alignment, with their cost as
    # a share of the quote; only those close to the cheapest are worth snapping and scoring.
    costed: list[tuple[float, int, int]] = []
    for lo, hi in regions:
        window = text[lo:hi]
        by_chars = infix(quote, window, limit)
        if by_chars is not None:
            cost = by_chars[0] / len(quote)
            costed += [(cost, lo + s, lo + e) for s, e in by_chars[1]]
        by_words = word_infix(quote, window, word_limit)
        if by_words is not None:
            cost = by_words[0] / words
            costed += [(cost, lo + s, lo + e) for s, e in by_words[1][:2]]
    if not costed:
        return []
    cheapest = min(c for c, _, _ in costed)
    scores: dict[tuple[int, int], float] = {}
    placed: set[tuple[int, int]] = set()
    found: set[tuple[int, int]] = set()
    hits: list[_Hit] = []
    starts: set[int] = set()
    for cost, start, end in sorted(costed):
        if cost > cheapest + _COST_SLACK or (start, end) in placed:
            continue
        # Locations of one alignment share a start and end a character apart: the limit
        # counts places, not such variants.
        if start not in starts and len(starts) >= _SNAPPED:
            continue
        starts.add(start)
        placed.add((start, end))
        hit = _snap(text, quote, start, end, scores)
        if hit is None or (hit.start, hit.end) in found:
            continue
        found.add((hit.start, hit.end))
        matched = text[hit.start : hit.end]
        if hit.score >= settings.min_similarity and _same_statement(quote, matched, whole=whole):
            hits.append(hit)
    return hits


def _same_statement(quote: str, matched: str, *, whole: bool) -> bool:
    """Whether ``matched`` is the passage ``quote`` quotes, however badly, rather than
    another statement that happens to be close in characters.

    A short quote is only ever the same words (F.1): "signed the Treaty" is not "by the
    Treaty", and a correction never starts or ends with punctuation the quote lacks. A
    longer quote whose number, name, date or negation differs is that passage misquoted when
    they share a long enough context (`FACT_CONTEXT_WORDS`); the difference is reported, not
    hidden.
    """
    comparison = compare(quote, matched)
    if whole and comparison.words <= SHORT_QUOTE_WORDS:
        return comparison.kinds <= COSMETIC_KINDS and not _adds_edge_punctuation(quote, matched)
    if comparison.kinds & FACT_KINDS:
        return comparison.shared_words >= FACT_CONTEXT_WORDS
    return True


def _adds_edge_punctuation(quote: str, matched: str) -> bool:
    """``matched`` starts or ends with punctuation that ``quote`` does not have there."""
    for ours, theirs in ((quote[:1], matched[:1]), (quote[-1:], matched[-1:])):
        if theirs and not is_word(theirs) and theirs != ours:
            return True
    return False


def _snap(
    text: str, quote: str, start: int, end: int, scores: dict[tuple[int, int], float]
) -> _Hit | None:
    """The word-aligned placement closest to the quote: among placements within
    `_WORD_TIE_EDITS` edits or one word of the best, the one that starts and ends on the
    quote's own first and last words wins, then the one with the quote's number of words."""
    options = []
    for span in snap_options(text, start, end):
        if span not in scores:
            scores[span] = similarity(quote, text[span[0] : span[1]])
        options.append(_Hit(span[0], span[1], scores[span]))
    if not options:
        return None
    top = max(h.score for h in options)
    words = len(quote.split())
    tie = max(_WORD_TIE_EDITS / max(len(quote), 1), 1 / max(words, 1))
    near = [h for h in options if top - h.score <= tie]

    quote_words = _WORD_RE.findall(quote)

    def closeness(h: _Hit) -> tuple[int, int, float, float]:
        # Prefer the placement whose first and last words are the quote's own, then the one
        # with as many words as the quote, then the most similar.
        matched = text[h.start : h.end]
        matched_words = _WORD_RE.findall(matched)
        edges = 0
        if quote_words and matched_words:
            edges = (quote_words[0] == matched_words[0]) + (quote_words[-1] == matched_words[-1])
        return (
            -edges,
            abs(len(matched.split()) - words),
            -h.score,
            -char_similarity(quote, matched),
        )

    return min(near, key=closeness)


def _best(hits: list[_Hit], prefer: tuple[int, int] | None) -> _Hit | None:
    """Highest score; then inside the preferred paragraph; then earliest."""

    def key(hit: _Hit) -> tuple[float, bool, int]:
        inside = prefer is not None and prefer[0] <= hit.start < prefer[1]
        return (-hit.score, not inside, hit.start)

    return min(hits, key=key, default=None)


# -- elided quotes ----------------------------------------------------------------------


def _find_chain(
    index: SourceIndex,
    segments: tuple[str, ...],
    prefer: tuple[int, int] | None,
    settings: MatchSettings,
) -> list[_Hit] | None:
    """Each segment after the previous one, within ``max_ellipsis_gap``; best chain wins."""
    firsts = _placements(index, segments[0], prefer, settings)
    best: list[_Hit] | None = None
    best_key: tuple[float, bool, int, int] | None = None
    for first in firsts:
        chain = _extend(index, first, segments[1:], settings)
        if chain is None:
            continue
        total = sum(len(s) for s in segments)
        score = sum(h.score * len(s) for h, s in zip(chain, segments, strict=True)) / total
        inside = prefer is not None and prefer[0] <= first.start < prefer[1]
        # The tightest chain: a short first segment ("in ...") occurs everywhere.
        key = (-score, not inside, chain[-1].end - first.start, first.start)
        if best_key is None or key < best_key:
            best, best_key = chain, key
    return best


def _placements(
    index: SourceIndex, segment: str, prefer: tuple[int, int] | None, settings: MatchSettings
) -> list[_Hit]:
    """Where an elided quote may begin: exact occurrences, else approximate ones."""
    starts: list[int] = []
    if prefer is not None:
        starts = index.exact(segment, prefer[0], prefer[1], _FIRST_SEGMENTS)
    starts += [
        s for s in index.exact(segment, 0, len(index.text), _FIRST_SEGMENTS) if s not in starts
    ]
    if starts:
        return [_Hit(s, s + len(segment), 1.0) for s in starts]
    hits = _fuzzy(index, segment, _regions(index, segment, prefer), settings)
    return sorted(hits, key=lambda h: (-h.score, h.start))[:_FIRST_SEGMENTS]


def _extend(
    index: SourceIndex, first: _Hit, rest: tuple[str, ...], settings: MatchSettings
) -> list[_Hit] | None:
    chain = [first]
    for segment in rest:
        lo = chain[-1].end
        hi = min(len(index.text), lo + settings.max_ellipsis_gap + len(segment))
        exact = index.exact(segment, lo, hi, 1)
        if exact:
            chain.append(_Hit(exact[0], exact[0] + len(segment), 1.0))
            continue
        hits = _fuzzy(index, segment, [(lo, hi)], settings)
        hits = [h for h in hits if h.start - lo <= settings.max_ellipsis_gap]
        if not hits:
            return None
        chain.append(min(hits, key=lambda h: (-h.score, h.start)))
    return chain


# -- result -----------------------------------------------------------------------------


def _match(index: SourceIndex, hits: list[_Hit], *, elided: bool) -> Match:
    norm = index.norm
    spans = [norm.original_span(h.start, h.end) for h in hits]
    start, end = spans[0][0], spans[-1][1]
    total = sum(h.end - h.start for h in hits)
    score = sum(h.score * (h.end - h.start) for h in hits) / total if total else 0.0
    exact = all(h.score == 1.0 for h in hits)
    return Match(
        source_id=index.source.id,
        paragraph=index.paragraph_of(start),
        span=(start, end),
        text=index.source.text[start:end],
        score=1.0 if exact else min(score, 1.0),
        method="exact" if exact else "fuzzy",
        segments=tuple(spans) if elided else (),
    )
