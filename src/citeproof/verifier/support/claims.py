"""Attach claim support to the verified claims of one answer (issue 10).

Every claim with at least one citation to an eligible source gets one `ClaimSupport` per
distinct cited source, judged on the claim's text with its citation markers blanked out (so
difference spans still index ``VerifiedClaim.text``). Parts of the claim inside quotes that
verified (``verified`` or ``corrected``) are backed by that verification; the rest is judged.
A citation whose quote changed the meaning is judged only when that quote was kept as written
(an email body's ``mismatch``): the claim then says what the model wrote, and the source shows
what it says instead; a quote corrected to the source's words leaves nothing of the model's
claim to judge.
A claim whose only citations were refused (not provided this turn) is ``unsupported`` with
no judgement. A claim without citation is ``uncited`` when the answer cites elsewhere and the
claim asserts something (three content words or more, not a question); otherwise ``none``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from citeproof.model import (
    CitedSource,
    ClaimSupport,
    ClaimVerdict,
    Source,
    Span,
    VerifiedClaim,
    VerifiedQuote,
)
from citeproof.verifier.support.judge import SupportJudge
from citeproof.verifier.support.text import is_content, tokenize

JUDGED_CITATIONS = ("ok", "corrected", "flagged")
BACKING_QUOTES = ("verified", "corrected")
# A claim backed by any source is supported; a contradiction outranks a partial backing,
# because a reader must see it.
_RANK: dict[str, int] = {"supported": 0, "contradicted": 1, "partial": 2, "unsupported": 3}


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
    result = []
    for claim in claims:
        support = _judge_claim(text, claim, by_id, sources, judge)
        verdict = _verdict(claim, support, cites_elsewhere)
        result.append(dataclasses.replace(claim, support=support, verdict=verdict))
    return tuple(result)


def _judge_claim(
    text: str,
    claim: VerifiedClaim,
    quotes: dict[str, VerifiedQuote],
    sources: dict[str, Source],
    judge: SupportJudge,
) -> tuple[ClaimSupport, ...]:
    cited: dict[str, int | None] = {}
    for citation in claim.citations:
        judged = citation.status in JUDGED_CITATIONS or _kept_as_written(claim, citation, quotes)
        if judged and citation.source in sources:
            cited.setdefault(citation.source, citation.paragraph)
    if not cited:
        return ()
    start = claim.span[0]
    claim_text = _without_markers(claim, text, list(cited))
    quoted: list[Span] = []
    for quote_id in claim.quote_ids:
        quote = quotes.get(quote_id)
        if quote is not None and quote.status in BACKING_QUOTES:
            s, e = quote.corrected_span
            quoted.append((max(s - start, 0), max(e - start, 0)))
    return tuple(
        judge.judge(claim_text, sources[sid], paragraph=paragraph, quoted=quoted)
        for sid, paragraph in cited.items()
    )


def _kept_as_written(
    claim: VerifiedClaim, citation: CitedSource, quotes: dict[str, VerifiedQuote]
) -> bool:
    """A ``meaning_changed`` citation whose changed quotes were all kept as the model wrote
    them (``mismatch``, an email body): the claim still says what the model wrote, so it is
    judged against the source, which then shows the figure or name it gives instead. A quote
    corrected to the source's words is not: the claim no longer says what was written."""
    if citation.status != "meaning_changed":
        return False
    changed = [quotes[q] for q in claim.quote_ids if q in quotes and quotes[q].meaning_changed]
    return bool(changed) and all(q.status == "mismatch" for q in changed)


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
    fact) replaced by spaces (same offsets)."""
    chars = list(text[claim.span[0] : claim.span[1]])
    start, end = claim.span
    blanks = [citation.answer_span for citation in claim.citations]
    own = text[start:end]
    blanks += [(start + m.start(), start + m.end()) for m in _SOURCE_LABEL.finditer(own)]
    for source_id in (sid for sid in cited if any(c.isalpha() for c in sid)):
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
