"""A clause's denial restated in the claim's own words (020): "No pets may be kept ...
without the Landlord's prior written consent" says pets need that consent, and "The tenancy
is non-assignable" says it cannot be assigned. Those claims are `supported`; the claims that
drop the condition, or deny it, stay `contradicted`. Before, the default judge called the two
true claims `contradicted` ("the passage says “without”" / "the claim says “cannot”")."""

from __future__ import annotations

import pytest

from citeproof import Source
from tests.support_runs import support_of

LEASE = Source(
    id="lease",
    kind="document",
    text=(
        "7. Assignment. The tenancy is non-assignable.\n\n"
        "8. Pets. No pets may be kept at the property without the Landlord's prior written "
        "consent, which may not be unreasonably withheld."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "Pets need the Landlord's written consent [lease].",
        "Pets may be kept with the Landlord's prior written consent [lease].",
        "The tenancy cannot be assigned [lease].",
    ],
)
def test_the_condition_in_the_claims_words_is_supported_020(claim: str) -> None:
    support = support_of(claim, [LEASE])
    assert support.verdict == "supported", support.reason


@pytest.mark.parametrize(
    ("claim", "says"),
    [
        (
            "Pets may be kept at the property [lease].",
            "the passage says “No”, which the claim leaves out",
        ),
        (
            "Pets may be kept without the Landlord's consent [lease].",
            "the passage says “No”, which the claim leaves out",
        ),
        (
            "The tenancy can be assigned [lease].",
            "the passage says “non-assignable”, not “assigned”",
        ),
    ],
)
def test_the_claim_that_drops_or_denies_it_is_contradicted_020(claim: str, says: str) -> None:
    support = support_of(claim, [LEASE])
    assert support.verdict == "contradicted"
    assert support.reason == says


def test_a_without_that_lifts_no_denial_still_stands_020() -> None:
    """ "learns ... without explicit supervision" is the passage's own negation, not the
    condition of one: "with explicit supervision" stays `contradicted`."""
    paper = Source(
        id="paper",
        kind="document",
        text=(
            "We propose a model that learns visual concepts and words without explicit "
            "supervision on any of them."
        ),
    )
    support = support_of(
        "The model learns visual concepts and words with explicit supervision [paper].", [paper]
    )
    assert support.verdict == "contradicted"
