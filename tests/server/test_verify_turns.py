"""A worker verifies one answer at a time, in arrival order (`citeproof.server._api`): answers
verified side by side would only take the interpreter lock from each other. The real
application in the test's own process, through httpx's ASGI transport; the service's own
`verify_body` is wrapped to note when each answer's verification starts and ends."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import httpx

from tests.server.lines import body, lending_line
from tests.server.test_guards_in_process import service


def test_answers_are_verified_one_at_a_time_in_arrival_order(tmp_path: Path) -> None:
    with service(tmp_path, body_bytes=200_000) as running:
        work = running.app.state.service
        real: Callable[..., dict[str, Any]] = work.verify_body
        spans: dict[str, tuple[float, float]] = {}
        lock = threading.Lock()

        def noted(raw: bytes, principal: str, **settings: Any) -> dict[str, Any]:
            started = time.monotonic()
            if b'"first"' in raw:
                time.sleep(0.5)  # long enough for the others to arrive meanwhile
            record = real(raw, principal, **settings)
            with lock:
                spans[str(record["id"])] = (started, time.monotonic())
            return record

        work.verify_body = noted
        headers = running.bearer("alice")
        statuses: dict[str, int] = {}

        async def talk(client: httpx.AsyncClient) -> None:
            async def send(answer_id: str) -> None:
                content = body(lending_line(answer_id))
                response = await client.post("/v1/verify", content=content, headers=headers)
                statuses[answer_id] = response.status_code

            async with anyio.create_task_group() as group:
                for answer_id in ("first", "second", "third"):
                    group.start_soon(send, answer_id)
                    await anyio.sleep(0.05)

        running.call(talk)
    assert statuses == {"first": 200, "second": 200, "third": 200}
    order = sorted(spans, key=lambda answer_id: spans[answer_id][0])
    assert order == ["first", "second", "third"]
    for before, after in itertools.pairwise(order):
        assert spans[after][0] >= spans[before][1], f"{after} began before {before} ended"
