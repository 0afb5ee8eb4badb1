"""The per-source index: its word postings, the candidates an approximate search starts from,
the casefolded text it scans, and the memory it says it holds (the bound of `IndexCache`)."""

from __future__ import annotations

import re
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeproof.model import Source
from citeproof.verifier.match import (
    IndexCache,
    SourceIndex,
    content_key,
    find_quote,
    normalise,
    prepare,
)
from citeproof.verifier.match import _index as index_module
from citeproof.verifier.match._align import distance

WORDS = ("alpha", "Beta", "gamma", "delta", "ALPHA", "beta", "epsilon")
# Sixty words, each of a few kinds many times over, in no sorted order.
ASCII_TEXT = " ".join(WORDS[(i * 5) % 7] if i % 4 else "beta" for i in range(60))
UNICODE_TEXT = " ".join(
    ("Straße", "café", "naïve", "CAFÉ", "Ωmega", "x²", "l'été", "straße")[(i * 3) % 8]
    for i in range(40)
)


def index_of(text: str, *, postings: bool = True) -> SourceIndex:
    index = prepare(Source(id="S1", kind="document", text=text), cache=None)
    if postings:
        index.build_candidate_index()
    return index


def occurrences(text: str) -> dict[str, list[int]]:
    """Every word of ``text`` (casefolded) with where each occurrence starts, in order."""
    found: dict[str, list[int]] = {}
    for m in re.finditer(r"\w+", text):
        found.setdefault(m.group().casefold(), []).append(m.start())
    return found


