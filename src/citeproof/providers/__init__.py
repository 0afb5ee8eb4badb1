"""LLM providers: one `Provider` protocol and several backends (their errors are
`citeproof.ProviderError` and its subclasses).

`get_provider` picks one by name (or from the environment); `FunctionProvider` and
`ExtractiveProvider` need no model and suit tests; `forbid_model_requests` keeps a test suite
from calling remote models.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.providers._base import (
        ChatMessage,
        Generation,
        Message,
        Provider,
        Usage,
        check_request,
        deadline_after,
    )
    from citeproof.providers._constrained import GrammarProvider, wants_quote_first
    from citeproof.providers._embedded import EmbeddedModel, EmbeddedProvider
    from citeproof.providers._extractive import ExtractiveProvider, SourceParagraph
    from citeproof.providers._function import FunctionProvider, Request
    from citeproof.providers._model_requests import (
        allow_model_requests,
        forbid_model_requests,
        model_requests_allowed,
    )
    from citeproof.providers._pace import Pace, Progress, progress_to
    from citeproof.providers._registry import (
        default_provider_name,
        get_provider,
        plugin_provider_names,
        provider_names,
        register_provider,
    )
    from citeproof.providers._retry import RetryPolicy


_WHERE = {
    "ChatMessage": "citeproof.providers._base",
    "EmbeddedModel": "citeproof.providers._embedded",
    "EmbeddedProvider": "citeproof.providers._embedded",
    "ExtractiveProvider": "citeproof.providers._extractive",
    "FunctionProvider": "citeproof.providers._function",
    "Generation": "citeproof.providers._base",
    "GrammarProvider": "citeproof.providers._constrained",
    "Message": "citeproof.providers._base",
    "Pace": "citeproof.providers._pace",
    "Progress": "citeproof.providers._pace",
    "Provider": "citeproof.providers._base",
    "Request": "citeproof.providers._function",
    "RetryPolicy": "citeproof.providers._retry",
    "SourceParagraph": "citeproof.providers._extractive",
    "Usage": "citeproof.providers._base",
    "allow_model_requests": "citeproof.providers._model_requests",
    "check_request": "citeproof.providers._base",
    "deadline_after": "citeproof.providers._base",
    "default_provider_name": "citeproof.providers._registry",
    "forbid_model_requests": "citeproof.providers._model_requests",
    "get_provider": "citeproof.providers._registry",
    "model_requests_allowed": "citeproof.providers._model_requests",
    "plugin_provider_names": "citeproof.providers._registry",
    "progress_to": "citeproof.providers._pace",
    "provider_names": "citeproof.providers._registry",
    "register_provider": "citeproof.providers._registry",
    "wants_quote_first": "citeproof.providers._constrained",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "ChatMessage",
    "EmbeddedModel",
    "EmbeddedProvider",
    "ExtractiveProvider",
    "FunctionProvider",
    "Generation",
    "GrammarProvider",
    "Message",
    "Pace",
    "Progress",
    "Provider",
    "Request",
    "RetryPolicy",
    "SourceParagraph",
    "Usage",
    "allow_model_requests",
    "check_request",
    "deadline_after",
    "default_provider_name",
    "forbid_model_requests",
    "get_provider",
    "model_requests_allowed",
    "plugin_provider_names",
    "progress_to",
    "provider_names",
    "register_provider",
    "wants_quote_first",
]
