"""The public surface is deliberate: this list changes only on purpose."""

import citeproof


def test_public_names_are_exactly_these() -> None:
    assert sorted(citeproof.__all__) == sorted(
        [
            "AnswerError",
            "AuditError",
            "AuditRecordError",
            "AuditStoreError",
            "CheckpointError",
            "Citation",
            "CiteproofError",
            "Claim",
            "Correction",
            "EvidenceError",
            "Excerpt",
            "InputError",
            "LiveValueError",
            "Match",
            "ModelRequestsForbidden",
            "Policy",
            "PolicyError",
            "ProofError",
            "ProviderAuthError",
            "ProviderConfigError",
            "ProviderConnectionError",
            "ProviderError",
            "ProviderModelError",
            "ProviderRateLimited",
            "ProviderRequestError",
            "ProviderServerError",
            "ProviderTimeout",
            "Quote",
            "RecordNotFoundError",
            "RerankUnavailableError",
            "RuleError",
            "Source",
            "SourceError",
            "UnknownSourceError",
            "VerifiedAnswer",
            "VerifiedClaim",
            "VerifiedQuote",
            "verify",
        ]
    )
    for name in citeproof.__all__:
        assert getattr(citeproof, name).__module__.startswith("citeproof.")


def test_every_error_is_a_citeproof_error() -> None:
    errors = [name for name in citeproof.__all__ if name.endswith(("Error", "Timeout"))]
    errors += ["ModelRequestsForbidden", "ProviderRateLimited"]
    for name in errors:
        assert issubclass(getattr(citeproof, name), citeproof.CiteproofError)
