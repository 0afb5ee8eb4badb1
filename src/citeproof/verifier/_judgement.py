"""The verdict on one quote occurrence: primary source, then secondary sources, then none.

This module decides; it does not edit the answer. `correct.py` turns the decisions into the
corrected answer text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from citeproof.model import (
    Citation,
    Correction,
    Difference,
    Excerpt,
    Match,
    Quote,
    Source,
    Status,
    is_numbered,
)
from citeproof.verifier._catalog import SourceCatalog
from citeproof.verifier._differences import compare
from citeproof.verifier.match import (
    MatchSettings,
    MayHold,
    SourceIndex,
    VerbatimProbe,
    corpus_of,
    find_quote,
    may_hold,
    parse_quote,
)

# Every elision mark `parse_quote` splits a quote at, with the spaces around it.
_ELLIPSIS = re.compile(
    r"\s*(?:\[\s*(?:\.\s*){3}\]|\(\s*(?:\.\s*){3}\)|\[…\]|\(…\)|…|(?:\.\s?){2}\.)\s*"
)
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Judgement:
    """What verification decided for one quote, before the answer text is edited.

    ``citation`` is the citation the verdict is about (the one whose source holds the quote,
    or the first eligible one); ``new_citation`` is the ``(source id, paragraph)`` that marker
    must carry once corrected, or None when it stays as written. ``differences`` are those
    between the quote as written and the source's words where it was found (F.1).
    """

    quote: Quote
    status: Status
    citation: Citation | None
    cited_source: Source | None
    holding_source: Source | None
    match: Match | None
    corrected_text: str
    corrections: tuple[Correction, ...]
    new_citation: tuple[str, int | None] | None
    excerpt: Excerpt | None
    note: str
    differences: tuple[Difference, ...] = ()
    meaning_changed: bool = False


IndexFor = Callable[[Source], SourceIndex]


def judge_quote(
    quote: Quote,
    catalog: SourceCatalog,
    index_for: IndexFor,
    settings: MatchSettings,
    *,
    excerpt_context: int,
    now: str,
    holds: MayHold = may_hold,
) -> Judgement:
    """Verify one quote: against its cited sources first (003.2), then the others (003.3).
    ``holds`` rules a source out of a word-for-word search before it is indexed."""
    resolved = [(c, catalog.resolve(c.label)) for c in quote.citations]
    eligible = [(c, s) for c, s in resolved if s is not None]
    if quote.citations and not eligible:
        labels = ", ".join(sorted({c.label for c in quote.citations}))
        reasons = sorted(
            {e.detail for c in quote.citations if (e := catalog.why_excluded(c.label))}
        )
        why = f" ({'; '.join(reasons)})" if reasons else ""
        return _verdict(
            quote,
            "ineligible",
            citation=quote.citations[0],
            note=f"cites {labels}, which was not provided in this turn{why}"
            + _provided_hint(catalog, [c.label for c in quote.citations]),
        )

    cited = [(s, c.paragraph) for c, s in eligible]
    primary = _best_match(quote.text, cited, index_for, settings, exact_only=True, holds=_searched)
    if primary is not None:
        return _found_in_primary(quote, eligible, primary, excerpt_context, now)

    # Not word for word in the cited source: a source that holds it word for word is the
    # better attribution; otherwise the closest wording, cited source first (003.3). Looked
    # for in that order, so a quote another source holds word for word costs no
    # approximate search.
    cited_ids = [s.id for _, s in eligible]
    elsewhere = _Others(quote.text, catalog, cited_ids)
    verbatim = [(s, None) for s in elsewhere.verbatim()]
    secondary = _best_match(quote.text, verbatim, index_for, settings, exact_only=True, holds=holds)
    if secondary is None:
        primary = _best_match(quote.text, cited, index_for, settings)
        if primary is not None:
            return _found_in_primary(quote, eligible, primary, excerpt_context, now)
        others, near = elsewhere.approximate()
        secondary = _best_match(quote.text, others, index_for, settings, near=near)
    first_citation, first_cited = eligible[0] if eligible else (None, None)
    if secondary is not None:
        holding, match = secondary
        return _found(quote, first_citation, first_cited, holding, match, excerpt_context, now)

    where = f"{first_cited.id} or any other source" if first_cited else "any source"
    excerpt = None
    if first_cited is not None and first_citation is not None:
        excerpt = _paragraph_excerpt(first_cited, first_citation.paragraph, excerpt_context)
    return _verdict(
        quote,
        "not_found",
        citation=first_citation,
        cited_source=first_cited,
        excerpt=excerpt,
        note=f"not found in {where} provided in this turn",
    )


def _searched(probe: VerbatimProbe, source: Source) -> bool:
    """A cited source is searched whatever a probe would say (it is indexed anyway)."""
    return True


class _Others:
    """The sources other than the cited ones that may hold a quote, in the order given,
    found by one search over all the turn's sources (the `Corpus` of their texts, built
    once per set of texts), not by one search per source."""

    def __init__(self, text: str, catalog: SourceCatalog, cited_ids: Sequence[str]) -> None:
        self._text = text
        self._sources = list(catalog)
        self._skip = set(cited_ids)
        self._others = catalog.others(cited_ids)

    def verbatim(self) -> list[Source]:
        """Those that may hold the quote word for word."""
        if not self._others:
            return []
        found = corpus_of([s.text for s in self._sources]).narrow(self._text)
        if found is None:
            return self._others
        return [self._sources[i] for i in found if self._sources[i].id not in self._skip]

    def approximate(self) -> tuple[list[tuple[Source, None]], dict[str, tuple[int, ...]]]:
        """Those where the quote may be, approximately, with where in each (offsets in
        its text, by source id): nowhere in particular when the corpus cannot tell."""
        if not self._others:
            return [], {}
        places = corpus_of([s.text for s in self._sources]).places(self._text)
        if places is None:
            return [(s, None) for s in self._others], {}
        picked = [(self._sources[i], near) for i, near in places.items()]
        kept = [(s, near) for s, near in picked if s.id not in self._skip]
        return [(s, None) for s, _ in kept], {s.id: near for s, near in kept}


def _provided_hint(catalog: SourceCatalog, labels: Sequence[str]) -> str:
    """Which ids were provided, and, for a numbered citation, how to number the sources:
    citations are never matched by position (012.2)."""
    ids = [source.id for source in catalog]
    hint = f"; the sources provided are {', '.join(ids) or 'none'}"
    if ids and ids == [str(number) for number in range(1, len(ids) + 1)]:
        hint += f" (numbered in the order given, 1 to {len(ids)})"
    elif any(is_numbered(label) for label in labels):
        hint += (
            "; to cite sources by number, give them those ids (--source 1=FILE) or number them"
            " in the order given (--number-sources)"
        )
    return hint


def _found_in_primary(
    quote: Quote,
    eligible: Sequence[tuple[Citation, Source]],
    found: tuple[Source, Match],
    excerpt_context: int,
    now: str,
) -> Judgement:
    holding, match = found
    citation = next(c for c, s in eligible if s.id == holding.id)
    return _found(quote, citation, holding, holding, match, excerpt_context, now)


def _verdict(
    quote: Quote,
    status: Status,
    *,
    citation: Citation | None,
    note: str,
    cited_source: Source | None = None,
    excerpt: Excerpt | None = None,
) -> Judgement:
    return Judgement(
        quote=quote,
        status=status,
        citation=citation,
        cited_source=cited_source,
        holding_source=None,
        match=None,
        corrected_text=quote.text,
        corrections=(),
        new_citation=None,
        excerpt=excerpt,
        note=note,
    )


def _best_match(
    text: str,
    candidates: Sequence[tuple[Source, int | None]],
    index_for: IndexFor,
    settings: MatchSettings,
    *,
    exact_only: bool = False,
    holds: MayHold = may_hold,
    near: Mapping[str, tuple[int, ...]] | None = None,
) -> tuple[Source, Match] | None:
    """The best match among ``candidates``: exact beats approximate, then the cited paragraph,
    then similarity; ties keep the order the sources were given in. With ``exact_only`` a
    source that cannot hold the quote word for word (``holds``) is not even indexed.
    ``near``: by source id, where in the source to look (`find_quote`'s ``near``)."""
    best: tuple[Source, Match] | None = None
    best_rank: tuple[bool, bool, float] | None = None
    probe = VerbatimProbe.of(text) if exact_only else None
    # Whether a candidate from the n-th on names a paragraph: a match there can outrank
    # one found before; else nothing outranks a word-for-word match, and the search stops.
    named_from = [False] * (len(candidates) + 1)
    for n in reversed(range(len(candidates))):
        named_from[n] = named_from[n + 1] or candidates[n][1] is not None
    for n, (source, paragraph) in enumerate(candidates):
        if best_rank is not None and best_rank[0] and not named_from[n]:
            break
        if probe is not None and not holds(probe, source):
            continue
        match = find_quote(
            text,
            index_for(source),
            paragraph=paragraph,
            settings=settings,
            exact_only=exact_only,
            near=near.get(source.id, ()) if near else (),
        )
        if match is None:
            continue
        rank = (match.method == "exact", match.paragraph == paragraph, match.score)
        if best_rank is None or rank > best_rank:
            best, best_rank = (source, match), rank
    return best


def _found(
    quote: Quote,
    citation: Citation | None,
    cited: Source | None,
    holding: Source,
    match: Match,
    excerpt_context: int,
    now: str,
) -> Judgement:
    """Decide between verified, corrected and mismatch for a quote that was found."""
    text_differs = match.method != "exact"
    source_differs = cited is None or cited.id != holding.id
    location_differs = (
        not source_differs
        and citation is not None
        and citation.paragraph is not None
        and citation.paragraph != match.paragraph
    )
    excerpt = _match_excerpt(holding, match, excerpt_context)
    differences = _quote_differences(quote, holding, match) if text_differs else ()
    changed = [d for d in differences if d.changes_meaning]
    base = Judgement(
        quote=quote,
        status="verified",
        citation=citation,
        cited_source=cited,
        holding_source=holding,
        match=match,
        corrected_text=quote.text,
        corrections=(),
        new_citation=None,
        excerpt=excerpt,
        note=_found_note(holding, match),
        differences=differences,
        meaning_changed=bool(changed),
    )
    if not (text_differs or source_differs or location_differs):
        return base

    summary = _summary(citation, cited, holding, match, text_differs, source_differs)
    if changed:
        summary += "; the meaning changed: " + "; ".join(d.description for d in changed)
    email = holding if holding.is_email else cited if cited is not None and cited.is_email else None
    if email is not None:
        # 003.7 / 011.2: the person must see what the model said about an email.
        return replace(
            base,
            status="mismatch",
            note=f"{summary}; kept as written because {email.id} is an email body",
        )

    corrections: list[Correction] = []
    corrected_text = quote.text
    method = f"{match.method}-match"
    if text_differs:
        corrected_text = _source_wording(quote, holding, match)
        corrections.append(
            Correction(
                "text",
                quote.text,
                corrected_text,
                f"quote differs from {holding.id}; replaced with the source's exact wording"
                + ("; the meaning changed" if changed else ""),
                round(match.score, 4),
                method,
                now,
            )
        )
    new_paragraph = match.paragraph if citation is None or citation.paragraph is not None else None
    if location_differs and citation is not None:
        corrections.append(
            Correction(
                "location",
                _place(holding, citation.paragraph),
                _place(holding, match.paragraph),
                _moved(holding, citation.paragraph, match.paragraph),
                round(match.score, 4),
                method,
                now,
            )
        )
    if source_differs:
        before = _place(cited, citation.paragraph) if cited and citation else "no citation"
        corrections.append(
            Correction(
                "source",
                before,
                _place(holding, new_paragraph),
                f"quote is in {holding.id}"
                + (f", not in the cited {cited.id}" if cited else "; citation added"),
                round(match.score, 4),
                method,
                now,
            )
        )
    new_citation = (holding.id, new_paragraph) if (location_differs or source_differs) else None
    return replace(
        base,
        status="corrected",
        corrected_text=corrected_text,
        corrections=tuple(corrections),
        new_citation=new_citation,
        note=f"{summary}; corrected",
    )


def _place(source: Source, paragraph: int | None) -> str:
    """A citation in a correction: ``policy §4 Verification of income`` where the source
    names its paragraph (`Source.location`), ``policy ¶5`` where it does not."""
    if paragraph is None:
        return source.id
    return f"{source.id} {source.location(paragraph) or f'¶{paragraph}'}"


def _paragraph(source: Source, paragraph: int | None) -> str:
    """A paragraph in a note's words: its location (``§4 Verification of income``), else
    ``paragraph 5``."""
    return source.location(paragraph) or f"paragraph {paragraph}"


def _moved(source: Source, cited: int | None, found: int | None) -> str:
    """Why a location was corrected: ``quote is in policy §4 Verification of income, not §1
    Scope``; ``quote is in paragraph 5 of memo, not paragraph 2`` without locations."""
    now, was = source.location(found), source.location(cited)
    if now and was:
        return f"quote is in {source.id} {now}, not {was}"
    return f"quote is in paragraph {found} of {source.id}, not paragraph {cited}"


def _found_note(holding: Source, match: Match) -> str:
    where = _paragraph(holding, match.paragraph)
    if match.method == "exact":
        return f"found word for word in {holding.id}, {where}"
    return f"closest wording in {holding.id}, {where} (similarity {match.score:.2f})"


def _summary(
    citation: Citation | None,
    cited: Source | None,
    holding: Source,
    match: Match,
    text_differs: bool,
    source_differs: bool,
) -> str:
    parts = []
    if text_differs:
        parts.append(f"wording differs from {holding.id} (similarity {match.score:.2f})")
    if source_differs:
        parts.append(
            f"found in {holding.id}, not in the cited {cited.id}"
            if cited
            else f"uncited; found in {holding.id}"
        )
    elif citation is not None and citation.paragraph not in (None, match.paragraph):
        found, was = holding.location(match.paragraph), holding.location(citation.paragraph)
        parts.append(
            f"found in {found}, not the cited {was}"
            if found and was
            else f"found in paragraph {match.paragraph}, not the cited {citation.paragraph}"
        )
    return "; ".join(parts)


def _quote_differences(quote: Quote, holding: Source, match: Match) -> tuple[Difference, ...]:
    """How the quote as written differs from the source's words; an elided quote segment by
    segment, so the elided part is not a difference."""
    parsed = parse_quote(quote.text)
    if match.segments and len(parsed.segments) == len(match.segments):
        pairs = [
            (segment, holding.text[s:e])
            for segment, (s, e) in zip(parsed.segments, match.segments, strict=True)
        ]
    else:
        pairs = [(parsed.full, match.text)]
    return tuple(d for written, found in pairs for d in compare(written, found).differences)


def _source_wording(quote: Quote, holding: Source, match: Match) -> str:
    """The holding source's exact words for the quote, elisions kept where the quote had them."""
    if match.segments:
        joiner = _ELLIPSIS.search(quote.text)
        glue = joiner.group(0) if joiner else " ... "
        pieces = [holding.text[s:e] for s, e in match.segments]
    else:
        glue, pieces = "", [match.text]
    if quote.style == "inline":
        # An inline quote lives inside one line of the answer: line breaks become spaces.
        pieces = [_WHITESPACE.sub(" ", p) for p in pieces]
    return glue.join(pieces)


def _match_excerpt(source: Source, match: Match, context: int) -> Excerpt:
    start, end = match.span
    window_start = _word_start(source.text, max(0, start - context))
    window_end = _word_end(source.text, min(len(source.text), end + context))
    window_start = min(window_start, start)
    window_end = max(window_end, end)
    return Excerpt(
        source_id=source.id,
        title=source.title,
        paragraph=match.paragraph,
        text=source.text[window_start:window_end],
        highlight=(start - window_start, end - window_start),
        url=source.url,
    )


def _paragraph_excerpt(source: Source, paragraph: int | None, context: int) -> Excerpt | None:
    """The cited paragraph itself, so a person can see what the source says there."""
    spans = source.paragraph_spans()
    if paragraph is None or not 1 <= paragraph <= len(spans):
        return None
    start, end = spans[paragraph - 1]
    end = min(end, _word_end(source.text, start + 4 * context))
    return Excerpt(source.id, source.title, paragraph, source.text[start:end], (0, 0), source.url)


def _word_start(text: str, position: int) -> int:
    while 0 < position < len(text) and not text[position - 1].isspace():
        position -= 1
    return position


def _word_end(text: str, position: int) -> int:
    while position < len(text) and not text[position].isspace():
        position += 1
    return position
