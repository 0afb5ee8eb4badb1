"""The quote matcher. Passages are short excerpts from QuoteSum (Wikipedia, CC BY-SA)."""

from __future__ import annotations

import pytest

import citeproof.verifier.match._index as index_module
from citeproof.model import Match, Source
from citeproof.verifier.match import MatchSettings, find_quote, normalise, prepare

LINCOLN = (
    "The Second Battle of Lincoln occurred at Lincoln Castle on Saturday 20 May 1217, "
    "during the First Barons' War, between the forces of the future Louis VIII of France "
    "and those of King Henry III of England. Louis's forces were attacked by a relief force "
    "under the command of William Marshal, 1st Earl of Pembroke."
)
ROM = (
    'Today, many of these "read-only" memories – especially the BIOS – are often replaced '
    "with Flash memory (see below), to permit in-place reprogramming should the need for a "
    "firmware upgrade arise."
)
NCAS = (
    "The National Centre for Atmospheric Science (NCAS) is a world leader in atmospheric "
    "science. NCAS is one of the Natural Environment Research Council's (NERC) six research "
    "centres, and was formed in 2002 to provide the UK with national capability in "
    "atmospheric science research and technology."
)
OKLAHOMA = "The state legislature also met in special session from January 20 to March 19, 1910."


def source(*paragraphs: str, sid: str = "S1") -> Source:
    return Source(id=sid, kind="document", text="\n\n".join(paragraphs))


def find(quote: str, src: Source, **kwargs: object) -> Match | None:
    return find_quote(quote, prepare(src), **kwargs)  # type: ignore[arg-type]


def assert_consistent(match: Match, src: Source) -> None:
    assert match.text == src.text[match.span[0] : match.span[1]]
    assert 0.0 <= match.score <= 1.0


# -- 003.2 / 003.3: a quote is found in the source it was given -------------------------


def test_003_2_exact_quote_found_in_given_source() -> None:
    src = source(LINCOLN, ROM)
    match = find("the forces of the future Louis VIII of France", src)
    assert match is not None
    assert match.method == "exact" and match.score == 1.0
    assert match.text == "the forces of the future Louis VIII of France"
    assert match.source_id == "S1"
    assert match.segments == ()
    assert_consistent(match, src)


def test_003_3_quote_absent_from_source_not_found() -> None:
    src = source(LINCOLN)
    assert find("a world leader in atmospheric science", src) is None


def test_003_3_empty_and_blank_quotes_not_found() -> None:
    src = source(LINCOLN)
    for quote in ("", "   ", '""', "“ ”", "…", "[...]"):
        assert find(quote, src) is None


def test_003_2_quote_with_curly_marks_and_dashes_is_exact() -> None:
    src = source(ROM)
    match = find("“Today, many of these “read-only” memories - especially the BIOS —”", src)
    assert match is not None and match.method == "exact"
    assert match.text == 'Today, many of these "read-only" memories – especially the BIOS –'


def test_003_2_short_quotes_of_one_to_three_words() -> None:
    src = source(LINCOLN, NCAS)
    for quote in ("Pembroke", "Lincoln Castle", "world leader in"):
        match = find(quote, src)
        assert match is not None and match.method == "exact"
        assert match.text == quote


def test_003_2_source_without_word_characters() -> None:
    src = source("... --- !!! ???")
    assert find("anything at all", src) is None
    match = find("!!!", src)
    assert match is not None and match.text == "!!!"


def test_003_2_exact_uses_word_boundaries() -> None:
    src = source("Denitrification releases nitrogen gas into the air above the soil.")
    # Not exact inside a longer word, and one word is too short to be a misquote of another.
    assert find("nitrification", src) is None
    # A short quote is only ever the same words (F.1): "nitrification" is another word.
    assert find("nitrification releases nitrogen gas", src) is None
    match = find("nitrification releases nitrogen gas into the air above", src)
    assert match is not None and match.method == "fuzzy"
    assert match.text == "Denitrification releases nitrogen gas into the air above"


def test_003_2_index_path_for_large_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "EXACT_SCAN_LIMIT", 0)
    src = source(LINCOLN, ROM, NCAS, LINCOLN)
    idx = prepare(src, cache=None)
    idx.build_candidate_index()  # exact search uses postings only once they exist
    match = find_quote("Louis's forces were attacked", idx, paragraph=4)
    assert match is not None and match.method == "exact" and match.paragraph == 4
    assert find_quote("Louis's forces were attackd", idx) is not None
    assert find_quote("nitrogen gas", idx) is None


