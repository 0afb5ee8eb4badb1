"""citeproof: evidence-first verification of LLM answers against their sources."""

from citeproof.errors import AnswerError, CiteproofError, InputError, PolicyError, SourceError
from citeproof.model import (
    Citation,
    Claim,
    Correction,
    Difference,
    Excerpt,
    Match,
    Policy,
    Quote,
    Source,
    VerifiedAnswer,
    VerifiedClaim,
    VerifiedQuote,
)
from citeproof.verifier.verification import Verifier, verify

__all__ = [
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
__version__ = "0.1.0"
