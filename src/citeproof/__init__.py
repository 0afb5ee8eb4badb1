"""citeproof: evidence-first verification of LLM answers against their sources.

The public API is what this module exports (pinned by ``tests/test_exported_members.py``):
`verify` and the values it takes and returns, `render` and `answer_to_json` to show and
record its result, `read_source_file` to make a `Source` from a file, and the error tree
(every error is a `CiteproofError`). Everything else is internal and may change.
"""

import typing

from citeproof.errors import (
    AnswerError,
    AuditError,
    AuditRecordError,
    AuditStoreError,
    CheckpointError,
    CiteproofError,
    DatabaseError,
    EvidenceError,
    InputError,
    LiveValueError,
    MissingExtraError,
    ModelRequestsForbidden,
    PolicyError,
    ProofError,
    ProviderAuthError,
    ProviderConfigError,
    ProviderConnectionError,
    ProviderError,
    ProviderModelError,
    ProviderRateLimited,
    ProviderRequestError,
    ProviderServerError,
    ProviderTimeout,
    RecordNotFoundError,
    RerankUnavailableError,
    RuleError,
    ServiceStateError,
    SourceError,
    SupportHeadError,
    SupportLexiconError,
    SupportModelError,
    UnknownSourceError,
)
from citeproof.lazy import on_first_use as _on_first_use
from citeproof.model import (
    Citation,
    CitedSource,
    Claim,
    Correction,
    Difference,
    Eligibility,
    Excerpt,
    Exclusion,
    Match,
    Policy,
    Quote,
    Source,
    VerifiedAnswer,
    VerifiedClaim,
    VerifiedQuote,
)
from citeproof.render import render
from citeproof.verifier import Verifier, verify

if typing.TYPE_CHECKING:
    from citeproof.outcome import answer_to_json
    from citeproof.sources import read_source_file

# Imported on first use: the JSON contract (pydantic) and the file readers (pypdf, docx...)
# would triple the time `import citeproof` takes. `render` cannot wait: its name is also
# the `citeproof.render` package, which would shadow it once imported by anything else.
_ON_FIRST_USE = {
    "answer_to_json": "citeproof.outcome.contract",
    "read_source_file": "citeproof.sources.files",
}

__getattr__ = _on_first_use(globals(), _ON_FIRST_USE)


__all__ = [
    "AnswerError",
    "AuditError",
    "AuditRecordError",
    "AuditStoreError",
    "CheckpointError",
    "Citation",
    "CitedSource",
    "CiteproofError",
    "Claim",
    "Correction",
    "DatabaseError",
    "Difference",
    "Eligibility",
    "EvidenceError",
    "Excerpt",
    "Exclusion",
    "InputError",
    "LiveValueError",
    "Match",
    "MissingExtraError",
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
    "ServiceStateError",
    "Source",
    "SourceError",
    "SupportHeadError",
    "SupportLexiconError",
    "SupportModelError",
    "UnknownSourceError",
    "VerifiedAnswer",
    "VerifiedClaim",
    "VerifiedQuote",
    "Verifier",
    "answer_to_json",
    "read_source_file",
    "render",
    "verify",
]
__version__ = "0.1.0"
