"""Verifying an answer while it streams: a verdict for each sentence as soon as it is complete.

`StreamVerifier` takes the answer's text as it arrives (`feed`) and gives back, for each
sentence (or block quote with its attribution) that the new text completed, a
`SentenceVerdict`: that sentence verified against the sources, its quotes and its claims. A
sentence is complete once the next one has begun, since the markers that cite it may follow its
full stop (``... is green. [S1]``); the last one is complete at `close`, which also gives the
`AnswerVerdict`: the whole answer verified, the same record as `citeproof.verify`. Nothing is
held back: the verdicts trail the text they judge by at most one sentence.

A sentence is verified on its own, over the same sources and policy as the whole answer, so
its quotes and claims get the verdicts they get in the whole answer; only what reads the whole
answer (footnote definitions at its end, quote and claim numbering) waits for the final record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from citeproof.errors import AnswerError
from citeproof.model import Policy, Source, Span, VerifiedAnswer
from citeproof.outcome import answer_to_json
from citeproof.verifier import MAX_ANSWER_CHARS, Verifier
from citeproof.verifier.parse import parse_answer

VERDICT_EVENT = "citeproof.verdict"
"""The SSE event type of a sentence's verdict."""
RECORD_EVENT = "citeproof.record"
"""The SSE event type of the final record."""
_MARKER_OPENERS = "[<(^—–-"


@dataclass(frozen=True, slots=True)
class SentenceVerdict:
    """One completed sentence (``index`` from 0) verified: ``span`` is where it is in the
    answer streamed so far; ``verified`` is the sentence alone verified, its offsets relative
    to the sentence's text."""

    index: int
    span: Span
    verified: VerifiedAnswer

    def to_json(self) -> dict[str, Any]:
        """The event's JSON: the sentence, its quotes and claims in the JSON contract's
        shape (offsets relative to ``text``), and their counts."""
        record = answer_to_json(self.verified)
        return {
            "type": VERDICT_EVENT,
            "index": self.index,
            "span": list(self.span),
            "text": record["original"],
            "corrected_text": record["text"],
            "counts": record["counts"],
            "claim_counts": record["claim_counts"],
            "quotes": record["quotes"],
            "claims": record["claims"],
        }


@dataclass(frozen=True, slots=True)
class AnswerVerdict:
    """The whole answer verified: the record `citeproof.verify` gives for it."""

    verified: VerifiedAnswer

    def to_json(self) -> dict[str, Any]:
        return {"type": RECORD_EVENT, "record": answer_to_json(self.verified)}


VerdictEvent = SentenceVerdict | AnswerVerdict


class StreamVerifier:
    """Verdicts for an answer that arrives in pieces (see the module docstring).

    ``sources`` and ``policy`` are those of `citeproof.verify` (a `Verifier` over them is
    built once; give ``verifier`` to share one). `feed` and `close` run the verification in
    the calling thread; `afeed` and `aclose` in a worker thread, for an event loop. After
    `close` nothing more may be fed. Raises `AnswerError` for text that is not ``str`` or an
    answer over `MAX_ANSWER_CHARS`, `SourceError` for bad sources.
    """

    def __init__(
        self,
        sources: Sequence[Source] = (),
        policy: Policy | None = None,
        *,
        answer_id: str | None = None,
        verifier: Verifier | None = None,
    ) -> None:
        self.verifier = verifier if verifier is not None else Verifier(sources, policy=policy)
        self.answer_id = answer_id
        self._text = ""
        self._done = 0  # where the next sentence starts
        self._count = 0
        self._ended = False
        self._closed = False

    @property
    def text(self) -> str:
        """The answer fed so far."""
        return self._text

    def feed(self, text: str) -> list[SentenceVerdict]:
        """Add ``text`` to the answer; the verdicts of the sentences it completed."""
        if self._ended:
            raise AnswerError("the stream is closed; nothing more can be fed", field="answer")
        if not isinstance(text, str):
            raise AnswerError(f"expected text, got {type(text).__name__}", field="answer")
        if len(self._text) + len(text) > MAX_ANSWER_CHARS:
            raise AnswerError(f"the answer is over {MAX_ANSWER_CHARS:,} characters", field="answer")
        self._text += text
        return self._complete(final=False)

    def end(self) -> list[SentenceVerdict]:
        """The answer has ended: the verdicts of its last sentences (none after the first
        call). Nothing more may be fed; `close` gives the whole record."""
        if self._ended:
            return []
        self._ended = True
        return self._complete(final=True)

    def close(self, answer: str | None = None) -> list[VerdictEvent]:
        """End of the answer: the verdicts of its last sentences (if `end` has not given
        them), then the `AnswerVerdict`.

        ``answer`` is the whole answer to verify for the final record when it is not the text
        fed (a vendor's native citations, converted once the whole response is known)."""
        if self._closed:
            raise AnswerError("the stream is already closed", field="answer")
        events: list[VerdictEvent] = list(self.end())
        self._closed = True
        whole = self._text if answer is None else answer
        events.append(AnswerVerdict(self.verifier.verify(whole, answer_id=self.answer_id)))
        return events

    async def aend(self) -> list[SentenceVerdict]:
        """`end`, with the verification in a worker thread."""
        return await anyio.to_thread.run_sync(self.end)

    async def afeed(self, text: str) -> list[SentenceVerdict]:
        """`feed`, with the verification in a worker thread."""
        return await anyio.to_thread.run_sync(self.feed, text)

    async def aclose(self, answer: str | None = None) -> list[VerdictEvent]:
        """`close`, with the verification in a worker thread."""
        return await anyio.to_thread.run_sync(self.close, answer)

    def _complete(self, *, final: bool) -> list[SentenceVerdict]:
        rest = self._text[self._done :]
        claims = parse_answer(rest, self.verifier.source_names).claims
        # The last claim may still grow (or gain its markers) unless the answer has ended.
        ready = len(claims) if final else len(claims) - 1
        if not final and claims and _may_end_previous(claims[-1].text):
            ready -= 1
        events: list[SentenceVerdict] = []
        start = 0
        for position in range(max(0, ready)):
            claim = claims[position]
            # A sentence ends after its own markers, which may follow its full stop.
            end = max([claim.span[1]] + [c.marker_span[1] for c in claim.citations])
            if position + 1 == len(claims):
                end = len(rest)
            piece = rest[start:end]
            span = (self._done + start, self._done + end)
            events.append(SentenceVerdict(self._count, span, self.verifier.verify(piece)))
            self._count += 1
            start = end
        self._done += start
        return events


def _may_end_previous(text: str) -> bool:
    """Whether the start of a sentence may yet turn out to end the one before it: the start
    of a marker (``[po``) or of a block quote's attribution line (``— [S1]``, ``Source: [2]``)."""
    start = text.lstrip()
    if start[:1] in _MARKER_OPENERS:
        return True
    head, colon, _ = start.partition(":")
    word = head.strip().casefold()
    return word in ("source", "sources") if colon else "sources".startswith(word)
