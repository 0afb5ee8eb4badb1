"""Providers that can generate under a grammar, and the quote-first option they carry.

llama.cpp-compatible servers (the embedded model, llama.cpp's own server, xllamacpp) accept a
GBNF ``grammar`` with a chat request and generate only text it allows. A provider that passes
one on carries ``quote_first``: when true, the turn pipeline builds the quote-first prompt
and grammar (`citeproof.turn._evidence_first`) and sends them through ``generate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from citeproof.providers._base import ChatMessage, Generation


@runtime_checkable
class GrammarProvider(Protocol):
    """A `Provider` whose ``generate`` also takes a GBNF ``grammar`` (None: unconstrained)."""

    quote_first: bool

    def generate(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        deadline: float | None = None,
        grammar: str | None = None,
    ) -> Generation: ...


def wants_quote_first(provider: object) -> bool:
    """Whether ``provider`` takes a grammar and has quote-first generation switched on."""
    return isinstance(provider, GrammarProvider) and provider.quote_first is True
