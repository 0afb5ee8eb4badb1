"""A streamed answer relayed to the caller: the upstream's events as they come, each sentence's
verdict after the event that completed it, and the record before the last event.

Nothing the upstream sends ends the caller's stream early or goes unrecorded. Every event goes
through the one bounded, total parse as it is split off (`citeproof.proxy._parse`); every step
taken with it (reading its text, holding it for correction, verifying) is guarded, and any
failure *breaks* the stream's verification instead of the stream:

- an event that cannot be read (JSON nested too deeply, a lone surrogate) is left out, since
  the caller's SDK could not read it either, and an error event (``citeproof.error``, which
  every SDK skips) takes its place, naming the event and why;
- any other failure sends the same error event, and the event itself as the upstream sent it;
- from then on the events pass through unverified, and at the end the record is written all
  the same: the text verified before the break, with the break among its failures.

An upstream that stops mid-answer, sends an event over the size limit, or takes the proxy
past its buffer budget gets the record, then an error event in the vendor's shape (the SDK
raises it: the answer is incomplete).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
import httpx

from citeproof.adapters import Converted, from_anthropic
from citeproof.errors import InputError
from citeproof.proxy._answers import CheckedAnswer, OnFail, convert
from citeproof.proxy._apis import VendorApi
from citeproof.proxy._budget import Held, OverBudget
from citeproof.proxy._citations import convert_flagging
from citeproof.proxy._correcting import StreamCorrector
from citeproof.proxy._relay import relay_for
from citeproof.proxy._request_sources import ProxiedRequest
from citeproof.proxy._sse import Event, EventSplitter, EventTooLarge, read_event
from citeproof.proxy._stream import RECORD_EVENT, AnswerVerdict, SentenceVerdict, StreamVerifier
from citeproof.verifier import Verifier

log = logging.getLogger("citeproof.proxy")
ERROR_EVENT = "citeproof.error"
"""The type of citeproof's event saying verification stopped, and why."""
INLINE_BYTES = 4096
"""Largest event parsed on the event loop; a larger one (up to 10 MB, whose parse can take
seconds) is parsed in a worker thread."""


@dataclass(frozen=True, slots=True)
class StreamWork:
    """What relaying one stream needs from the proxy: the request, how failing answers are
    handled, the answer's size limit, the audit metadata, the verify lane (``in_lane``) and
    how an answer is recorded (``record``: its request id)."""

    api: VendorApi
    proxied: ProxiedRequest
    verifier: Verifier
    on_fail: OnFail
    answer_chars: int
    meta: Mapping[str, Any]
    in_lane: Callable[..., Awaitable[Any]]
    record: Callable[[CheckedAnswer, Mapping[str, Any]], str | None]


