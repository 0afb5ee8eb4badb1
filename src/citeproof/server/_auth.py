"""Who is calling: a bearer token's principal (or ``dev`` with ``--dev`` on loopback), and a
per-principal rate limit."""

from __future__ import annotations

import time

from starlette.requests import Request

from citeproof.server._problems import Problem
from citeproof.server._rate import RateBuckets
from citeproof.server._state import ServiceState

DEV_PRINCIPAL = "dev"
REVIEW_COOKIE = "citeproof_token"


class RateLimiter:
    """A token bucket per principal: ``burst`` requests at once, refilled at ``per_minute``.
    The buckets are in the service database (`RateBuckets`), so the limit holds across every
    worker process of a data folder and every host of one PostgreSQL."""

    def __init__(self, per_minute: int, burst: int, buckets: RateBuckets) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.buckets = buckets

    def take(self, principal: str) -> None:
        """Spend one request of ``principal``'s allowance, or raise a 429 `Problem`."""
        taken = self.buckets.take(
            principal, now=time.time(), per_second=self.rate, burst=self.burst
        )
        if not taken.granted:
            wait = max(1, int((1.0 - taken.tokens) / self.rate + 0.999))
            raise Problem(
                429,
                "Too many requests",
                f"over {int(self.rate * 60)} requests a minute for {principal!r}",
                field="Authorization",
                headers={"Retry-After": str(wait)},
            )


class Authenticator:
    """Turns a request into its principal, or a 401 `Problem`."""

    def __init__(self, state: ServiceState, limiter: RateLimiter, *, dev: bool) -> None:
        self.state = state
        self.limiter = limiter
        self.dev = dev

    def principal(self, request: Request, *, cookie: bool = False) -> str:
        """The caller's principal from ``Authorization: Bearer`` (or, for the review pages,
        the login cookie); ``dev`` without one in dev mode. A token's principal counts
        against the rate limit; ``dev`` (loopback only, a developer's own calls) does not."""
        secret = _bearer(request)
        if secret is None and cookie:
            secret = request.cookies.get(REVIEW_COOKIE)
        if secret is None:
            if self.dev:
                return DEV_PRINCIPAL
            raise Problem(
                401,
                "Unauthorized",
                "send Authorization: Bearer TOKEN (made with `citeproof token add`)",
                field="Authorization",
                headers={"WWW-Authenticate": 'Bearer realm="citeproof"'},
            )
        principal = self.state.principal_for(secret)
        if principal is None:
            raise Problem(
                401,
                "Unauthorized",
                "the token is not known (or was replaced)",
                field="Authorization",
                headers={"WWW-Authenticate": 'Bearer realm="citeproof", error="invalid_token"'},
            )
        self.limiter.take(principal)
        return principal


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise Problem(
            401,
            "Unauthorized",
            "the Authorization header must be 'Bearer TOKEN'",
            field="Authorization",
            headers={"WWW-Authenticate": 'Bearer realm="citeproof"'},
        )
    return value.strip()
