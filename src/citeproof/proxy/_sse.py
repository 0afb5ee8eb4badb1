"""Server-sent events as they come over the wire: split, read, and written.

Each upstream event is kept as its exact bytes, so what the caller receives is what the
upstream sent, event for event, with citeproof's own events between them. An event is read
only for its ``event:`` name and its ``data:`` lines, per the SSE format (comments and other
fields are passed on, not read).

Its data is parsed once, as it is split off, by the proxy's one bounded, total parse
(`citeproof.proxy._parse`): JSON it cannot read makes the event *unreadable*, the reason in
`Event.problem`, instead of raising wherever the event is used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from citeproof.proxy._parse import read_json

_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")
_END_LONGEST = 4  # bytes of the longest end: CR LF CR LF
_LINE = re.compile(r"\r\n|\n|\r")
MAX_EVENT_BYTES = 10_000_000
"""Longest event read from an upstream: a Responses ``response.completed`` event repeats the
whole answer and its sources, a few MB at most."""


@dataclass(frozen=True, slots=True)
class Event:
    """One server-sent event: its bytes as sent (the blank line ending it included), its
    type (``None`` when it has none), its data lines joined, their JSON value (``None`` when
    the data is not JSON, or unreadable), and ``problem``: why the data cannot be read (None:
    it can)."""

    raw: bytes
    name: str | None
    data: str
    value: Any = None
    problem: str | None = None

    def json(self) -> Any:
        """The data as JSON, or None when it is not JSON (``[DONE]``) or cannot be read.
        The value is shared by every caller: read it, never change it."""
        return self.value


class EventTooLarge(ValueError):
    """An upstream event over `MAX_EVENT_BYTES`: the stream cannot be read on."""


class EventSplitter:
    """Bytes in, complete events out; a partial event waits for the rest of its bytes.
    Raises `EventTooLarge` for an event over `MAX_EVENT_BYTES`.

    `split` gives each event's bytes unread, for a caller that reads a large one elsewhere
    (off its event loop); `feed` reads them too. The end of an event is looked for only in
    what is new since the last look, so an event that comes in many chunks is scanned once."""

    def __init__(self) -> None:
        self._buffer = b""
        self._searched = 0  # where the next look for an event's end starts

    def feed(self, chunk: bytes) -> Iterator[Event]:
        for raw in self.split(chunk):
            yield read_event(raw)

    def split(self, chunk: bytes) -> Iterator[bytes]:
        self._buffer += chunk
        while True:
            end = _END.search(self._buffer, self._searched)
            if end is None:
                if len(self._buffer) > MAX_EVENT_BYTES:
                    raise EventTooLarge(f"an upstream event is over {MAX_EVENT_BYTES:,} bytes")
                self._searched = max(0, len(self._buffer) - _END_LONGEST + 1)
                return
            raw, self._buffer = self._buffer[: end.end()], self._buffer[end.end() :]
            self._searched = 0
            yield raw

    @property
    def pending(self) -> int:
        """Bytes held of an event not yet complete."""
        return len(self._buffer)

    def rest(self) -> bytes:
        """What came after the last complete event (an upstream that stopped mid-event)."""
        rest, self._buffer = self._buffer, b""
        self._searched = 0
        return rest


def read_event(raw: bytes) -> Event:
    name: str | None = None
    data: list[str] = []
    for line in _LINE.split(raw.decode("utf-8", "replace")):
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    joined = "\n".join(data)
    parsed, problem = read_json(joined)
    return Event(raw, name, joined, parsed, problem)


def write_event(name: str | None, data: Any) -> bytes:
    """One event: ``event: NAME`` (if any) and the data as one line of JSON."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    head = f"event: {name}\n" if name else ""
    return f"{head}data: {text}\n\n".encode()
