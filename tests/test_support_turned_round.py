"""A claim that turns its source round with the source's own words: a denial the claim drops
(wherever it puts the words the denial covers), a point of time moved from "after" to "in",
and two things put the other way round around "before". The default judge contradicts each,
names the source's words, and leaves alone the constructions that only look like them.

Each claim is verified alone against real-looking sources (``CLAIM [id]``), as a team's
answer would carry it.
"""

from __future__ import annotations

import pytest

from citeproof import Source
from citeproof.model import ClaimSupport
from tests.support_runs import support_of, true_claim


def _source(text: str) -> Source:
    return Source(id="S1", kind="document", title="Policy extract", text=text)


def judged(claim: str, text: str) -> ClaimSupport:
    return support_of(f"{claim} [S1].", [_source(text)], answer_id="denials")


CREDIT = (
    "From Monday, applications above 95% LTV are declined outright. Exceptions to the policy "
    "may be approved by the Head of Credit, not by branch managers."
)
LIABILITY = (
    "The Supplier's total liability in any contract year is capped at the fees paid in that "
    "year. Neither party excludes or limits liability for fraud."
)
MINUTES = (
    "The credit committee did not approve the loan for the Hartley purchase at its meeting on "
    "Friday. The applicant will be told in writing by the case underwriter."
)
FEES = (
    "The Supplier may increase the fees by up to 3% a year, but only after the first "
    "anniversary of the start date."
)


@pytest.mark.parametrize(
    ("claim", "text", "said"),
    [
        pytest.param(
            "Branch managers can approve exceptions", CREDIT, "not by branch managers", id="not-by"
        ),
        pytest.param(
            "Liability for fraud is excluded for both parties",
            LIABILITY,
            "Neither party excludes",
            id="neither",
        ),
        pytest.param(
            "At its meeting on Friday the credit committee approved the loan",
            MINUTES,
            "not approve the loan",
            id="clauses-reordered",
        ),
    ],
)
def test_a_claim_that_drops_the_sources_denial_is_contradicted(
    claim: str, text: str, said: str
) -> None:
    support = judged(claim, text)
    assert support.verdict == "contradicted", support
    assert support.reason == f"the passage says “{said}”, which the claim leaves out"
    (negation,) = [d for d in support.differences if d.kind == "negation"]
    assert negation.instead == said
    assert support.passage is not None and said.split()[0] in support.passage.text


NOT_DROPPED = [
    pytest.param(
        "The Head of Credit may approve exceptions to the policy", CREDIT, id="the-other-party"
    ),
    pytest.param(
        "The bank approved the loan",
        "Not only the bank approved the loan, but also the guarantor signed the deed.",
        id="not-only",
    ),
    pytest.param(
        "The committee approved the loan in April",
        "The committee did not approve the loan in March. The committee approved the loan "
        "in April after a second valuation.",
        id="said-plainly-elsewhere",
    ),
    pytest.param(
        "Branch managers cannot approve exceptions",
        CREDIT,
        id="the-claim-keeps-the-denial",
    ),
    pytest.param(
        "The invoice is due in March",
        "The invoice is not due until March, when the goods are delivered.",
        id="not-until",
    ),
    pytest.param(
        "Fees can be raised with 30 days' notice",
        "Fees cannot be raised without 30 days' notice to the Customer.",
        id="not-without",
    ),
]


@pytest.mark.parametrize(("claim", "text"), NOT_DROPPED)
def test_a_denial_the_claim_does_not_drop_is_no_conflict(claim: str, text: str) -> None:
    support = true_claim(f"{claim} [S1].", [_source(text)], answer_id="denials")
    assert not [d for d in support.differences if d.kind == "negation"]


@pytest.mark.parametrize(("claim", "text"), [pytest.param(*p.values, id=p.id) for p in NOT_DROPPED])
def test_a_lifted_or_kept_denial_is_never_read_as_dropped(claim: str, text: str) -> None:
    """Whatever the verdict, the denial rule names no words of the source under a denial
    the claim drops (it names more than the bare negation when it does)."""
    support = judged(claim, text)
    assert not [d for d in support.differences if d.instead and " " in d.instead], support


def test_one_shared_word_under_a_denial_is_no_shared_statement() -> None:
    """ "do not change the genetic sequence" denies a change of the sequence, not the
    "changes" the claim says can be inherited (a held-out Factcheck-GPT pair)."""
    support = judged(
        "Epigenetic changes can be passed down to future generations",
        "Epigenetic modifications can alter the activity of genes, but they do not change the "
        "genetic sequence. A growing body of research has demonstrated that some epigenetic "
        "tags can be passed down to the next generation, though we are still learning how "
        "that happens.",
    )
    assert support.verdict != "contradicted", support
    assert not [d for d in support.differences if d.kind == "negation"]


