"""A claim word aligned against a word that excludes it is a contradiction the default judge
names: "the last working day" where the lease says "the first", "the tenant" where it says
"the landlord", "approved" where the email says "declined". A claim that uses both words, or
a word that only restates the passage's, is not turned round.
"""

from __future__ import annotations

import pytest

from citeproof import Source
from citeproof.model import ClaimSupport
from citeproof.verifier.support._opposites import opposites
from citeproof.verifier.support._text import Token, tokenize
from tests.support_runs import support_of

LEASE = Source(
    id="lease",
    kind="document",
    title="Office lease",
    text=(
        "The tenant pays rent of £4,200 per month, due on the first working day of each "
        "month.\n\nThe landlord is responsible for repairs to the roof and structure.\n\n"
        "The service charge is invoiced quarterly.\n\nLiability of the landlord is capped at "
        "one year's rent."
    ),
)
TENANCY = Source(
    id="tenancy",
    kind="document",
    title="Tenancy terms",
    text=(
        "Rent is paid monthly in advance.\n\nThe deposit is returned within 14 days of the end "
        "of the tenancy.\n\nThe landlord's mortgage on the building carries a fixed rate."
    ),
)
CREDIT = Source(
    id="credit",
    kind="email_body",
    title="Decision",
    text="Hi Sam,\n\nThe loan application from Hartley Ltd was declined on 3 May.\n\nDana",
)


def judged(claim: str, source: Source) -> ClaimSupport:
    return support_of(f"{claim} [{source.id}]", [LEASE, CREDIT, WRAPPED, TENANCY])


@pytest.mark.parametrize(
    ("claim", "source", "says", "not_"),
    [
        pytest.param(
            "Rent is due on the last working day of the month.",
            LEASE,
            "first",
            "last",
            id="first-last",
        ),
        pytest.param(
            "The tenant is responsible for repairs to the roof and structure.",
            LEASE,
            "landlord",
            "tenant",
            id="party-and-counterparty",
        ),
        pytest.param(
            "The service charge is invoiced annually.",
            LEASE,
            "quarterly",
            "annually",
            id="how-often",
        ),
        pytest.param(
            "Liability of the landlord is unlimited.",
            LEASE,
            "capped",
            "unlimited",
            id="capped-unlimited",
        ),
        pytest.param(
            "The loan application from Hartley Ltd was approved on 3 May.",
            CREDIT,
            "declined",
            "approved",
            id="approved-declined",
        ),
        pytest.param(
            "Rent is paid monthly in arrears.", TENANCY, "advance", "arrears", id="in-advance"
        ),
        pytest.param(
            "The deposit is returned within 14 days of the start of the tenancy.",
            TENANCY,
            "end",
            "start",
            id="start-end",
        ),
        pytest.param(
            "The landlord's mortgage on the building carries a variable rate.",
            TENANCY,
            "fixed",
            "variable",
            id="fixed-variable",
        ),
    ],
)
def test_a_word_turned_round_is_contradicted_with_the_passages_word(
    claim: str, source: Source, says: str, not_: str
) -> None:
    support = judged(claim, source)
    assert support.verdict == "contradicted", support
    assert support.reason == f"the passage says “{says}”, not “{not_}”"
    (turned,) = [d for d in support.differences if d.instead is not None]
    assert (turned.text, turned.instead) == (not_, says)


WRAPPED = Source(
    id="wrapped",
    kind="document",
    text=(
        "The landlord is responsible for repairs to the\nroof and structure; the tenant is "
        "responsible for\ninternal decoration."
    ),
)


def test_a_party_swap_in_prose_wrapped_at_a_width_is_contradicted() -> None:
    support = judged("The tenant must repair the roof.", WRAPPED)
    assert support.verdict == "contradicted", support
    assert support.reason == "the passage says “landlord”, not “tenant”"


def test_each_party_keeps_its_own_clause_of_a_wrapped_sentence() -> None:
    for claim in (
        "The tenant is responsible for internal decoration.",
        "The landlord is responsible for repairs to the roof.",
    ):
        assert judged(claim, WRAPPED).verdict == "supported", claim


def test_a_claim_using_both_words_is_not_turned_round() -> None:
    support = judged("Rent is due on the first working day, not the last, of each month.", LEASE)
    assert support.verdict != "contradicted" or "“last”" not in support.reason, support


def test_a_negated_word_agrees_with_its_opposite() -> None:
    support = judged("The loan application from Hartley Ltd was not approved.", CREDIT)
    assert not any(d.instead == "declined" for d in support.differences), support


def test_a_restatement_in_the_passages_own_words_stays_supported() -> None:
    support = judged("The tenant pays rent of £4,200 each month.", LEASE)
    assert support.verdict == "supported", support
    support = judged("The deposit is returned within two weeks of the end of the tenancy.", TENANCY)
    assert support.verdict == "supported", support


def test_each_word_excludes_the_other_side_of_its_group_only() -> None:
    def word(text: str) -> Token:
        (token,) = tokenize(text)
        return token

    def key(text: str) -> str:
        return word(text).key

    assert key("declined") in opposites(word("approved"))
    assert key("approved") in opposites(word("declined"))
    assert key("rejected") not in opposites(word("declined"))  # the same side: a restatement
    assert {key("weekly"), key("monthly"), key("annually")} <= opposites(word("daily"))
    assert opposites(word("terminate")) == frozenset()
    assert key("first") in opposites(word("last"))
    assert opposites(word("lasts")) == frozenset()  # "the probation lasts six months"


HIRE = Source(
    id="hire",
    kind="document",
    title="Scaffolding hire",
    text=(
        "2.2 Hire continues until the day we receive your written off-hire notice, not the "
        "day we dismantle.\n\n7.2 If the Scaffold is still needed by another trade, the Owner "
        "may take over the hire from the date of your off-hire notice."
    ),
)


def test_the_particle_of_a_phrasal_verb_points_no_way() -> None:
    """ "take over" says nothing went over anything: a claim's "taken down" (a scaffold
    dismantled) is not turned round by it."""
    support = support_of(
        "Hire charges stop on the day the written off-hire notice arrives, not on the day the "
        "scaffold is taken down [hire].",
        [HIRE],
    )
    assert support.verdict != "contradicted", support
    assert support.rule not in ("match.opposite", "direction.kept"), support
