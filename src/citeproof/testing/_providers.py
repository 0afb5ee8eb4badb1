"""`ProviderConformance`: what every provider promises, as pytest tests (and `check_provider`
as one plain function).

A provider's test class subclasses `ProviderConformance` (its name starting with ``Test``) and
returns the provider from `provider`; `before_model_call` runs before each call that reaches the
model (a test server can queue its reply there). citeproof's own providers pass it; a provider
of your own (a plug-in under ``citeproof.providers``) proves itself the same way
(docs/extending.md). The class needs pytest; `check_provider` does not.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from citeproof.errors import InputError, ProviderTimeout
from citeproof.providers import Generation, Message, Provider

ASK = (Message("system", "Answer briefly."), Message("user", "What is the rate?"))
"""The request every check sends: a system message and a question."""


def _refuses(call: Callable[[], object], error: type[Exception], naming: str, why: str) -> None:
    try:
        call()
    except error as raised:
        if naming not in str(raised):
            raise AssertionError(f"{why}: the error does not name {naming!r}: {raised}") from None
        return
    except Exception as other:
        raise AssertionError(
            f"{why}: raised {type(other).__name__} ({other}), not {error.__name__}"
        ) from other
    raise AssertionError(f"{why}: no {error.__name__} was raised")


def check_answers(provider: object) -> Generation:
    """The provider meets the `Provider` protocol and answers `ASK` with a `Generation` whose
    text, model and provider name are strings; returns it."""
    if not isinstance(provider, Provider):
        raise AssertionError(f"{type(provider).__name__} has no generate() method: not a Provider")
    generation = provider.generate(list(ASK), max_tokens=16)
    if not isinstance(generation, Generation):
        raise AssertionError(f"generate() returned {type(generation).__name__}, not a Generation")
    for name in ("text", "model", "provider"):
        value = getattr(generation, name)
        if not isinstance(value, str):
            raise AssertionError(f"the generation's {name} is {type(value).__name__}, not str")
    return generation


def check_refusals(provider: Provider) -> None:
    """A request no model could serve is refused before any call, with an `InputError` naming
    the field (no messages, ``max_tokens`` 0, a temperature out of range), and a deadline
    already past raises `ProviderTimeout`."""
    _refuses(lambda: provider.generate([], max_tokens=16), InputError, "messages", "no messages")
    _refuses(
        lambda: provider.generate(list(ASK), max_tokens=0),
        InputError, "max_tokens", "max_tokens=0",
    )  # fmt: skip
    _refuses(
        lambda: provider.generate(list(ASK), max_tokens=16, temperature=3.0),
        InputError, "temperature", "temperature=3.0",
    )  # fmt: skip
    _refuses(
        lambda: provider.generate(list(ASK), max_tokens=16, deadline=time.monotonic() - 1),
        ProviderTimeout, "", "a deadline already past",
    )  # fmt: skip


def check_provider(provider: object, before_model_call: Callable[[], None] = lambda: None) -> None:
    """Every check above, in order: raises `AssertionError` saying which promise failed.
    ``before_model_call`` runs before the one call that should reach the model."""
    before_model_call()
    check_answers(provider)
    assert isinstance(provider, Provider)
    check_refusals(provider)


class ProviderConformance:
    """The tests every provider passes; a subclass implements `provider`."""

    def provider(self) -> Provider:
        """The provider under test, ready to answer."""
        raise NotImplementedError

    def before_model_call(self) -> None:
        """Runs before each call that should reach the model (default: nothing)."""

    def test_answers_with_a_generation(self) -> None:
        self.before_model_call()
        check_answers(self.provider())

    def test_refuses_what_no_model_could_serve_and_a_past_deadline(self) -> None:
        check_refusals(self.provider())
