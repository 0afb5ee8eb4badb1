"""Elided quotes (003.2): each segment after the previous one, the gap between them bounded,
the cited paragraph preferred, and the tightest chain of equal ones chosen."""

from __future__ import annotations

import pytest

from citeproof.model import Match, Source
from citeproof.verifier.match import MatchSettings, find_quote, prepare
from citeproof.verifier.match import _index as index_module
from citeproof.verifier.match import _search as search_module

FILLER = "Filler words stand here. " * 6
CATS = ["the cat sat."] * 25 + ["the dog ran home quickly."]


def source(*paragraphs: str) -> Source:
    return Source(id="S1", kind="document", text="\n\n".join(paragraphs))


def find(quote: str, src: Source, **kwargs: object) -> Match | None:
    return find_quote(quote, prepare(src, cache=None), **kwargs)  # type: ignore[arg-type]


def test_the_cited_paragraph_is_preferred_however_often_the_first_segment_occurs() -> None:
    match = find("the ... ran home quickly", source(*CATS), paragraph=26)
    assert match is not None and match.method == "exact"
    assert (match.paragraph, match.text) == (26, "the dog ran home quickly")


def test_among_exact_chains_the_tightest_from_the_first_placements_wins() -> None:
    # The first twenty placements of "the" are tried: the chain from the last of them is the
    # tightest that reaches "ran home quickly".
    match = find("the ... ran home quickly", source(*CATS))
    assert match is not None and match.paragraph == 20
    assert match.text == "\n\n".join(CATS[19:25]) + "\n\nthe dog ran home quickly"


def test_an_exact_chain_beats_a_closer_approximate_one() -> None:
    src = source(
        "Today, many of these are often replaced by Flash memory.",
        FILLER,
        "Today, many of these are often replaced with Flash memory.",
    )
    quote = "Today, many of these ... are often replaced with Flash memory"
    match = find(quote, src, settings=MatchSettings(max_ellipsis_gap=60))
    assert match is not None and (match.paragraph, match.method, match.score) == (3, "exact", 1.0)


def test_an_approximate_segment_far_into_the_source_is_found() -> None:
    src = source(FILLER, "Today, many of these are often replaced by Flash memory.")
    quote = "Today, many of these ... are often replaced with Flash memory"
    match = find(quote, src, settings=MatchSettings(max_ellipsis_gap=60))
    assert match is not None and match.method == "fuzzy" and match.paragraph == 2
    assert match.text == "Today, many of these are often replaced by Flash memory"
    start = src.text.index("Today")
    assert match.segments == ((start, start + 20), (start + 21, start + 55))


@pytest.mark.parametrize(
    ("first", "last", "paragraph", "text"),
    [
        # The first placement cannot be continued: a later one is tried.
        (
            "Today, many of these apples.",
            "Today, many of these chips are often replaced.",
            3,
            "Today, many of these chips are often replaced",
        ),
        # The placement at the very start of the source is one.
        (
            "Today, many of these are often replaced.",
            "Today, many of these chips.",
            1,
            "Today, many of these are often replaced",
        ),
    ],
)
def test_every_placement_of_the_first_segment_is_tried(
    first: str, last: str, paragraph: int, text: str
) -> None:
    match = find("Today, many of these ... are often replaced", source(first, FILLER * 15, last))
    assert match is not None and (match.paragraph, match.text) == (paragraph, text)


def test_the_gap_bound_counts_from_the_end_of_one_segment_to_the_next() -> None:
    # "are often replaced" starts 15 characters after "Today, many of these" ends.
    src = source("Today, many of these old ROM chips are often replaced.")
    quote = "Today, many of these ... are often replaced"
    found = find(quote, src, settings=MatchSettings(max_ellipsis_gap=15))
    assert (
        found is not None and found.text == "Today, many of these old ROM chips are often replaced"
    )
    assert find(quote, src, settings=MatchSettings(max_ellipsis_gap=14)) is None


def test_a_quote_elided_twice_has_three_segments_in_order() -> None:
    src = source("Today, many of these old ROM chips are often replaced.")
    match = find("Today, many ... old ROM chips ... often replaced", src)
    assert match is not None and match.method == "exact"
    assert match.segments == ((0, 11), (21, 34), (39, 53))
    assert match.text == "Today, many of these old ROM chips are often replaced"


def test_an_elided_quote_is_found_through_the_postings_and_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(index_module, "EXACT_SCAN_LIMIT", 0)
    monkeypatch.setattr(search_module, "_ALIGN_WHOLE", 0)
    src = source(*CATS[:5], "Today, many of these old ROM chips are often replaced.", FILLER)
    index = prepare(src, cache=None)
    index.build_candidate_index()
    exact = find_quote("Today, many ... often replaced", index, paragraph=6)
    assert exact is not None and exact.method == "exact" and exact.paragraph == 6
    fuzzy = find_quote("Today, many of thesse old ROM ... often replaced", index, paragraph=6)
    assert fuzzy is not None and fuzzy.method == "fuzzy" and fuzzy.paragraph == 6
    assert fuzzy.text == "Today, many of these old ROM chips are often replaced"


LONG = "the big brown dog then ran home quickly."
SHORT = "the cat ran home quickly."


