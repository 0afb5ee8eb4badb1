"""Attach claim support to the verified claims of one answer.

Every claim with at least one citation to an eligible source gets one `ClaimSupport` per
distinct cited source, judged on the claim's text with its citation markers blanked out (so
difference spans still index ``VerifiedClaim.text``). Parts of the claim inside quotes that
verified (``verified`` or ``corrected``) are backed by that verification; the rest is judged.
A citation whose quote changed the meaning is judged too: a quote kept as written (an email
body's ``mismatch``) leaves the claim saying what the model wrote, and the source shows what it
says instead (such a claim is never ``supported``: `_held_back`); a quote corrected to a
document's words is judged on the corrected words. A claim whose quote was not found in the
source it cites is never ``supported`` either. The judgements of one answer are made in one
batch (`SupportJudge.judge_many`).
A claim whose only citations were refused (not provided this turn) is ``unsupported`` with
no judgement. A claim without citation is ``uncited`` when the answer cites elsewhere and the
claim asserts something (three content words or more, not a question); otherwise ``none``.

Each claim a reader is shown then gets its number, 1 to n in reading order (`number_claims`):
the one name every rendering, the JSON contract and the audit record give it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from citeproof.model import (
    ClaimSupport,
    ClaimVerdict,
    Source,
    Span,
    VerifiedClaim,
    VerifiedQuote,
)
from citeproof.verifier.support._judge import SupportJudge
from citeproof.verifier.support._request import Request
from citeproof.verifier.support._text import is_content, tokenize

JUDGED_CITATIONS = ("ok", "corrected", "flagged", "meaning_changed")
BACKING_QUOTES = ("verified", "corrected")
# A claim backed by any source is supported; a contradiction outranks a partial backing,
# because a reader must see it.
_RANK: dict[str, int] = {
    "supported": 0,
    "contradicted": 1,
    "unconfirmed": 2,
    "partial": 3,
    "unsupported": 4,
}


def attach_support(
    text: str,
    claims: Sequence[VerifiedClaim],
    quotes: Sequence[VerifiedQuote],
    sources: dict[str, Source],
    judge: SupportJudge,
) -> tuple[VerifiedClaim, ...]:
    """``claims`` with ``support`` and ``verdict`` set; ``text`` is the corrected answer."""
    cites_elsewhere = any(claim.citations for claim in claims)
    by_id = {q.id: q for q in quotes}
    requests = [_requests(text, claim, by_id, sources) for claim in claims]
    judged = iter(judge.judge_many([r for rs in requests for r in rs]))
    result = []
    for claim, asked in zip(claims, requests, strict=True):
        strict = judge.policy.support_judge == "strict"
        support = tuple(_held_back(next(judged), claim, by_id, strict=strict) for _ in asked)
        verdict = _verdict(claim, support, cites_elsewhere)
        result.append(dataclasses.replace(claim, support=support, verdict=verdict))
    return number_claims(text, result)


def number_claims(text: str, claims: Sequence[VerifiedClaim]) -> tuple[VerifiedClaim, ...]:
    """``claims`` with their numbers (`citeproof.model.CLAIM_NUMBERING`): 1 to n in reading
    order over those that carry words outside their markers and cite a source, carry a
    quote, were judged or assert something; a heading, a question or a bare "Yes." has none.
    ``text`` is the corrected answer."""
    numbered: list[VerifiedClaim] = []
    number = 0
    for claim in sorted(claims, key=lambda c: c.span):
        counts = _has_words(text, claim) and (
            bool(claim.citations)
            or bool(claim.quote_ids)
            or claim.verdict != "none"
            or _asserts(claim.text)
        )
        if counts:
            number += 1
        numbered.append(dataclasses.replace(claim, number=number if counts else None))
    by_id = {claim.id: claim for claim in numbered}
    return tuple(by_id[claim.id] for claim in claims)


def _has_words(text: str, claim: VerifiedClaim) -> bool:
    """Whether the claim has a letter or digit outside its citation markers."""
    start, end = claim.span
    chars = list(text[start:end])
    for citation in claim.citations:
        a, b = citation.answer_span
        for i in range(max(a, start), min(b, end)):
            chars[i - start] = " "
    return any(c.isalnum() for c in chars)


def _requests(
    text: str,
    claim: VerifiedClaim,
    quotes: dict[str, VerifiedQuote],
    sources: dict[str, Source],
) -> list[Request]:
    cited: dict[str, int | None] = {}
    for citation in claim.citations:
        if citation.status in JUDGED_CITATIONS and citation.source in sources:
            cited.setdefault(citation.source, citation.paragraph)
    if not cited:
        return []
    start = claim.span[0]
    claim_text = _without_markers(claim, text, list(cited))
    quoted: list[Span] = []
    for quote_id in claim.quote_ids:
        quote = quotes.get(quote_id)
        if quote is not None and quote.status in BACKING_QUOTES:
            s, e = quote.corrected_span
            quoted.append((max(s - start, 0), max(e - start, 0)))
    return [
        Request(claim_text, sources[sid], paragraph, tuple(quoted))
        for sid, paragraph in cited.items()
    ]


def _held_back(
    support: ClaimSupport,
    claim: VerifiedClaim,
    quotes: dict[str, VerifiedQuote],
    *,
    strict: bool = False,
) -> ClaimSupport:
    """``support``, never ``supported`` for a claim whose quote of that source was not found
    (``unsupported``) or was kept as written with another meaning (``contradicted``: the
    source says something else, as the quote's differences show); with the strict judge,
    nor for one whose quote citeproof corrected with a change of meaning (``unconfirmed``:
    the answer said something else, and the reader must see what)."""
    if support.verdict == "contradicted":
        return support
    own = [quotes[q] for q in claim.quote_ids if q in quotes]
    changed = [q for q in own if q.status == "mismatch" and q.meaning_changed]
    if changed:
        reason = f"its quote is not what the source says{_first_change(changed[0])}"
        return dataclasses.replace(support, verdict="contradicted", reason=reason)
    corrected = [q for q in own if q.status == "corrected" and q.meaning_changed]
    if strict and corrected and support.verdict == "supported":
        return dataclasses.replace(
            support,
            verdict="unconfirmed",
            reason=f"citeproof corrected its quote and the meaning changed"
            f"{_first_change(corrected[0])}",
            rule="quote.meaning_changed",
        )
    missing = [q for q in own if q.status == "not_found"]
    if missing and support.verdict in ("supported", "partial"):
        return dataclasses.replace(
            support, verdict="unsupported", reason="its quote was not found in the source"
        )
    return support


def _first_change(quote: VerifiedQuote) -> str:
    """``": "`` and the first difference of ``quote`` that changes the meaning, or ``""``."""
    changes = [d for d in quote.differences if d.changes_meaning]
    return f": {changes[0].description}" if changes else ""


# How answers name the sources they cite ("Source 1 says", "per document #2", "S3 notes"):
# a label, not a fact the source must back.
_SOURCE_LABEL = re.compile(
    r"\b(?:sources?|documents?|docs?|passages?|references?|refs?|excerpts?|emails?|messages?"
    r"|attachments?)\s*(?:#|no\.?|number)?\s*\d+\b",
    re.IGNORECASE,
)


def _without_markers(claim: VerifiedClaim, text: str, cited: Sequence[str]) -> str:
    """The claim's text with every citation marker, every source label ("Source 1") and
    every cited source id written as a word ("S1 says"; never a bare number, which may be a
    fact, nor an id that is a word of the language, "lease": "Under the lease, ..." frames
    the claim) replaced by spaces (same offsets)."""
    chars = list(text[claim.span[0] : claim.span[1]])
    start, end = claim.span
    blanks = [citation.answer_span for citation in claim.citations]
    own = text[start:end]
    blanks += [(start + m.start(), start + m.end()) for m in _SOURCE_LABEL.finditer(own)]
    for source_id in (sid for sid in cited if any(c.isalpha() for c in sid)):
        if source_id.isalpha() and (source_id.islower() or source_id.istitle()):
            continue  # "lease", "Handbook": a word of the claim ("Under the lease, ...")
        pattern = rf"(?<![\w-]){re.escape(source_id)}(?![\w-])"
        blanks += [(start + m.start(), start + m.end()) for m in re.finditer(pattern, own)]
    for s, e in blanks:
        for position in range(max(s, start), min(e, end)):
            chars[position - start] = " "
    return "".join(chars)


def _verdict(
    claim: VerifiedClaim, support: tuple[ClaimSupport, ...], cites_elsewhere: bool
) -> ClaimVerdict:
    if support:
        return min((s.verdict for s in support), key=lambda v: _RANK[v])
    if claim.citations:
        return "unsupported"  # every citation of the claim was refused
    if cites_elsewhere and _asserts(claim.text):
        return "uncited"
    return "none"


def _asserts(text: str) -> bool:
    stripped = text.strip().strip("*_ ")
    if stripped.endswith("?"):
        return False
    return sum(1 for t in tokenize(stripped) if is_content(t)) >= 3
