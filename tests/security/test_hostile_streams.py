"""A hostile upstream behind `citeproof proxy` (issue 45): what it sends is checked, never
trusted, and never cuts the client off.

- An event of its stream that cannot be read (JSON nested 100,000 deep) or whose text cannot
  be verified (a lone surrogate) stopped the stream mid-way with a traceback and no record:
  now the real OpenAI and Anthropic SDKs read the stream to its end, get the upstream's text
  and an error event, and the record is written.
- Its own ``X-Citeproof-*`` headers were passed on (a forged ``X-Citeproof-Outcome: pass``
  beside citeproof's ``fail``): now they are dropped, streamed or not.
- Citation offsets out of range made the whole answer a 422: now that citation is flagged in
  the record and the answer is kept.
- Concurrent large answers were buffered without bound: now a request that would take the
  proxy past its buffer budget is refused in the vendor's error shape.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest

from citeproof.audit import open_store, verify_log
from citeproof.proxy import ProxyConfig, create_proxy_app
from tests.proxy.conftest import Proxy, Replay, fixture_bytes, fixture_json, start_proxy
from tests.proxy.verdicts import sse_events
from tests.security.upstream import AFTER, BEFORE, CHAT_OWN, CHAT_REQUEST, chat_chunk

REQUEST: dict[str, Any] = fixture_json("anthropic-request.json")
RECORDED: dict[str, Any] = fixture_json("anthropic-messages.json")
RECORDED_STREAM = fixture_bytes("anthropic-messages.sse")

DEEP = b"[" * 100_000 + b"]" * 100_000
SURROGATE = b'"bad \\ud800 text. "'  # JSON for a string holding a lone surrogate


def chat_stream(hostile: bytes) -> bytes:
    """A chat stream with ``hostile`` (one whole event) between its two sentences."""
    return (
        chat_chunk("")
        + chat_chunk(BEFORE)
        + hostile
        + chat_chunk(AFTER)
        + chat_chunk(finish="stop")
        + b"data: [DONE]\n\n"
    )


def messages_stream(hostile: bytes) -> bytes:
    """The recorded Messages stream with ``hostile`` after its first text delta."""
    first = b"event: content_block_delta\n"
    at = RECORDED_STREAM.index(first)
    at = RECORDED_STREAM.index(b"\n\n", at) + 2
    return RECORDED_STREAM[:at] + hostile + RECORDED_STREAM[at:]


CHAT_HOSTILE = {
    "deep JSON": b"data: " + DEEP + b"\n\n",
    "a lone surrogate": (
        b'data: {"id":"chatcmpl-hostile","object":"chat.completion.chunk","created":1,'
        b'"model":"m","choices":[{"index":0,"delta":{"content":' + SURROGATE + b"}}]}\n\n"
    ),
}
MESSAGES_HOSTILE = {
    "deep JSON": b"event: content_block_delta\ndata: " + DEEP + b"\n\n",
    "a lone surrogate": (
        b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
        b'"delta":{"type":"text_delta","text":' + SURROGATE + b"}}\n\n"
    ),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile-streams")


@pytest.fixture(scope="module")
def hostile() -> Iterator[Replay]:
    server = Replay(fixture_bytes("anthropic-messages.json"), RECORDED_STREAM).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def proxy(hostile: Replay, folder: Path) -> Iterator[Proxy]:
    running = start_proxy(hostile.url, folder, "--audit", str(folder / "audit.db"))
    yield running
    running.stop()


@pytest.fixture
def replay(hostile: Replay) -> Iterator[Replay]:
    """The module's upstream, set back to the recording after each test."""
    yield hostile
    hostile.messages = fixture_bytes("anthropic-messages.json")
    hostile.stream = RECORDED_STREAM
    hostile.headers = {}


def records(folder: Path) -> list[dict[str, Any]]:
    with open_store(str(folder / "audit.db")) as log:
        assert verify_log(log).ok
        return [record.payload for record in log.records(0, log.size())]


def no_traceback(proxy: Proxy) -> None:
    assert "Traceback" not in proxy.log(), proxy.log()[-3000:]


@pytest.mark.parametrize("name", list(CHAT_HOSTILE))
def test_a_hostile_chat_event_reaches_the_openai_sdk_as_an_error_event_with_a_record(
    name: str, proxy: Proxy, replay: Replay, folder: Path
) -> None:
    replay.stream = chat_stream(CHAT_HOSTILE[name])
    before = len(records(folder))
    client = openai.OpenAI(base_url=proxy.url + "/v1", api_key="sk-k", max_retries=0)
    chunks = list(client.chat.completions.create(**CHAT_REQUEST, stream=True, extra_body=CHAT_OWN))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.startswith(BEFORE) and text.endswith(AFTER)  # the upstream's text, all of it
    extras = [c.model_extra or {} for c in chunks]
    ours: list[dict[str, Any]] = [extra["citeproof"] for extra in extras if "citeproof" in extra]
    kinds = [event["type"] for event in ours]
    assert "citeproof.error" in kinds and kinds[-1] == "citeproof.record"
    record = ours[-1]["record"]
    assert record["outcome"] == "fail" and record["failures"]
    finished = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert finished[-1] == "stop"  # read to its end: the record came just before [DONE]
    assert len(records(folder)) == before + 1
    no_traceback(proxy)


