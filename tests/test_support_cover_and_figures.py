"""What an insurance policy covers and excludes, a deal that goes ahead or is called off, and
a deadline the claim moves to a figure another clause uses: a reader's verdicts.

- "excludes X" restates "does not cover X": supported, however the source words its denial;
  "excludes X" where the source covers X, or "X is covered" where it does not, contradicted.
- "cancelled" where the source says the buyback "goes ahead": contradicted, naming the word.
- "within 30 days" where the clause says "within 14 days": contradicted with the clause's
  figure, though another clause of the same policy says "30 days" of something else.

Each claim is verified alone (``CLAIM [id]``), as a team's answer would carry it.
"""

from __future__ import annotations

import pytest

from citeproof import Source, verify
from citeproof.model import ClaimSupport
from tests.support_runs import support_of, true_claim

POLICY = Source(
    id="home-cover",
    kind="document",
    title="Home insurance policy",
    text=(
        "Section 4. Exclusions. This policy does not cover flood damage to basements. Water "
        "damage from burst pipes is covered, provided the insured reports it within 14 days. "
        "The insurer may refuse a claim if the premium is more than 30 days overdue. Claims "
        "above EUR 50,000 must be approved by the claims committee."
    ),
)
DEAL = Source(
    id="northwind",
    kind="email_body",
    title="Northwind: board update",
    text=(
        "Hi all, quick update on the Northwind deal. The board met on Tuesday and approved "
        "the acquisition at a price of $42 million. Closing is expected in the second "
        "quarter, not the first. The share buyback goes ahead as planned. The launch of the "
        "new line was postponed to June. Thanks, Dana"
    ),
)


def judged(claim: str, source: Source) -> ClaimSupport:
    return support_of(f"{claim} [{source.id}]", [POLICY, DEAL], answer_id="cover")


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        pytest.param("The policy excludes flood damage to basements.", POLICY, id="excludes"),
        pytest.param(
            "Burst-pipe water damage is covered if reported within two weeks.",
            POLICY,
            id="two-weeks",
        ),
        pytest.param("The share buyback will proceed as planned.", DEAL, id="proceeds"),
        pytest.param("The board met on Tuesday and approved the deal.", DEAL, id="approved"),
    ],
)
def test_a_claim_that_says_what_the_source_says_is_supported(claim: str, source: Source) -> None:
    true_claim(f"{claim} [{source.id}]", [POLICY, DEAL], answer_id="cover")


@pytest.mark.parametrize(
    ("claim", "source", "says"),
    [
        pytest.param(
            "The policy excludes water damage from burst pipes.",
            POLICY,
            "covered",
            id="excluded-where-covered",
        ),
        pytest.param(
            "Flood damage to basements is covered.", POLICY, "not cover", id="covered-where-not"
        ),
        pytest.param(
            "Burst-pipe water damage is covered if reported within 30 days.",
            POLICY,
            "14 days",
            id="another-clause-figure",
        ),
        pytest.param("The share buyback has been cancelled.", DEAL, "ahead", id="cancelled"),
        pytest.param("The launch of the new line was cancelled.", DEAL, "postponed", id="off"),
    ],
)
def test_a_claim_that_turns_the_source_round_is_contradicted(
    claim: str, source: Source, says: str
) -> None:
    support = judged(claim, source)
    assert support.verdict == "contradicted", support.reason
    assert says in support.reason
    assert support.passage is not None and says.split()[0] in support.passage.text


def test_a_denying_verb_the_source_also_uses_is_no_restatement() -> None:
    """The claim "The bank refused the loan" against "did not refuse the loan": it keeps the
    source's verb and drops its "not"."""
    bank = Source(
        id="bank",
        kind="document",
        title="Credit memo",
        text="The bank did not refuse the loan. It asked for a second valuation.",
    )
    answer = verify("The bank refused the loan [bank].", [bank], answer_id="refused")
    (support,) = answer.claims[0].support
    assert support.verdict == "contradicted"
    assert "not" in support.reason
