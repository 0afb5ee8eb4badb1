"""Citation markers written slightly wrong are read when unambiguous, and recorded (003.1)."""

from __future__ import annotations

import pytest

from citeproof import verify
from citeproof.model import MarkerNormalisation
from citeproof.verifier.parse import normalise_markers
from tests.lending import MEMO, POLICY

QUOTE = '"Applications above 95% are declined."'


@pytest.mark.parametrize(
    "marker",
    ["<cite:S1p3>", "<cite:S1 p3>", "<cite: S1 ¶3>", "<cite:S1, para 3>", "<cite:S1;p3>"],
)
def test_a_marker_without_its_hash_cites_the_paragraph_meant_003_1(marker: str) -> None:
    answer = verify(f"They are declined: {QUOTE} {marker}", [POLICY, MEMO])
    (quote,) = answer.quotes
    assert quote.status == "verified"
    assert quote.source == POLICY.id
    assert "<cite:S1#p3>" in answer.text
    assert answer.original.endswith(marker)
    assert answer.normalised_markers == (
        MarkerNormalisation(marker, "<cite:S1#p3>", len(f"They are declined: {QUOTE} ")),
    )


def test_forms_the_parser_reads_are_left_as_written_003_1() -> None:
    for text in (f"{QUOTE} <cite:S1#p3>", f"{QUOTE} <cite: S1 # p3>", f"{QUOTE} [S1 ¶3]"):
        assert normalise_markers(text, ["S1", "S3"]).changes == ()


def test_an_ambiguous_or_unknown_marker_is_not_guessed_003_1() -> None:
    # "ap" + "p3" and "a" + "pp3" are both readings: neither is taken.
    assert normalise_markers("x <cite:app3>", ["a", "ap"]).changes == ()
    assert normalise_markers("x <cite:memop3>", ["S1"]).changes == ()
    # An id that really ends in "p2" is an id, not a paragraph.
    assert normalise_markers("x <cite:S1p3>", ["S1", "S1p3"]).changes == ()


def test_every_marker_of_an_answer_is_rewritten_and_offsets_are_into_the_original_003_1() -> None:
    text = "a <cite:S1p3> b <cite:S3 p1> c"
    result = normalise_markers(text, ["S1", "S3"])
    assert result.text == "a <cite:S1#p3> b <cite:S3#p1> c"
    assert [text[c.start :].startswith(c.written) for c in result.changes] == [True, True]


def test_a_long_run_of_unclosed_markers_is_read_in_bounded_time_F_5() -> None:
    text = "<cite:" * 50_000
    assert normalise_markers(text, ["S1"]).text == text


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("<cite:S1>p3</cite>", "<cite:S1#p3>"),
        ("<cite:S1> ¶ 3 </cite>", "<cite:S1#p3>"),
        ("<cite:S1>3</cite>", "<cite:S1#p3>"),
        ("<cite:S1#p3></cite>", "<cite:S1#p3>"),
    ],
)
def test_a_marker_written_as_an_element_cites_the_paragraph_inside_it_003_1(
    written: str, read: str
) -> None:
    answer = verify(f"They are declined: {QUOTE} {written}", [POLICY, MEMO])
    (quote,) = answer.quotes
    assert quote.status == "verified" and quote.source == POLICY.id
    assert answer.text.endswith(read)
    assert "</cite>" not in answer.text
    assert answer.normalised_markers == (
        MarkerNormalisation(written, read, len(f"They are declined: {QUOTE} ")),
    )


def test_an_element_marker_for_an_unknown_id_is_left_as_written_003_1() -> None:
    assert normalise_markers("x <cite:S9>p3</cite>", ["S1"]).changes == ()
    # A paragraph glued to the id in the opening tag is read too, the element's end with it.
    assert normalise_markers("x <cite:S1p3></cite>", ["S1"]).text == "x <cite:S1#p3>"


@pytest.mark.parametrize(
    ("marker", "read_as"),
    [
        ("[cite:S1]", "<cite:S1>"),
        ("[cite: S1]", "<cite:S1>"),
        ("[cite:S1#p3]", "<cite:S1#p3>"),
        ("[cite:S1 p3]", "<cite:S1#p3>"),
    ],
)
def test_the_canonical_marker_in_square_brackets_cites_its_source_003_1(
    marker: str, read_as: str
) -> None:
    answer = verify(f"They are declined: {QUOTE} {marker}", [POLICY, MEMO])
    (quote,) = answer.quotes
    assert quote.status == "verified"
    assert [(c.source, c.status) for c in answer.claims[-1].citations] == [(POLICY.id, "ok")]
    assert answer.normalised_markers == (
        MarkerNormalisation(marker, read_as, len(f"They are declined: {QUOTE} ")),
    )


def test_a_square_bracket_marker_is_left_when_not_one_of_the_ids_or_a_link_003_1() -> None:
    assert normalise_markers("x [cite:memo]", ["S1"]).changes == ()
    assert normalise_markers("see [cite:S1](https://example.org)", ["S1"]).changes == ()
    # A source really named "cite:S1" is cited by the bracket as written.
    assert normalise_markers("x [cite:S1]", ["S1", "cite:S1"]).changes == ()
