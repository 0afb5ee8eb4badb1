"""Several worker processes share the service's databases safely (issue 12)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line

pytestmark = pytest.mark.slow


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[Server]:
    yield from start_server(tmp_path, "--workers", "2")


def _post(server: Server, number: int) -> int:
    with server.client("alice") as http:
        response = http.post("/v1/verify", content=body(lending_line(f"w-{number}")))
        return response.status_code


def test_two_workers_append_to_one_intact_audit_log_and_share_tokens_F_3(
    two_workers: Server,
) -> None:
    two_workers.token("alice")  # made after the start: both workers read the same table
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda n: _post(two_workers, n), range(24)))
    assert statuses == [200] * 24
    with two_workers.client("alice") as http:
        report = http.get("/v1/audit/verify").json()
        assert report["ok"] is True and report["records"] == 24
        for number in range(24):
            assert http.get(f"/v1/answers/w-{number}").status_code == 200


def test_metrics_from_any_worker_count_every_workers_requests_F_3(two_workers: Server) -> None:
    """Connections are spread over the workers; /metrics still counts all of them."""
    two_workers.token("alice")
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda n: _post(two_workers, n), range(24)))
    assert statuses == [200] * 24
    wanted = 'citeproof_http_requests_total{method="POST",route="/v1/verify",status="200"} 24.0'
    for _ in range(4):  # each on a new connection, so on either worker
        with two_workers.client("alice") as http:
            assert wanted in http.get("/metrics").text.splitlines()
