"""A claim whose quote is not in the source it cites is never ``supported`` (nor
``partial``), however well the rest of the claim reads against that source: the reader is
shown ``unsupported`` and why. The words around the quote below are the source's own, so the
judge alone backs them (lexically, ``supported``; strictly, ``partial``): only the quote's
verdict keeps the claim from passing."""

from __future__ import annotations

import pytest

from citeproof import Policy, Source, verify

POLICY = Source(
    id="S1",
    kind="document",
    title="Credit policy",
    text=(
        "Applications with a loan-to-value ratio above 80% must be referred to a senior "
        "underwriter before any offer is made. The committee meets on Tuesdays."
    ),
)
NOT_FOUND = "its quote was not found in the source"


@pytest.mark.parametrize(
    ("answer", "policy"),
    [
        ('The committee meets on Tuesdays: "meetings are held weekly" [S1].', "lexical"),
        (
            "Applications with a loan-to-value ratio above 80% must be referred to a senior "
            'underwriter, as the policy says: "every loan needs two signatures" [S1].',
            "strict",
        ),
        (
            "The policy says applications with a loan-to-value ratio above 80% must be referred "
            "to a senior underwriter before any offer is made "
            '"and the committee decides on Fridays" [S1].',
            "strict",
        ),
    ],
    ids=["lexically-supported-words", "strictly-partial-signatures", "strictly-partial-day"],
)
def test_a_claim_whose_quote_was_not_found_is_unsupported(answer: str, policy: str) -> None:
    verified = verify(answer, [POLICY], policy=Policy(support_judge=policy))
    (quote,) = verified.quotes
    assert quote.status == "not_found"
    (claim,) = [c for c in verified.claims if c.support]
    assert claim.verdict == "unsupported"
    assert [(s.source, s.verdict, s.reason) for s in claim.support] == [
        ("S1", "unsupported", NOT_FOUND)
    ]
