"""The numbered notes of an answer: one per numbered claim, under its number, in text order,
each with the place its marker goes (the claim's end) and what the marker shows.

The HTML page draws a note as a numbered marker that opens its source panel.
"""

from __future__ import annotations

from dataclasses import dataclass

from citeproof.model import VerifiedAnswer, VerifiedClaim, VerifiedQuote
from citeproof.render._edits import with_quote_marks
from citeproof.render._labels import Label, state_label
from citeproof.render._support import SUPPORT_LABELS, support_label
from citeproof.render._verdicts import quote_state, worst


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
        if self.verdict in SUPPORT_LABELS or self.verdict == "none":
            support = support_label(self.verdict)
            return Label(support.word, support.symbol, support.meaning)
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
    """The answer's notes in the order their markers appear: one per numbered claim, under
    the claim's own number (`VerifiedClaim.number`, the same in every rendering), and one per
    quote whose claim has none, numbered after them."""
    text = answer.text
    by_claim: dict[str, list[VerifiedQuote]] = {}
    for quote in sorted(answer.quotes, key=lambda q: q.corrected_span[0]):
        by_claim.setdefault(quote.claim_id, []).append(quote)
    found: list[Note] = []
    for claim in answer.numbered_claims():
        if not _noted(claim):
            continue  # numbered, but nothing to show: it cites and quotes nothing
        quotes = tuple(by_claim.pop(claim.id, ()))
        verdict: str = claim.verdict
        if verdict not in SUPPORT_LABELS and quotes:
            verdict = worst([quote_state(q) for q in quotes]) or "none"
        number = claim.number or 0
        found.append(Note(number, claim, quotes, _end(text, claim.span[1]), verdict))
    orphans = sorted(
        (q for quotes in by_claim.values() for q in quotes), key=lambda q: q.corrected_span[0]
    )
    after = max((note.number for note in found), default=0)
    for number, quote in enumerate(orphans, start=after + 1):
        end = with_quote_marks(text, quote.corrected_span)[1]
        found.append(Note(number, None, (quote,), _end(text, end), quote_state(quote)))
    return sorted(found, key=lambda note: (note.at, note.number))