# -- 003.6: close-enough mismatches are found, with the source's exact wording ----------


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        # one changed word
        (
            "the armies of the future Louis VIII of France",
            "the forces of the future Louis VIII of France",
        ),
        # a dropped word
        (
            "were attacked by a relief force under command of William Marshal",
            "were attacked by a relief force under the command of William Marshal",
        ),
        # an added word
        (
            "is a world leader in the atmospheric science",
            "is a world leader in atmospheric science",
        ),
        # a misspelt word
        (
            "to permit in-place reprogramming should the need for a firmware upgrade arize",
            "to permit in-place reprogramming should the need for a firmware upgrade arise",
        ),
        # re-punctuation
        (
            "The state legislature also met, in special session, from January 20 to March 19",
            "The state legislature also met in special session from January 20 to March 19",
        ),
        # changed case
        (
            "the state legislature also met in special session",
            "The state legislature also met in special session",
        ),
    ],
)
def test_003_6_close_mismatch_found_with_source_wording(quote: str, expected: str) -> None:
    src = source(LINCOLN, ROM, NCAS, OKLAHOMA)
    match = find(quote, src)
    assert match is not None
    assert match.method == "fuzzy"
    assert MatchSettings().min_similarity <= match.score < 1.0
    assert match.text == expected
    assert_consistent(match, src)


def test_003_6_single_short_word_is_never_approximate() -> None:
    # "forged" is not a typo of "forges": a short word matches word for word or not at all.
    assert find("Pembrok", source(LINCOLN)) is None
    assert find("Pembroke", source(LINCOLN)) is not None


def test_003_6_misspelt_word_in_a_longer_quote() -> None:
    match = find("Earl of Pembrok", source(LINCOLN))
    assert match is not None and match.method == "fuzzy" and match.text == "Earl of Pembroke"


def test_a_changed_number_in_a_long_quote_is_located_f_1() -> None:
    # The passage is right there: the misquote is located, and the difference reported by
    # the verdict, never hidden as "not found".
    src = source("The 5th Oklahoma Legislature met in special session from January 17, 1916.")
    assert find("The 5th Oklahoma Legislatur met in special session", src) is not None
    changed = find("The 11th Oklahoma Legislature met in special session", src)
    assert changed is not None
    assert changed.text == "The 5th Oklahoma Legislature met in special session"
    later = find("The 5th Oklahoma Legislature met in special session from January 18", src)
    assert later is not None and later.text.endswith("January 17")


def test_a_changed_number_in_a_short_quote_is_another_statement_f_1() -> None:
    src = source("The 5th Oklahoma Legislature met in special session from January 17, 1916.")
    assert find("from January 18, 1916", src) is None
    assert find("The 11th Oklahoma Legislature", src) is None


def test_003_6_too_different_is_not_found() -> None:
    src = source(LINCOLN)
    assert find("the armies of the old king of Spain", src) is None


def test_a_changed_name_with_a_long_shared_context_is_located_f_1() -> None:
    # Louis IX is not Louis VIII, but eight shared words say which passage was misquoted.
    match = find("the forces of the future Louis IX of France", source(LINCOLN))
    assert match is not None
    assert match.text == "the forces of the future Louis VIII of France"


def test_a_changed_name_in_a_short_quote_is_another_statement_f_1() -> None:
    assert find("King Edward III of England", source(LINCOLN)) is None


def test_003_6_threshold_is_respected() -> None:
    src = source(LINCOLN)
    quote = "the forces of the future Louis IX of France"
    strict = MatchSettings(min_similarity=0.99)
    assert find(quote, src, settings=strict) is None


def test_003_6_word_snapping_never_cuts_a_word() -> None:
    src = source(NCAS)
    match = find("ational Centre for Atmospheric Scien (NCAS) is a world", src)
    assert match is not None and match.method == "fuzzy"
    assert match.text == "National Centre for Atmospheric Science (NCAS) is a world"
    assert not match.text.endswith(" ")


def test_003_6_approximate_on_indexed_large_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("citeproof.verifier.match._search._ALIGN_WHOLE", 0)
    src = source(*([ROM, NCAS] * 20), LINCOLN, OKLAHOMA)
    idx = prepare(src)
    match = find_quote("the armies of the future Louis VIII of France", idx)
    assert match is not None and match.text == "the forces of the future Louis VIII of France"
    single = find_quote("Earl of Pembrok", idx)
    assert single is not None and single.text == "Earl of Pembroke"


