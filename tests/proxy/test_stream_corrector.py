"""`--on-fail correct` in a stream: whatever the chunk boundaries (one character, mid-word,
across a sentence's end), the text the client assembles is the corrected text `citeproof
verify` gives, every sentence's text is released before its verdict, and events that repeat
the whole answer repeat the corrected one. The upstream's events are written as OpenAI and
Anthropic send them; the relays and the verifier are the proxy's own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from citeproof import Source, verify
from citeproof.proxy import StreamVerifier
from citeproof.proxy._correcting import StreamCorrector
from citeproof.proxy._relay import ChatRelay, MessagesRelay, Relay, ResponsesRelay
from citeproof.proxy._sse import Event, read_event, write_event

POLICY = (
    "Valuations older than six months are not accepted.\n\n"
    "A loan-to-value above 80% needs a senior underwriter before an offer is issued."
)
SOURCES = [Source(id="policy", kind="document", text=POLICY)]
ANSWER = (
    'The policy says "Valuations older than six months are not accepted." [policy] '
    'It also says "A loan-to-value above 80% needs a senior underwriter before an offer is '
    'made." [policy] Nothing else applies.'
)
CORRECTED = verify(ANSWER, SOURCES).text


def pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def chat_events(parts: list[str]) -> list[bytes]:
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    events = [
        write_event(None, {**head, "choices": [{"index": 0, "delta": {"role": "assistant"}}]})
    ]
    events += [
        write_event(None, {**head, "choices": [{"index": 0, "delta": {"content": part}}]})
        for part in parts
    ]
    done = {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    return [*events, write_event(None, done), b"data: [DONE]\n\n"]


def responses_events(parts: list[str]) -> list[bytes]:
    def event(kind: str, **data: Any) -> bytes:
        return write_event(kind, {"type": kind, **data})

    final = {
        "id": "resp_1",
        "output": [
            {
                "type": "message",
                "content": [{"type": "output_text", "text": ANSWER, "annotations": []}],
            }
        ],
    }
    return [
        event("response.created", response={"id": "resp_1", "output": []}),
        *(event("response.output_text.delta", delta=part) for part in parts),
        event("response.output_text.done", text=ANSWER),
        event("response.completed", response=final),
    ]


def messages_events(parts: list[str]) -> list[bytes]:
    def event(kind: str, **data: Any) -> bytes:
        return write_event(kind, {"type": kind, **data})

    return [
        event("message_start", message={"id": "msg_1", "role": "assistant", "content": []}),
        event("content_block_start", index=0, content_block={"type": "text", "text": ""}),
        *(
            event("content_block_delta", index=0, delta={"type": "text_delta", "text": part})
            for part in parts
        ),
        event("content_block_stop", index=0),
        event("message_stop"),
    ]


def run(relay: Relay, events: list[bytes]) -> tuple[list[Event], list[tuple[int, int]]]:
    """The events the client gets, and where each sentence's verdict came among them (its
    position, and how much of the corrected text had been sent by then)."""
    stream = StreamVerifier(SOURCES)
    corrector = StreamCorrector(relay, stream)
    sent: list[bytes] = []
    verdict_at: list[tuple[int, int]] = []

    def text_so_far() -> int:
        return len("".join(_texts(relay, [read_event(raw) for raw in sent])))

    for raw in events:
        event = read_event(raw)
        if relay.is_end(event):
            verdicts = stream.end()
            sent += corrector.judged(verdicts) + corrector.finish()
            verdict_at += [(len(sent), text_so_far()) for _ in verdicts]
            sent.append(corrector.repeat_whole(event))
            continue
        before = len(stream.text)
        text = relay.take(event)
        sent += corrector.hold(event, (before, before + len(text)) if text else None)
        if text:
            verdicts = stream.feed(text)
            sent += corrector.judged(verdicts)
            verdict_at += [(len(sent), text_so_far()) for _ in verdicts]
    return [read_event(raw) for raw in sent], verdict_at


def _texts(relay: Relay, events: list[Event]) -> list[str]:
    texts = []
    for event in events:
        data = event.json()
        if isinstance(relay, ChatRelay) and isinstance(data, dict) and data.get("choices"):
            texts.append(data["choices"][0]["delta"].get("content") or "")
        elif isinstance(data, dict) and data.get("type") == "response.output_text.delta":
            texts.append(data["delta"])
        elif isinstance(data, dict) and data.get("type") == "content_block_delta":
            texts.append(data["delta"]["text"])
    return texts


def test_the_answer_needs_a_correction() -> None:
    assert "before an offer is issued" in CORRECTED and CORRECTED != ANSWER


@pytest.mark.parametrize("size", [1, 3, 7, 40, 10_000])
@pytest.mark.parametrize(
    ("make", "build"),
    [
        (ChatRelay, chat_events),
        (ResponsesRelay, responses_events),
        (lambda: MessagesRelay(lambda block: ""), messages_events),
    ],
    ids=["chat.completions", "responses", "messages"],
)
def test_the_client_assembles_the_corrected_text_whatever_the_chunks(
    size: int, make: Any, build: Any
) -> None:
    relay = make()
    events, verdict_at = run(relay, build(pieces(ANSWER, size)))
    assert "".join(_texts(relay, events)) == CORRECTED
    # Three sentences, each verdict after its own text: the sent text grows verdict by verdict
    # and is whole by the last.
    assert len(verdict_at) == 3
    assert [at for _, at in verdict_at] == sorted(at for _, at in verdict_at)
    assert verdict_at[-1][1] == len(CORRECTED)
    assert verdict_at[0][1] >= CORRECTED.index("[policy]")


def test_events_that_repeat_the_whole_answer_repeat_the_corrected_one() -> None:
    events, _ = run(ResponsesRelay(), responses_events(pieces(ANSWER, 5)))
    done = [e.json() for e in events if e.name == "response.output_text.done"]
    completed = [e.json() for e in events if e.name == "response.completed"]
    assert done[0]["text"] == CORRECTED
    assert completed[0]["response"]["output"][0]["content"][0]["text"] == CORRECTED


def test_a_stream_that_needs_no_correction_keeps_the_upstreams_bytes() -> None:
    """Only an event that runs across a sentence's end is sent in two (its sentence's part
    before the verdict, the rest after); every other event is the upstream's own bytes."""
    clean = ANSWER.replace("made", "issued")
    stream_bytes = chat_events(pieces(clean, 4))
    relay = ChatRelay()
    events, _ = run(relay, stream_bytes)
    sent = [event.raw for event in events]
    assert "".join(_texts(relay, events)) == clean
    kept = [raw for raw in sent if raw in stream_bytes]
    assert len(kept) >= len(stream_bytes) - 2  # two sentence ends fall inside a chunk
    assert len(sent) <= len(stream_bytes) + 2


def test_given_up_the_rest_goes_out_as_the_upstream_sent_it() -> None:
    relay = ChatRelay()
    stream = StreamVerifier(SOURCES)
    corrector = StreamCorrector(relay, stream)
    raw = chat_events(["The policy says"])
    first = read_event(raw[1])
    held = corrector.hold(first, (0, len(relay.take(first) or "")))
    assert held == []
    assert corrector.give_up() == [raw[1]]
    assert corrector.hold(read_event(raw[2]), (0, 3)) == [raw[2]]
    assert json.loads(read_event(raw[2]).data)["choices"][0]["delta"] == {}
