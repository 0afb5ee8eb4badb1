"""Issue 9 §5: the answer parser does bounded work on any answer up to the answer limit:
an answer made of citation markers or quotes past what any answer holds is refused with a
clear error instead of being parsed for minutes (002: parse every answer)."""

from __future__ import annotations

import gc

import pytest

from citeproof import Source, verify
from citeproof.errors import AnswerError
from citeproof.verifier import MAX_ANSWER_CHARS
from citeproof.verifier.parse import parse_answer

SOURCES = [Source(id="S1", kind="document", text="The rate is fixed.")]
MIX = '"a" [1] [^1] [S1, ¶2] <cite:S1#p1> [2-4] "[3]" [^x]: [1]\n'


def fill(piece: str) -> str:
    return piece * (MAX_ANSWER_CHARS // len(piece))


@pytest.mark.parametrize("piece", [MIX, '"[1]', "[1]", '"q" '])
def test_an_answer_of_nothing_but_markers_or_quotes_is_refused_clearly(piece: str) -> None:
    with pytest.raises(AnswerError, match=r"more than [\d,]+ (citation markers|quotes)"):
        verify(fill(piece), SOURCES)


def test_footnote_openers_up_to_the_answer_limit_parse() -> None:
    parsed = parse_answer(fill("[^"))
    assert parsed.quotes == () and parsed.citations == ()


def test_a_long_real_answer_still_parses_and_the_collector_is_left_as_it_was() -> None:
    answer = 'The policy says "the rate is fixed" [S1]. ' * 2000
    assert gc.isenabled()
    verified = verify(answer, SOURCES)
    assert len(verified.quotes) == 2000 and gc.isenabled()
