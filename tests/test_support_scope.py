"""Who may do a thing, in a contract's words (020): a claim that gives to either party what
the clause gives to one, or to one party alone what the clause gives to either, is
`contradicted` with the clause's words; the same claims in the clause's own scope stay
`supported`. Before, the default judge called all three turned claims below `supported`."""

from __future__ import annotations

import pytest

from citeproof import Source
from tests.support_runs import support_of

AGREEMENT = Source(
    id="msa",
    kind="document",
    text=(
        "14.3 Either party may terminate this agreement by giving the other ninety (90) days' "
        "written notice. The Customer may terminate for convenience on thirty (30) days' "
        "written notice."
    ),
)
EMPLOYMENT = Source(
    id="contract",
    kind="document",
    text="Either party may end the employment by giving the other three months' written notice.",
)


@pytest.mark.parametrize(
    ("claim", "source", "says"),
    [
        (
            "Only the Customer may terminate this agreement by giving ninety days' notice [msa].",
            AGREEMENT,
            "the passage says “Either party may terminate”, not “Only the Customer may terminate”",
        ),
        (
            "Either party may terminate for convenience on thirty days' written notice [msa].",
            AGREEMENT,
            "the passage says “The Customer may terminate”, not “Either party may terminate”",
        ),
        (
            "Only the employer may end the employment [contract].",
            EMPLOYMENT,
            "the passage says “Either party may end”, not “Only the employer may end”",
        ),
    ],
)
def test_a_right_widened_or_narrowed_is_contradicted_020(
    claim: str, source: Source, says: str
) -> None:
    support = support_of(claim, [source])
    assert support.verdict == "contradicted"
    assert support.reason == says


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Each party may terminate this agreement on ninety days' written notice [msa].",
            AGREEMENT,
        ),
        ("The Customer may terminate for convenience on thirty days' notice [msa].", AGREEMENT),
        (
            "Both parties may end the employment on three months' written notice [contract].",
            EMPLOYMENT,
        ),
    ],
)
def test_the_same_right_in_the_clauses_own_scope_is_supported_020(
    claim: str, source: Source
) -> None:
    assert support_of(claim, [source]).verdict == "supported"


def test_only_the_party_the_clause_names_is_not_turned_020() -> None:
    """ "Only the Customer may terminate for convenience": the clause gives that right to the
    Customer alone, so the claim's "only" widens nothing."""
    support = support_of("Only the Customer may terminate for convenience [msa].", [AGREEMENT])
    assert support.verdict != "contradicted"
