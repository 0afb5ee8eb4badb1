"""The proxy in front of the Anthropic Messages API, with the real ``anthropic`` SDK as the
client and a recorded response (streamed and not, with ``citations_delta``) replayed byte for
byte upstream: the answer comes back as the vendor sent it, with the verdicts `citeproof
verify --from anthropic` gives for the same response and request."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import pytest

from citeproof.audit import open_store, verify_log
from citeproof.server import ServiceState
from tests.proxy.conftest import (
    FIXTURES,
    Proxy,
    Replay,
    fixture_bytes,
    fixture_json,
    start_proxy,
)
from tests.proxy.verdicts import anthropic_expected, sse_events, verdicts

REQUEST: dict[str, Any] = fixture_json("anthropic-request.json")
RECORDED: dict[str, Any] = fixture_json("anthropic-messages.json")
KEY = "sk-ant-api03-caller-own-key"
OWN = {"citeproof": {"policy": {"ineligible_citations": "flag"}}}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("anthropic-proxy")


@pytest.fixture(scope="module")
def proxy(replay: Replay, folder: Path) -> Iterator[Proxy]:
    running = start_proxy(replay.url, folder, "--audit", str(folder / "audit.db"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def expected(folder: Path) -> dict[str, Any]:
    """`citeproof verify --from anthropic` on the recorded response and its request."""
    return anthropic_expected(folder)


def client(proxy: Proxy) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=proxy.url, api_key=KEY, max_retries=0, timeout=60)


def test_a_non_streamed_answer_comes_back_as_sent_with_the_verdicts_of_verify(
    proxy: Proxy, replay: Replay, expected: dict[str, Any]
) -> None:
    raw = client(proxy).messages.with_raw_response.create(**REQUEST, extra_body=OWN)
    message = raw.parse()
    assert message.id == RECORDED["id"]
    assert [block.model_dump(exclude_none=True) for block in message.content] == RECORDED["content"]
    record = raw.http_response.json()["citeproof"]
    assert verdicts(record) == verdicts(expected)
    assert record["outcome"] == "fail"  # a claim its source contradicts
    assert raw.headers["x-citeproof-outcome"] == "fail"
    assert raw.headers["x-citeproof-quotes"].startswith("verified=1, corrected=2")
    assert raw.headers["request-id"] == "req_replayed0001"  # the upstream's headers too
    # The caller's own key went upstream; citeproof's member did not.
    sent = replay.received[-1]
    assert sent.path == "/v1/messages"
    assert KEY in (sent.headers.get("x-api-key"), sent.headers.get("authorization", "")[7:])
    assert sent.headers["anthropic-version"]
    assert "citeproof" not in sent.body
    assert sent.body["messages"] == REQUEST["messages"]


def test_a_streamed_answer_parses_in_the_sdk_and_ends_with_the_same_verdicts(
    proxy: Proxy, expected: dict[str, Any]
) -> None:
    with client(proxy).messages.stream(**REQUEST) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert text == "".join(block["text"] for block in RECORDED["content"])
    cited = [c.cited_text for block in final.content for c in (block.citations or [])]  # type: ignore[union-attr]
    assert cited == [
        c["cited_text"] for block in RECORDED["content"] for c in block.get("citations", [])
    ]
    assert final.stop_reason == "end_turn"


def test_the_stream_is_the_recording_with_a_verdict_after_each_sentence(
    proxy: Proxy, expected: dict[str, Any]
) -> None:
    body = {**REQUEST, "stream": True}
    headers = {"x-api-key": KEY, "anthropic-version": "2023-06-01"}
    with httpx.stream("POST", proxy.url + "/v1/messages", json=body, headers=headers) as answer:
        raw = answer.read()
    events = sse_events(raw)
    vendor = b"".join(chunk for name, _, chunk in events if not name.startswith("citeproof."))
    assert vendor == (FIXTURES / "anthropic-messages.sse").read_bytes()  # byte for byte
    names = [name for name, _, _ in events]
    assert names[-2:] == ["citeproof.record", "message_stop"]
    sentences = [json.loads(data) for name, data, _ in events if name == "citeproof.verdict"]
    assert [s["index"] for s in sentences] == list(range(len(expected["claims"])))
    record = json.loads(events[-2][1])["record"]
    assert verdicts(record) == verdicts(expected)
    # Each sentence's verdicts, as they came, are those of the whole answer.
    assert [q["status"] for s in sentences for q in s["quotes"]] == [
        q["status"] for q in expected["quotes"]
    ]
    assert [c["verdict"] for s in sentences for c in s["claims"]] == [
        c["verdict"] for c in expected["claims"]
    ]
    # A verdict follows the event that completed its sentence, before the stream goes on.
    first = names.index("citeproof.verdict")
    assert first < names.index("message_delta")


def test_every_proxied_answer_is_in_the_audit_log_with_the_vendors_request_id(
    proxy: Proxy, folder: Path
) -> None:
    raw = client(proxy).messages.with_raw_response.create(**REQUEST)
    request_id = raw.headers["x-citeproof-request-id"]
    with open_store(str(folder / "audit.db")) as log:
        assert verify_log(log).ok
        records = list(log.records(0, log.size()))
    payload = next(r for r in reversed(records) if r.request_id == request_id).payload
    assert payload["request"]["vendor_request_id"] == "req_replayed0001"
    assert payload["request"]["api"] == "messages"
    assert KEY not in json.dumps(payload)  # credentials are never recorded
    streamed = [r for r in records if r.payload["request"].get("stream")]
    assert streamed and streamed[0].payload["request"]["vendor_request_id"] == "req_replayed0002"


def test_block_refuses_a_failing_answer_naming_what_failed(replay: Replay, folder: Path) -> None:
    blocking = start_proxy(replay.url, folder, "--on-fail", "block")
    try:
        with pytest.raises(anthropic.UnprocessableEntityError) as refused:
            client(blocking).messages.create(**REQUEST)
        problem = refused.value.response.json()
        assert refused.value.response.headers["content-type"] == "application/problem+json"
        assert problem["failures"] and "contradicted" in problem["failures"][0]
        assert problem["citeproof"]["outcome"] == "fail"
        # A stream cannot be taken back: it ends in an error event the SDK raises.
        with (
            pytest.raises(anthropic.APIStatusError, match="citeproof blocked"),
            client(blocking).messages.stream(**REQUEST) as stream,
        ):
            "".join(stream.text_stream)
    finally:
        blocking.stop()


def test_upstream_errors_pass_through_as_the_vendor_shaped_them(folder: Path) -> None:
    error = {"type": "error", "error": {"type": "authentication_error", "message": "bad key"}}
    failing = Replay(b"", b"", status=401, error=json.dumps(error).encode()).start()
    proxy = start_proxy(failing.url, folder)
    try:
        with pytest.raises(anthropic.AuthenticationError) as refused:
            client(proxy).messages.create(**REQUEST)
        assert refused.value.body == error
    finally:
        proxy.stop()
        failing.stop()


def test_an_upstream_that_cannot_be_reached_is_an_error_in_the_vendors_shape(
    folder: Path,
) -> None:
    from tests.server.conftest import free_port

    proxy = start_proxy(f"http://127.0.0.1:{free_port()}", folder)
    try:
        with pytest.raises(anthropic.APIStatusError) as failed:
            client(proxy).messages.create(**REQUEST)
        assert failed.value.status_code == 502
        assert failed.value.body == {
            "type": "error",
            "error": {"type": "api_error", "message": "cannot reach the upstream (ConnectError)"},
        }
    finally:
        proxy.stop()


def test_the_services_limits_hold_and_nothing_over_them_goes_upstream(
    replay: Replay, folder: Path
) -> None:
    limits = folder / "limits.json"
    limits.write_text(json.dumps({"body_bytes": 5_000, "source_chars": 200}), encoding="utf-8")
    limited = start_proxy(replay.url, folder, "--limits", str(limits))
    before = len(replay.received)
    try:
        with pytest.raises(anthropic.APIStatusError) as too_large:
            client(limited).messages.create(
                **{**REQUEST, "system": "x" * 6_000}  # type: ignore[arg-type]
            )
        assert too_large.value.status_code == 413
        assert too_large.value.response.json()["field"] == "body"
        with pytest.raises(anthropic.APIStatusError) as long_source:
            client(limited).messages.create(**REQUEST)  # its document is 290 characters
        assert long_source.value.status_code == 413
        assert long_source.value.response.json()["field"] == "sources.0.text"
    finally:
        limited.stop()
    assert len(replay.received) == before


def test_an_upstream_slower_than_its_timeout_is_a_504_in_the_vendors_shape(
    folder: Path,
) -> None:
    slow = Replay(fixture_bytes("anthropic-messages.json"), b"", delay=3.0).start()
    proxy = start_proxy(slow.url, folder, "--upstream-timeout", "0.5")
    try:
        with pytest.raises(anthropic.APIStatusError) as failed:
            client(proxy).messages.create(**REQUEST)
        assert failed.value.status_code == 504
        assert failed.value.body["error"]["type"] == "timeout_error"  # type: ignore[index]
    finally:
        proxy.stop()
        slow.stop()


def test_with_a_service_data_folder_the_review_app_lists_proxied_answers(
    replay: Replay, folder: Path
) -> None:
    data = folder / "service"
    reviewed = start_proxy(replay.url, folder, "--data", str(data), "--principal", "support-bot")
    try:
        raw = client(reviewed).messages.with_raw_response.create(**REQUEST)
    finally:
        reviewed.stop()
    (entry,) = ServiceState(data / "service.db").recent_answers("support-bot")
    assert entry.answer_id == RECORDED["id"]
    assert entry.request_id == raw.headers["x-citeproof-request-id"]
    assert entry.kind == "proxy"
    with open_store(str(data / "audit.db")) as log:
        assert log.size() == 1 and verify_log(log).ok


def test_a_client_that_stops_sending_its_body_is_cut_off(replay: Replay, folder: Path) -> None:
    limits = folder / "slow-limits.json"
    limits.write_text(json.dumps({"body_read_seconds": 1}), encoding="utf-8")
    proxy = start_proxy(replay.url, folder, "--limits", str(limits))
    try:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=30) as slow:
            slow.sendall(
                b"POST /v1/messages HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n"
                b'Content-Length: 1000\r\n\r\n{"model": '
            )
            reply = b""
            while chunk := slow.recv(4096):  # the proxy closes the connection after it
                reply += chunk
    finally:
        proxy.stop()
    assert reply.startswith(b"HTTP/1.1 408")
    assert b"did not arrive within 1 s" in reply
