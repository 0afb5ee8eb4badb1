"""The numbered notes of an answer: one per claim that cites, quotes or was judged, in text
order, each with the place its marker goes (the claim's end) and what the marker shows.

The HTML page draws a note as a numbered marker that opens its source panel.
"""

from __future__ import annotations

from dataclasses import dataclass

from citeproof.model import VerifiedAnswer, VerifiedClaim, VerifiedQuote
from citeproof.render._edits import with_quote_marks
from citeproof.render._labels import Label, state_label
from citeproof.render._support import SUPPORT_LABELS, support_label
from citeproof.render._verdicts import quote_state, worst

NOT_JUDGED = Label("Not judged", "–", "Cites a source; there was nothing in it to judge.")


@dataclass(frozen=True, slots=True)
class Note:
    """``claim`` (None for a quote that belongs to no claim), its ``quotes`` in text order,
    ``at``: where in the corrected answer its marker goes, ``verdict``: what the marker shows
    (the claim's verdict; for a claim not judged, its worst quote state)."""

    number: int
    claim: VerifiedClaim | None
    quotes: tuple[VerifiedQuote, ...]
    at: int
    verdict: str

    @property
    def label(self) -> Label:
        if self.verdict in SUPPORT_LABELS:
            support = support_label(self.verdict)
            return Label(support.word, support.symbol, support.meaning)
        if self.verdict == "none":
            return NOT_JUDGED
        return state_label(self.verdict)


def _end(text: str, position: int) -> int:
    position = min(max(position, 0), len(text))
    while position > 0 and text[position - 1].isspace():
        position -= 1
    return position


def _noted(claim: VerifiedClaim) -> bool:
    cites = any(c.status != "removed" for c in claim.citations)
    return claim.verdict != "none" or cites or bool(claim.quote_ids)


def notes(answer: VerifiedAnswer) -> list[Note]:
    """The answer's notes, numbered from 1 in the order their markers appear."""
    text = answer.text
    by_claim: dict[str, list[VerifiedQuote]] = {}
    for quote in sorted(answer.quotes, key=lambda q: q.corrected_span[0]):
        by_claim.setdefault(quote.claim_id, []).append(quote)
    found: list[tuple[int, VerifiedClaim | None, tuple[VerifiedQuote, ...], str]] = []
    noted: set[str] = set()
    for claim in answer.claims:
        if not _noted(claim):
            continue
        noted.add(claim.id)
        quotes = tuple(by_claim.get(claim.id, ()))
        verdict: str = claim.verdict
        if verdict not in SUPPORT_LABELS:
            verdict = worst([quote_state(q) for q in quotes]) or "none"
        found.append((_end(text, claim.span[1]), claim, quotes, verdict))
    for claim_id, orphans in by_claim.items():
        if claim_id in noted:
            continue
        for quote in orphans:
            end = with_quote_marks(text, quote.corrected_span)[1]
            found.append((_end(text, end), None, (quote,), quote_state(quote)))
    found.sort(key=lambda item: item[0])
    return [
        Note(number, claim, quotes, at, verdict)
        for number, (at, claim, quotes, verdict) in enumerate(found, start=1)
    ]
