"""A request past its deadline is answered 503, and its work, which goes on in a thread,
stops without writing an audit record: before, it was still appended, so a client that
retried after the 503 left two records of one request."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.security.test_bounded_memory import fresh_source
from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(
        tmp_path_factory.mktemp("abandoned"),
        "--dev",
        limits={"deadline_seconds": 2.0, "body_bytes": 8_000_000},
    )


def slow_line() -> bytes:
    """200 misquoted quotes over three fresh 1M-character sources: seconds of work."""
    sources = [fresh_source(seed) for seed in (11, 12, 13)]
    pick = random.Random(3)
    quotes = []
    for number in range(200):
        source = sources[number % 3]
        start = pick.randrange(0, len(source.text) - 200)
        words = source.text[start : start + 120].split()[1:-1]
        words[len(words) // 2] = "zzzq"
        quotes.append(f'It says "{" ".join(words)}" [S{number % 3 + 1}].')
    line = {
        "id": "slow",
        "answer": " ".join(quotes),
        "sources": [
            {"id": f"S{n + 1}", "kind": "document", "text": s.text} for n, s in enumerate(sources)
        ],
    }
    return json.dumps(line).encode()


def abandoned(http: httpx.Client, event: str) -> float:
    found = re.search(
        rf'citeproof_abandoned_work_total{{event="{event}"}} ([0-9.e+]+)', http.get("/metrics").text
    )
    return float(found.group(1)) if found else 0.0


def test_work_past_the_deadline_writes_no_record(server: Server) -> None:
    with server.client() as http:
        late = http.post("/v1/verify", content=slow_line(), headers=JSON)
        assert late.status_code == 503 and late.headers["retry-after"] == "1"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:  # wait for the thread to stop, not timing it
            if abandoned(http, "started") >= 1 and abandoned(http, "finished") >= 1:
                break
            if http.get("/readyz").json()["audit_records"]:
                break  # recorded after all: what this test is about
            time.sleep(0.5)
        assert http.get("/readyz").json()["audit_records"] == 0
        assert abandoned(http, "finished") == abandoned(http, "started") == 1
        assert http.get("/v1/answers/slow").status_code == 404

        on_time = http.post("/v1/verify", content=body(lending_line("quick")), headers=JSON)
        assert on_time.status_code == 200, on_time.text
        assert http.get("/readyz").json()["audit_records"] == 1