@pytest.mark.parametrize("name", list(MESSAGES_HOSTILE))
def test_a_hostile_messages_event_reaches_the_anthropic_sdk_as_an_error_event_with_a_record(
    name: str, proxy: Proxy, replay: Replay, folder: Path
) -> None:
    replay.stream = messages_stream(MESSAGES_HOSTILE[name])
    before = len(records(folder))
    client = anthropic.Anthropic(base_url=proxy.url, api_key="sk-ant-k", max_retries=0)
    with client.messages.stream(**REQUEST) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert final.stop_reason == "end_turn"  # read to its end
    assert text.endswith(RECORDED["content"][-1]["text"])
    assert len(records(folder)) == before + 1
    # The same stream read raw: an error event, then the record, then the end.
    body = {**REQUEST, "stream": True}
    headers = {"x-api-key": "sk-ant-k", "anthropic-version": "2023-06-01"}
    with httpx.stream("POST", proxy.url + "/v1/messages", json=body, headers=headers) as answer:
        events = sse_events(answer.read())
    names = [event_name for event_name, _, _ in events]
    assert "citeproof.error" in names
    assert names[-2:] == ["citeproof.record", "message_stop"]
    assert json.loads(events[-2][1])["record"]["outcome"] == "fail"
    assert b"[[[[" not in b"".join(raw for _, _, raw in events)  # what no SDK can read
    no_traceback(proxy)


def test_the_upstreams_own_citeproof_headers_are_dropped(proxy: Proxy, replay: Replay) -> None:
    replay.headers = {
        "X-Citeproof-Outcome": "pass",
        "x-citeproof-request-id": "forged",
        "X-CITEPROOF-QUOTES": "verified=99",
    }
    headers = {"x-api-key": "sk-ant-k", "anthropic-version": "2023-06-01"}
    url = proxy.url + "/v1/messages"
    whole = httpx.post(url, json=REQUEST, headers=headers, timeout=60)
    assert whole.headers.get_list("x-citeproof-outcome") == ["fail"]  # citeproof's, alone
    (request_id,) = whole.headers.get_list("x-citeproof-request-id")
    assert request_id == whole.json()["citeproof"]["request_id"]  # the audit log's
    assert whole.headers.get_list("x-citeproof-quotes")[0].startswith("verified=1")
    assert len(whole.headers.get_list("x-citeproof-quotes")) == 1
    assert whole.headers["request-id"] == "req_replayed0001"  # the upstream's others stay
    with httpx.stream("POST", url, json={**REQUEST, "stream": True}, headers=headers) as streamed:
        streamed.read()
    assert not [name for name in streamed.headers if name.lower().startswith("x-citeproof-")]


def bad_offsets(value: object) -> dict[str, Any]:
    response = copy.deepcopy(RECORDED)
    cited = [block for block in response["content"] if block.get("citations")]
    cited[0]["citations"][0]["start_char_index"] = value
    return response


@pytest.mark.parametrize("value", [10**30, -5, 2**63])
def test_a_citation_with_bad_offsets_is_flagged_and_the_answer_kept(
    value: int, proxy: Proxy, replay: Replay
) -> None:
    replay.messages = json.dumps(bad_offsets(value)).encode()
    client = anthropic.Anthropic(base_url=proxy.url, api_key="sk-ant-k", max_retries=0)
    raw = client.messages.with_raw_response.create(**REQUEST)
    message = raw.parse()
    assert message.id == RECORDED["id"]
    record = raw.http_response.json()["citeproof"]
    (invalid,) = record["invalid_citations"]
    assert invalid["where"] == "content[1].citations[0]"
    assert "start_char_index" in invalid["reason"]
    assert any("content[1].citations[0]" in failure for failure in record["failures"])
    assert record["outcome"] == "fail"
    # The other citations are still checked.
    assert (
        len(record["vendor_citations"])
        == len([c for block in RECORDED["content"] for c in block.get("citations", [])]) - 1
    )


def test_a_streamed_citation_with_bad_offsets_is_flagged_and_the_stream_ends(
    proxy: Proxy, replay: Replay, folder: Path
) -> None:
    replay.stream = RECORDED_STREAM.replace(b'"start_char_index":37', b'"start_char_index":-37')
    before = len(records(folder))
    client = anthropic.Anthropic(base_url=proxy.url, api_key="sk-ant-k", max_retries=0)
    with client.messages.stream(**REQUEST) as stream:
        "".join(stream.text_stream)
        assert stream.get_final_message().stop_reason == "end_turn"
    (added,) = records(folder)[before:]
    assert added["request"]["stream"] is True
    body = {**REQUEST, "stream": True}
    headers = {"x-api-key": "sk-ant-k", "anthropic-version": "2023-06-01"}
    with httpx.stream("POST", proxy.url + "/v1/messages", json=body, headers=headers) as answer:
        events = sse_events(answer.read())
    record = json.loads(events[-2][1])["record"]
    assert [c["where"] for c in record["invalid_citations"]] == ["content[1].citations[0]"]
    no_traceback(proxy)


