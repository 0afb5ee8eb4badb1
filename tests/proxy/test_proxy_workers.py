"""`citeproof proxy --workers 2`: each worker verifies on its own interpreter (so a busy proxy
uses more than one core), every answer gets the verdicts one worker gives it, all of them land
in one intact audit log, and each worker holds the proxy's limits and connection guards."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import anthropic
import pytest

from citeproof import Policy
from citeproof.audit import open_store, verify_log
from citeproof.proxy import PROXY_LIMITS, ProxyConfig, UpstreamTimeouts
from citeproof.proxy._process import config_from_json, config_to_json
from tests.cli_runs import invoke
from tests.conftest import skip_unless_required
from tests.processes import open_on, workers
from tests.proxy.conftest import Proxy, Replay, fixture_json, start_proxy
from tests.proxy.verdicts import anthropic_expected, verdicts
from tests.security.test_connection_flood import closed_by_server

pytestmark = pytest.mark.slow

REQUEST: dict[str, Any] = fixture_json("anthropic-request.json")
ANSWERS = 16


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("proxy-workers")


@pytest.fixture(scope="module")
def proxy(replay: Replay, folder: Path) -> Iterator[Proxy]:
    limits = folder / "limits.json"
    limits.write_text(json.dumps({"body_bytes": 5_000, "header_seconds": 1.0}), encoding="utf-8")
    running = start_proxy(
        replay.url, folder, "--workers", "2", "--audit", str(folder / "audit.db"),
        "--limits", str(limits),
    )  # fmt: skip
    yield running
    running.stop()


def _create(proxy: Proxy) -> tuple[dict[str, Any], str]:
    """One answer through the proxy on a connection of its own (so on either worker)."""
    with anthropic.Anthropic(base_url=proxy.url, api_key="sk-ant-k", max_retries=0) as client:
        raw = client.messages.with_raw_response.create(**REQUEST)
    return raw.http_response.json()["citeproof"], raw.headers["x-citeproof-request-id"]


def test_every_answer_gets_the_verdicts_of_verify_and_one_intact_audit_log_holds_them_all(
    proxy: Proxy, folder: Path
) -> None:
    expected = anthropic_expected(folder)
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda _: _create(proxy), range(ANSWERS)))
    assert all(verdicts(record) == verdicts(expected) for record, _ in answers)
    with open_store(str(folder / "audit.db")) as log:
        report = verify_log(log)
        logged = [r.request_id for r in log.records(0, log.size())]
    assert report.ok
    assert len(logged) == ANSWERS  # the same answer, so the same request id: one per call
    assert set(logged) == {request_id for _, request_id in answers}


def test_each_worker_holds_the_proxys_limits_and_header_deadline(proxy: Proxy) -> None:
    for _ in range(6):  # each on a new connection, so on either worker
        with (
            anthropic.Anthropic(base_url=proxy.url, api_key="sk-ant-k", max_retries=0) as client,
            pytest.raises(anthropic.APIStatusError) as too_large,
        ):
            client.messages.create(**{**REQUEST, "system": "x" * 6_000})  # type: ignore[arg-type]
        assert too_large.value.status_code == 413
        assert too_large.value.response.json()["field"] == "body"
    idle = [socket.create_connection(("127.0.0.1", proxy.port), timeout=5) for _ in range(6)]
    try:
        assert all(closed_by_server(sock) for sock in idle)  # past the 1 s header deadline
    finally:
        for sock in idle:
            sock.close()


def test_the_configuration_reaches_the_workers_whole() -> None:
    config = ProxyConfig(
        upstream="https://api.anthropic.com",
        on_fail="block",
        policy=replace(Policy(), ineligible_citations="remove", support_threshold=0.5),
        limits=replace(PROXY_LIMITS, body_bytes=1234, header_seconds=2.5),
        timeouts=UpstreamTimeouts(connect=3.0, read=45.0),
        audit="postgresql://log.example/audit",
        data=Path("/srv/citeproof"),
        principal="support-bot",
        store=Path("/srv/store.db"),
        buffer_bytes=12_345_678,
    )
    assert config_from_json(json.loads(json.dumps(config_to_json(config)))) == config


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bad_audit_log_fails_before_any_worker_starts(tmp_path: Path, workers: str) -> None:
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    bad = tmp_path / "a-file" / "audit.db"
    code, out, err = invoke(
        "proxy", "--upstream", "http://127.0.0.1:9", "--port", "0", "--workers", workers,
        "--audit", str(bad),
    )  # fmt: skip
    assert code == 1 and f"{bad}: cannot open audit log" in err
    assert "citeproof proxy on" not in out


def test_only_the_workers_hold_the_audit_log_open(proxy: Proxy, folder: Path) -> None:
    """The parent checks the configuration (a bad log fails before anything listens) and then
    only supervises: it keeps no app, and so no connection to the log, open beside the
    workers' own."""
    if not Path("/proc/self/fd").is_dir():
        skip_unless_required("REUSEPORT", "the open descriptors are read from Linux's /proc")
    assert proxy.process is not None
    _create(proxy)  # each worker that answered holds the log open
    parent = proxy.process.pid
    log = str((folder / "audit.db").resolve())
    assert any(log in open_on(pid) for pid in workers(parent))
    assert log not in open_on(parent)
