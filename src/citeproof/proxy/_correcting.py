"""A stream in the corrected wording (``--on-fail correct``): the text of each sentence is held
until its verdict is in, then sent with the corrected text in place of the model's.

`StreamCorrector` sits between the upstream's events and the client. An event that adds
answer text is held from the moment it arrives; so is every event after a held one, to keep
their order. When a sentence's verdict comes (`judged`), everything up to the sentence's end
is released: the text events rewritten so that the sentence reads as the verifier corrected
it (documents' wording; emails stay as written, as everywhere), unchanged events sent as the
upstream's own bytes, and an event whose text runs past the sentence split in two (the rest
waits for the next verdict). No text waits longer than the sentence it belongs to.

Events that repeat the whole answer (a Responses ``response.output_text.done``, the final
``response.completed``) are rewritten to the corrected whole. Text the relay does not take
from one event's own delta (an Anthropic text block with native citations, fed whole when it
ends) is sent as the upstream wrote it: its wording is the vendor's cited text, as
`citeproof.proxy._answers.corrected` leaves it for a non-streamed answer.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from citeproof.model import Span
from citeproof.proxy._relay import Relay
from citeproof.proxy._sse import Event, write_event
from citeproof.proxy._stream import SentenceVerdict, StreamVerifier


@dataclass(frozen=True, slots=True)
class _Held:
    event: Event
    span: Span | None  # the event's text in the streamed answer; None: it adds no text
    whole: Span | None = None  # the event's own whole text, before any split


@dataclass(frozen=True, slots=True)
class _Fix:
    span: Span
    wording: str


class StreamCorrector:
    """The events of one stream, held and released in the corrected wording (see the module
    docstring). ``stream`` is the `StreamVerifier` that the stream's text is fed to."""

    def __init__(self, relay: Relay, stream: StreamVerifier) -> None:
        self._relay = relay
        self._stream = stream
        self._held: deque[_Held] = deque()
        self._fixes: list[_Fix] = []
        self._sent = 0  # how much of the streamed answer has been released
        self._corrected: list[str] = []  # the answer as released, in the corrected wording
        self._given_up = False
        self._kept = 0  # bytes of the events held

    @property
    def kept(self) -> int:
        """About how many bytes the events held take (their bytes and their data)."""
        return self._kept

    def hold(self, event: Event, span: Span | None) -> list[bytes]:
        """Take one upstream event whose text is ``span`` of the streamed answer (None: it
        adds none); what may be sent now."""
        if self._given_up or (span is None and not self._held):
            return [event.raw]
        self._held.append(_Held(event, span, span))
        self._kept += _size(event)
        return []

    def judged(self, verdicts: list[SentenceVerdict]) -> list[bytes]:
        """Sentences judged: their text released in the corrected wording, to go before
        their verdict events."""
        released: list[bytes] = []
        for verdict in verdicts:
            wording = verdict.verified.text
            if wording != verdict.verified.original:
                self._fixes.append(_Fix(verdict.span, wording))
            released += self._release(verdict.span[1])
        return released

    def finish(self) -> list[bytes]:
        """The stream has ended: everything still held (the events that repeat the whole
        answer rewritten to the corrected whole)."""
        return self._release(len(self._stream.text))

    def give_up(self) -> list[bytes]:
        """Verification stopped (an error event says why): what is held goes out as the
        upstream sent it, and so does the rest of the stream."""
        self._given_up = True
        released = [held.event.raw for held in self._held]
        self._held.clear()
        self._kept = 0
        return released

    def _release(self, upto: int) -> list[bytes]:
        released: list[bytes] = []
        while self._held:
            held = self._held[0]
            if held.span is None:
                released.append(self.repeat_whole(held.event))
                self._let_go()
                continue
            start, end = held.span
            if end <= upto:
                released.append(self._send(held, start, end))
                self._let_go()
                continue
            if start < upto and self._splittable(held):
                released.append(self._send(held, start, upto))
                self._held[0] = _Held(held.event, (upto, end), held.whole)
            break
        return released

    def _let_go(self) -> None:
        self._kept -= _size(self._held.popleft().event)

    def _splittable(self, held: _Held) -> bool:
        return self._relay.with_text(held.event, "") is not None

    def _send(self, held: _Held, start: int, end: int) -> bytes:
        original = self._stream.text[start:end]
        wording = self._wording(start, end)
        self._sent = end
        rewritten = None
        if wording != original or held.whole != (start, end):
            rewritten = self._relay.with_text(held.event, wording)
        if rewritten is None:  # unchanged, or text that is not this event's own delta
            self._corrected.append(original)
            return held.event.raw
        self._corrected.append(wording)
        return rewritten

    def _wording(self, start: int, end: int) -> str:
        """The answer's text from ``start`` to ``end`` with every corrected sentence in it in
        its corrected wording (which goes where the sentence starts)."""
        text = self._stream.text
        pieces: list[str] = []
        at = start
        for fix in self._fixes:
            first, last = fix.span
            if last <= start or first >= end:
                continue
            if at < first:
                pieces.append(text[at:first])
            if first >= start:
                pieces.append(fix.wording)
            at = max(at, min(last, end))
        pieces.append(text[at:end])
        return "".join(pieces)

    def repeat_whole(self, event: Event) -> bytes:
        """``event`` with every string that is the whole answer replaced by its corrected
        wording, once all of it has been released (else as the upstream sent it)."""
        original = self._stream.text
        corrected = "".join(self._corrected)
        if not self._fixes or self._sent < len(original) or corrected == original:
            return event.raw
        data = event.json()
        if not isinstance(data, dict | list):
            return event.raw
        replaced, changed = _replace_text(data, original, corrected)
        return write_event(event.name, replaced) if changed else event.raw


def _size(event: Event) -> int:
    return len(event.raw) + len(event.data)


def _replace_text(value: Any, original: str, corrected: str) -> tuple[Any, bool]:
    if isinstance(value, str):
        return (corrected, True) if value == original else (value, False)
    if isinstance(value, list):
        items = [_replace_text(item, original, corrected) for item in value]
        return [item for item, _ in items], any(changed for _, changed in items)
    if isinstance(value, dict):
        pairs = {key: _replace_text(item, original, corrected) for key, item in value.items()}
        return {key: item for key, (item, _) in pairs.items()}, any(
            changed for _, changed in pairs.values()
        )
    return value, False
