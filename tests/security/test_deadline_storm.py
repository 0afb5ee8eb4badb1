"""Work past its deadline is stopped and counted right, and one principal's heavy work delays
only that principal.

Before: a heavy verify and twenty one-quote verifies sent at once, past a 2 s deadline, left
the service answering every `/v1` call 503 "still stopping work abandoned past its deadline"
for good (requests cancelled while they waited for the verify lane were counted abandoned and
never finished); the abandoned verification ran to its end; and with one verify thread in
arrival order, bob's one-quote verify waited for every heavy verify alice had sent before it.
"""

from __future__ import annotations

import concurrent.futures
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from citeproof.server._api import WORK_THREADS
from tests.security.test_abandoned_work import abandoned
from tests.security.test_bounded_memory import fresh_source
from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line
from tests.server.test_guards_in_process import service

JSON = {"Content-Type": "application/json"}


def heavy_line(line_id: str, claims: int = 1_200, seed: int = 5) -> bytes:
    """``claims`` cited claims over one fresh 900,000-character source: seconds of claim
    support, one claim at a time (its own source each seed, so nothing is cached)."""
    source = fresh_source(seed, 900_000)
    words = source.text.split()
    pick = random.Random(seed)
    sentences = []
    for _ in range(claims):
        start = pick.randrange(0, len(words) - 12)
        sentences.append(" ".join(words[start : start + 10]).capitalize() + f" [{source.id}].")
    line: dict[str, Any] = {
        "id": line_id,
        "answer": " ".join(sentences),
        "sources": [{"id": source.id, "kind": "document", "text": source.text}],
    }
    return json.dumps(line).encode()


@pytest.fixture(scope="module")
def strict_deadline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(
        tmp_path_factory.mktemp("storm"),
        "--dev",
        limits={"deadline_seconds": 2.0, "rate_burst": 1_000, "rate_per_minute": 10_000},
    )


def test_a_deadline_storm_leaves_the_service_open(strict_deadline: Server) -> None:
    quick = body(lending_line("quick"))
    with (
        strict_deadline.client() as http,
        concurrent.futures.ThreadPoolExecutor(max_workers=21) as pool,
    ):
        for round_ in range(3):
            heavy = pool.submit(
                http.post,
                "/v1/verify",
                content=heavy_line(f"heavy-{round_}", seed=round_),
                headers=JSON,
            )
            time.sleep(0.05)
            quick_ones = [
                pool.submit(http.post, "/v1/verify", content=quick, headers=JSON) for _ in range(20)
            ]
            statuses = [f.result().status_code for f in [heavy, *quick_ones]]
            assert set(statuses) <= {200, 503}, statuses
        settled(http)
        assert abandoned(http, "started") >= 1  # the heavy work was abandoned, and ended

        after = http.post("/v1/verify", content=quick, headers=JSON)
        assert after.status_code == 200, after.text
        assert http.get("/healthz").status_code == 200


def test_abandoned_work_stops_at_its_next_claim(strict_deadline: Server) -> None:
    """The heavy answer takes far longer than its deadline; once answered 503, its thread
    stops between two claims instead of judging the rest."""
    with strict_deadline.client() as http:
        # The source is read once first (one step that cannot stop midway), so what is left
        # of the heavy answer is its claims.
        http.post("/v1/verify", content=heavy_line("warm", claims=1, seed=9), headers=JSON)
        settled(http)
        before = abandoned(http, "finished")
        late = http.post(
            "/v1/verify", content=heavy_line("late", claims=1_200, seed=9), headers=JSON
        )
        answered = time.monotonic()
        assert late.status_code == 503, late.text
        while abandoned(http, "finished") == before:
            time.sleep(0.1)
        stopped_after = time.monotonic() - answered
        # Judging the 1,200 claims takes over ten seconds; stopping takes one claim.
        assert stopped_after < 5.0, stopped_after
        assert http.get("/v1/answers/late").status_code == 404


def settled(http: httpx.Client) -> None:
    """Wait until every abandoned piece of work has ended."""
    waited_until = time.monotonic() + 120
    while abandoned(http, "started") != abandoned(http, "finished"):
        assert time.monotonic() < waited_until, "abandoned work never finished"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(
        tmp_path_factory.mktemp("shared"),
        limits={"deadline_seconds": 120.0, "rate_burst": 1_000, "rate_per_minute": 10_000},
    )


def test_one_principals_heavy_work_does_not_hold_up_another(shared: Server) -> None:
    """Alice sends three heavy answers; bob's one-quote answer, sent after them, is answered
    while alice's first is still being verified (before, it waited for all three)."""
    alice = shared.client("alice", timeout=300)
    bob = shared.client("bob", timeout=300)
    finished: dict[str, float] = {}

    def post(who: str, http: httpx.Client, content: bytes) -> int:
        response = http.post("/v1/verify", content=content, headers=JSON)
        finished[who] = time.monotonic()
        return response.status_code

    with alice, bob, concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        heavy = [
            pool.submit(post, f"alice-{n}", alice, heavy_line(f"alice-{n}", claims=60, seed=20))
            for n in range(3)
        ]
        time.sleep(1.0)  # alice's work has started
        quick = pool.submit(post, "bob", bob, body(lending_line("bob")))
        assert quick.result() == 200
        assert {f.result() for f in heavy} <= {200, 503}  # answered, in time or not
    assert finished["bob"] < min(finished[f"alice-{n}"] for n in range(3)), finished


def test_a_worker_whose_threads_stay_taken_by_abandoned_work_is_not_live(tmp_path: Path) -> None:
    """Work that never reaches a checkpoint (here the audit report, made to hang) keeps its
    thread after its 503; once every work thread is so taken for longer than a deadline,
    `/healthz` answers 503, so a liveness probe restarts the worker; when the threads end, it
    answers 200 again."""
    release = threading.Event()
    with service(tmp_path, dev=True, deadline_seconds=0.5) as running:
        running.app.state.service.audit_report = lambda: release.wait(60)

        async def storm(client: httpx.AsyncClient) -> list[int]:
            replies: list[int] = []

            async def one() -> None:
                replies.append((await client.get("/v1/audit/verify")).status_code)

            async with anyio.create_task_group() as group:
                for _ in range(WORK_THREADS):
                    group.start_soon(one)
            return replies

        try:
            assert running.call(storm) == [503] * WORK_THREADS
            time.sleep(0.6)
            stuck = running.get("/healthz")
            assert stuck.status_code == 503, stuck.text
            assert f"{WORK_THREADS} threads" in stuck.json()["detail"]
        finally:
            release.set()
        deadline = time.monotonic() + 30
        while running.get("/healthz").status_code != 200:
            assert time.monotonic() < deadline, "the worker never came back"
            time.sleep(0.1)