def test_a_claim_that_moves_after_a_point_of_time_into_it_is_contradicted() -> None:
    support = judged("Fees can rise by up to 3% in the first year", FEES)
    assert support.verdict == "contradicted", support
    assert support.reason == (
        "the passage says “after the first anniversary”, not “in the first year”"
    )


@pytest.mark.parametrize(
    "claim",
    [
        pytest.param("Fees can rise by up to 3% a year after the first anniversary", id="same"),
        pytest.param(
            "Fees can rise by up to 3% a year once the first anniversary has passed",
            id="no-preposition",
        ),
    ],
)
def test_a_claim_that_keeps_the_point_of_time_is_no_time_conflict(claim: str) -> None:
    support = judged(claim, FEES)
    assert not [d for d in support.differences if d.instead == "after the first anniversary"]
    assert support.verdict != "contradicted", support


def test_a_claim_within_a_period_the_passage_also_puts_before_is_no_time_conflict() -> None:
    support = judged(
        "Refunds are paid in the first week",
        "Refunds are paid before the end of the first week after the return arrives.",
    )
    assert support.verdict == "supported", support


POLICY = (
    "Applications with a loan-to-value ratio above 80% must be referred to a senior "
    "underwriter before an offer is issued. Applications above 95% are declined."
)


def test_a_claim_that_puts_two_things_the_other_way_round_is_contradicted() -> None:
    support = judged("An offer may be issued before the referral to a senior underwriter", POLICY)
    assert support.verdict == "contradicted", support
    assert support.reason == (
        "the passage says “be referred to a senior underwriter before an offer is issued”, "
        "not “An offer may be issued before the referral to a senior underwriter”"
    )


@pytest.mark.parametrize(
    "claim",
    [
        pytest.param(
            "Above 80% an application must be referred to a senior underwriter before an "
            "offer is issued",
            id="the-same-order",
        ),
        pytest.param(
            "An offer is issued only after the referral to a senior underwriter",
            id="after-the-other-way-round",
        ),
    ],
)
def test_a_claim_that_keeps_the_order_is_no_order_conflict(claim: str) -> None:
    support = judged(claim, POLICY)
    assert not [d for d in support.differences if d.instead and "before" in d.instead]
    assert support.verdict != "contradicted", support


CODE_PHRASE = (
    "The person receiving the call must call the police first and then tell the worker's "
    "supervisor."
)


@pytest.mark.parametrize(
    "claim",
    [
        pytest.param(
            "The person taking the call must tell the worker's supervisor first and then call "
            "the police",
            id="first-then",
        ),
        pytest.param(
            "The person taking the call must tell the worker's supervisor and then call the police",
            id="and-then",
        ),
    ],
)
def test_a_sequence_the_claim_turns_round_is_contradicted(claim: str) -> None:
    support = judged(claim, CODE_PHRASE)
    assert support.verdict == "contradicted", support
    assert support.rule == "facts.order_turned"


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        pytest.param(
            "The person taking the call must call the police first and then tell the worker's "
            "supervisor",
            CODE_PHRASE,
            id="the-same-sequence",
        ),
        pytest.param(
            "Landlords can ask for a monthly account and then have 30 days from the invoice "
            "date to pay",
            "Landlords may ask for a monthly account, paid within 30 days after the invoice date.",
            id="a-point-of-time-is-no-step",
        ),
        pytest.param(
            "Any options still unvested vest in full if the holder is dismissed within 12 "
            "months after the Sale",
            "Any options still unvested then vest in full if, within 12 months after the Sale, "
            "you are dismissed.",
            id="then-as-a-time",
        ),
        pytest.param(
            "The supervisor is told by then, and the worker calls the police",
            "The worker calls the police. The supervisor must be told by then.",
            id="by-then-is-a-time",
        ),
    ],
)
def test_a_sequence_the_claim_keeps_is_no_order_conflict(claim: str, text: str) -> None:
    support = judged(claim, text)
    assert support.rule != "facts.order_turned", support
    assert support.verdict != "contradicted", support


