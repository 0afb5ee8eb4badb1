"""The public surface is deliberate: this list changes only on purpose."""

import citeproof


def test_public_names_are_exactly_these() -> None:
    assert sorted(citeproof.__all__) == sorted(
        [
            "AnswerError",
            "Citation",
            "CiteproofError",
            "Claim",
            "Correction",
            "Difference",
            "Excerpt",
            "InputError",
            "Match",
            "Policy",
            "PolicyError",
            "Quote",
            "Source",
            "SourceError",
            "VerifiedAnswer",
            "VerifiedClaim",
            "VerifiedQuote",
            "Verifier",
            "verify",
        ]
    )
    for name in citeproof.__all__:
        assert getattr(citeproof, name).__module__.startswith("citeproof.")


def test_every_error_is_a_citeproof_error() -> None:
    for name in ("AnswerError", "InputError", "PolicyError", "SourceError"):
        assert issubclass(getattr(citeproof, name), citeproof.CiteproofError)