@pytest.mark.parametrize(
    "text",
    [
        ASCII_TEXT,
        UNICODE_TEXT,
        '"alpha" beta, alpha.',  # the text starts with no word
        "Ω naïve Ω naïve beta",  # words all of letters outside ASCII, and words partly so
    ],
    ids=["ascii", "unicode", "ascii-punctuation-first", "unicode-letters"],
)
@pytest.mark.parametrize("numpy", [False, True], ids=["python", "numpy"])
def test_the_postings_hold_every_occurrence_of_every_word_in_text_order(
    text: str, numpy: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long text's words are found with numpy, a shorter one's in Python: the same postings.
    if numpy:
        monkeypatch.setattr(index_module, "NUMPY_MIN_CHARS", 0)
    index = index_of(text)
    assert list(index.core.postings().vocab) == list(occurrences(index.text))
    expected = occurrences(index.text)
    for word, starts in expected.items():
        assert index.frequency(word) == len(starts), word
        assert index.positions(word, 0, 0, len(index.text)) == starts, word
    assert index.frequency("absent") == 0
    assert index.positions("absent", 0, 0, len(index.text)) == []


def test_positions_are_quote_starts_within_the_bounds_asked_for() -> None:
    index = index_of(ASCII_TEXT)
    gammas = occurrences(ASCII_TEXT)["gamma"]
    # Where "gamma" sits 6 characters into the quote: the quote starts 6 before it.
    for lo in range(0, len(ASCII_TEXT), 5):
        for hi in (lo + 3, lo + 11, lo + 40):
            inside = [p - 6 for p in gammas if lo <= p - 6 < hi]
            assert index.positions("gamma", 6, lo, hi) == inside, (lo, hi)


def test_an_exact_search_through_the_postings_finds_what_a_scan_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(index_module, "EXACT_SCAN_LIMIT", 0)
    index = index_of(ASCII_TEXT)
    scan = index_of(ASCII_TEXT, postings=False)
    for quote in ("beta alpha", "gamma beta", "epsilon", "ALPHA beta"):
        via_postings = index.exact(quote, 0, len(index.text), 100)
        assert via_postings == scan.exact(quote, 0, len(index.text), 100), quote
        assert via_postings
    assert index.exact("beta alpha", 0, len(index.text), 2) == scan.exact(
        "beta alpha", 0, len(index.text), 2
    )
    # Word boundaries hold on the postings path too: "alph" is no word of the text.
    assert index.exact("alph", 0, len(index.text), 10) == []


@pytest.mark.parametrize(
    ("text", "quote", "starts"),
    [
        ("alpha beta gamma", "alpha beta", [0]),  # at the very start
        ("alpha beta gamma", "beta gamma", [6]),  # at the very end
        ("xalpha beta gamma", "alpha beta", []),  # would cut "xalpha"
        ("xa, b", "a, b", []),
        ("x a bc", "a b", []),  # would cut "bc"
        ("foo_bar baz", "bar baz", []),  # "_" is a word character
    ],
)
def test_an_exact_occurrence_never_cuts_a_source_word(
    text: str, quote: str, starts: list[int]
) -> None:
    index = index_of(text, postings=False)
    assert index.exact(quote, 0, len(index.text), 5) == starts


# -- candidates: where an approximate occurrence likely starts ------------------------------

PASSAGE = "A relief force under the command of William Marshal attacked the castle."
FILLER = "Filler words stand here. " * 8
MISQUOTE = "relief force under the command of Wiliam Marshal"


def test_candidates_start_at_the_misquoted_passage_scanned_or_from_postings() -> None:
    text = FILLER + PASSAGE + " " + FILLER
    for postings in (False, True):
        index = index_of(text, postings=postings)
        start = index.text.index("relief force")
        assert index.candidates(MISQUOTE, 1) == [start], postings


def test_candidates_list_each_place_once_densest_first() -> None:
    text = PASSAGE + " " + FILLER + "the relief force under command of William Marshal."
    index = index_of(text)
    first = index.text.index("relief force")
    second = index.text.index("relief force", first + 1)
    # There the quote's "the" is missing: the words after it vote four characters before the
    # passage, and a place is named by its earliest vote.
    assert index.candidates(MISQUOTE, 2) == [first, second - len("the ")]
    assert index.candidates(MISQUOTE, 1) == [first]


def test_a_misspelt_quote_finds_its_place_through_similar_words() -> None:
    # Too few of the quote's words occur as written: the index looks for close spellings.
    text = FILLER + "The command of William Marshal relieved Lincoln." + " " + FILLER
    index = index_of(text)
    start = index.text.index("command")
    assert index.candidates("comand of Wiliam Marshall releived Lincon", 1) == [start]


@pytest.mark.parametrize(
    ("word", "similar"),
    [
        ("alphq", ["alpha"]),
        ("gama", ["gamma"]),
        ("epsilom", ["epsilon"]),
        ("apha", ["alpha"]),  # half its letter triples are the word's: enough
        ("axpha", []),  # fewer than half
        ("epsilonxx", ["epsilon"]),  # two edits in nine letters are a typo...
        ("epsilxx", []),  # ...two in seven are not
        ("zzzz", []),
    ],
)
def test_a_misspelt_word_finds_the_source_words_a_typo_away(word: str, similar: list[str]) -> None:
    assert index_of(ASCII_TEXT).core.postings().similar_words(word) == similar


def similar_by_index(words: list[str], word: str) -> list[str]:
    """What `similar_words` finds, by an index of every trigram of every word."""
    grams: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        for g in index_module._trigrams(w):
            grams.setdefault(g, []).append(i)
    wanted = index_module._trigrams(word)
    tally: Counter[int] = Counter()
    for g in wanted:
        tally.update(grams.get(g, ()))
    allowed = max(1, len(word) // 4)
    return [
        words[i]
        for i, shared in tally.most_common(50)
        if shared * 2 >= len(wanted) and distance(word, words[i]) <= allowed
    ][:3]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="abn", min_size=1, max_size=7), min_size=1, max_size=80),
    st.text(alphabet="abnx", min_size=1, max_size=8),
)
def test_similar_words_are_those_an_index_of_every_trigram_finds(
    words: list[str], word: str
) -> None:
    # Few letters: many words share trigrams, and hold one twice ("anana"), in many ties.
    postings = index_of(" ".join(words)).core.postings()
    assert postings.similar_words(word) == similar_by_index(list(postings.vocab), word)


def test_at_most_three_similar_words_are_offered() -> None:
    index = index_of("marshala marshalb marshalc marshald")
    assert index.core.postings().similar_words("marshal") == ["marshala", "marshalb", "marshalc"]


# -- the casefolded text ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("The CASTLE", "the castle"),
        ("Die Straße", "die straße"),  # casefolding would make it "strasse": lower-cased
        ("İstanbul", None),  # both folds move offsets: no folded text
    ],
)
def test_the_folded_text_keeps_every_offset_or_is_none(text: str, folded: str | None) -> None:
    core = index_of(text, postings=False).core
    assert core.folded() == folded
    assert core.folded() == folded  # the same when asked again


