"""Server-sent events as the proxy reads them: whole events, whatever the chunking, their
bytes kept exactly; an upstream event past the limit stops the read with a clear error."""

from __future__ import annotations

import pytest

from citeproof.proxy import _sse as sse
from citeproof.proxy._sse import EventSplitter, EventTooLarge, read_event, write_event

STREAM = (
    b'event: message_start\ndata: {"type":"message_start"}\n\n'
    b": a comment\r\nevent: ping\r\ndata: {}\r\n\r\n"
    b'data: {"a":\ndata: 1}\n\n'
    b"data: [DONE]\n\n"
)


@pytest.mark.parametrize("size", [1, 3, 17, len(STREAM)])
def test_events_come_out_whole_and_byte_for_byte_whatever_the_chunks(size: int) -> None:
    splitter = EventSplitter()
    events = [
        event
        for start in range(0, len(STREAM), size)
        for event in splitter.feed(STREAM[start : start + size])
    ]
    assert b"".join(event.raw for event in events) == STREAM
    assert [event.name for event in events] == ["message_start", "ping", None, None]
    assert events[2].json() == {"a": 1}
    assert events[3].data == "[DONE]" and events[3].json() is None
    assert splitter.rest() == b""


def test_an_event_written_reads_back() -> None:
    written = write_event("citeproof.verdict", {"type": "citeproof.verdict", "text": "é\n"})
    event = read_event(written)
    assert event.name == "citeproof.verdict"
    assert event.json() == {"type": "citeproof.verdict", "text": "é\n"}


def test_an_event_past_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sse, "MAX_EVENT_BYTES", 100)
    splitter = EventSplitter()
    with pytest.raises(EventTooLarge, match="over 100 bytes"):
        list(splitter.feed(b"data: " + b"x" * 200))
