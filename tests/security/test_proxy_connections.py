"""`citeproof proxy` guards its connections as `citeproof serve` does: one host holding idle
sockets past its per-client cap is refused at once, the idle ones it keeps are closed when
the header deadline passes, and a client from another loopback address is served throughout.
Before, the proxy ran plain uvicorn: an idle socket stayed open for ever."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.proxy.conftest import Proxy, start_proxy
from tests.security.test_connection_flood import closed_by_server

CAP, HEADER_SECONDS = 4, 1.0


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    folder = tmp_path_factory.mktemp("proxy-flood")
    limits = folder / "limits.json"
    limits.write_text(
        json.dumps({"connections_per_client": CAP, "header_seconds": HEADER_SECONDS}),
        encoding="utf-8",
    )
    # The upstream is never reached: only connections and /healthz are used.
    running = start_proxy("http://127.0.0.1:9", folder, "--limits", str(limits))
    yield running
    running.stop()


def test_idle_sockets_past_the_cap_are_refused_and_the_rest_time_out(proxy: Proxy) -> None:
    held = [
        socket.create_connection(("127.0.0.1", proxy.port), timeout=5 * HEADER_SECONDS)
        for _ in range(CAP)
    ]
    try:
        extra = socket.create_connection(("127.0.0.1", proxy.port), timeout=5 * HEADER_SECONDS)
        with extra:
            assert extra.recv(4096).startswith(b"HTTP/1.1 503")
        other = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=proxy.url, transport=other, timeout=10) as client:
            assert client.get("/healthz").status_code == 200
        # The idle sockets within the cap are closed by the proxy at its header deadline.
        assert all(closed_by_server(sock) for sock in held)
    finally:
        for sock in held:
            sock.close()


def test_a_busy_port_is_refused_before_the_proxy_says_it_is_serving(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        from tests.cli_runs import invoke

        code, out, err = invoke("proxy", "--upstream", "http://127.0.0.1:9", "--port", str(port))
    assert code == 1 and f"cannot listen on 127.0.0.1:{port}" in err
    assert "citeproof proxy on" not in out