@pytest.mark.parametrize(
    ("claim", "text", "said"),
    [
        pytest.param(
            "The invoice is due in March",
            "The invoice is not due in March, when the goods are delivered.",
            "not",
            id="not-in",
        ),
        pytest.param(
            "Fees can be raised with 30 days' notice",
            "Fees can be raised without 30 days' notice to the Customer.",
            "without",
            id="without-alone",
        ),
        pytest.param(
            "The invoice is due after delivery",
            "The invoice is not due after delivery, but on the first of the month.",
            "not",
            id="not-after-is-no-lift",
        ),
    ],
)
def test_a_denial_nothing_lifts_still_contradicts_the_claim(
    claim: str, text: str, said: str
) -> None:
    """The lifted readings of "not ... until" and "cannot ... without" leave the plain ones
    alone: the source's "not" (or "without" with no denial before it) still turns the claim."""
    support = judged(claim, text)
    assert support.verdict == "contradicted", support
    assert [d.instead for d in support.differences if d.kind == "negation"] == [said]


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        pytest.param(
            "The loan can be approved without a valuation",
            "The loan cannot be approved without a valuation by a panel surveyor.",
            id="the-claim-keeps-without",
        ),
        pytest.param(
            "The fee is payable before delivery",
            "The fee is not payable before delivery of the goods.",
            id="the-claim-keeps-before",
        ),
    ],
)
def test_a_denial_is_lifted_only_by_a_word_the_claim_does_not_share(claim: str, text: str) -> None:
    """ "not ... before" and "cannot ... without" are lifted against a claim that says "in"
    or "with"; a claim that keeps "before" or "without" and drops the denial turns the
    source round."""
    support = judged(claim, text)
    assert support.verdict == "contradicted", support
    assert [d for d in support.differences if d.kind == "negation"], support


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        pytest.param(
            "A pork chop does not have any chromosomes",
            "Every cell of a pig has chromosomes, forty of them in all. The butcher's sideburns "
            "were so thick that they weren't pork chop, they were prime rib.",
            id="the-rest-in-another-sentence",
        ),
        pytest.param(
            "Branch managers cannot approve exceptions",
            "Branch managers approve exceptions to the policy every week. Exceptions above "
            "£1m may be approved by the Head of Credit, not by branch managers.",
            id="said-plainly-elsewhere",
        ),
    ],
)
def test_a_denial_keeps_the_claims_negation_only_for_the_same_statement(
    claim: str, text: str
) -> None:
    """The source's "not by branch managers" backs the claim's "cannot" only where the claim's
    other words stand in the same sentence and the passage never says the words it covers
    plainly: a passing "weren't pork chop" is no denial that a pork chop has chromosomes."""
    assert judged(claim, text).verdict != "supported"


def test_a_denial_the_source_also_states_plainly_shows_where() -> None:
    """The located sentence says "not by branch managers", and a later one, which shares fewer
    of the claim's words, that branch managers approve exceptions: the claim's "cannot" is
    not backed, and the reader is shown the sentence that says the other."""
    text = CREDIT + " Since March, branch managers approve exceptions for existing customers."
    support = judged("Branch managers cannot approve exceptions to the policy", text)
    assert support.verdict == "contradicted", support
    assert support.passage is not None
    assert "branch managers approve exceptions for existing customers" in support.passage.text
    assert "not by branch managers" in support.passage.text


DEAL = (
    "The board did not approve the merger on Tuesday. Until then, no one should discuss the "
    "deal with Northwind's staff."
)


def test_a_claim_that_drops_no_one_before_a_modal_is_contradicted() -> None:
    support = judged("Staff may discuss the deal with Northwind's staff", DEAL)
    assert support.verdict == "contradicted", support
    assert support.reason == "the passage says “no”, which the claim leaves out"


@pytest.mark.parametrize(
    "claim",
    [
        "Staff should not discuss the deal with Northwind's staff",
        "Until then, nobody should discuss the deal with Northwind's staff",
    ],
)
def test_a_claim_that_keeps_the_no_one_in_its_own_words_is_supported(claim: str) -> None:
    support = judged(claim, DEAL)
    assert support.verdict == "supported", support


DISPATCH = (
    "Orders placed before 2 pm on a working day are dispatched the same day; orders placed "
    "after 2 pm are dispatched within two working days."
)


def test_a_passage_that_gives_both_orders_does_not_turn_the_claims_round() -> None:
    """The passage says what happens before 2 pm and what after: a claim about after is not
    the before-clause turned round, and one that turns the after-clause round still is not
    supported."""
    kept = judged("Orders placed after 2 pm are dispatched within two working days", DISPATCH)
    assert kept.verdict != "contradicted", kept
    assert kept.rule != "facts.order_turned"
    turned = judged("Orders placed after 2 pm are dispatched the same day", DISPATCH)
    assert turned.verdict != "supported", turned
