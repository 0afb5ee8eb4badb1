"""A hostile upstream behind `citeproof proxy`, round two (issue 45's proxy item, what was left):

- A number no float holds (``1e999999``) parsed as infinity, and with ``--on-fail correct`` a
  rewritten event carried ``Infinity``, which no JSON parser reads: now the parse refuses it,
  so the event is left out like any other it cannot read, and every event the client gets is
  JSON; a non-streamed answer holding one is a 502 naming it.
- A stream's relay kept the answer's text after verification had stopped, with no limit, and
  so did an Anthropic block whose citations came before its text: a 200 MB stream took the
  proxy's memory up by as much. Now what a stream keeps is counted in the buffer budget; past
  it verification stops, the record says why, the events still reach the SDK to the end, and
  the proxy's memory stays flat.
- Stream events of up to 10 MB were parsed on the event loop (seconds for a hostile one), so
  every other client waited: now a large event is parsed in a worker thread, and a small
  request is answered while another client's 10 MB event is being read.
- A citation's huge end offset with a valid start was accepted: now it is flagged like the
  other bad offsets, the answer kept.

Each runs through ``citeproof proxy`` as a process, with the real OpenAI and Anthropic SDKs.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest

from tests.proxy.conftest import Proxy, fixture_json, start_proxy
from tests.security.upstream import AFTER, BEFORE, CHAT_OWN, CHAT_REQUEST, chat_chunk

ANTHROPIC_REQUEST: dict[str, Any] = fixture_json("anthropic-request.json")
RECORDED: dict[str, Any] = fixture_json("anthropic-messages.json")
BUDGET = 20_000_000
MB = 1_000_000


def chat_answer(content: str) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-small",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
        }
    ).encode()


def anthropic_event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


class Upstream:
    """A loopback upstream: a stream made by ``stream()`` (its pieces written as they come)
    when the request asks for one, else ``answer`` as JSON."""

    def __init__(self) -> None:
        self.stream: Callable[[], Iterator[bytes]] = lambda: iter(())
        self.answer = chat_answer(BEFORE + AFTER)
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
                self.send_response(200)
                if body.get("stream"):
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("connection", "close")
                    self.end_headers()
                    try:
                        for piece in upstream.stream():
                            self.wfile.write(piece)
                            self.wfile.flush()
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    self.close_connection = True
                    return
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(upstream.answer)))
                self.end_headers()
                self.wfile.write(upstream.answer)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def upstream() -> Iterator[Upstream]:
    server = Upstream()
    yield server
    server.stop()


@pytest.fixture
def proxy(upstream: Upstream, tmp_path: Path) -> Iterator[Proxy]:
    """A fresh proxy (its memory's peak is its own) with a 20 MB buffer budget."""
    running = start_proxy(upstream.url, tmp_path, "--buffer-bytes", str(BUDGET))
    yield running
    running.stop()


def chat_client(proxy: Proxy) -> openai.OpenAI:
    return openai.OpenAI(base_url=proxy.url + "/v1", api_key="sk-k", max_retries=0, timeout=300)


def no_traceback(proxy: Proxy) -> None:
    assert "Traceback" not in proxy.log(), proxy.log()[-3000:]


def strict_json(text: str) -> Any:
    """``text`` read as JSON as any other parser reads it: no NaN, no Infinity."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


# 1. Numbers out of range.

OUT_OF_RANGE = b"1e999999"


def test_a_number_out_of_range_never_reaches_the_client_as_infinity(
    upstream: Upstream, tmp_path: Path
) -> None:
    # The event holding it also holds the end of one sentence and the start of the next:
    # correcting the first splits it, so the proxy writes the event again.
    hostile = chat_chunk(BEFORE + "Valuations older", logprob=0.5).replace(b"0.5", OUT_OF_RANGE)
    assert OUT_OF_RANGE in hostile

    def stream() -> Iterator[bytes]:
        yield chat_chunk("")
        yield hostile
        yield chat_chunk(" than six months expire [S1].")
        yield chat_chunk(finish="stop")
        yield b"data: [DONE]\n\n"

    upstream.stream = stream
    proxy = start_proxy(upstream.url, tmp_path, "--on-fail", "correct")
    try:
        body = {**CHAT_REQUEST, **CHAT_OWN, "stream": True}
        with httpx.stream("POST", proxy.url + "/v1/chat/completions", json=body) as answer:
            raw = answer.read()
        datas = [
            line[len(b"data: ") :].decode()
            for line in raw.split(b"\n")
            if line.startswith(b"data: ")
        ]
        assert datas[-1] == "[DONE]"
        chunks = [strict_json(data) for data in datas[:-1]]  # every event is JSON
        ours = [chunk["citeproof"] for chunk in chunks if "citeproof" in chunk]
        errors = [event["message"] for event in ours if event["type"] == "citeproof.error"]
        assert any("out of range" in message for message in errors), errors
        assert ours[-1]["type"] == "citeproof.record"
        # The real SDK reads the same stream to its end.
        streamed = list(
            chat_client(proxy).chat.completions.create(
                **CHAT_REQUEST, stream=True, extra_body=CHAT_OWN
            )
        )
        assert [c.choices[0].finish_reason for c in streamed if c.choices][-1] == "stop"
        # A non-streamed answer holding one is refused naming why, in the SDK's shape.
        upstream.answer = chat_answer(BEFORE).replace(b'"created": 1', b'"created": 1e999999')
        with pytest.raises(openai.APIStatusError) as refused:
            chat_client(proxy).chat.completions.create(**CHAT_REQUEST, extra_body=CHAT_OWN)
        assert refused.value.status_code == 502
        assert "out of range" in str(refused.value)
        no_traceback(proxy)
    finally:
        upstream.answer = chat_answer(BEFORE + AFTER)
        proxy.stop()


# 2. What a stream keeps, bounded by the buffer budget.


def peak_rss(proxy: Proxy) -> int:
    """The proxy process's peak resident memory, in bytes."""
    assert proxy.process is not None
    status = Path(f"/proc/{proxy.process.pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024


def warm(proxy: Proxy) -> None:
    """One small streamed answer, so that the peak counts what serving one takes."""
    list(
        chat_client(proxy).chat.completions.create(**CHAT_REQUEST, stream=True, extra_body=CHAT_OWN)
    )


LONG_PIECE = "lorem ipsum dolor sit amet " * 2_000  # 54 KB, no sentence ends
LONG_BYTES = 200 * MB


def test_a_200_mb_chat_stream_reaches_the_sdk_to_its_end_and_the_proxy_stays_flat(
    proxy: Proxy, upstream: Upstream
) -> None:
    pieces = LONG_BYTES // len(LONG_PIECE)

    def stream() -> Iterator[bytes]:
        yield chat_chunk("")
        for _ in range(pieces):
            yield chat_chunk(LONG_PIECE)
        yield chat_chunk(finish="stop")
        yield b"data: [DONE]\n\n"

    upstream.stream = lambda: iter([chat_chunk(BEFORE + AFTER), b"data: [DONE]\n\n"])
    warm(proxy)
    before = peak_rss(proxy)
    upstream.stream = stream
    size = 0
    ours: list[dict[str, Any]] = []
    finished = None
    for chunk in chat_client(proxy).chat.completions.create(
        **CHAT_REQUEST, stream=True, extra_body=CHAT_OWN
    ):
        if chunk.choices:
            size += len(chunk.choices[0].delta.content or "")
            finished = chunk.choices[0].finish_reason or finished
        elif chunk.model_extra and "citeproof" in chunk.model_extra:
            ours.append(chunk.model_extra["citeproof"])
    assert size == pieces * len(LONG_PIECE) and finished == "stop"  # all of it, to its end
    assert [event["type"] for event in ours][-1] == "citeproof.record"
    record = ours[-1]["record"]
    assert record["outcome"] == "fail"
    assert any("could not be verified to its end" in failure for failure in record["failures"])
    growth = peak_rss(proxy) - before
    assert growth < 150 * MB, f"the proxy grew by {growth / MB:.0f} MB"
    no_traceback(proxy)


def anthropic_stream(deltas: int, piece: str) -> Iterator[bytes]:
    """A Messages stream of one text block whose citation comes before its text (so the
    relay keeps the block whole until it ends), then ``deltas`` pieces of text."""
    cited = next(block for block in RECORDED["content"] if block.get("citations"))
    message = {**RECORDED, "content": [], "stop_reason": None}
    yield anthropic_event("message_start", {"type": "message_start", "message": message})
    start = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "text", "text": ""},
    }
    yield anthropic_event("content_block_start", start)
    citation = {"type": "citations_delta", "citation": copy.deepcopy(cited["citations"][0])}
    delta = {"type": "content_block_delta", "index": 0, "delta": citation}
    yield anthropic_event("content_block_delta", delta)
    text = anthropic_event(
        "content_block_delta",
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}},
    )
    for _ in range(deltas):
        yield text
    yield anthropic_event("content_block_stop", {"type": "content_block_stop", "index": 0})
    end = {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {}}
    yield anthropic_event("message_delta", end)
    yield anthropic_event("message_stop", {"type": "message_stop"})


