"""What every provider shares: the `Provider` protocol, its values and its errors.

A provider turns chat messages into one `Generation`. Everything that can go wrong on the way
is a `ProviderError`, so a caller handles one tree whatever the model behind it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from citeproof.errors import (
    InputError,
    ProviderAuthError,
    ProviderConnectionError,
    ProviderError,
    ProviderModelError,
    ProviderRateLimited,
    ProviderRequestError,
    ProviderServerError,
)
from citeproof.model import Message as Message
from citeproof.model import Role as Role

ROLES: tuple[str, ...] = ("system", "user", "assistant")


class ChatMessage(Protocol):
    """Anything with a ``role`` and a ``content``: `Message`, or the prompt engine's own."""

    @property
    def role(self) -> str: ...

    @property
    def content(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens the model read and wrote, as the provider reported them (None when unknown)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    @property
    def total_tokens(self) -> int | None:
        """Prompt plus completion tokens, when both are known."""
        if self.prompt_tokens is None or self.completion_tokens is None:
            return None
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class Generation:
    """The model's answer and how it was obtained.

    ``model`` is the model the server says answered (it may differ from the name asked for,
    e.g. a dated version). ``seconds`` is the wall time of the whole call including retries;
    ``attempts`` how many requests were made. ``finish_reason`` is ``"stop"``, ``"length"``
    (cut at ``max_tokens``) or whatever the server reported.
    """

    text: str
    model: str
    provider: str
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    attempts: int = 1
    finish_reason: str | None = None


@runtime_checkable
class Provider(Protocol):
    """Something that answers chat messages with a `Generation`.

    ``deadline`` is an absolute time on `time.monotonic()` (see `deadline_after`) by which the
    whole call, retries included, must end; past it the provider raises `ProviderTimeout`.
    """

    def generate(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        deadline: float | None = None,
    ) -> Generation: ...


def deadline_after(seconds: float) -> float:
    """The deadline ``seconds`` from now, for `Provider.generate`."""
    return time.monotonic() + seconds


def check_request(messages: Sequence[ChatMessage], max_tokens: int, temperature: float) -> None:
    """Reject a request no provider could serve, naming the bad field."""
    if not messages:
        raise InputError("at least one message is needed", field="messages")
    for number, message in enumerate(messages, start=1):
        if message.role not in ROLES:
            raise InputError(
                f"message {number} has role {message.role!r}; expected one of {', '.join(ROLES)}",
                field="messages",
            )
        if not isinstance(message.content, str):
            raise InputError(f"message {number} content must be a string", field="messages")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise InputError(f"must be a positive integer, got {max_tokens!r}", field="max_tokens")
    if not 0.0 <= temperature <= 2.0:
        raise InputError(f"must be between 0 and 2, got {temperature!r}", field="temperature")


RETRYABLE: tuple[type[ProviderError], ...] = (
    ProviderConnectionError,
    ProviderRateLimited,
    ProviderServerError,
)


def error_for_status(
    status: int,
    detail: str,
    *,
    provider: str,
    model: str | None,
    retry_after: float | None = None,
) -> ProviderError:
    """The `ProviderError` for an HTTP error ``status`` with the server's message ``detail``."""
    kind: type[ProviderError]
    if status in (401, 403):
        kind, what = ProviderAuthError, "the server refused the API key"
    elif status == 404:
        kind, what = ProviderModelError, "unknown model (or wrong base_url)"
    elif status == 429:
        kind, what = ProviderRateLimited, "rate limited"
    elif status >= 500:
        kind, what = ProviderServerError, "server error"
    elif status in (400, 413, 422):
        kind, what = ProviderRequestError, "request rejected"
    else:
        kind, what = ProviderError, "unexpected response"
    message = f"{what} (HTTP {status})"
    if detail:
        message += f": {detail}"
    return kind(message, provider=provider, model=model, status=status, retry_after=retry_after)
