"""Real parts for the proxy tests: `citeproof proxy` as a process on a loopback port, the
embedded model's OpenAI-compatible server as one upstream, and a replay of recorded Anthropic
Messages responses (streamed and not) as the other, sent byte for byte by a small loopback
HTTP server that also keeps what each request carried."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from citeproof.providers import EmbeddedModel
from tests.conftest import require_model
from tests.server.conftest import free_port

FIXTURES = Path(__file__).parent.parent / "fixtures" / "proxy"
CITEPROOF = str(Path(sys.executable).parent / "citeproof")
START_SECONDS = 120


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def fixture_json(name: str) -> Any:
    return json.loads(fixture_bytes(name))


@dataclass
class Received:
    """What the replay server was sent: the path, the headers and the JSON body."""

    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class Replay:
    """A loopback server that answers ``POST /v1/messages`` with recorded bytes: the
    ``.sse`` recording when the request asks for a stream (event by event, flushed each
    time), the ``.json`` one otherwise; ``status``/``error`` make it answer an error;
    ``headers`` are sent with every answer."""

    messages: bytes
    stream: bytes
    status: int = 200
    error: bytes = b""
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> Replay:
        replay = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(size))
                replay.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                time.sleep(replay.delay)  # a model thinking
                if replay.status != 200:
                    self._send(replay.status, "application/json", replay.error)
                elif body.get("stream"):
                    self._stream(replay.stream)
                else:
                    self._send(200, "application/json", replay.messages)

            def _send(self, status: int, kind: str, content: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(content)))
                self.send_header("request-id", "req_replayed0001")
                self._own_headers()
                self.end_headers()
                self.wfile.write(content)

            def _stream(self, content: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream; charset=utf-8")
                self.send_header("cache-control", "no-cache")
                self.send_header("request-id", "req_replayed0002")
                self.send_header("connection", "close")
                self._own_headers()
                self.end_headers()
                for event in content.split(b"\n\n")[:-1]:
                    self.wfile.write(event + b"\n\n")
                    self.wfile.flush()
                self.close_connection = True

            def _own_headers(self) -> None:
                for name, value in replay.headers.items():
                    self.send_header(name, value)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


@dataclass
class Proxy:
    """``citeproof proxy`` in a process of its own, on a free loopback port."""

    upstream: str
    folder: Path
    args: tuple[str, ...] = ()
    process: subprocess.Popen[bytes] | None = None
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Proxy:
        self.port = free_port()
        command = [CITEPROOF, "proxy", "--upstream", self.upstream, "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, *self.args],
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / f"proxy-{self.port}.log", "ab"),  # noqa: SIM115
            env={**os.environ, "CITEPROOF_ALLOW_MODEL_REQUESTS": "0"},
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the proxy stopped at start: {self.log()[-3000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.2)
        raise RuntimeError(f"the proxy did not answer within {START_SECONDS} s")

    def log(self) -> str:
        path = self.folder / f"proxy-{self.port}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def replay() -> Iterator[Replay]:
    server = Replay(
        fixture_bytes("anthropic-messages.json"), fixture_bytes("anthropic-messages.sse")
    ).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def embedded() -> Iterator[EmbeddedModel]:
    require_model("small")
    with EmbeddedModel("small") as model:
        yield model


def start_proxy(upstream: str, folder: Path, *args: str) -> Proxy:
    return Proxy(upstream, folder, args).start()
