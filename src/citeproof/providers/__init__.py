"""LLM providers: one `Provider` protocol and several backends (their errors are
`citeproof.ProviderError` and its subclasses).

`get_provider` picks one by name (or from the environment); `FunctionProvider` and
`ExtractiveProvider` need no model and suit tests; `forbid_model_requests` keeps a test suite
from calling remote models.
"""

from citeproof.providers.base import (
    ChatMessage,
    Generation,
    Message,
    Provider,
    Usage,
    deadline_after,
)
from citeproof.providers.extractive import ExtractiveProvider, SourceParagraph
from citeproof.providers.function import FunctionProvider, Request
from citeproof.providers.model_requests import (
    allow_model_requests,
    forbid_model_requests,
    model_requests_allowed,
)
from citeproof.providers.registry import (
    default_provider_name,
    get_provider,
    provider_names,
    register_provider,
)
from citeproof.providers.retry import RetryPolicy

__all__ = [
    "ChatMessage",
    "ExtractiveProvider",
    "FunctionProvider",
    "Generation",
    "Message",
    "Provider",
    "Request",
    "RetryPolicy",
    "SourceParagraph",
    "Usage",
    "allow_model_requests",
    "deadline_after",
    "default_provider_name",
    "forbid_model_requests",
    "get_provider",
    "model_requests_allowed",
    "provider_names",
    "register_provider",
]
