"""Providers by name: ``embedded``, ``openai``, ``anthropic``, ``extractive``, any registered,
and any a plug-in offers.

Each name maps to a factory that imports its SDK only when called, so naming a provider
never costs the import of the others. A name that is neither built in nor registered is
looked up among the ``citeproof.providers`` entry points of the installed distributions: the
entry point of that name names a factory, ``factory(**settings)`` returning a `Provider`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from citeproof import environment
from citeproof.errors import ProviderConfigError, extra_needed
from citeproof.plugins import PROVIDERS_GROUP, load_plugin, plugin_names
from citeproof.providers._base import Provider

Factory = Callable[..., Provider]


def _embedded(**settings: Any) -> Provider:
    from citeproof.providers._embedded import EmbeddedProvider

    return EmbeddedProvider(**settings)


def _openai(**settings: Any) -> Provider:
    with extra_needed("openai", "the openai provider"):
        from citeproof.providers._openai_compat import OpenAICompatProvider

    return OpenAICompatProvider(**settings)


def _anthropic(**settings: Any) -> Provider:
    with extra_needed("anthropic", "the anthropic provider"):
        from citeproof.providers._anthropic_provider import AnthropicProvider

    return AnthropicProvider(**settings)


def _extractive(**settings: Any) -> Provider:
    from citeproof.providers._extractive import ExtractiveProvider

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
    """The names `get_provider` knows without plug-ins (built in and registered), sorted."""
    return tuple(sorted(_factories))


def plugin_provider_names() -> tuple[str, ...]:
    """The provider names installed plug-ins offer (``citeproof.providers`` entry points),
    sorted; none of them is imported."""
    return plugin_names(PROVIDERS_GROUP)


def default_provider_name(environ: Mapping[str, str] | None = None) -> str:
    """``openai`` if ``OPENAI_BASE_URL`` or ``OPENAI_API_KEY`` is set, else ``anthropic`` if
    ``ANTHROPIC_API_KEY`` is, else ``embedded``."""
    if environment.OPENAI_BASE_URL.get(environ) or environment.OPENAI_API_KEY.get(environ):
        return "openai"
    if environment.ANTHROPIC_API_KEY.get(environ):
        return "anthropic"
    return "embedded"


def get_provider(name: str | None = None, **settings: Any) -> Provider:
    """The provider called ``name`` (the default one when None), built with ``settings``.

    A name not built in nor registered is looked up among the plug-ins (see the module's
    docstring). Raises `ProviderConfigError` for an unknown name, settings the provider does
    not take, or a plug-in that fails to load or does not give a `Provider` (naming its
    entry point).
    """
    chosen = name or default_provider_name()
    factory = _factories.get(chosen)
    described = None
    if factory is None:
        factory, described = _plugin_factory(chosen)
    try:
        provider = factory(**settings)
    except TypeError as error:
        raise ProviderConfigError(f"bad settings: {error}", provider=chosen) from error
    if described is not None and not isinstance(provider, Provider):
        raise ProviderConfigError(
            f"the {described} gave {type(provider).__name__}, not a provider "
            "(it needs a generate(messages, *, max_tokens, temperature, deadline) method)",
            provider=chosen,
        )
    return provider


def _plugin_factory(name: str) -> tuple[Factory, str]:
    def fail(message: str) -> ProviderConfigError:
        return ProviderConfigError(message, provider=name)

    plugin = load_plugin(PROVIDERS_GROUP, name, fail)
    if plugin is None:
        known = sorted({*provider_names(), *plugin_provider_names()})
        raise ProviderConfigError(f"unknown provider {name!r}; expected one of {', '.join(known)}")
    if not callable(plugin.value):
        raise fail(f"the {plugin.described} is not a provider factory (it cannot be called)")
    factory: Factory = plugin.value
    return factory, plugin.described
