"""The reverse-proxy configuration the docs ship (docs/nginx.conf), run in real nginx in front
of a real `citeproof serve`, under the flood that shut every other client out: 20 loopback
addresses (127.0.0.2 to 127.0.0.21) each holding 64 connections that send half a request.
Each address stays under the service's per-client cap, but together they hold more
connections than a worker takes (``concurrency``), so sent straight to the service every other
client gets 503 until their header deadline passes. Through nginx the flood costs nginx only:
another client is served while the flood's connections are still held.

nginx runs as the test's user from a folder of the test's own (``-p``: its pid file, logs and
temporary files there, ``daemon off``). Without nginx the test is skipped with a message,
unless ``CITEPROOF_REQUIRE_NGINX=1`` (`.ci/run`), where it fails."""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from citeproof.server import Limits
from tests.conftest import skip_unless_required
from tests.server.conftest import Server, free_port, start_server
from tests.server.lines import body, lending_line

pytestmark = pytest.mark.slow

CONFIG = Path(__file__).resolve().parents[2] / "docs" / "nginx.conf"
SERVICE_NAME = "citeproof.example.org"
SERVICE_LIMITS = {"connections_per_client": 1000}  # as docs/nginx.conf says to run it
FLOOD_ADDRESSES = [f"127.0.0.{n}" for n in range(2, 22)]
PER_ADDRESS = 64
CLIENT_ADDRESS = "127.0.0.100"
START_SECONDS = 30


def nginx_binary() -> str:
    found = shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/sbin/nginx") if os.access(path, os.X_OK)), None
    )
    if found is None:
        skip_unless_required("NGINX", "nginx is not installed (apt-get install nginx-light)")
    return found


def site_config(serve_port: int, listen_port: int) -> str:
    """docs/nginx.conf as it runs here: plain HTTP on a loopback port instead of TLS on 443
    (the certificate lines left out), the upstreams on the test's ports. Each change must
    match the shipped file, so the test runs that file and no other."""
    text = CONFIG.read_text(encoding="utf-8")
    changes = [
        (r"(?m)^\s*listen \[::\]:443 ssl( default_server)?;\n", "", 3),
        (r"listen 443 ssl( default_server)?;", rf"listen 127.0.0.1:{listen_port}\1;", 3),
        (r"(?m)^\s*ssl_[a-z_]+ [^;]+;\n", "", 5),
        (r"server 127\.0\.0\.1:8765;", f"server 127.0.0.1:{serve_port};", 1),
        (r"server 127\.0\.0\.1:8766;", f"server 127.0.0.1:{free_port()};", 1),
    ]
    for pattern, replacement, count in changes:
        text, made = re.subn(pattern, replacement, text)
        assert made == count, f"docs/nginx.conf: expected {count} of {pattern!r}, found {made}"
    return text


def main_config(folder: Path, site: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf gives the site, in ``folder`` and as this user."""
    user = ""
    if os.geteuid() == 0:  # only root may name a user; the workers would otherwise be nobody
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};"
    return f"""
{user}
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 8192;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {site};
}}
"""


@dataclass
class Nginx:
    port: int
    process: subprocess.Popen[bytes]
    folder: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    nginx_binary()  # skip before starting anything
    yield from start_server(tmp_path_factory.mktemp("behind-nginx"), limits=SERVICE_LIMITS)


@pytest.fixture(scope="module")
def nginx(service: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    binary = nginx_binary()
    folder = tmp_path_factory.mktemp("nginx")
    port = free_port()
    site = folder / "citeproof.conf"
    site.write_text(site_config(service.port, port), encoding="utf-8")
    (folder / "nginx.conf").write_text(main_config(folder, site), encoding="utf-8")
    command = [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr"]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, f"nginx -t refused docs/nginx.conf: {checked.stderr}"
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "error.log", "ab"),  # noqa: SIM115
    )
    running = Nginx(port, process, folder)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert process.poll() is None, f"nginx stopped at start: {running.log()[-3000:]}"
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert time.monotonic() < deadline, f"nginx did not listen within {START_SECONDS} s"
            time.sleep(0.1)
        yield running
    finally:
        process.send_signal(signal.SIGQUIT)  # graceful: the master stops its worker
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def flood(port: int) -> list[socket.socket]:
    """64 connections from each of the 20 addresses, each sending half a request (the line and
    one header, never the blank line that ends them)."""
    sockets = []
    try:
        for address in FLOOD_ADDRESSES:
            for _ in range(PER_ADDRESS):
                sock = socket.create_connection(
                    ("127.0.0.1", port), timeout=10, source_address=(address, 0)
                )
                sockets.append(sock)
                sock.sendall(b"POST /v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def still_held(sockets: list[socket.socket]) -> int:
    """How many of ``sockets`` are open with nothing answered on them."""
    held = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            sock.recv(1)
        except BlockingIOError:
            held += 1
        except OSError:
            pass
    return held


def client(base_url: str, token: str, host: str) -> httpx.Client:
    """Another client, from an address of its own."""
    return httpx.Client(
        base_url=base_url,
        headers={"Authorization": f"Bearer {token}", "Host": host},
        transport=httpx.HTTPTransport(local_address=CLIENT_ADDRESS),
        timeout=30,
    )


def test_another_client_is_served_through_nginx_while_many_addresses_flood_it(
    service: Server, nginx: Nginx
) -> None:
    token = service.token("alice")
    sockets = flood(nginx.port)
    try:
        with client(nginx.url, token, SERVICE_NAME) as other:
            assert other.get("/healthz").status_code == 200
            verified = other.post("/v1/verify", content=body(lending_line("behind-nginx")))
            assert verified.status_code == 200, verified.text
            assert verified.json()["id"] == "behind-nginx"
        # It was served while the flood still held more connections than the service
        # takes: nginx held them, and the service never saw them.
        assert still_held(sockets) > Limits().concurrency
    finally:
        for sock in sockets:
            sock.close()


def test_the_same_flood_sent_straight_to_the_service_shuts_the_other_client_out(
    service: Server, nginx: Nginx
) -> None:
    """What nginx is there for: without it this flood takes every connection the service
    takes, and the other client is refused until the flood's header deadline passes."""
    sockets = flood(service.port)
    try:
        with client(service.url, service.token("alice"), f"127.0.0.1:{service.port}") as other:
            refused = other.get("/healthz")
        assert refused.status_code == 503
    finally:
        for sock in sockets:
            sock.close()
    with client(service.url, service.token("alice"), f"127.0.0.1:{service.port}") as other:
        deadline = time.monotonic() + 3 * Limits().header_seconds  # a bounded wait
        while other.get("/healthz").status_code != 200:
            assert time.monotonic() < deadline, "the service did not recover from the flood"
            time.sleep(0.2)


def test_a_host_name_that_is_not_the_services_gets_nothing(nginx: Nginx) -> None:
    with pytest.raises(httpx.RemoteProtocolError), httpx.Client(timeout=10) as http:
        http.get(nginx.url + "/healthz", headers={"Host": "rebound.attacker.example"})
