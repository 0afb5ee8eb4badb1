"""Errors of the vendor SDKs (openai, anthropic) as citeproof's provider errors.

Both SDKs raise the same shapes: a timeout error, a connection error, and a status error
carrying the HTTP status, the response body and headers. One mapping serves both.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from citeproof.errors import ProviderConnectionError, ProviderError, ProviderTimeout
from citeproof.providers.base import error_for_status
from citeproof.providers.retry import retry_after_from_headers


class SdkErrorTypes(NamedTuple):
    """One SDK's exception classes for a timeout, a connection failure and an HTTP status."""

    timeout: type[BaseException]
    connection: type[BaseException]
    status: type[BaseException]


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
