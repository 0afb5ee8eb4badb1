"""Turn verdicts into the corrected answer (003.9, 011.4).

Text corrections replace a quote with its source's exact wording; location and source
corrections rewrite the citation marker the quote is tied to; a citation to a source not
provided this turn is kept and flagged, or its marker removed, by policy (012.2). Every
offset in the result points into the corrected text; the original spans are kept beside it.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citeproof.model import (
    Citation,
    CitedSource,
    ParsedAnswer,
    Policy,
    Span,
    VerifiedClaim,
    VerifiedQuote,
)
from citeproof.verifier._catalog import SourceCatalog
from citeproof.verifier._judgement import Judgement


@dataclass(frozen=True, slots=True)
class _Edit:
    start: int
    end: int
    replacement: str


class _Edits:
    """Non-overlapping replacements in a text, and where old offsets land afterwards."""

    def __init__(self, text: str, edits: Sequence[_Edit]):
        ordered = sorted(edits, key=lambda e: (e.start, e.end))
        kept: list[_Edit] = []
        for edit in ordered:
            if kept and edit.start < kept[-1].end:
                continue  # overlapping edits never happen by construction; keep the first
            kept.append(edit)
        self._edits = kept
        self._starts = [e.start for e in kept]
        pieces: list[str] = []
        cursor = 0
        self._shifts: list[int] = []
        shift = 0
        for edit in kept:
            pieces.append(text[cursor : edit.start])
            pieces.append(edit.replacement)
            cursor = edit.end
            shift += len(edit.replacement) - (edit.end - edit.start)
            self._shifts.append(shift)
        pieces.append(text[cursor:])
        self.text = "".join(pieces)

    def position(self, old: int) -> int:
        """Where offset ``old`` of the original text is in the edited text."""
        i = bisect.bisect_right(self._starts, old) - 1
        if i < 0:
            return old
        edit = self._edits[i]
        before = self._shifts[i - 1] if i > 0 else 0
        if old < edit.end and old > edit.start:
            return edit.start + before
        if old == edit.start:
            return old + before
        return old + self._shifts[i]

    def span(self, old: Span) -> Span:
        return (self.position(old[0]), self.position(old[1]))


def _marker_text(written: str, entries: Sequence[tuple[str, int | None]]) -> str:
    """A marker naming ``entries``, in the family of the ``written`` one (``<cite:..>`` or
    ``[..]``)."""
    if written.startswith("<cite:"):
        return "".join(f"<cite:{sid}#p{par}>" if par else f"<cite:{sid}>" for sid, par in entries)
    return "".join(f"[{sid} ¶{par}]" if par else f"[{sid}]" for sid, par in entries)


def _block_text(corrected: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in corrected.split("\n"))


def apply_verdicts(
    answer: ParsedAnswer,
    judgements: Sequence[Judgement],
    catalog: SourceCatalog,
    policy: Policy,
) -> tuple[str, tuple[VerifiedQuote, ...], tuple[VerifiedClaim, ...]]:
    """The corrected answer text, its quotes and its claims, every span in the corrected text."""
    text = answer.text
    edits: list[_Edit] = []
    text_edited: set[str] = set()

    for j in judgements:
        if j.corrected_text != j.quote.text:
            start, end = j.quote.span
            replacement = j.corrected_text
            if j.quote.style == "block":
                replacement = _block_text(j.corrected_text)
            edits.append(_Edit(start, end, replacement))
            text_edited.add(j.quote.id)
        if j.new_citation is not None and j.citation is None:
            # An uncited quote found in a document gets its citation right after it.
            close = j.quote.span[1] + (1 if j.quote.style == "inline" else 0)
            sid, par = j.new_citation
            edits.append(_Edit(close, close, " " + _marker_text("[", [(sid, par)])))

    carried: dict[Span, list[str]] = {}
    for quote in answer.quotes:
        for citation in quote.citations:
            carried.setdefault(citation.marker_span, []).append(quote.id)
    marker_status: dict[tuple[Span, str, int | None], list[CitedSource]] = {}
    for marker_span, citations in _markers(answer).items():
        entries: list[tuple[str, int | None, str, bool]] = []
        for citation in citations:
            for entry in _entries(citation, judgements, catalog, policy):
                entries.append(entry)
                sid, par, status, _ = entry
                key = (citation.marker_span, citation.label, citation.paragraph)
                marker_status.setdefault(key, []).append(
                    CitedSource(
                        source=sid,
                        paragraph=par,
                        marker=citation.marker,
                        answer_span=marker_span,
                        status=status,  # type: ignore[arg-type]
                        written_span=marker_span,
                        quote_ids=tuple(dict.fromkeys(carried.get(marker_span, ()))),
                    )
                )
        if any(status == "removed" or moved for *_, status, moved in entries):
            kept = [(sid, par) for sid, par, status, _ in entries if status != "removed"]
            deduped = list(dict.fromkeys(kept))
            new_marker = _marker_text(citations[0].marker, deduped) if deduped else ""
            start, end = marker_span
            if not new_marker and start > 0 and text[start - 1] == " ":
                start -= 1
            edits.append(_Edit(start, end, new_marker))

    edited = _Edits(text, edits)
    quotes = tuple(_verified_quote(j, edited, j.quote.id in text_edited) for j in judgements)
    claims = tuple(
        VerifiedClaim(
            id=claim.id,
            text=edited.text[slice(*edited.span(claim.span))],
            span=edited.span(claim.span),
            original_span=claim.span,
            citations=tuple(
                _moved(cited, edited)
                for c in claim.citations
                for cited in marker_status.get((c.marker_span, c.label, c.paragraph), ())
            ),
            quote_ids=claim.quote_ids,
        )
        for claim in answer.claims
    )
    return edited.text, quotes, claims


def _markers(answer: ParsedAnswer) -> dict[Span, list[Citation]]:
    """Every citation marker of the answer with the citations it carries, in order."""
    markers: dict[Span, list[Citation]] = {}
    for citation in answer.citations:
        group = markers.setdefault(citation.marker_span, [])
        if citation not in group:
            group.append(citation)
    return markers


def _entries(
    citation: Citation,
    judgements: Sequence[Judgement],
    catalog: SourceCatalog,
    policy: Policy,
) -> list[tuple[str, int | None, str, bool]]:
    """What one citation becomes: ``(source, paragraph, status, moved)`` for each place it
    must name once corrected (``moved``: a place other than the one written). A citation two
    quotes rely on, one of which was found elsewhere, names both places. A quote whose
    meaning changed marks its citation ``meaning_changed`` (F.1)."""
    source = catalog.resolve(citation.label)
    if source is None:
        removed = policy.ineligible_citations == "remove"
        status = "removed" if removed else "ineligible"
        return [(citation.label, citation.paragraph, status, False)]
    users = [j for j in judgements if j.citation == citation]
    entries: list[tuple[str, int | None, str, bool]] = []
    kept = [j for j in users if j.new_citation is None]
    if not users or kept:
        # A citation left as written although its quote is elsewhere (email bodies, 011.2).
        flagged = any(j.status == "mismatch" for j in kept)
        status = "flagged" if flagged else "ok"
        if any(j.meaning_changed for j in kept):
            status = "meaning_changed"  # F.1: the claim says what its source does not
        entries.append((source.id, citation.paragraph, status, False))
    for j in users:
        if j.new_citation is not None:
            status = "meaning_changed" if j.meaning_changed else "corrected"
            entry = (*j.new_citation, status, True)
            if entry not in entries:
                entries.append(entry)
    return entries


def _moved(cited: CitedSource, edited: _Edits) -> CitedSource:
    start = edited.position(cited.answer_span[0])
    end = edited.position(cited.answer_span[1])
    return replace(cited, answer_span=(start, end))


def _verified_quote(j: Judgement, edited: _Edits, replaced: bool) -> VerifiedQuote:
    start = edited.position(j.quote.span[0])
    if replaced:
        replacement_length = len(
            _block_text(j.corrected_text) if j.quote.style == "block" else j.corrected_text
        )
        corrected_span = (start, start + replacement_length)
    else:
        corrected_span = (start, edited.position(j.quote.span[1]))
    match = j.match
    cited_source = (
        j.cited_source.id if j.cited_source else (j.citation.label if j.citation else None)
    )
    return VerifiedQuote(
        id=j.quote.id,
        text=j.quote.text,
        style=j.quote.style,
        answer_span=j.quote.span,
        cited_source=cited_source,
        cited_paragraph=j.citation.paragraph if j.citation else None,
        status=j.status,
        source=j.holding_source.id if j.holding_source else None,
        paragraph=match.paragraph if match else None,
        source_span=match.span if match else None,
        score=round(match.score, 4) if match else 0.0,
        method=match.method if match else None,
        corrected_text=j.corrected_text,
        corrected_span=corrected_span,
        corrections=j.corrections,
        excerpt=j.excerpt,
        note=j.note,
        claim_id=j.quote.claim_id,
        differences=j.differences,
        meaning_changed=j.meaning_changed,
    )
