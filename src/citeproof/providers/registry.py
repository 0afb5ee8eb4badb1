"""Providers by name: ``embedded``, ``openai``, ``anthropic``, ``extractive``, and any registered.

Each name maps to a factory that imports its SDK only when called, so naming a provider
never costs the import of the others.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from citeproof.errors import ProviderConfigError, extra_needed
from citeproof.providers.base import Provider

Factory = Callable[..., Provider]


def _embedded(**settings: Any) -> Provider:
    from citeproof.providers.embedded import EmbeddedProvider

    return EmbeddedProvider(**settings)


def _openai(**settings: Any) -> Provider:
    with extra_needed("openai", "the openai provider"):
        from citeproof.providers.openai_compat import OpenAICompatProvider

    return OpenAICompatProvider(**settings)


def _anthropic(**settings: Any) -> Provider:
    with extra_needed("anthropic", "the anthropic provider"):
        from citeproof.providers.anthropic_provider import AnthropicProvider

    return AnthropicProvider(**settings)


def _extractive(**settings: Any) -> Provider:
    from citeproof.providers.extractive import ExtractiveProvider

    return ExtractiveProvider(**settings)


_factories: dict[str, Factory] = {
    "embedded": _embedded,
    "openai": _openai,
    "anthropic": _anthropic,
    "extractive": _extractive,
}


def register_provider(name: str, factory: Factory) -> None:
    """Make ``get_provider(name, **settings)`` return ``factory(**settings)``."""
    if not name or not name.strip():
        raise ProviderConfigError("a provider needs a non-empty name")
    _factories[name] = factory


def provider_names() -> tuple[str, ...]:
    """The names `get_provider` knows, sorted."""
    return tuple(sorted(_factories))


def default_provider_name(environ: Mapping[str, str] | None = None) -> str:
    """``openai`` if ``OPENAI_BASE_URL`` or ``OPENAI_API_KEY`` is set, else ``anthropic`` if
    ``ANTHROPIC_API_KEY`` is, else ``embedded``."""
    env = os.environ if environ is None else environ
    if env.get("OPENAI_BASE_URL") or env.get("OPENAI_API_KEY"):
        return "openai"
    if env.get("ANTHROPIC_API_KEY"):
        return "anthropic"
    return "embedded"


def get_provider(name: str | None = None, **settings: Any) -> Provider:
    """The provider called ``name`` (the default one when None), built with ``settings``.

    Raises `ProviderConfigError` for an unknown name or settings the provider does not take.
    """
    chosen = name or default_provider_name()
    factory = _factories.get(chosen)
    if factory is None:
        raise ProviderConfigError(
            f"unknown provider {chosen!r}; expected one of {', '.join(provider_names())}"
        )
    try:
        return factory(**settings)
    except TypeError as error:
        raise ProviderConfigError(f"bad settings: {error}", provider=chosen) from error
