"""`citeproof proxy --buffer-bytes`: the buffer budget (`ProxyConfig.buffer_bytes`) set from
the command line, as every other limit of the proxy is. Before, only code could set it: an
operator whose answers are larger than the default, or whose machine is smaller, had none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from citeproof.proxy._budget import BUFFER_BYTES
from tests.cli_runs import invoke
from tests.proxy.conftest import Proxy, Replay, fixture_bytes, fixture_json, start_proxy

REQUEST: dict[str, Any] = fixture_json("anthropic-request.json")
HEADERS = {"x-api-key": "sk-ant-k", "anthropic-version": "2023-06-01"}
ANSWER_BYTES = len(fixture_bytes("anthropic-messages.json"))
SMALL = ANSWER_BYTES // 2


@pytest.fixture(scope="module", params=["1", "2"], ids=["one-worker", "two-workers"])
def small_budget(
    request: pytest.FixtureRequest, replay: Replay, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Proxy]:
    folder = tmp_path_factory.mktemp("buffer-bytes")
    proxy = start_proxy(
        replay.url, folder, "--buffer-bytes", str(SMALL), "--workers", request.param
    )
    yield proxy
    proxy.stop()


def test_an_answer_over_the_budget_given_on_the_command_line_is_refused(
    small_budget: Proxy,
) -> None:
    for _ in range(4):  # each on a connection of its own, so on either worker
        with httpx.Client(base_url=small_budget.url, timeout=60) as client:
            answer = client.post("/v1/messages", json=REQUEST, headers=HEADERS)
        assert answer.status_code == 502, answer.text
        message = answer.json()["error"]["message"]  # the Anthropic SDK's shape
        assert f"buffer budget of {SMALL:,}" in message


def test_the_default_budget_serves_the_same_answer(replay: Replay, tmp_path: Path) -> None:
    proxy = start_proxy(replay.url, tmp_path)
    try:
        with httpx.Client(base_url=proxy.url, timeout=60) as client:
            answer = client.post("/v1/messages", json=REQUEST, headers=HEADERS)
        assert answer.status_code == 200, answer.text
    finally:
        proxy.stop()


@pytest.mark.parametrize("value", ["0", "-5", "lots"])
def test_a_budget_that_is_not_a_positive_whole_number_is_refused_naming_it(value: str) -> None:
    code, out, err = invoke("proxy", "--upstream", "http://127.0.0.1:9", "--buffer-bytes", value)
    assert code == 2 and "--buffer-bytes" in err
    assert "citeproof proxy on" not in out


def test_the_help_names_the_default_budget() -> None:
    code, out, _ = invoke("proxy", "--help")
    assert code == 0 and "--buffer-bytes BYTES" in out
    assert f"(default {BUFFER_BYTES})" in " ".join(out.split())
