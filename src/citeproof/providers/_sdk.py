"""What the providers built on a vendor SDK (openai, anthropic) share: the call sequence
(checks, a per-attempt timeout within the deadline, citeproof's retries, the time taken) and
the SDK's errors as citeproof's provider errors.

Both SDKs raise the same shapes: a timeout error, a connection error, and a status error
carrying the HTTP status, the response body and headers. One mapping serves both.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, ClassVar, NamedTuple

from citeproof.errors import ProviderConnectionError, ProviderError, ProviderTimeout
from citeproof.providers._base import ChatMessage, Generation, check_request, error_for_status
from citeproof.providers._model_requests import check_model_request
from citeproof.providers._retry import RetryPolicy, call_with_retries, retry_after_from_headers


class SdkErrorTypes(NamedTuple):
    """One SDK's exception classes: its root, a timeout, a connection failure, an HTTP status."""

    root: type[BaseException]
    timeout: type[BaseException]
    connection: type[BaseException]
    status: type[BaseException]


class SdkProvider:
    """The part of a `Provider` that calls a vendor SDK; a subclass sets ``errors`` and the
    attributes below, checks its request with `_check` and sends it with `_send`."""

    errors: ClassVar[SdkErrorTypes]
    name: str
    model: str
    base_url: str
    timeout: float
    retry: RetryPolicy

    def _check(self, messages: Sequence[ChatMessage], max_tokens: int, temperature: float) -> None:
        """Refuse a malformed request, or any request while model requests are forbidden."""
        check_request(messages, max_tokens, temperature)
        check_model_request(self.name, self.base_url)

    def _send(self, call: Callable[[float], Generation], deadline: float | None) -> Generation:
        """``call(timeout)`` with citeproof's retries until ``deadline``: each attempt's
        timeout is the provider's, cut to what is left; the SDK's errors become provider
        errors; the generation says how long it took and how many attempts it needed."""
        started = time.monotonic()

        def once(remaining: float | None) -> Generation:
            timeout = self.timeout if remaining is None else min(remaining, self.timeout)
            with self._sdk_errors(timeout):
                return call(timeout)

        generation, attempts = call_with_retries(once, deadline=deadline, policy=self.retry)
        return replace(generation, seconds=time.monotonic() - started, attempts=attempts)

    @contextmanager
    def _sdk_errors(self, timeout: float) -> Iterator[None]:
        """Around one SDK call: its errors leave as citeproof's provider errors."""
        try:
            yield
        except self.errors.root as error:
            raise sdk_error(
                error,
                self.errors,
                base_url=self.base_url,
                timeout=timeout,
                provider=self.name,
                model=self.model,
            ) from error


def sdk_error(
    error: BaseException,
    types: SdkErrorTypes,
    *,
    base_url: str,
    timeout: float,
    provider: str,
    model: str,
) -> ProviderError:
    """The provider error for ``error`` raised by an SDK whose classes are ``types``."""
    if isinstance(error, types.timeout):
        return ProviderTimeout(
            f"no answer from {base_url} within {timeout:.1f}s", provider=provider, model=model
        )
    if isinstance(error, types.connection):
        return ProviderConnectionError(
            f"cannot reach {base_url}: {error}", provider=provider, model=model
        )
    if isinstance(error, types.status):
        status: Any = error
        return error_for_status(
            status.status_code,
            server_message(status.body, status.message),
            provider=provider,
            model=model,
            retry_after=retry_after_from_headers(status.response.headers),
        )
    return ProviderError(str(error), provider=provider, model=model)


def server_message(body: object, fallback: str) -> str:
    """The human message in an error body shaped like OpenAI's or Anthropic's."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return str(inner["message"])
        if isinstance(body.get("message"), str):
            return str(body["message"])
    return fallback
