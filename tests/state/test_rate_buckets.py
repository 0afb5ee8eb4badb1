"""The rate limit's buckets in the service database (issue 48 §3), on SQLite and PostgreSQL:
one bucket per principal, refilled to the time of each request and never past the burst; two
"hosts" (two engines of one database, each with threads of its own) spending one principal's
bucket at once are never granted more than the burst plus the refill."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from citeproof.database import Engine, is_database_url, shown_url
from citeproof.server import ServiceState
from citeproof.server._rate import RateBuckets

HOSTS = 2
THREADS = 4  # per host
RATE = 10.0  # a second
BURST = 12


def host(target: str) -> RateBuckets:
    """The buckets as one more host sees them: an engine of its own (its own connections),
    not the one `open_engine` shares within a process."""
    engine: Engine
    if is_database_url(target):
        from citeproof.database._postgres import PostgresEngine

        engine = PostgresEngine(target, shown_url(target))
    else:
        from citeproof.database._sqlite import SQLiteEngine

        engine = SQLiteEngine(Path(target))
    return RateBuckets(engine)


def test_a_bucket_gives_its_burst_refills_with_time_and_never_past_the_burst(
    target: str,
) -> None:
    ServiceState(target)  # the schema
    buckets = host(target)

    def take(who: str, now: float) -> tuple[bool, float]:
        taken = buckets.take(who, now=now, per_second=0.25, burst=3)
        return taken.granted, round(taken.tokens, 6)

    assert [take("dave", 1_000.0) for _ in range(4)] == [
        (True, 2.0),
        (True, 1.0),
        (True, 0.0),
        (False, 0.0),  # the level a 429's Retry-After is counted from
    ]
    assert take("dave", 1_002.0) == (False, 0.5)  # a refused request spends nothing
    assert take("dave", 1_004.0) == (True, 0.0)
    assert take("erin", 1_004.0) == (True, 2.0)  # per principal
    assert [take("dave", 10_000.0)[0] for _ in range(4)] == [True, True, True, False]


def test_a_clock_behind_refills_nothing_and_the_stamp_only_moves_forward(target: str) -> None:
    ServiceState(target)
    ahead, behind = host(target), host(target)
    for _ in range(2):
        assert ahead.take("dave", now=1_000.0, per_second=1.0, burst=2).granted
    assert not behind.take("dave", now=970.0, per_second=1.0, burst=2).granted
    assert not ahead.take("dave", now=1_000.5, per_second=1.0, burst=2).granted
    assert ahead.take("dave", now=1_001.0, per_second=1.0, burst=2).granted  # 1 s of refill
    assert not behind.take("dave", now=975.0, per_second=1.0, burst=2).granted


def spend_at_once(target: str, spend: int, clock: Callable[[], float]) -> tuple[int, int]:
    """Every thread of every host spends ``spend`` requests of ``dave``'s bucket at once;
    returns (granted, refused)."""
    hosts = [host(target) for _ in range(HOSTS)]
    start = threading.Barrier(HOSTS * THREADS)

    def spender(buckets: RateBuckets) -> list[bool]:
        start.wait()
        return [
            buckets.take("dave", now=clock(), per_second=RATE, burst=BURST).granted
            for _ in range(spend)
        ]

    with ThreadPoolExecutor(HOSTS * THREADS) as pool:
        runs = [pool.submit(spender, hosts[n % HOSTS]) for n in range(HOSTS * THREADS)]
        results = [granted for run in runs for granted in run.result()]
    return sum(results), len(results) - sum(results)


def test_two_hosts_spending_one_bucket_at_once_get_exactly_the_burst(target: str) -> None:
    ServiceState(target)
    granted, refused = spend_at_once(target, 10, lambda: 5_000.0)  # no time passes
    assert (granted, refused) == (BURST, HOSTS * THREADS * 10 - BURST)


def test_two_hosts_spending_one_bucket_at_once_get_no_more_than_burst_and_refill(
    target: str,
) -> None:
    ServiceState(target)
    began = time.time()
    granted, refused = spend_at_once(target, 40, time.time)
    refill = (time.time() - began) * RATE
    assert refused > 0
    assert BURST <= granted <= BURST + int(refill) + 1, (granted, refill)
