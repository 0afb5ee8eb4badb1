"""Every environment variable citeproof reads, in one table: its name, what it does, its
default and who reads it. Code reads a variable through its `Variable` here, never by a name
of its own, and docs/environment.md is generated from this table (`tools/environment_reference.py`,
checked by ``make lint``), so the two cannot drift.

The read limits (`citeproof.sources.ReadLimits`) add one variable per setting,
``CITEPROOF_<SETTING>``: `READ_LIMITS` stands for them all.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Variable:
    """One environment variable: ``name``, what it ``does``, its ``default`` (as the docs say
    it) and who reads it (``read_by``)."""

    name: str
    does: str
    default: str
    read_by: str

    def get(self, environ: Mapping[str, str] | None = None) -> str | None:
        """Its value in ``environ`` (default: this process's environment); ``None`` when it
        is unset or empty."""
        value = (os.environ if environ is None else environ).get(self.name)
        return value or None


VARIABLES: list[Variable] = []
"""Every variable, in the order the docs list them."""


def _variable(name: str, does: str, default: str, read_by: str) -> Variable:
    variable = Variable(name, does, default, read_by)
    VARIABLES.append(variable)
    return variable


OPENAI_BASE_URL = _variable(
    "OPENAI_BASE_URL",
    "The OpenAI-compatible server the openai provider calls; set (or OPENAI_API_KEY set), "
    "openai is the default provider.",
    "OpenAI's API",
    "the openai provider; the default provider's choice",
)
OPENAI_API_KEY = _variable(
    "OPENAI_API_KEY",
    "The key the openai provider sends (not needed for a server on this machine).",
    "none",
    "the openai provider; the default provider's choice",
)
ANTHROPIC_API_KEY = _variable(
    "ANTHROPIC_API_KEY",
    "The key the anthropic provider sends; set (and no OpenAI variable), anthropic is the "
    "default provider.",
    "none",
    "the anthropic provider; the default provider's choice",
)
ANTHROPIC_BASE_URL = _variable(
    "ANTHROPIC_BASE_URL",
    "The server the anthropic provider calls.",
    "Anthropic's API",
    "the anthropic provider",
)
MODEL = _variable(
    "CITEPROOF_MODEL",
    "The model name for the openai and anthropic providers when none is given (--model).",
    "none: a model must be named",
    "the openai and anthropic providers",
)
MODEL_PATH = _variable(
    "CITEPROOF_MODEL_PATH",
    "A GGUF file for the embedded model, used as is instead of the installed weights.",
    "the installed weights",
    "the embedded provider",
)
CACHE = _variable(
    "CITEPROOF_CACHE",
    "The folder where the embedded model's weights are joined from their chunks.",
    "$XDG_CACHE_HOME/citeproof/models, else ~/.cache/citeproof/models",
    "the embedded provider",
)
XDG_CACHE_HOME = _variable(
    "XDG_CACHE_HOME",
    "The cache folder the weights folder goes under when CITEPROOF_CACHE is not set.",
    "~/.cache",
    "the embedded provider",
)
THREADS = _variable(
    "CITEPROOF_THREADS",
    "Threads the embedded model generates with (a positive integer).",
    "one fewer than the usable cores, at most 2",
    "the embedded provider",
)
ALLOW_MODEL_REQUESTS = _variable(
    "CITEPROOF_ALLOW_MODEL_REQUESTS",
    "0 (or false, no, off) forbids calls to remote models: a provider raises "
    "ModelRequestsForbidden instead (loopback servers stay allowed). For test suites.",
    "1: allowed",
    "every provider that calls a server",
)
ALLOW_HTTP_LIVE = _variable(
    "CITEPROOF_ALLOW_HTTP_LIVE",
    "1 lets `citeproof verify --live http://...` fetch live values over plain http from "
    "another machine (https:// or loopback otherwise).",
    "unset: https only",
    "citeproof verify --live",
)
SERVE_CONFIG = _variable(
    "CITEPROOF_SERVE_CONFIG",
    "The service's configuration, as JSON, handed by `citeproof serve` to its worker "
    "processes; set by citeproof, not by hand.",
    "set by citeproof serve",
    "citeproof serve's workers",
)
DATABASE_URL = _variable(
    "CITEPROOF_DATABASE_URL",
    "A postgresql:// URL where `citeproof serve` keeps all of the service's state (tokens, "
    "sources, the answer index, batches, idempotency keys, the audit log), so several hosts "
    "share it; what --database sets. `citeproof token` and `citeproof db` read it too.",
    "unset: SQLite files in --data",
    "citeproof serve, citeproof token, citeproof db",
)
PROXY_CONFIG = _variable(
    "CITEPROOF_PROXY_CONFIG",
    "The proxy's configuration, as JSON, handed by `citeproof proxy --workers N` to its worker "
    "processes; set by citeproof, not by hand.",
    "set by citeproof proxy",
    "citeproof proxy's workers",
)
PROMETHEUS_MULTIPROC_DIR = _variable(
    "PROMETHEUS_MULTIPROC_DIR",
    "The folder where each worker of `citeproof serve` writes its metrics, so /metrics adds "
    "them up.",
    "a temporary folder made by citeproof serve",
    "citeproof serve and its /metrics",
)
READ_LIMITS = _variable(
    "CITEPROOF_<SETTING>",
    "One per read limit (CITEPROOF_MAX_FILE_BYTES, CITEPROOF_MAX_PDF_PAGES...): overrides "
    "that limit on every file read (a positive number); see the table of limits below.",
    "the limit's default",
    "every reader of files: verify, ingest, ask, serve, the proxy",
)
READ_LIMIT_PREFIX = "CITEPROOF_"
"""``CITEPROOF_`` + a `ReadLimits` setting's name in upper case names its variable."""