# The buffer budget, in one process: answers of 4 MB, a budget of 10 MB.
ANSWER_BYTES, BUDGET = 4_000_000, 10_000_000


def large_answer() -> bytes:
    answer = copy.deepcopy(RECORDED)
    answer["padding"] = "x" * ANSWER_BYTES
    return json.dumps(answer).encode()


async def trickled(body: bytes) -> AsyncIterator[bytes]:
    """``body`` in pieces, slowly enough that every request is in flight at once."""
    step = len(body) // 20 + 1
    for start in range(0, len(body), step):
        await asyncio.sleep(0.02)
        yield body[start : start + step]


async def concurrent_large_answers(count: int) -> list[httpx.Response]:
    body = large_answer()

    def upstream(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": "application/json"}
        return httpx.Response(200, headers=headers, content=trickled(body))

    config = ProxyConfig(upstream="http://upstream.test", buffer_bytes=BUDGET)
    app = create_proxy_app(config, transport=httpx.MockTransport(upstream))
    transport = httpx.ASGITransport(app=app)
    headers = {"x-api-key": "sk-ant-k", "anthropic-version": "2023-06-01"}
    async with httpx.AsyncClient(transport=transport, base_url="http://proxy.test") as client:
        sends = [
            client.post("/v1/messages", json=REQUEST, headers=headers, timeout=120)
            for _ in range(count)
        ]
        return list(await asyncio.gather(*sends))


def test_concurrent_large_answers_past_the_buffer_budget_are_refused_in_the_vendors_shape() -> None:
    answers = asyncio.run(concurrent_large_answers(6))
    served = [answer for answer in answers if answer.status_code == 200]
    refused = [answer for answer in answers if answer.status_code != 200]
    assert 1 <= len(served) <= BUDGET // ANSWER_BYTES
    assert refused
    for answer in refused:
        assert answer.status_code == 503
        assert answer.headers["retry-after"]
        error = answer.json()
        assert error["type"] == "error"  # the Anthropic SDK's shape
        assert "buffer budget" in error["error"]["message"]
    # The budget is given back: each request alone is served again.
    alone = asyncio.run(concurrent_large_answers(1))
    assert alone[0].status_code == 200


def test_an_answer_larger_than_the_whole_budget_is_a_502_naming_it() -> None:
    async def one() -> httpx.Response:
        body = large_answer()

        def upstream(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, headers={"content-type": "application/json"}, content=body)

        config = ProxyConfig(upstream="http://upstream.test", buffer_bytes=ANSWER_BYTES // 2)
        app = create_proxy_app(config, transport=httpx.MockTransport(upstream))
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://proxy.test"
        ) as client:
            return await client.post("/v1/chat/completions", json=CHAT_REQUEST | CHAT_OWN)

    answer = asyncio.run(one())
    assert answer.status_code == 502
    message = answer.json()["error"]["message"]  # the OpenAI SDK's shape
    assert "buffer budget" in message and f"{ANSWER_BYTES // 2:,}" in message


@pytest.mark.parametrize("on_fail", ["correct", "block"])
@pytest.mark.parametrize("name", list(CHAT_HOSTILE))
def test_a_hostile_event_with_correct_or_block_still_ends_in_the_record(
    on_fail: str, name: str
) -> None:
    async def streamed() -> bytes:
        def upstream(request: httpx.Request) -> httpx.Response:
            headers = {"content-type": "text/event-stream"}
            return httpx.Response(200, headers=headers, content=chat_stream(CHAT_HOSTILE[name]))

        config = ProxyConfig(upstream="http://upstream.test", on_fail=on_fail)  # type: ignore[arg-type]
        app = create_proxy_app(config, transport=httpx.MockTransport(upstream))
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://proxy.test"
        ) as client:
            body = CHAT_REQUEST | CHAT_OWN | {"stream": True}
            answer = await client.post("/v1/chat/completions", json=body)
            assert answer.status_code == 200
            return answer.content

    events = sse_events(asyncio.run(streamed()))
    names = [event_name for event_name, _, _ in events]
    assert "citeproof.error" in names and "citeproof.record" in names
    text = "".join(
        (json.loads(data).get("choices") or [{}])[0].get("delta", {}).get("content") or ""
        for event_name, data, _ in events
        if event_name is None and data.startswith("{")
    )
    assert BEFORE in text  # the text before the break, released as the upstream sent it
    if on_fail == "correct":
        assert AFTER in text and events[-1][1] == "[DONE]"
    else:  # the failing record, then the error event that ends a blocked stream
        assert "citeproof blocked the answer" in events[-1][1]