# -- exactness: one letter or a homoglyph is never exact --------------------------------


def test_one_changed_letter_is_never_exact() -> None:
    src = source(LINCOLN)
    match = find("The Second Battle of Lincoln occurred at Lincoln Castle on Saturday", src)
    assert match is not None and match.method == "exact"
    changed = find("The Second Battle of Lincoln occurred at Lincoln Castle in Saturday", src)
    assert changed is not None and changed.method == "fuzzy" and changed.score < 1.0


def test_homoglyph_is_never_exact() -> None:
    src = source(LINCOLN)
    cyrillic = "The Second Battle of Lincoln occurred \u0430t Lincoln Castle"  # Cyrillic a
    match = find(cyrillic, src)
    assert match is None or match.method == "fuzzy"
    assert (
        match is not None
        and match.text == "The Second Battle of Lincoln occurred at Lincoln Castle"
    )


def test_case_change_is_not_exact() -> None:
    # Case is part of the wording: a quote with its case changed is found, but only as a
    # close match at the source's own words, so the correction restores the case.
    src = source(LINCOLN)
    match = find("the second battle of lincoln", src)
    assert match is not None
    assert match.method == "fuzzy"
    assert match.text == "The Second Battle of Lincoln"
    assert match.span == (0, len("The Second Battle of Lincoln"))
    assert 0.8 <= match.score < 1.0
    assert_consistent(match, src)
    exact = find("The Second Battle of Lincoln", src)
    assert exact is not None and (exact.method, exact.score) == ("exact", 1.0)


# -- normalisation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("a \t\n\u00a0\u2003 b", "a b"),
        ("\u201cq\u201d \u201eq\u201f \u00abq\u00bb \u300cq\u300d \u2033", '"q" "q" "q" "q" "'),
        ("\u2018q\u2019 \u201aq\u201b \u2039q\u203a \u2032 ' \"", "'q' 'q' 'q' ' ' \""),
        ("a\u2010b\u2011c\u2012d\u2013e\u2014f\u2015g\u2212h", "a-b-c-d-e-f-g-h"),
        ("wait\u2026", "wait..."),
        ("ze\u200bro\u200c \u200dwi\u2060d\ufeffth", "zero width"),
        ("\u200ebi\u200fdi\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", "bidi"),
        ("soft\u00adhyphen", "softhyphen"),
        ("cafe\u0301", "caf\u00e9"),
        ("Case Stays", "Case Stays"),
        ("a \u200b b", "a b"),
        # Vowel signs that compose with the letter before them, though stable alone.
        ("\u0b15\u0b47\u0b3e", "\u0b15\u0b4b"),  # Oriya
        ("\u09a8\u09c7\u09be", "\u09a8\u09cb"),  # Bengali
        ("\u0b95\u0bc6\u0bbe", "\u0b95\u0bca"),  # Tamil
    ],
)
def test_normalisation(raw: str, normal: str) -> None:
    assert normalise(raw).text == normal


def test_a_quote_in_composed_letters_is_exact_in_a_decomposed_source() -> None:
    src = source("\u0b15\u0b47\u0b3e\u0b33 \u0b2a\u0b41\u0b30")  # decomposed o sign
    match = find("\u0b15\u0b4b\u0b33", src)  # the same word, its sign precomposed
    assert match is not None and match.method == "exact"
    assert match.text == "\u0b15\u0b47\u0b3e\u0b33"


def test_offsets_map_back_exactly() -> None:
    raw = "a\u00a0 \u201cb\u201d \u2026\u200bc cafe\u0301!"
    n = normalise(raw)
    assert n.text == 'a "b" ...c café!'
    assert len(n.offsets) == len(n.text) + 1
    assert n.offsets[len(n.text)] == len(raw)
    assert n.original_span(0, 1) == (0, 1)
    assert raw[slice(*n.original_span(1, 2))] == "\u00a0 "
    assert raw[slice(*n.original_span(6, 9))] == "\u2026"
    assert raw[slice(*n.original_span(7, 8))] == "\u2026"
    assert raw[slice(*n.original_span(6, 10))] == "\u2026\u200bc"
    assert raw[slice(*n.original_span(11, 15))] == "cafe\u0301"
    for i, char in enumerate(n.text):
        if char.isascii() and char.isalpha():
            assert raw[n.offsets[i]] == char
    assert list(n.offsets) == [n.offsets[i] for i in range(len(n.text) + 1)]
    for outside in (-1, len(n.text) + 1):
        with pytest.raises(IndexError, match=str(outside)):
            n.offsets[outside]


