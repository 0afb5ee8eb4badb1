"""Claim support reads a negation where the source puts it (issue 10): one in the middle of the
source's sentence, between words the claim shares, turns the claim round.

"The credit committee did not approve the loan" does not support "The credit committee
approved the loan": the claim is contradicted, and the difference names the source's "not"
at the place in the claim where it is missing."""

from __future__ import annotations

import pytest

from citeproof import Source, verify
from citeproof.model import ClaimSupport

MINUTES = Source(
    id="S1",
    kind="document",
    title="Credit committee minutes, 14 March 2026",
    text=(
        "Credit committee minutes, 14 March 2026.\n\n"
        "The credit committee did not approve the loan for the Hartley purchase at its meeting "
        "on Friday.\n\n"
        "The applicant will be told in writing by the case underwriter."
    ),
)


def support_of(claim: str) -> tuple[str, ClaimSupport]:
    answer = verify(f"{claim} [S1].", (MINUTES,), answer_id="negation")
    (verified,) = [c for c in answer.claims if c.support]
    (support,) = verified.support
    return verified.verdict, support


@pytest.mark.parametrize(
    "claim",
    [
        "The credit committee approved the loan",
        "The credit committee approved the loan for the Hartley purchase at its meeting on Friday",
    ],
)
def test_a_negation_in_the_middle_of_the_sources_sentence_contradicts_the_claim_issue10(
    claim: str,
) -> None:
    verdict, support = support_of(claim)
    assert (verdict, support.verdict) == ("contradicted", "contradicted")
    assert support.source == "S1" and support.passage is not None
    assert "did not approve the loan" in support.passage.text
    (negation,) = [d for d in support.differences if d.kind == "negation"]
    assert negation.instead == "not"
    # Said where it is missing: just before the claim's "approved".
    assert negation.span == (claim.index("approved"),) * 2


def test_a_negation_is_read_when_the_claim_puts_the_sources_clauses_in_another_order() -> None:
    verdict, support = support_of("At its meeting on Friday the credit committee approved the loan")
    assert verdict == "contradicted"
    (negation,) = [d for d in support.differences if d.kind == "negation"]
    assert negation.instead == "not approve the loan"


def test_the_same_claim_negated_as_its_source_is_supported_issue10() -> None:
    verdict, support = support_of("The credit committee did not approve the loan")
    assert (verdict, support.verdict) == ("supported", "supported")
    assert [d for d in support.differences if d.kind == "negation"] == []


NOTICE = Source(
    id="dpa",
    kind="document",
    title="Data processing terms",
    text=(
        "The Supplier must notify the Customer of a security incident without undue delay and "
        "in any event within 48 hours of discovering it."
    ),
)


@pytest.mark.parametrize(
    ("claim", "verdict", "reason"),
    [
        (
            "The Supplier must notify the Customer of a security incident within 48 hours of "
            "discovering it.",
            "supported",
            "the passage says this",
        ),
        (
            "The Supplier must notify the Customer of a security incident within 72 hours of "
            "discovering it.",
            "contradicted",
            "the passage says “48 hours”, not “72 hours”",
        ),
    ],
)
def test_without_denies_its_noun_not_the_claim_that_leaves_it_out(
    claim: str, verdict: str, reason: str
) -> None:
    """ "without undue delay" says how soon, not that the Supplier need not notify: a claim
    that leaves it out is not contradicted by it, and a wrong figure is named as one."""
    (support,) = [s for c in verify(f"{claim} [dpa]", [NOTICE]).claims for s in c.support]
    assert (support.verdict, support.reason) == (verdict, reason)
