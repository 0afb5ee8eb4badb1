"""The matcher's alignment parts: similarity scores, the word-aligned spans an approximate
placement may be snapped to, and the probe that rules a source out before it is indexed."""

from __future__ import annotations

import hashlib

import pytest

from citeproof.model import Source
from citeproof.verifier.match import VerbatimProbe, _probe, may_hold
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


QUOTED = 'He said ("ango"). Then, left.'


@pytest.mark.parametrize(
    ("start", "end", "options"),
    [
        # Every cut inside a run of punctuation at either edge is offered, and the edge with
        # the punctuation that clings to its word.
        (
            8,
            17,
            [
                (8, 17),
                (8, 22),
                (8, 28),
                (8, 14),
                (8, 23),
                (8, 29),
                (8, 16),
                (8, 15),
                (3, 17),
                (3, 22),
                (3, 28),
                (3, 14),
                (3, 23),
                (3, 29),
                (3, 16),
                (3, 15),
                (0, 17),
                (0, 22),
                (0, 28),
                (0, 14),
                (0, 23),
                (0, 29),
                (0, 16),
                (0, 15),
                (10, 17),
                (10, 22),
                (10, 28),
                (10, 14),
                (10, 23),
                (10, 29),
                (10, 16),
                (10, 15),
                (9, 17),
                (9, 22),
                (9, 28),
                (9, 14),
                (9, 23),
                (9, 29),
                (9, 16),
                (9, 15),
            ],
        ),
        (
            10,
            14,
            [
                (10, 14),
                (10, 22),
                (10, 28),
                (10, 17),
                (10, 23),
                (10, 29),
                (10, 16),
                (10, 15),
                (3, 14),
                (3, 22),
                (3, 28),
                (3, 17),
                (3, 23),
                (3, 29),
                (3, 16),
                (3, 15),
                (0, 14),
                (0, 22),
                (0, 28),
                (0, 17),
                (0, 23),
                (0, 29),
                (0, 16),
                (0, 15),
                (8, 14),
                (8, 22),
                (8, 28),
                (8, 17),
                (8, 23),
                (8, 29),
                (8, 16),
                (8, 15),
                (9, 14),
                (9, 22),
                (9, 28),
                (9, 17),
                (9, 23),
                (9, 29),
                (9, 16),
                (9, 15),
            ],
        ),
        (3, 24, [(3, 23), (3, 28), (3, 29), (3, 22), (0, 23), (0, 28), (0, 29), (0, 22)]),
    ],
)
def test_a_placement_is_offered_with_and_without_its_punctuation(
    start: int, end: int, options: list[tuple[int, int]]
) -> None:
    assert align.snap_options(QUOTED, start, end) == options


EDGES = '"Lincoln" fell'


@pytest.mark.parametrize(
    ("start", "end", "options"),
    [
        # Placements at or next to both ends of a text that starts with punctuation and ends
        # with a word.
        (0, 14, [(0, 14), (1, 14)]),
        (1, 14, [(1, 14), (0, 14)]),
        (2, 13, [(1, 14), (1, 9), (1, 8), (8, 14), (8, 9), (0, 14), (0, 9), (0, 8), (10, 14)]),
        (0, 9, [(0, 9), (0, 14), (0, 8), (1, 9), (1, 14), (1, 8)]),
        (1, 8, [(1, 8), (1, 14), (1, 9), (0, 8), (0, 14), (0, 9)]),
        (9, 14, [(10, 14), (1, 14), (0, 14)]),
        (10, 12, [(10, 14), (1, 14), (1, 9), (0, 14), (0, 9)]),
        (3, 6, [(1, 8), (1, 14), (1, 9), (0, 8), (0, 14), (0, 9)]),
    ],
)
def test_a_placement_at_the_ends_of_the_text_is_snapped_within_it(
    start: int, end: int, options: list[tuple[int, int]]
) -> None:
    assert align.snap_options(EDGES, start, end) == options


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


