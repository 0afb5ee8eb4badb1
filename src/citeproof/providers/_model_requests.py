"""The switch that forbids real model calls, for test suites.

With ``CITEPROOF_ALLOW_MODEL_REQUESTS=0`` in the environment, or inside
`forbid_model_requests()`, a provider that would send a request to a remote host raises
`ModelRequestsForbidden` instead. Requests to loopback (the embedded model, a test server on
127.0.0.1) are local and always allowed. `allow_model_requests()` lifts the ban in a block.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from urllib.parse import urlsplit

from citeproof import environment
from citeproof.errors import ModelRequestsForbidden

ENV_VAR = environment.ALLOW_MODEL_REQUESTS.name
_allowed: ContextVar[bool | None] = ContextVar("citeproof_model_requests", default=None)


def model_requests_allowed() -> bool:
    """Whether remote model calls may be made here: the innermost switch, else the environment."""
    override = _allowed.get()
    if override is not None:
        return override
    switch = environment.ALLOW_MODEL_REQUESTS.get() or "1"
    return switch.strip().lower() not in ("0", "false", "no", "off")


@contextmanager
def forbid_model_requests() -> Iterator[None]:
    """Inside this block, remote model calls raise `ModelRequestsForbidden`."""
    token = _allowed.set(False)
    try:
        yield
    finally:
        _allowed.reset(token)


@contextmanager
def allow_model_requests() -> Iterator[None]:
    """Inside this block, remote model calls are allowed whatever the environment says."""
    token = _allowed.set(True)
    try:
        yield
    finally:
        _allowed.reset(token)


def is_loopback(url: str | None) -> bool:
    """Whether ``url`` points at this machine (127.0.0.0/8, ::1 or ``localhost``)."""
    if not url:
        return False
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_model_request(provider: str, url: str | None) -> None:
    """Raise `ModelRequestsForbidden` if a request to ``url`` is not allowed now."""
    if is_loopback(url) or model_requests_allowed():
        return
    raise ModelRequestsForbidden(
        f"model requests to {url or 'the default endpoint'} are forbidden "
        f"({ENV_VAR}=0 or forbid_model_requests()); use a FunctionProvider or "
        "ExtractiveProvider in tests",
        provider=provider,
    )
