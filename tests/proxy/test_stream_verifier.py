"""`StreamVerifier`: an answer fed in pieces gets a verdict per sentence as soon as the next
sentence begins, and at `close` the record `citeproof.verify` gives for the whole answer."""

from __future__ import annotations

import anyio
import pytest

from citeproof import AnswerError, Source, verify
from citeproof.outcome import answer_to_json
from citeproof.proxy import AnswerVerdict, SentenceVerdict, StreamVerifier
from tests.proxy.verdicts import verdicts

POLICY = Source(
    id="policy",
    kind="document",
    text="Valuations older than six months are not accepted.\n\n"
    "A loan-to-value above 80% needs a senior underwriter.",
)
SENTENCES = [
    'The policy says "Valuations older than six months are not accepted." [policy]',
    ' It also says "A loan-to-value above 85% needs a senior underwriter." [policy]',
    "\n\n> A loan-to-value above 80% needs a senior underwriter.\n— [policy]",
    "\n\nNothing else is said [memo].",
]
ANSWER = "".join(SENTENCES)


def pieces(text: str, size: int) -> list[str]:
    return [text[start : start + size] for start in range(0, len(text), size)]


@pytest.mark.parametrize("size", [1, 4, 13, len(ANSWER)])
def test_each_sentence_gets_its_verdict_once_complete_and_the_end_the_whole_record(
    size: int,
) -> None:
    stream = StreamVerifier([POLICY])
    seen: list[tuple[int, SentenceVerdict]] = []
    for fed, piece in enumerate(pieces(ANSWER, size)):
        seen += [(fed, event) for event in stream.feed(piece)]
    last = stream.close()
    assert isinstance(last[-1], AnswerVerdict)
    sentences = [event for _, event in seen] + [e for e in last if isinstance(e, SentenceVerdict)]
    assert [ANSWER[e.span[0] : e.span[1]] for e in sentences] == SENTENCES
    assert [e.index for e in sentences] == [0, 1, 2, 3]
    whole = verify(ANSWER, [POLICY])
    assert verdicts(answer_to_json(last[-1].verified)) == verdicts(answer_to_json(whole))
    # Sentence by sentence, the same verdicts as in the whole answer.
    assert [q.status for e in sentences for q in e.verified.quotes] == [
        q.status for q in whole.quotes
    ]
    assert [c.verdict for e in sentences for c in e.verified.claims] == [
        c.verdict for c in whole.claims
    ]


def test_a_sentence_waits_for_the_marker_that_follows_its_full_stop() -> None:
    stream = StreamVerifier([POLICY])
    assert stream.feed('It says "Valuations older than six months are not accepted."') == []
    assert stream.feed(" [pol") == []  # the marker may still be the sentence's
    (event,) = stream.feed("icy] And")
    assert event.verified.original.endswith("[policy]")
    assert event.verified.quotes[0].status == "verified"


def test_the_async_api_gives_the_same_events() -> None:
    async def run() -> list[str]:
        stream = StreamVerifier([POLICY])
        kinds = []
        for piece in pieces(ANSWER, 9):
            kinds += [type(event).__name__ for event in await stream.afeed(piece)]
        kinds += [type(event).__name__ for event in await stream.aclose()]
        return kinds

    assert anyio.run(run) == ["SentenceVerdict"] * 4 + ["AnswerVerdict"]


def test_a_closed_stream_takes_no_more_text_and_bytes_are_refused() -> None:
    stream = StreamVerifier([POLICY])
    with pytest.raises(AnswerError, match="expected text, got bytes"):
        stream.feed(b"text")  # type: ignore[arg-type]
    stream.close()
    with pytest.raises(AnswerError, match="closed"):
        stream.feed("more")


def test_end_gives_the_last_sentence_before_the_whole_record_is_verified() -> None:
    stream = StreamVerifier([POLICY])
    stream.feed(ANSWER)
    (last,) = stream.end()
    assert last.index == 3 and last.verified.original == SENTENCES[-1]
    assert stream.end() == []
    with pytest.raises(AnswerError, match="closed"):
        stream.feed("more")
    assert [type(event).__name__ for event in stream.close()] == ["AnswerVerdict"]