def test_a_probe_rules_out_only_a_text_that_cannot_hold_the_quote() -> None:
    probe = VerbatimProbe.of("the café opens early")
    assert probe.may_hold("the café opens early today") is True
    assert probe.may_hold("the café opens late") is False  # "early" is missing
    # Text that normalisation may still change (not NFC, or told so) is never ruled out.
    assert probe.may_hold("the cafe\u0301 opens late") is True
    assert probe.may_hold("the café opens late", False) is True
    ascii_probe = VerbatimProbe.of("the fan spins")
    assert ascii_probe.may_hold("the fan stops") is False
    assert ascii_probe.may_hold("the fän spins") is False  # an ASCII quote's run is missing
    # Nothing to look for: nothing is ruled out.
    assert VerbatimProbe.of('""').may_hold("anything at all") is True


def test_a_text_is_plain_when_normalising_keeps_its_ascii_words() -> None:
    assert _probe.plain("abc") is True
    assert _probe.plain("café") is True
    assert _probe.plain("cafe\u0301") is False  # not NFC
    assert _probe.plain("a\u200bb") is False  # an invisible character joins two words


def test_a_source_is_probed_on_its_own_text() -> None:
    probe = VerbatimProbe.of("the fan spins")
    assert may_hold(probe, Source(id="S1", kind="document", text="the fan spins")) is True
    assert may_hold(probe, Source(id="S1", kind="document", text="the fan stops")) is False


def test_rulings_remember_each_outcome_and_each_texts_plainness_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []
    real_plain = _probe.plain

    def counted(text: str) -> bool:
        asked.append(text)
        return real_plain(text)

    monkeypatch.setattr(_probe, "plain", counted)
    rulings = _probe.Rulings()
    early, late = VerbatimProbe.of("the café opens early"), VerbatimProbe.of("opens late")
    text = "the café opens late"
    assert rulings.may_hold(early, text, "k1") is False
    assert rulings.may_hold(late, text, "k1") is True
    assert asked == [text]  # the text's plainness was worked out once, for both probes
    # The outcome is remembered by content key: the text is not read again.
    assert rulings.may_hold(early, "the café opens early", "k1") is False
    rulings.may_hold(VerbatimProbe.of("the fan spins"), "the fan spins", "k2")
    assert asked == [text]  # an ASCII text is plain without asking


def test_rulings_keep_at_most_their_bound_least_recently_used_first() -> None:
    rulings = _probe.Rulings(most=2)
    probes = [VerbatimProbe.of(f"word{n} here") for n in range(3)]
    for n, probe in enumerate(probes):
        assert rulings.may_hold(probe, f"word{n} here", "k") is True
    # The newest two are remembered (a text that would now rule them out is not read)...
    assert rulings.may_hold(probes[2], "nothing", "k") is True
    assert rulings.may_hold(probes[1], "nothing", "k") is True
    # ...the oldest was forgotten and is probed again.
    assert rulings.may_hold(probes[0], "nothing", "k") is False


@pytest.mark.parametrize(
    ("query", "target", "most", "placed"),
    [
        ("abc", "xxabcxx", 0, (0, [(2, 5)])),
        ("abd", "xxabcxx", 0, None),  # one edit away, none allowed
        ("abd", "xxabcxx", 1, (1, [(2, 4), (2, 5)])),
        ("", "x", 1, None),
        ("ab", "ab ab ab ab ab ab", 0, (0, [(0, 2), (3, 5), (6, 8), (9, 11)])),  # four at most
        ("café", "xx cafe xx", 1, (1, [(3, 6), (3, 7)])),
    ],
)
def test_an_infix_alignment_gives_its_edits_and_best_places(
    query: str, target: str, most: int, placed: tuple[int, list[tuple[int, int]]] | None
) -> None:
    assert align.infix(query, target, most) == placed


@pytest.mark.parametrize(
    ("quote", "target", "most", "placed"),
    [
        ("a b c", "x a b c y", 1, (0, [(2, 7)])),
        ("a b z", "x a b c y", 1, (1, [(2, 5), (2, 7)])),  # one word changed
        ("a b z w", "x a b c y", 1, None),  # two words: more than allowed
        ("a, b. c", "x a b c y", 0, (0, [(2, 7)])),  # punctuation aside
        ("a b c", "a b c a b c", 0, (0, [(0, 5), (6, 11)])),
        ("", "a b", 1, None),
        ("a", "", 1, None),
    ],
)
def test_a_word_alignment_counts_whole_words_and_spans_characters(
    quote: str, target: str, most: int, placed: tuple[int, list[tuple[int, int]]] | None
) -> None:
    assert align.word_infix(quote, target, most) == placed