# -- memory: what the cache bound counts ---------------------------------------------------


def dict_bytes(mapping: dict[str, object]) -> int:
    return sys.getsizeof(mapping) + sum(
        sys.getsizeof(key) + sys.getsizeof(value) for key, value in mapping.items()
    )


def test_the_index_counts_its_candidate_index_and_misspelling_lookup_once_each() -> None:
    index = index_of(ASCII_TEXT, postings=False)
    bare = index.core.nbytes()
    index.build_candidate_index()
    postings = index.core.postings()
    arrays = 8 * (len(postings.pos) + len(postings.start)) + dict_bytes(postings.vocab)
    assert postings.nbytes() == arrays
    assert index.core.nbytes() == bare + arrays
    postings.similar_words("alphq")
    spellings = postings._spellings
    assert spellings is not None
    lookup = sys.getsizeof(spellings._joined) + 8 * len(spellings._starts)
    lookup += sys.getsizeof(spellings.words)
    assert postings.nbytes() == arrays + lookup
    assert index.core.nbytes() == bare + arrays + lookup


def test_the_cache_measures_an_index_again_when_it_is_used() -> None:
    cache = IndexCache()
    source = Source(id="S1", kind="document", text=ASCII_TEXT)
    index = cache.get(source)
    assert cache.nbytes == index.core.nbytes() and cache.chars == len(ASCII_TEXT)
    index.build_candidate_index()
    cache.get(source)  # its next use counts the candidate index it built
    assert cache.nbytes == index.core.nbytes()
    cache.get(source)
    assert cache.nbytes == index.core.nbytes()
    other = Source(id="S2", kind="document", text=UNICODE_TEXT)
    second = cache.get(other)
    assert cache.nbytes == index.core.nbytes() + second.core.nbytes()
    assert cache.chars == len(ASCII_TEXT) + len(UNICODE_TEXT)


def test_an_empty_cache_holds_nothing() -> None:
    cache = IndexCache()
    assert (len(cache), cache.chars, cache.nbytes) == (0, 0, 0)
    cache.get(Source(id="S1", kind="document", text="Some text."))
    cache.clear()
    assert (len(cache), cache.chars, cache.nbytes) == (0, 0, 0)


def test_the_same_quote_over_a_renamed_copy_names_the_copy() -> None:
    index = index_of(PASSAGE, postings=False)
    copy = index.for_source(Source(id="S2", kind="document", text=PASSAGE))
    assert copy.core is index.core and copy.source.id == "S2"
    assert index.for_source(index.source) is index
    match = find_quote("the command of William Marshal", copy)
    assert match is not None and match.source_id == "S2"


MARSHAL = (
    "Marshal led the relief force under the command of the warden. The warden of the castle "
    "fled. William Marshal led the relief."
)


def test_a_short_source_is_scanned_for_candidates_without_building_its_postings() -> None:
    index = index_of(MARSHAL, postings=False)
    # Both places the quote's words cluster, from the very start of the source on.
    assert index.candidates("Marshal led the relief", 2) == [0, 101]
    assert index.candidates("William Marshal led the relief force", 3) == [-8, 93, 15]
    assert not index.core.has_postings


def test_a_quote_with_too_few_words_in_the_source_builds_the_postings() -> None:
    # Only "led" occurs as a word ("war" is not "warden"): the scan gives up on it.
    index = index_of(MARSHAL, postings=False)
    assert index.candidates("war led to it", 3) == [4, 105]
    assert index.core.has_postings


def test_two_places_a_cluster_width_apart_are_both_candidates() -> None:
    # A quote this short clusters votes 16 characters wide: places 16 apart are distinct.
    index = index_of("abcde fghij klm abcde fghij klm", postings=False)
    assert index.candidates("abcde fghij klm", 2) == [0, 16]
    assert not index.core.has_postings  # three words of the quote occur: scanned


def test_once_built_the_postings_give_the_candidates() -> None:
    text = "The fan spins. " * 3 + "A relief force under the command of William Marshal attacked. "
    text += "Filler words here. " * 5 + "the relief force under command of William Marshal. "
    start, later = text.index("relief"), text.rindex("relief")
    # Scanning votes with the quote's longest words, the postings with its rarest: the scan
    # finds a third, weaker place the postings do not.
    scanned = index_of(text, postings=False).candidates(MISQUOTE, 3)
    assert scanned == [start, later - len("the "), -19]
    assert index_of(text).candidates(MISQUOTE, 3) == [start, later - len("the ")]


