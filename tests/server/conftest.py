"""A real `citeproof serve` process on a free loopback port, for the service tests.

Each `Server` is started with the CLI, waited for on ``/healthz`` and stopped at the end of
its test module (or test). The data folder is the test's own; the audit log is SQLite unless
a PostgreSQL URL is given.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from citeproof.server import ServiceState
from citeproof.testing._sockets import listening_sockets

CITEPROOF = str(Path(sys.executable).parent / "citeproof")
START_SECONDS = 180  # a loaded machine with several workers starts slowly


BIND_TRIES = 5


class PortTaken(RuntimeError):
    """The server could not bind its port: something else took it first."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    data: Path
    port: int
    args: tuple[str, ...] = ()
    limits: Mapping[str, Any] | None = None
    process: subprocess.Popen[bytes] | None = None
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        """Start the server and wait until it answers. A port that `free_port` found free can
        be taken before the server binds it (by another test's outgoing connection, which
        draws from the same range): then the server starts again on another port."""
        for _ in range(BIND_TRIES - 1):
            try:
                return self._start_once()
            except PortTaken:
                self.port = free_port()
        return self._start_once()

    def _start_once(self) -> Server:
        command = [CITEPROOF, "serve", "--port", str(self.port), "--data", str(self.data)]
        if self.limits:
            path = self.data.with_name(self.data.name + "-limits.json")
            path.write_text(json.dumps(dict(self.limits)), encoding="utf-8")
            command += ["--limits", str(path)]
        logged = len(self.log())
        self.process = subprocess.Popen(
            [*command, *self.args],
            stdout=subprocess.DEVNULL,
            stderr=open(self.data.with_name(self.data.name + "-server.log"), "ab"),  # noqa: SIM115
            env={**os.environ, "CITEPROOF_ALLOW_MODEL_REQUESTS": "0"},
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = self.log()[logged:]
                if "address already in use" in said.lower():
                    raise PortTaken(said)
                raise RuntimeError(f"the server stopped at start: {said[-3000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200 and (
                    self.workers == 1 or listening_sockets(self.port) >= self.workers
                ):
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server did not answer within {START_SECONDS} s")

    @property
    def workers(self) -> int:
        """The worker processes that listen on the port once all have started: each its own
        socket on Linux (SO_REUSEPORT); elsewhere they share the parent's one."""
        if "--workers" not in self.args or not sys.platform.startswith("linux"):
            return 1
        return int(self.args[self.args.index("--workers") + 1])

    def log(self) -> str:
        path = self.data.with_name(self.data.name + "-server.log")
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self, *, kill: bool = False) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def token(self, name: str) -> str:
        """A bearer token for principal ``name`` (made once, through the CLI)."""
        if name not in self.tokens:
            run = subprocess.run(
                [CITEPROOF, "token", "add", name, "--data", str(self.data)],
                capture_output=True,
                text=True,
                check=True,
            )
            self.tokens[name] = run.stdout.strip()
        return self.tokens[name]

    def client(self, name: str | None = None, **settings: Any) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.token(name)}"} if name else {}
        return httpx.Client(base_url=self.url, headers=headers, **{"timeout": 60, **settings})

    def state(self) -> ServiceState:
        return ServiceState(self.data / "service.db")


def start_server(
    folder: Path, *args: str, limits: Mapping[str, Any] | None = None
) -> Iterator[Server]:
    folder.mkdir(parents=True, exist_ok=True)
    server = Server(folder / "data", free_port(), tuple(args), limits)
    server.data.mkdir()
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with tokens required and the extractive provider behind /v1/ask."""
    yield from start_server(tmp_path_factory.mktemp("serve"), "--provider", "extractive")
