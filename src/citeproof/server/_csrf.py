"""The sign-in form's CSRF token: one the service issued, never one a caller made up.

The form's token and its cookie travel as a pair, but the pair is not "any two equal
strings": the cookie holds a random nonce, and the form holds when the pair was issued and an
HMAC-SHA256, under the deployment's secret key (`ServiceState.deployment_key`), of the nonce
and that time. What callers may rely on:

- a pair made up by anyone without the key (equal strings, a nonce with a token of another
  nonce, a token signed by another deployment) is refused, whatever the request's ``Origin``
  and Fetch Metadata say;
- a token is refused after `MAX_AGE` (and one dated in the future), so a pair seen once does
  not sign anyone in for ever;
- a refusal says which of these it was, for the log and the tests; the sign-in page shows one
  message for all of them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

MAX_AGE = timedelta(hours=2)
"""How long a sign-in form stays good: a reviewer who leaves it open longer signs in again."""
_PURPOSE = b"citeproof review sign-in\x00"


@dataclass(frozen=True, slots=True)
class Pair:
    """What one sign-in form carries: ``cookie`` in its cookie, ``token`` in its field."""

    cookie: str
    token: str


def issue_csrf(key: bytes, now: float) -> Pair:
    """A fresh pair, issued at ``now`` (seconds since the epoch) under ``key``."""
    nonce = secrets.token_urlsafe(32)
    issued = int(now)
    return Pair(nonce, f"{issued}.{_mac(key, nonce, issued)}")


def csrf_refusal(key: bytes, cookie: str, token: str, now: float) -> str | None:
    """Why the pair (``cookie``, ``token``) was not issued by this deployment within
    `MAX_AGE` of ``now``, or None when it was."""
    if not cookie:
        return "no CSRF cookie came with the form"
    issued_text, _, mac = token.partition(".")
    if not issued_text.isascii() or not issued_text.isdigit() or len(issued_text) > 12:
        return "the form's CSRF token is not one this service issues"
    issued = int(issued_text)
    if not hmac.compare_digest(mac.encode(), _mac(key, cookie, issued).encode()):
        return "the form's CSRF token was not issued with its cookie by this service"
    age = now - issued
    if age < 0:
        return "the form's CSRF token is dated in the future"
    if age > MAX_AGE.total_seconds():
        return f"the form's CSRF token was issued {int(age)} s ago: out of date"
    return None


def _mac(key: bytes, nonce: str, issued: int) -> str:
    message = _PURPOSE + nonce.encode("utf-8", "surrogatepass") + b"\x00" + str(issued).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()