def test_an_anthropic_block_cited_before_its_text_is_bounded_by_the_budget(
    proxy: Proxy, upstream: Upstream
) -> None:
    deltas = 200
    piece = "lorem ipsum dolor sit amet " * 8_000  # 216 KB
    upstream.stream = lambda: anthropic_stream(1, "A short block.")
    client = anthropic.Anthropic(base_url=proxy.url, api_key="sk-ant-k", max_retries=0)
    with client.messages.stream(**ANTHROPIC_REQUEST) as stream:
        "".join(stream.text_stream)
    before = peak_rss(proxy)
    upstream.stream = lambda: anthropic_stream(deltas, piece)
    with client.messages.stream(**ANTHROPIC_REQUEST) as stream:
        size = sum(len(text) for text in stream.text_stream)
        assert stream.get_final_message().stop_reason == "end_turn"  # read to its end
    assert size == deltas * len(piece)
    body = {**ANTHROPIC_REQUEST, "stream": True}
    headers = {"x-api-key": "sk-ant-k", "anthropic-version": "2023-06-01"}
    with httpx.stream(
        "POST", proxy.url + "/v1/messages", json=body, headers=headers, timeout=300
    ) as answer:
        ours = [
            json.loads(line[len(b"data: ") :])
            for line in answer.read().split(b"\n")
            if line.startswith(b'data: {"type":"citeproof.')
        ]
    errors = [event["message"] for event in ours if event["type"] == "citeproof.error"]
    assert any(f"buffer budget of {BUDGET:,} bytes" in message for message in errors), errors
    record = ours[-1]["record"]
    assert any("buffer budget" in failure for failure in record["failures"])
    growth = peak_rss(proxy) - before
    assert growth < 150 * MB, f"the proxy grew by {growth / MB:.0f} MB"
    no_traceback(proxy)