def test_match_span_covers_original_characters() -> None:
    text = "He said\u00a0\u00a0it was fine\u2026 then le\u200bft \u201cfor good\u201d."
    src = source(text)
    match = find("it was fine... then left", src)
    assert match is not None and match.method == "exact"
    assert match.text == "it was fine\u2026 then le\u200bft"
    match = find('said it was fine… then left "for good".', src)
    assert match is not None
    assert match.text == "said\u00a0\u00a0it was fine\u2026 then le\u200bft \u201cfor good\u201d."
    assert_consistent(match, src)


# -- ellipses ---------------------------------------------------------------------------


@pytest.mark.parametrize("mark", ["...", "\u2026", "[...]", "[\u2026]", ". . ."])
def test_ellipsis_segments_found_in_order(mark: str) -> None:
    src = source(ROM)
    match = find(f"Today, many of these {mark} are often replaced with Flash memory", src)
    assert match is not None and match.method == "exact"
    assert len(match.segments) == 2
    first, second = (src.text[s:e] for s, e in match.segments)
    assert first == "Today, many of these"
    assert second == "are often replaced with Flash memory"
    assert match.span == (match.segments[0][0], match.segments[1][1])
    assert_consistent(match, src)


def test_ellipsis_segments_out_of_order_not_found() -> None:
    src = source(ROM)
    assert find("are often replaced with Flash memory ... Today, many of these", src) is None


def test_ellipsis_gap_is_bounded() -> None:
    src = source(ROM)
    quote = "Today, many of these … firmware upgrade arise"
    assert find(quote, src) is not None
    assert find(quote, src, settings=MatchSettings(max_ellipsis_gap=20)) is None


def test_leading_and_trailing_ellipsis_trimmed() -> None:
    src = source(NCAS)
    match = find("… a world leader in atmospheric science …", src)
    assert match is not None and match.method == "exact" and match.segments == ()
    assert match.text == "a world leader in atmospheric science"


def test_ellipsis_with_a_changed_word_is_fuzzy() -> None:
    src = source(ROM)
    match = find("Today, many of these … are often replaced by Flash memory", src)
    assert match is not None and match.method == "fuzzy" and len(match.segments) == 2
    assert src.text[slice(*match.segments[1])] == "are often replaced with Flash memory"


# -- 011: the paragraph is located ------------------------------------------------------


def test_011_paragraph_located() -> None:
    src = source(LINCOLN, ROM, NCAS)
    match = find("formed in 2002", src)
    assert match is not None and match.paragraph == 3


def test_011_paragraph_preferred_among_duplicates() -> None:
    src = source(OKLAHOMA, LINCOLN, OKLAHOMA, NCAS)
    first = find("met in special session", src)
    assert first is not None and first.paragraph == 1
    preferred = find("met in special session", src, paragraph=3)
    assert preferred is not None and preferred.paragraph == 3
    assert preferred.span[0] > first.span[0]
    assert preferred.text == "met in special session"
    elsewhere = find("met in special session", src, paragraph=2)
    assert elsewhere is not None and elsewhere.paragraph == 1


def test_011_paragraph_preferred_for_fuzzy_ties() -> None:
    src = source(OKLAHOMA, LINCOLN, OKLAHOMA)
    match = find("the state legislature also met in special session", src, paragraph=3)
    assert match is not None and match.method == "fuzzy" and match.paragraph == 3


def test_011_given_paragraph_spans_are_used() -> None:
    text = "alpha beta gamma. delta epsilon zeta. eta theta iota."
    src = Source(id="S", kind="document", text=text, paragraphs=((0, 17), (18, 37), (38, 53)))
    match = find("epsilon zeta", src)
    assert match is not None and match.paragraph == 2
    between = Source(id="S", kind="document", text=text, paragraphs=((0, 5), (38, 53)))
    match = find("epsilon zeta", between)
    assert match is not None and match.paragraph == 2  # nearest paragraph to the span start


def test_003_6_snapping_at_the_edges_of_the_source_never_fails() -> None:
    # Found by the property test: an elided quote whose alignment reaches the source's end.
    match = find("0 0 0 a… 0 0", source("0 0 0 A… 0 0 0 A "))
    assert match is not None and match.method == "fuzzy"
    assert match.text == "0 0 0 A… 0 0"
    tail = find("the forces of the future Louis VIII.", source("Louis VIII... of the future."))
    assert tail is None or tail.method == "fuzzy"