def test_votes_count_a_word_at_either_end_of_the_source() -> None:
    index = index_of(MARSHAL.rstrip("."), postings=False)  # ends with a word
    assert index.candidates("Marshal led the relief", 2) == [0, 101]
    assert index.candidates("Marshal led relief", 2) == [0, 101]
    assert not index.core.has_postings


def test_the_cache_keeps_at_most_its_bytes_least_recently_used_first() -> None:
    sources = [Source(id=f"S{n}", kind="document", text=f"text {n} " + "x" * 95) for n in range(3)]
    one = IndexCache().get(sources[0]).core.nbytes()
    cache = IndexCache(max_bytes=2 * one + one // 2)
    first, second = (cache.get(s).core for s in sources[:2])
    assert len(cache) == 2 and cache.nbytes == first.nbytes() + second.nbytes()
    assert cache.get(sources[0]).core is first  # used again: the most recent now
    cache.get(sources[2])
    assert len(cache) == 2 and cache.nbytes <= cache.max_bytes
    assert cache.get(sources[0]).core is first  # kept
    assert cache.get(sources[1]).core is not second  # the least recently used went


def test_a_key_names_the_text_and_its_paragraphs() -> None:
    cache = IndexCache()
    plain = Source(id="S1", kind="document", text=PASSAGE)
    same = Source(id="S2", kind="document", text=PASSAGE)
    spans = Source(id="S1", kind="document", text=PASSAGE, paragraphs=((0, len(PASSAGE)),))
    other = Source(id="S1", kind="document", text=PASSAGE + " More.")
    assert cache.key(plain) == cache.key(plain) == content_key(plain)
    assert cache.key(same) == content_key(plain)
    assert cache.key(spans) == content_key(spans) != content_key(plain)
    assert content_key(other) != content_key(plain)
    cache.get(plain)
    assert cache.key(plain) == content_key(plain)  # from the entry kept, not hashed again


# -- normalisation of long texts, and paragraphs on the normalised text ---------------------

CHUNK = "He said\u00a0\u00a0“it was fine…” then le\u200bft cafe\u0301 – ok. "
PLAIN_CHUNK = "“Straße” – café, "


@pytest.mark.parametrize("chunk", [CHUNK, PLAIN_CHUNK], ids=["rewritten", "one-to-one"])
def test_a_long_text_is_normalised_as_its_parts_are(chunk: str) -> None:
    # Over 4,096 characters the one-to-one replacements run through numpy: the same result.
    part = normalise(chunk)
    whole = normalise(chunk * 300)
    assert len(chunk) * 300 > 4096
    assert whole.text == part.text * 300
    for i in range(0, len(whole.text), 7):
        k, j = divmod(i, len(part.text))
        assert whole.offsets[i] == k * len(chunk) + part.offsets[j], i
        assert whole.original_span(i, i + 1) == tuple(
            k * len(chunk) + x for x in part.original_span(j, j + 1)
        ), i


def test_paragraph_ranges_and_places_follow_normalisation() -> None:
    raw = ["First  paragraph…  here.", "Se\u200bcond\u00a0\u00a0one.", "Third one."]
    text = "\n\n".join(raw)
    index = index_of(text, postings=False)
    for number, paragraph in enumerate(raw, start=1):
        span = index.paragraph_range(number)
        assert span is not None
        assert index.text[span[0] : span[1]] == normalise(paragraph).text
    assert index.paragraph_range(0) is None and index.paragraph_range(4) is None


def test_a_place_between_given_paragraphs_belongs_to_the_nearest() -> None:
    text = "aaaa bbbb cccc dddd eeee"
    src = Source(id="S", kind="document", text=text, paragraphs=((5, 9), (15, 19)))
    index = prepare(src, cache=None)
    assert [index.paragraph_of(p) for p in (0, 5, 8, 9, 11, 12, 13, 15, 18, 19, 23)] == [
        1,
        1,
        1,
        1,  # just past the first
        1,
        1,  # as near to both: the first
        2,
        2,
        2,
        2,
        2,  # after the last
    ]
