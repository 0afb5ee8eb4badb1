"""The rate limit holds across hosts (issue 48 §3): two real `citeproof serve` processes with
separate data folders on one PostgreSQL share each principal's token bucket, so a principal
with ``rate_burst`` N gets N requests in total, whichever hosts answer them, then 429 with
``Retry-After`` from either.

Skipped with a message without PostgreSQL (CITEPROOF_PG_URL); a failure in CI, where `.ci/run`
sets CITEPROOF_REQUIRE_PG=1."""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import PgSchemas
from tests.server.conftest import CITEPROOF, Server, free_port

BURST = 5
LIMITS = {"rate_per_minute": 1, "rate_burst": BURST}  # no refill within the test's minute
PATH = "/v1/audit/verify"


@pytest.fixture(scope="module")
def two_hosts(
    tmp_path_factory: pytest.TempPathFactory, pg_schemas: PgSchemas
) -> Iterator[tuple[str, list[Server]]]:
    _, url = pg_schemas.new()
    folder = tmp_path_factory.mktemp("rate")
    hosts = []
    for name in ("a", "b"):
        (folder / name).mkdir()
        hosts.append(Server(folder / name, free_port(), ("--database", url), limits=LIMITS))
    try:
        for one in hosts:
            one.start()
        yield url, hosts
    finally:
        for one in hosts:
            one.stop()


def token(url: str, name: str) -> dict[str, str]:
    secret = subprocess.run(
        [CITEPROOF, "token", "add", name, "--database", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return {"Authorization": f"Bearer {secret}"}


def test_a_burst_is_spent_across_both_hosts_then_either_answers_429(
    two_hosts: tuple[str, list[Server]],
) -> None:
    url, (a, b) = two_hosts
    dave = token(url, "dave")
    spent = [httpx.get(host.url + PATH, headers=dave, timeout=60) for host in (a, b, a, b, a)]
    assert [response.status_code for response in spent] == [200] * BURST
    for host in (a, b):
        refused = httpx.get(host.url + PATH, headers=dave, timeout=60)
        assert refused.status_code == 429, (host.url, refused.text)
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["detail"] == "over 1 requests a minute for 'dave'"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
    # Another principal's bucket is its own, on either host.
    assert httpx.get(b.url + PATH, headers=token(url, "erin"), timeout=60).status_code == 200


def test_requests_at_once_through_both_hosts_get_the_burst_in_total(
    two_hosts: tuple[str, list[Server]],
) -> None:
    url, hosts = two_hosts
    frank = token(url, "frank")

    def call(n: int) -> tuple[str, int]:
        host = hosts[n % 2]
        return host.url, httpx.get(host.url + PATH, headers=frank, timeout=60).status_code

    with ThreadPoolExecutor(8) as pool:
        answered = list(pool.map(call, range(8 * BURST)))
    assert Counter(status for _, status in answered) == {200: BURST, 429: 7 * BURST}
    assert {where for where, status in answered if status == 429} == {h.url for h in hosts}
