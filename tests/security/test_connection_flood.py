"""One host opening a thousand idle sockets and a hundred slowloris ones against a real
`citeproof serve` on loopback: before, every other client got 503 until they closed. Now the
flood costs its sender: past its cap its connections are refused at once, the rest are closed
when their header deadline passes, and a client from another address is served throughout.

Loopback has every 127.x.y.z address: the attacker connects from 127.0.0.1, the other client
from 127.0.0.2."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from citeproof.server import Limits
from tests.server.conftest import Server, start_server

IDLE, SLOW = 1_000, 100
CAP = Limits().connections_per_client
HEADER_SECONDS = Limits().header_seconds


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The defaults: what a plain `citeproof serve --dev` does."""
    yield from start_server(tmp_path_factory.mktemp("flood"), "--dev")


def attacker_socket(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=3 * HEADER_SECONDS)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (or refused it with a 503), waiting up to its
    socket timeout for that."""
    try:
        data = sock.recv(4096)
        while data and b"\r\n\r\n" not in data:
            data += sock.recv(4096)
        return data == b"" or data.startswith(b"HTTP/1.1 503")
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def test_idle_and_slowloris_sockets_from_one_host_do_not_shut_out_another_client(
    server: Server,
) -> None:
    sockets: list[socket.socket] = []
    try:
        for _ in range(IDLE):
            sockets.append(attacker_socket(server))
        slow = []
        for _ in range(SLOW):
            sock = attacker_socket(server)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(sock)
        sockets += slow

        other = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=server.url, transport=other, timeout=30) as client:
            for _ in range(5):
                reply = client.get("/healthz")
                assert reply.status_code == 200, reply.text
            # The slowloris connections keep trickling header bytes: it changes nothing.
            for step in range(3):
                for sock in slow:
                    with contextlib.suppress(OSError):  # closed already: fine
                        sock.sendall(f"X-{step}: y\r\n".encode())
                assert client.get("/healthz").status_code == 200
                time.sleep(HEADER_SECONDS / 3)

        # Every attacker socket ends up closed by the server: at once past the cap, the rest
        # when their header deadline passes (a bounded wait, not a timing).
        assert all(closed_by_server(sock) for sock in sockets)
    finally:
        for sock in sockets:
            sock.close()


def test_a_client_under_its_cap_is_served_as_before(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for _ in range(3):
            assert client.get("/healthz").status_code == 200
        held = [attacker_socket(server) for _ in range(CAP - 8)]
        try:
            assert client.get("/healthz").status_code == 200
        finally:
            for sock in held:
                sock.close()


def test_a_keep_alive_connection_trickling_its_next_request_is_closed(server: Server) -> None:
    """The header deadline starts again after each response: the keep-alive timeout alone
    was reset by every byte, so a connection could trickle its second request for ever."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while b'"ok"' not in answer:
            answer += sock.recv(4096)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sock.settimeout(0.5)
        closed = False
        for _ in range(int(3 * HEADER_SECONDS / 0.5)):  # a bounded wait, not a timing
            try:
                sock.sendall(b"X-Slow: y\r\n")
                closed = sock.recv(4096) == b""
            except TimeoutError:
                continue
            except (ConnectionResetError, BrokenPipeError):
                closed = True
            if closed:
                break
        assert closed