@pytest.mark.parametrize(
    ("paragraph", "text"), [(None, SHORT[:-1]), (1, SHORT[:-1]), (2, LONG[:-1])]
)
def test_the_cited_paragraphs_chain_wins_over_a_tighter_one_elsewhere(
    paragraph: int | None, text: str
) -> None:
    match = find("the ... ran home quickly", source(SHORT, LONG), paragraph=paragraph)
    assert match is not None and match.text == text
    assert match.paragraph == (paragraph or 1)


def test_a_chain_starting_where_the_cited_paragraph_ends_is_outside_it() -> None:
    text = LONG + " " + SHORT
    end = len(LONG) + 1
    src = Source(id="S1", kind="document", text=text, paragraphs=((0, end), (end, len(text))))
    match = find("the ... ran home quickly", src, paragraph=1)
    assert match is not None and (match.paragraph, match.text) == (1, LONG[:-1])
    tighter = find("the ... ran home quickly", src, paragraph=2)
    assert tighter is not None and (tighter.paragraph, tighter.text) == (2, SHORT[:-1])


# -- how far an approximate search looks ------------------------------------------------


@pytest.mark.parametrize(
    ("length", "min_similarity", "edits"),
    [(30, 0.8, 20), (20, 0.8, 13), (10, 0.5, 10), (10, 0.9, 6)],
)
def test_the_edits_searched_for_follow_the_quote_length_and_threshold(
    length: int, min_similarity: float, edits: int
) -> None:
    # 1 - d / len >= s, with word similarity allowed down to 0.6 of the characters.
    settings = MatchSettings(min_similarity=min_similarity)
    assert search_module._max_edits("x" * length, settings) == edits


def test_the_regions_aligned_are_the_cited_paragraph_and_the_candidates_widened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(search_module, "_ALIGN_WHOLE", 100)
    passage = "A relief force under the command of William Marshal attacked the castle."
    text = passage + " " + FILLER * 4 + passage
    src = Source(id="S1", kind="document", text=text, paragraphs=((0, 60), (61, len(text))))
    index = prepare(src, cache=None)
    quote = "relief force under the command of Wiliam Marshal"
    slack = len(quote) // 3 + 8
    widened = [
        (max(0, start - slack), min(len(text), start + len(quote) + 2 * slack))
        for start in index.candidates(quote, 6)
    ]
    assert widened[0][0] == 0 and widened[-1][1] == len(text)  # clipped at both ends
    assert search_module._regions(index, quote, (0, 60)) == [(0, 60), *widened]
    # A cited paragraph longer than a whole alignment is left to the candidates.
    assert search_module._regions(index, quote, (61, len(text))) == widened
    assert search_module._regions(index, quote, None) == widened
    # A source this short is aligned whole.
    monkeypatch.setattr(search_module, "_ALIGN_WHOLE", len(text))
    assert search_module._regions(index, quote, (0, 60)) == [(0, len(text))]


def test_a_twenty_character_quote_is_long_enough_to_be_misspelt() -> None:
    text = "Russia signed the Brest-Litovsk Treatty in 1918."
    match = find("Brest-Litovsk Treaty", source(text))  # two words, twenty characters
    assert match is not None and match.text == "Brest-Litovsk Treatty"
    assert find("Brest-Litovsk Treat", source(text.replace("Treatty", "Treaty"))) is None


def test_six_shared_words_are_enough_context_for_a_changed_fact_f_1() -> None:
    src = source("The 5th Oklahoma Legislature met in special session from January 17, 1916.")
    match = find("The 11th Oklahoma Legislature met in special", src)
    assert match is not None and match.text == "The 5th Oklahoma Legislature met in special"
    assert find("The 11th Oklahoma Legislature met in", src) is None


# -- word by word, and past edlib's alphabet ---------------------------------------------

LINCOLN = (
    "The Second Battle of Lincoln occurred at Lincoln Castle on Saturday 20 May 1217, "
    "during the First Barons' War, between the forces of the future Louis VIII of France."
)


@pytest.mark.parametrize(
    ("quote", "text"),
    [
        # A changed first or last word is one word edit: the passage keeps its length.
        (
            "extraordinarily Lincoln occurred at Lincoln Castle on Saturday 20",
            "of Lincoln occurred at Lincoln Castle on Saturday 20",
        ),
        (
            "of Lincoln occurred at Lincoln Castle on Saturday extraordinarily",
            "of Lincoln occurred at Lincoln Castle on Saturday 20",
        ),
    ],
)
def test_a_whole_word_changed_at_an_edge_is_aligned_word_by_word_003_6(
    quote: str, text: str
) -> None:
    match = find(quote, source(LINCOLN, FILLER))
    assert match is not None and match.method == "fuzzy" and match.text == text


def test_a_misquote_is_found_in_a_source_of_more_than_256_distinct_characters() -> None:
    many = "".join(chr(0x4E00 + i) for i in range(300))  # edlib takes at most 256 symbols
    text = many[:150] + " The committee approved the annual budget on Monday. " + many[150:]
    match = find("The comittee approved the anual budget on Monday", source(text))
    assert match is not None and match.method == "fuzzy"
    assert match.text == "The committee approved the annual budget on Monday"
