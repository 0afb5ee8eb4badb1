"""The deployment of docs/deploy.md, run (issue 48 §5): one PostgreSQL, two `citeproof serve`
hosts with separate data folders (two processes on one machine stand for two machines), and
docs/nginx.conf in front with both hosts in its upstream. Through nginx and through each host
directly: a token added once works on both; a source uploaded through one is cited through
the other; readers changed on one are revoked on the other at once; an answer verified on one
is in the other's review list and proved by its proof endpoint; both append to one audit log
whose chain verifies. (A batch surviving its host's SIGKILL: tests/server/test_shared_batches.py.)

Skipped with a message without PostgreSQL (CITEPROOF_PG_URL) or nginx; a failure in CI, where
`.ci/run` sets CITEPROOF_REQUIRE_PG=1 and CITEPROOF_REQUIRE_NGINX=1."""

from __future__ import annotations

import contextlib
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citeproof.audit import load_public_key, verify_proof
from tests.conftest import PgSchemas
from tests.security.test_nginx_front import (
    SERVICE_LIMITS,
    SERVICE_NAME,
    main_config,
    nginx_binary,
    site_config,
)
from tests.server.conftest import CITEPROOF, Server, free_port
from tests.server.lines import body, lending_line

MEMO = b"Underwriting memo.\n\nThe Hartley loan-to-value is 83%.\n"
QUESTION = {"question": "What is the Hartley loan-to-value?"}


def two_host_site(ports: tuple[int, int], listen_port: int) -> str:
    """docs/nginx.conf as the tests run it (`site_config`), its ``citeproof_serve`` upstream
    listing both hosts, as docs/deploy.md says to write it."""
    text = site_config(ports[0], listen_port)
    one = f"    server 127.0.0.1:{ports[0]};\n"
    both = one + f"    server 127.0.0.1:{ports[1]};\n"
    assert text.count(one) == 1
    return text.replace(one, both)


@pytest.fixture
def deployment(tmp_path: Path, pg_schemas: PgSchemas) -> Iterator[dict[str, object]]:
    binary = nginx_binary()  # skips (or fails in CI) before anything starts
    _, url = pg_schemas.new()
    tokens = {
        name: subprocess.run(
            [CITEPROOF, "token", "add", name, "--database", url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for name in ("alice", "bob")
    }
    hosts = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        args = ("--database", url, "--provider", "extractive")
        hosts.append(Server(tmp_path / name, free_port(), args, limits=SERVICE_LIMITS))
    folder = tmp_path / "nginx"
    folder.mkdir()
    port = free_port()
    site = folder / "citeproof.conf"
    command = [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr"]
    nginx: subprocess.Popen[bytes] | None = None
    try:
        for host in hosts:
            host.start()  # a host whose port was taken starts on another: configure after
        site.write_text(two_host_site((hosts[0].port, hosts[1].port), port), encoding="utf-8")
        (folder / "nginx.conf").write_text(main_config(folder, site), encoding="utf-8")
        nginx = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=open(folder / "error.log", "ab"),  # noqa: SIM115
        )
        deadline = time.monotonic() + 30
        while True:
            assert nginx.poll() is None, (folder / "error.log").read_text(errors="replace")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert time.monotonic() < deadline, "nginx did not listen within 30 s"
            time.sleep(0.1)
        yield {"url": url, "tokens": tokens, "hosts": hosts, "front": f"http://127.0.0.1:{port}"}
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)
            try:
                nginx.wait(timeout=20)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait()
        for host in hosts:
            host.stop()


def test_two_hosts_on_one_postgresql_behind_nginx_share_everything(
    deployment: dict[str, object],
) -> None:
    tokens: dict[str, str] = deployment["tokens"]  # type: ignore[assignment]
    a, b = deployment["hosts"]  # type: ignore[misc]
    front = str(deployment["front"])
    url = str(deployment["url"])

    def as_(name: str, where: str) -> httpx.Client:
        headers = {"Authorization": f"Bearer {tokens[name]}"}
        if where == front:
            headers["Host"] = SERVICE_NAME
        return httpx.Client(base_url=where, headers=headers, timeout=60)

    places = {"nginx": front, "a": a.url, "b": b.url}
    alice = {name: as_("alice", where) for name, where in places.items()}
    bob = {name: as_("bob", where) for name, where in places.items()}
    try:
        # A token added once (in the database) works on both hosts and through nginx.
        for name in places:
            verified = alice[name].post("/v1/verify", content=body(lending_line(f"via-{name}")))
            assert verified.status_code == 200, (name, verified.text)
        assert httpx.get(a.url + "/v1/answers/via-a").status_code == 401  # a token is needed

        # A source uploaded through A is cited through B and through nginx.
        stored = alice["a"].post(
            "/v1/sources", files={"files": ("memo.txt", MEMO)}, data={"readers": ["bob"]}
        )
        assert stored.status_code == 200, stored.text
        source_id = stored.json()["files"][0]["sources"][0]["id"]
        for name in ("b", "nginx"):
            asked = bob[name].post("/v1/ask", json=QUESTION)
            assert asked.status_code == 200, asked.text
            assert source_id in asked.json()["eligibility"]["eligible"], name
            assert "83%" in asked.json()["text"]

        # Readers changed on B (bob left out) are revoked on A, and through nginx, at once.
        changed = alice["b"].put(f"/v1/sources/{source_id}/readers", json={"readers": []})
        assert changed.status_code == 200, changed.text
        assert changed.json()["readers"] == ["alice"]
        for name in ("a", "nginx"):
            asked = bob[name].post("/v1/ask", json=QUESTION)
            assert asked.status_code == 200, asked.text
            assert source_id not in str(asked.json()), name
        assert source_id in alice["a"].post("/v1/ask", json=QUESTION).text  # still alice's

        # An answer verified on A is in B's review list, its API and its proof endpoint; the
        # proof B gives is signed with B's checkpoint key and holds.
        request_id = alice["b"].get("/v1/answers/via-a").json()["request_id"]
        assert alice["a"].get("/v1/answers/via-a").json()["request_id"] == request_id
        assert "via-a" in alice["b"].get("/review").text
        assert "via-b" in alice["a"].get("/review").text
        for name, host in (("b", b), ("a", a)):
            proof = alice[name].get(f"/v1/audit/{request_id}/proof")
            assert proof.status_code == 200, proof.text
            public_key = load_public_key(host.data / "audit-checkpoints" / "signing.pub")
            verify_proof(proof.json(), public_key)
        assert bob["b"].get(f"/v1/audit/{request_id}/proof").status_code == 404  # alice's

        # Both hosts appended to one log, whose chain verifies from each host and from the
        # command line against each host's checkpoints.
        for name in places:
            report = alice[name].get("/v1/audit/verify").json()
            assert report["ok"] is True, (name, report)
            assert report["records"] == 8  # three verifies, five asks
        for host in (a, b):
            checked = subprocess.run(
                [CITEPROOF, "audit", "verify", "--audit", url, "--checkpoints",
                 str(host.data / "audit-checkpoints")],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            assert checked.returncode == 0, checked.stdout + checked.stderr
            assert re.match(r"ok: 8 records, root \w+, [1-9]\d* signed checkpoint", checked.stdout)
    finally:
        for client in [*alice.values(), *bob.values()]:
            client.close()
