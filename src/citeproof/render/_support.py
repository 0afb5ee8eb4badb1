"""What every rendering says about a claim's support: one word and one symbol per
verdict, the differences in words, and where the badge goes (after the claim's last marker).

The HTML page, the Markdown text and the terminal report take their wording from here, so a
reader sees the same verdicts everywhere. The score is never shown alone: a verdict other
than ``supported`` always comes with its differences and the passage it was judged against.
"""

from __future__ import annotations

from dataclasses import dataclass

from citeproof.model import (
    CLAIM_VERDICTS,
    ClaimDifference,
    ClaimSupport,
    VerifiedAnswer,
    VerifiedClaim,
)


@dataclass(frozen=True, slots=True)
class SupportLabel:
    word: str
    symbol: str
    meaning: str

    @property
    def badge(self) -> str:
        return f"{self.symbol} {self.word}"


SUPPORT_LABELS: dict[str, SupportLabel] = {
    "supported": SupportLabel("Supported", "✓", "The cited passage says what the claim says."),
    "partial": SupportLabel(
        "Partly supported", "◐", "Some of the claim is in the cited passage, some is not."
    ),
    "unconfirmed": SupportLabel(
        "Unconfirmed",
        "?",
        "citeproof could not confirm this: read the passage.",
    ),
    "contradicted": SupportLabel(
        "Contradicted",
        "≠",
        "The cited passage states another number, name or date, or the opposite.",
    ),
    "unsupported": SupportLabel(
        "Unsupported", "✗", "The cited source does not say what the claim says."
    ),
    "uncited": SupportLabel("Uncited", "○", "The claim cites no source, though the answer does."),
}


NOT_CHECKED = SupportLabel(
    "Not checked", "–", "It cites no source, so there was nothing to check it against."
)
"""A numbered claim with nothing judged (verdict ``none``): it cites no source."""


def support_label(verdict: str) -> SupportLabel:
    return SUPPORT_LABELS.get(verdict, NOT_CHECKED)


def shown_claims(answer: VerifiedAnswer) -> list[VerifiedClaim]:
    """The claims whose verdict a rendering lists, by their numbers: the numbered claims
    (`VerifiedAnswer.numbered_claims`) that were judged or left uncited."""
    return [c for c in answer.numbered_claims() if c.verdict in SUPPORT_LABELS]


def claim_name(claim: VerifiedClaim) -> str:
    """``claim 3``: a claim as every rendering names it (its number, not its parser id)."""
    return f"claim {claim.number}" if claim.number is not None else claim.id


def numbered_counts(answer: VerifiedAnswer) -> dict[str, int]:
    """The numbered claims per verdict (`CLAIM_VERDICTS`), every verdict present: what every
    count of claims counts (``none``: numbered, but citing no source, not checked)."""
    counts = dict.fromkeys(CLAIM_VERDICTS, 0)
    for claim in answer.numbered_claims():
        counts[claim.verdict] += 1
    return counts


def badge_position(claim: VerifiedClaim) -> int:
    """Where a claim's support badge goes in the corrected text: after its last citation
    marker, or at the end of an uncited claim."""
    ends = [c.answer_span[1] for c in claim.citations if c.status != "removed"]
    return max(ends) if ends else claim.span[1]


def difference_text(difference: ClaimDifference, source: str) -> str:
    """One difference in words, e.g. ``“90%”: source says “95%”``."""
    if difference.kind == "negation" and not difference.text:
        return f"{source} says “{difference.instead}” here; the claim does not"
    if difference.kind == "negation":
        return f"“{difference.text}”: {source} does not negate this"
    if difference.instead is not None:
        return f"“{difference.text}”: {source} says “{difference.instead}”"
    return f"“{difference.text}”: not in {source}"


def differences_text(support: ClaimSupport, limit: int = 4, name: str | None = None) -> str:
    """The differences of one judgement, the most telling first, at most ``limit``; the
    source is called ``name`` (its title) when given, else by its id."""
    ordered = sorted(
        support.differences, key=lambda d: (d.instead is None and d.kind != "negation", d.span)
    )
    parts = [difference_text(d, name or support.source) for d in ordered[:limit]]
    if len(ordered) > limit:
        parts.append(f"{len(ordered) - limit} more")
    return "; ".join(parts)


def support_summary(claim: VerifiedClaim, answer: VerifiedAnswer | None = None) -> str:
    """The plain-text badge and reason shown beside a claim, e.g.
    ``≠ Contradicted (policy §2: “90%”: policy says “95%”)``: each passage by its location in
    the source's own terms when ``answer`` is given (`Source.location`), else its count."""
    label = support_label(claim.verdict)
    reasons = []
    for support in claim.support:
        where = support.source
        if support.passage is not None:
            paragraph = support.passage.paragraph
            source = (
                next((s for s in answer.sources if s.id == support.source), None)
                if answer
                else None
            )
            located = source.location(paragraph) if source is not None else None
            where += f" {located or f'¶{paragraph}'}"
        if support.verdict == "supported":
            reasons.append(f"{where}: supported")
        else:
            detail = support.reason or differences_text(support) or "no passage says it"
            reasons.append(f"{where}: {support_label(support.verdict).word.lower()}, {detail}")
    refused = refused_reason(claim)
    if refused and claim.verdict != "supported":
        reasons.append(refused)
    if claim.verdict == "supported" or not reasons:
        return label.badge
    return f"{label.badge} ({' · '.join(reasons)})"


def refused_reason(claim: VerifiedClaim) -> str | None:
    """Why a claim no source was judged for has its verdict, when every source it cites was
    refused: "it cites Board Minutes, which was not provided with this answer". None for a
    claim that was judged, or cites nothing."""
    if claim.support:
        return None
    refused = list(
        dict.fromkeys(c.source for c in claim.citations if c.status in ("ineligible", "removed"))
    )
    if not refused:
        return None
    were = "was" if len(refused) == 1 else "were"
    return f"it cites {', '.join(refused)}, which {were} not provided with this answer"


def claim_tally(answer: VerifiedAnswer) -> list[tuple[str, SupportLabel, int]]:
    """(verdict, label, count) over the numbered claims; ``unconfirmed`` (only the strict
    judge says it) and ``not checked`` only where a claim is."""
    counts = numbered_counts(answer)
    labels = [*SUPPORT_LABELS.items(), ("none", NOT_CHECKED)]
    return [
        (verdict, label, counts[verdict])
        for verdict, label in labels
        if counts[verdict] or verdict not in ("unconfirmed", "none")
    ]


def to_check(support: ClaimSupport) -> str:
    """What a reviewer should read for, where the strict judge could not confirm a claim:
    the claim's words the passage did not match, and the conditions it leaves out; ""
    when there is nothing."""
    parts = []
    if support.unmatched:
        parts.append(
            "no match in the passage for " + ", ".join(f"“{w}”" for w in support.unmatched)
        )
    if support.left_out:
        parts.append("the claim leaves out " + "; ".join(f"“{c}”" for c in support.left_out))
    return "; ".join(parts)