class RelayedStream:
    """One upstream stream, relayed (see the module docstring); ``held`` is its share of
    the proxy's buffer budget."""

    def __init__(self, work: StreamWork, held: Held) -> None:
        self.work = work
        self.held = held
        proxied = work.proxied

        def convert_block(block: dict[str, Any]) -> str:
            def adapter(body: object) -> Converted:
                return from_anthropic(body, proxied.forward, proxied.sources)

            converted, _ = convert_flagging(adapter, {"content": [block]})
            return converted.answer  # its invalid citations are in the final record's

        self.relay = relay_for(work.api, convert_block)
        self.stream = StreamVerifier(verifier=work.verifier)
        self.corrector = (
            StreamCorrector(self.relay, self.stream) if work.on_fail == "correct" else None
        )
        self.broken: str | None = None
        self.finished = False
        self._count = 0  # events read
        self._good = 0  # how much of the streamed text was verified

    async def events(self, answer: httpx.Response) -> AsyncIterator[bytes]:
        """The caller's stream, from the upstream's ``answer`` (closed at the end)."""
        splitter = EventSplitter()
        cut: str | None = None
        try:
            try:
                async for chunk in answer.aiter_bytes():
                    out: list[bytes] = []
                    self._hold(out, splitter.pending + len(chunk))
                    for raw in splitter.split(chunk):
                        blocked = await self._event(await _read(raw), out)
                        self._hold(out, splitter.pending)
                        for piece in out:
                            yield piece
                        out = []
                        if blocked:
                            return  # the error event ends the stream
                    for piece in out:
                        yield piece
            except httpx.HTTPError:
                cut = "the upstream's stream was cut off"
            except (EventTooLarge, OverBudget) as error:
                cut = str(error)
            out = []
            if not self.finished:
                if cut is not None:
                    self._break(out, cut)
                if await self._finish(out):
                    cut = None  # blocked: its error event ends the stream
                elif cut is None:
                    out.append(splitter.rest())
            if cut is not None:
                out.append(self.relay.error(cut))
            for piece in out:
                yield piece
        finally:
            self.held.release()
            await answer.aclose()

    def _hold(self, out: list[bytes], pending: int) -> None:
        """The stream's share of the buffer budget set to the ``pending`` bytes of the event
        not yet complete and what it keeps of the answer. Past the budget, verification stops
        and what was kept is let go (the events still pass); raises `OverBudget` when even
        without it the stream is past the budget (it cannot be read on)."""
        try:
            self.held.resize(pending + self._kept())
            return
        except OverBudget as error:
            if self.broken is not None or self.finished:
                raise  # nothing more can be let go
            retry = error.retry
        self.held.resize(pending + sys.getsizeof(self.stream.text))  # what stays
        total = f"the proxy's buffer budget of {self.held.total:,} bytes"
        self._break(
            out,
            f"other requests hold {total}"
            if retry
            else f"the answer is more than {total} can hold for one stream",
        )
        self.held.resize(pending + self._kept())

    def _kept(self) -> int:
        """About how many bytes this stream keeps of the answer: the text verified, what the
        relay keeps for the vendor's adapter, the events held for correction."""
        corrector = self.corrector.kept if self.corrector is not None else 0
        return sys.getsizeof(self.stream.text) + self.relay.kept + corrector

    async def _event(self, event: Event, out: list[bytes]) -> bool:
        """One upstream event: what goes to the caller now in ``out``; True when the answer
        was blocked (the stream ends)."""
        self._count += 1
        end = not self.finished and self._guarded(out, event, lambda: self.relay.is_end(event))
        if end and await self._finish(out):
            return True
        if event.problem is not None:
            self._break(out, f"{self._named(event)}: {event.problem}; it was left out")
            return False
        text = self._guarded(out, event, lambda: self.relay.take(event))
        before = len(self.stream.text)
        self._forward(event, text, before, out)
        if text and self.broken is None and not self.finished:
            try:
                if before + len(text) > self.work.answer_chars:
                    raise InputError(
                        f"the answer is over {self.work.answer_chars} characters", field="answer"
                    )
                out += self._released(await self.stream.afeed(text))
                self._good = len(self.stream.text)
            except Exception as error:  # verification stops, the stream goes on
                self._break(out, self._failed(event, error))
        return False

    def _forward(self, event: Event, text: str | None, before: int, out: list[bytes]) -> None:
        """The event on to the caller, or held until its sentence is judged (``correct``)."""
        corrector = self.corrector
        if corrector is None:
            out.append(event.raw)
            return
        try:
            if self.finished:
                out.append(corrector.repeat_whole(event))
            else:
                span = (before, before + len(text)) if text else None
                out += corrector.hold(event, span)
        except Exception as error:  # the event goes on as the upstream sent it
            self._break(out, self._failed(event, error))
            out.append(event.raw)

    async def _finish(self, out: list[bytes]) -> bool:
        """The events that end the answer: the last sentences' verdicts, the record, and with
        ``block`` an error event for an answer that failed (True: the stream stops there)."""
        self.finished = True
        work = self.work
        checked: CheckedAnswer | None = None
        if self.broken is None:
            try:
                out += self._released(await self.stream.aend(), ended=True)
                checked = await self._checked()
            except Exception as error:  # recorded as what was verified
                self._break(out, f"the answer could not be verified: {_reason(error)}")
        try:
            if checked is None:
                checked = await self._checked_broken()
            meta = dict(work.meta)
            if self.broken is not None:
                meta["stopped"] = self.broken
            request_id = await work.in_lane(work.record, checked, meta)
        except Exception as error:  # the stream still ends as it should
            log.warning("no record of a streamed answer: %s", _reason(error))
            out.append(self._ours_error(f"no record was made: {_reason(error)}"))
            return False
        self.relay.forget()  # the answer is verified: nothing more is kept of it
        record = checked.record(work.proxied, request_id)
        out.append(self.relay.ours({"type": RECORD_EVENT, "record": record}))
        if work.on_fail == "block" and checked.failures:
            out.append(
                self.relay.error("citeproof blocked the answer: " + "; ".join(checked.failures))
            )
            return True
        return False

    async def _checked(self) -> CheckedAnswer:
        """The whole answer, converted by the vendor's adapter and verified."""
        work = self.work
        converted, invalid = await work.in_lane(
            convert, work.api, self.relay.response(), work.proxied
        )
        self.stream.answer_id = self.relay.answer_id()
        events = await self.stream.aclose(answer=converted.answer)
        verified = next(e.verified for e in events if isinstance(e, AnswerVerdict))
        return CheckedAnswer.of(converted, verified, invalid)

    async def _checked_broken(self) -> CheckedAnswer:
        """The text verified before the break, verified whole, failing for the break."""
        work = self.work
        text = self.stream.text[: self._good]
        verified = await work.in_lane(work.verifier.verify, text, answer_id=self.relay.answer_id())
        sources = tuple(work.proxied.sources)
        converted = Converted(work.api.vendor, text, sources, (), text)
        stopped = f"the answer could not be verified to its end: {self.broken}"
        return CheckedAnswer.of(converted, verified, also=(stopped,))

    def _released(self, verdicts: list[SentenceVerdict], *, ended: bool = False) -> list[bytes]:
        """The judged sentences' held text, in the corrected wording (all that is held once
        the answer has ended), then their verdict events."""
        held: list[bytes] = []
        if self.corrector is not None:
            held = self.corrector.judged(verdicts) + (self.corrector.finish() if ended else [])
        return held + [self.relay.ours(verdict.to_json()) for verdict in verdicts]

    def _break(self, out: list[bytes], reason: str) -> None:
        """Verification stops (the first time) for ``reason``; the caller is told, and what
        was kept of the answer for verifying it is let go."""
        if self.broken is None:
            self.broken = reason
            log.warning("verification of a stream stopped: %s", reason)
            if self.corrector is not None:
                out += self.corrector.give_up()
            self.relay.forget()
        out.append(self._ours_error(reason))

    def _ours_error(self, message: str) -> bytes:
        return self.relay.ours({"type": ERROR_EVENT, "message": message})

    def _guarded(self, out: list[bytes], event: Event, step: Callable[[], Any]) -> Any:
        """``step()``, or None once its failure has broken verification."""
        try:
            return step()
        except Exception as error:  # verification stops, the stream goes on
            self._break(out, self._failed(event, error))
            return None

    def _named(self, event: Event) -> str:
        kind = f" ({event.name})" if event.name else ""
        return f"upstream event {self._count}{kind}"

    def _failed(self, event: Event, error: Exception) -> str:
        return f"{self._named(event)}: {_reason(error)}"


async def _read(raw: bytes) -> Event:
    """One event read: a large one in a worker thread, so that the event loop (every other
    client) does not wait while it is parsed."""
    if len(raw) <= INLINE_BYTES:
        return read_event(raw)
    return await anyio.to_thread.run_sync(read_event, raw)


def _reason(error: Exception) -> str:
    """An error in one line, for a person (its type when it says nothing)."""
    text = str(error).strip() or type(error).__name__
    return text if len(text) <= 300 else text[:299] + "…"
