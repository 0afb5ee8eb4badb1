"""Auth, limits and clear errors of the service (issue 12): tokens, body and size limits,
the rate limit, the request deadline, slow clients, and a batch that survives a restart."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import CITEPROOF, Server, free_port, start_server
from tests.server.lines import body, lending_line

LIMITS = {
    "body_bytes": 200_000,
    "answer_chars": 5_000,
    "source_chars": 20_000,
    "quotes_per_answer": 3,
    "rate_per_minute": 1,
    "rate_burst": 1_000,
    "body_read_seconds": 1.0,
}


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("limited"), limits=LIMITS)


def _problem(response: httpx.Response, status: int, field: str) -> dict[str, object]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = dict(response.json())
    assert problem["field"] == field, problem
    return problem


def test_a_missing_or_wrong_token_is_rejected_F_5(limited: Server) -> None:
    with limited.client() as anonymous:
        for path in ("/v1/answers/x", "/v1/audit/verify", "/v1/batches/x"):
            missing = anonymous.get(path)
            _problem(missing, 401, "Authorization")
            assert missing.headers["www-authenticate"].startswith("Bearer")
        posted = anonymous.post("/v1/verify", content=body(lending_line()))
        _problem(posted, 401, "Authorization")
        wrong = anonymous.get("/v1/audit/verify", headers={"Authorization": "Bearer cpt_forged"})
        _problem(wrong, 401, "Authorization")
        basic = anonymous.get("/v1/audit/verify", headers={"Authorization": "Basic YTpi"})
        _problem(basic, 401, "Authorization")
        page = anonymous.get("/review")
        assert page.status_code == 401 and "Sign in" in page.text
    # The secret is never stored: only its SHA-256.
    token = limited.token("carol")
    assert token.encode() not in (limited.data / "service.db").read_bytes()


def test_dev_mode_is_refused_on_an_address_other_than_loopback_F_3(tmp_path: Path) -> None:
    run = subprocess.run(
        [CITEPROOF, "serve", "--dev", "--host", "0.0.0.0", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode != 0
    assert "--dev is for loopback addresses only" in run.stderr


def test_over_size_answers_sources_and_quotes_are_problems_naming_the_field_F_3(
    limited: Server,
) -> None:
    with limited.client("alice") as http:
        long_answer = lending_line("long", answer="word " * 2_000)
        _problem(http.post("/v1/verify", content=body(long_answer)), 413, "answer")
        big_source = lending_line("big-source")
        big_source["sources"][2]["text"] = "memo " * 5_000
        _problem(http.post("/v1/verify", content=body(big_source)), 413, "sources.2.text")
        many = lending_line(
            "many", answer=" ".join(f'"quoted words number {n}" [S1].' for n in range(4))
        )
        problem = _problem(http.post("/v1/verify", content=body(many)), 413, "answer")
        assert "4 quotes" in str(problem["detail"])


def test_an_oversized_body_is_refused_without_reading_it_whole_F_5(limited: Server) -> None:
    pid = limited.process.pid if limited.process else 0
    before = _rss_kib(pid)
    with limited.client("alice") as http:
        declared = http.post("/v1/verify", content=b"x" * 300_000)
        _problem(declared, 413, "body")

        def endless() -> Iterator[bytes]:  # chunked: no Content-Length to check up front
            for _ in range(2_000):
                yield b"y" * 65_536  # 128 MiB in all, if the server kept reading

        try:
            streamed = http.post("/v1/verify", content=endless())
        except httpx.TransportError:
            pass  # the server closed the connection after refusing: also a refusal
        else:
            _problem(streamed, 413, "body")
    assert _rss_kib(pid) - before < 64 * 1024  # far less than the 128 MiB sent


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_client_that_stops_sending_is_cut_off_and_others_are_served_F_5(limited: Server) -> None:
    token = limited.token("alice")
    with socket.create_connection(("127.0.0.1", limited.port), timeout=60) as slow:
        slow.sendall(
            b"POST /v1/verify HTTP/1.1\r\nHost: localhost\r\n"
            + f"Authorization: Bearer {token}\r\n".encode()
            + b'Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"id": '
        )
        with limited.client() as other:  # the server still answers while the body stalls
            assert other.get("/healthz").status_code == 200
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = slow.recv(4096)
            if not chunk:
                break
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]


def test_the_rate_limit_answers_429_with_retry_after_F_3(tmp_path: Path) -> None:
    for server in start_server(tmp_path, limits={"rate_per_minute": 1, "rate_burst": 3}):
        with server.client("dave") as http:
            statuses = [http.get("/v1/audit/verify").status_code for _ in range(4)]
            assert statuses[:3] == [200, 200, 200]
            limited = http.get("/v1/audit/verify")
            _problem(limited, 429, "Authorization")
            assert int(limited.headers["retry-after"]) >= 1
        with server.client("erin") as other:  # per principal: others are not held back
            assert other.get("/v1/audit/verify").status_code == 200


def test_a_request_past_its_deadline_gets_503_at_once_F_3(tmp_path: Path) -> None:
    for server in start_server(tmp_path, limits={"deadline_seconds": 0.001}):
        with server.client("alice") as http:
            response = http.post("/v1/verify", content=body(lending_line("late")))
            assert response.status_code == 503
            assert response.json()["title"] == "Deadline exceeded"
            assert http.get("/healthz").status_code == 200


def test_a_batch_survives_a_killed_server_and_resumes_F_3(tmp_path: Path) -> None:
    count = 120
    lines = [body(lending_line(f"resume-{n}")) for n in range(count)]
    server = Server(tmp_path / "data", free_port())
    server.data.mkdir()
    server.start()
    try:
        with server.client("alice") as http:
            created = http.post("/v1/batches", content=b"\n".join(lines))
            batch_id = created.json()["id"]
            for _ in range(600):
                if http.get(f"/v1/batches/{batch_id}").json()["done"] >= 3:
                    break
                time.sleep(0.05)
        server.stop(kill=True)  # no clean shutdown: the lease is left to run out
        interrupted = server.state().batch("alice", batch_id)
        assert interrupted is not None and 3 <= interrupted.done < count
        server.port = free_port()
        server.start()
        with server.client("alice") as http:
            for _ in range(1200):
                info = http.get(f"/v1/batches/{batch_id}").json()
                if info["status"] == "done":
                    break
                time.sleep(0.1)
            assert info["status"] == "done" and info["done"] == count and info["failed"] == 0
            results = http.get(f"/v1/batches/{batch_id}/results").text.splitlines()
            ids = [httpx.Response(200, content=line).json()["id"] for line in results]
            assert ids == [f"resume-{n}" for n in range(count)]
    finally:
        server.stop()
    assert os.path.exists(server.data / "service.db")
