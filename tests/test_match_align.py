"""The matcher's alignment parts: similarity scores, the word-aligned spans an approximate
placement may be snapped to, and the probe that rules a source out before it is indexed."""

from __future__ import annotations

import hashlib

import pytest

from citeproof.verifier.match import VerbatimProbe
from citeproof.verifier.match import _align as align

LINCOLN = "The second battle of Lincoln occurred at Lincoln Castle."


@pytest.mark.parametrize(
    ("start", "end", "options"),
    [
        # Both edges cut a word: out or in at each, and one or two more words at each side.
        (
            6,
            20,
            [(4, 20), (4, 28), (4, 37), (11, 20), (11, 28), (11, 37), (0, 20), (0, 28), (0, 37)],
        ),
        # At the start of the text nothing lies before.
        (0, 10, [(0, 10), (0, 17), (0, 20)]),
        # At the end, with and without the full stop that clings to the last word.
        (4, 56, [(4, 56), (4, 55), (0, 56), (0, 55)]),
        (1, 55, [(0, 55), (0, 56), (4, 55), (4, 56)]),
        (
            11,
            22,
            [
                (11, 28),
                (11, 20),
                (11, 37),
                (11, 40),
                (4, 28),
                (4, 20),
                (4, 37),
                (4, 40),
                (0, 28),
                (0, 20),
                (0, 37),
                (0, 40),
            ],
        ),
        # An edge on a space is trimmed of it.
        (
            5,
            18,
            [(4, 17), (4, 20), (4, 28), (11, 17), (11, 20), (11, 28), (0, 17), (0, 20), (0, 28)],
        ),
    ],
)
def test_a_placement_is_snapped_only_to_whole_words(
    start: int, end: int, options: list[tuple[int, int]]
) -> None:
    assert align.snap_options(LINCOLN, start, end) == options
    for s, e in options:
        assert LINCOLN[s] != " " and LINCOLN[e - 1] != " "
        assert s == 0 or not (LINCOLN[s - 1].isalnum() and LINCOLN[s].isalnum())
        assert e == len(LINCOLN) or not (LINCOLN[e - 1].isalnum() and LINCOLN[e].isalnum())


@pytest.mark.parametrize(
    ("quote", "matched", "score"),
    [
        ("one two three four", "one two three four", 0.0),  # four words say too little
        ("one two three four five", "one two three four six", 0.8),  # one word of five
        ("one two three four five", "one two three four five", 1.0),
        ("one two three four five", "one, two three four five", 0.99),  # not identical text
        ("one two three four five", "", 0.0),
    ],
)
def test_word_similarity_counts_whole_words(quote: str, matched: str, score: float) -> None:
    assert align.word_similarity(quote, matched) == score


@pytest.mark.parametrize(
    ("quote", "matched", "score"), [("", "", 0.0), ("a", "a", 1.0), ("abcd", "abce", 0.75)]
)
def test_character_similarity_counts_edits(quote: str, matched: str, score: float) -> None:
    assert align.char_similarity(quote, matched) == score


def test_a_probe_looks_for_the_longest_runs_and_words_first() -> None:
    quote = '"the fan spins fast, the fan" \ud800'  # a lone surrogate, as surrogateescape leaves
    probe = VerbatimProbe.of(quote)
    assert probe.runs == ("fast,", "spins", 'fan"', "fan", "the", "\ud800")
    assert probe.words == ("spins", "fast", "fan", "the")
    assert probe.ascii is False
    expected = hashlib.blake2b(quote.encode("utf-8", "surrogatepass"), digest_size=16)
    assert probe.digest == expected.digest()
    assert VerbatimProbe.of("the fan spins").ascii is True