# 3. Large events parsed off the event loop.


def heavy_event() -> bytes:
    """A chat chunk of about 10 MB that takes long to read: arrays nested 40 deep, many
    times over (over a million of them: the proxy leaves it out once it has measured it)."""
    unit = "[" * 40 + "]" * 40
    count = 9_800_000 // (len(unit) + 1)
    head = chat_chunk(finish=None, x=0)
    return head.replace(b'"x": 0', b'"x": [' + ",".join([unit] * count).encode() + b"]")


STREAMS = 3


@pytest.fixture
def roomy_proxy(upstream: Upstream, tmp_path: Path) -> Iterator[Proxy]:
    """A proxy with the default buffer budget: room for the three 10 MB events at once."""
    running = start_proxy(upstream.url, tmp_path)
    yield running
    running.stop()


def test_a_small_request_is_answered_while_other_clients_10_mb_events_are_read(
    roomy_proxy: Proxy, upstream: Upstream
) -> None:
    proxy = roomy_proxy
    heavy = heavy_event()
    assert 9 * MB < len(heavy) < 10 * MB
    sent = threading.Semaphore(0)
    go_on = threading.Event()

    def stream() -> Iterator[bytes]:
        yield chat_chunk("")
        yield heavy
        sent.release()
        go_on.wait(300)
        yield chat_chunk(BEFORE + AFTER)
        yield chat_chunk(finish="stop")
        yield b"data: [DONE]\n\n"

    upstream.stream = stream
    order: list[tuple[str, int]] = []  # who got how much, in the order it came
    received = [bytearray() for _ in range(STREAMS)]

    def read_stream(number: int) -> None:  # bytes as they arrive, before any parse
        body = {**CHAT_REQUEST, **CHAT_OWN, "stream": True}
        url = proxy.url + "/v1/chat/completions"
        with httpx.stream("POST", url, json=body, timeout=300) as answer:
            for piece in answer.iter_raw():
                received[number].extend(piece)
                order.append((f"stream {number}", len(received[number])))

    readers = [threading.Thread(target=read_stream, args=(n,)) for n in range(STREAMS)]
    for reader in readers:
        reader.start()
    try:
        for _ in range(STREAMS):  # the proxy has each 10 MB event, and is reading them
            assert sent.acquire(timeout=120)
        answer = chat_client(proxy).chat.completions.create(**CHAT_REQUEST, extra_body=CHAT_OWN)
        order.append(("small", 0))
        assert answer.choices[0].message.content == BEFORE + AFTER
    finally:
        go_on.set()
        for reader in readers:
            reader.join(300)
    small = order.index(("small", 0))
    got = max((size for who, size in order[:small] if who != "small"), default=0)
    assert got < MB, "the small request waited until a 10 MB event had been read"
    for stream_bytes in received:  # each stream to its end, the event named in an error event
        assert b"more than 500,000 arrays and objects" in stream_bytes
        assert b"citeproof.record" in stream_bytes and stream_bytes.endswith(b"[DONE]\n\n")
    no_traceback(proxy)


# 4. A huge end offset.


@pytest.mark.parametrize("value", [10**30, 2**63, 10_000])
def test_a_citation_ending_past_its_document_is_flagged_and_the_answer_kept(
    value: int, proxy: Proxy, upstream: Upstream
) -> None:
    response = copy.deepcopy(RECORDED)
    cited = [block for block in response["content"] if block.get("citations")]
    cited[0]["citations"][0]["end_char_index"] = value  # its start is right
    upstream.answer = json.dumps(response).encode()
    try:
        client = anthropic.Anthropic(base_url=proxy.url, api_key="sk-ant-k", max_retries=0)
        raw = client.messages.with_raw_response.create(**ANTHROPIC_REQUEST)
    finally:
        upstream.answer = chat_answer(BEFORE + AFTER)
    assert raw.parse().id == RECORDED["id"]  # the answer, kept
    record = raw.http_response.json()["citeproof"]
    (invalid,) = record["invalid_citations"]
    assert invalid["where"] == "content[1].citations[0]"
    assert invalid["reason"].startswith("end_char_index ")
    assert "is past the end of the document (320 characters)" in invalid["reason"]
    assert record["outcome"] == "fail"
    no_traceback(proxy)
