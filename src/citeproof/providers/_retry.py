"""Retries for model calls: only what may succeed next time, always within the deadline.

Connection errors, HTTP 429 and 5xx are retried with exponential backoff and jitter, or after
the server's ``Retry-After`` when it sends one. Anything else (a bad key, an unknown model, a
rejected request) fails at once. The clock, the sleep and the random source are parameters so
tests run without waiting.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import TypeVar

from citeproof.errors import ProviderError, ProviderTimeout
from citeproof.providers._base import RETRYABLE

T = TypeVar("T")
log = logging.getLogger("citeproof.providers")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to retry.

    ``attempts`` counts the first request. The n-th wait is ``first_delay * multiplier**(n-1)``
    capped at ``max_delay``, of which the last ``jitter`` fraction is random. A server's
    ``Retry-After`` replaces the computed wait; one longer than ``max_retry_after`` is not waited
    for, and the error is raised instead.
    """

    attempts: int = 4
    first_delay: float = 0.5
    multiplier: float = 2.0
    max_delay: float = 20.0
    jitter: float = 0.5
    max_retry_after: float = 60.0

    def backoff(self, retry: int, rng: random.Random) -> float:
        """The wait before retry number ``retry`` (1-based) when the server named none."""
        base = min(self.max_delay, self.first_delay * self.multiplier ** (retry - 1))
        return base * (1.0 - self.jitter) + base * self.jitter * rng.random()


DEFAULT_RETRY = RetryPolicy()
NO_RETRIES = RetryPolicy(attempts=1)


def call_with_retries(
    call: Callable[[float | None], T],
    *,
    deadline: float | None,
    policy: RetryPolicy = DEFAULT_RETRY,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> tuple[T, int]:
    """Run ``call(timeout)`` until it succeeds; return its result and the attempts made.

    ``timeout`` is the seconds left before ``deadline`` (a ``clock()`` time), or None without
    one. Raises `ProviderTimeout` when the deadline has passed or the next wait would pass it,
    chained to the last error; the last error itself once the attempts are spent.
    """
    rng = rng or random.Random()
    attempt = 0
    while True:
        attempt += 1
        remaining = None if deadline is None else deadline - clock()
        if remaining is not None and remaining <= 0:
            raise ProviderTimeout(f"the deadline passed before attempt {attempt}")
        try:
            return call(remaining), attempt
        except ProviderError as error:
            if not isinstance(error, RETRYABLE) or attempt >= policy.attempts:
                raise
            wait = _wait(error, attempt, policy, rng)
            if wait is None:
                raise
            if deadline is not None and clock() + wait >= deadline:
                raise ProviderTimeout(
                    f"gave up after {attempt} attempt(s): waiting {wait:.1f}s more would pass "
                    f"the deadline; last error: {error}",
                    provider=error.provider,
                    model=error.model,
                ) from error
            log.warning("retrying in %.2fs after attempt %d: %s", wait, attempt, error)
            sleep(wait)


def _wait(
    error: ProviderError, attempt: int, policy: RetryPolicy, rng: random.Random
) -> float | None:
    if error.retry_after is None:
        return policy.backoff(attempt, rng)
    if error.retry_after > policy.max_retry_after:
        return None
    return max(0.0, error.retry_after)


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value: delta-seconds or an HTTP date.

    ``now`` is the current Unix time (defaults to `time.time()`). Returns None for a missing or
    unreadable value; a date in the past gives 0.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # "-0000": RFC 9110 dates are GMT anyway
            when = when.replace(tzinfo=UTC)
        seconds = when.timestamp() - (time.time() if now is None else now)
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


def retry_after_from_headers(
    headers: Mapping[str, str], *, now: float | None = None
) -> float | None:
    """The wait a response asks for: ``retry-after-ms`` (OpenAI) first, then ``Retry-After``."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        seconds = parse_retry_after(millis)
        if seconds is not None:
            return seconds / 1000.0
    return parse_retry_after(headers.get("retry-after"), now=now)
