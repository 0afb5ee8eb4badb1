"""A provider whose answers come from a plain function: for tests and examples."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from citeproof.errors import ProviderTimeout
from citeproof.providers._base import ChatMessage, Generation, check_request


@dataclass(frozen=True, slots=True)
class Request:
    """What `FunctionProvider.generate` was asked, as given to the function."""

    messages: tuple[ChatMessage, ...]
    max_tokens: int
    temperature: float
    deadline: float | None

    @property
    def prompt(self) -> str:
        """The last user message's text (empty if there is none)."""
        users = [m.content for m in self.messages if m.role == "user"]
        return users[-1] if users else ""


Respond = Callable[[Request], "str | Generation"]


class FunctionProvider:
    """Answers with ``respond(request)``: a string, or a whole `Generation`.

    Every request is kept in ``requests``, in order. A `ProviderError` raised by ``respond``
    reaches the caller unchanged, so tests can play any failure. A deadline already past
    raises `ProviderTimeout` before ``respond`` is called.
    """

    def __init__(self, respond: Respond, *, name: str = "function", model: str = "function"):
        self.respond = respond
        self.name = name
        self.model = model
        self.requests: list[Request] = []

    @classmethod
    def answering(cls, text: str, **settings: str) -> FunctionProvider:
        """A provider that always answers ``text``."""
        return cls(lambda request: text, **settings)

    def generate(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        deadline: float | None = None,
    ) -> Generation:
        """Call the function; see `Provider.generate`."""
        check_request(messages, max_tokens, temperature)
        started = time.monotonic()
        if deadline is not None and started >= deadline:
            raise ProviderTimeout("the deadline passed before the call", provider=self.name)
        request = Request(tuple(messages), max_tokens, temperature, deadline)
        self.requests.append(request)
        answer = self.respond(request)
        if isinstance(answer, Generation):
            return answer
        return replace(
            Generation(text=answer, model=self.model, provider=self.name),
            seconds=time.monotonic() - started,
        )
