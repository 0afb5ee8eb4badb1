"""A request body has a deadline as a whole, and the caller is known before it is read.

Before: `POST /v1/verify` with ``Content-Length: 100000``, no token, one byte every 9 s was
still open at 99 s with no reply: the timer was per chunk, and the token was read after the
body. The proxy, behind the same edge, did the same.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.proxy.conftest import Replay, fixture_bytes, start_proxy
from tests.server.conftest import Server, start_server

LIMITS = {"body_read_seconds": 2.0, "body_seconds": 3.0}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("bodies"), limits=LIMITS)


def trickle(port: int, head: bytes, *, every: float = 0.5, most: int = 60) -> bytes:
    """Send ``head`` and then a body one byte every ``every`` seconds (declaring 100,000),
    until the server answers or ``most`` bytes went: the reply, and what was sent by then."""
    reply = b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(head)
        answered = threading.Event()

        def read() -> None:
            nonlocal reply
            try:
                while not _whole(reply):
                    chunk = connection.recv(4096)
                    if not chunk:
                        break
                    reply += chunk
            finally:
                answered.set()

        reader = threading.Thread(target=read)
        reader.start()
        sent = 0
        while sent < most and not answered.is_set():
            try:
                connection.sendall(b" ")
            except OSError:
                break  # closed by the server
            sent += 1
            answered.wait(every)
        reader.join(timeout=30)
    return reply


def _whole(reply: bytes) -> bool:
    """Whether ``reply`` holds a response's head and all of its body."""
    head, found, rest = reply.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(rest) >= int(value)
    return True


def head(extra: str = "") -> bytes:
    return (
        "POST /v1/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        f"Content-Length: 100000\r\n{extra}\r\n"
    ).encode()


def test_a_caller_without_a_token_is_refused_before_its_body(server: Server) -> None:
    reply = trickle(server.port, head())
    assert reply.startswith(b"HTTP/1.1 401"), reply[:200]
    assert b"send Authorization: Bearer TOKEN" in reply


def test_a_body_that_trickles_in_is_cut_off_at_its_deadline(server: Server) -> None:
    token = server.token("alice")
    reply = trickle(server.port, head(f"Authorization: Bearer {token}\r\n"))
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert b"whole request body did not arrive within 3 s" in reply


def test_a_wrong_token_is_refused_before_its_body(server: Server) -> None:
    reply = trickle(server.port, head("Authorization: Bearer cpt_not-a-token\r\n"))
    assert reply.startswith(b"HTTP/1.1 401"), reply[:200]


def test_the_proxy_cuts_off_a_body_that_trickles_in(tmp_path: Path) -> None:
    upstream = Replay(
        fixture_bytes("anthropic-messages.json"), fixture_bytes("anthropic-messages.sse")
    ).start()
    limits = tmp_path / "limits.json"
    limits.write_text(json.dumps(LIMITS), encoding="utf-8")
    proxy = start_proxy(upstream.url, tmp_path, "--limits", str(limits))
    try:
        head = (
            b"POST /v1/messages HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000\r\n\r\n"
        )
        reply = trickle(proxy.port, head)
    finally:
        proxy.stop()
        upstream.stop()
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert b"whole request body did not arrive within 3 s" in reply
