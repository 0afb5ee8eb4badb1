"""Scanning a casefolded text for a quote's words: each word's count and whole-word places
from one pass that may stop early, the same as a count and a search over the whole text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeproof.verifier.match import _scan
from citeproof.verifier.match._scan import rarest, scan, whole_word_hits

# Few letters: words occur often, overlap ("aa" in "aaa") and sit inside longer words.
texts = st.text(alphabet="ab _.", max_size=80)
quote_words = st.lists(st.text(alphabet="ab", min_size=1, max_size=3), min_size=1, max_size=6)


@pytest.fixture(autouse=True)
def stop_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scan stops at its third occurrence: the short texts here reach it."""
    monkeypatch.setattr(_scan, "EXAMINED", 3)


@settings(max_examples=300, deadline=None)
@given(texts, st.text(alphabet="ab", min_size=1, max_size=3))
def test_a_scan_counts_and_finds_as_a_count_and_a_search_over_the_text(
    text: str, word: str
) -> None:
    scanned = scan(text, word, 0)
    assert scanned.count(text) == text.count(word)
    assert list(scanned.whole_word_hits(text)) == list(whole_word_hits(text, word))
    assert scanned.complete == (text.count(word) < 3)


@settings(max_examples=300, deadline=None)
@given(texts, quote_words, st.integers(1, 4))
def test_the_rarest_words_are_those_of_their_counts(text: str, words: list[str], most: int) -> None:
    distinct = list(dict.fromkeys(words))
    counted = sorted((text.count(w), w) for w in distinct if text.count(w))[:most]
    found = rarest(text, [scan(text, w, n) for n, w in enumerate(distinct)], most)
    assert [(count, s.word) for count, s in found] == counted


def test_a_word_inside_a_longer_one_is_no_hit() -> None:
    assert list(whole_word_hits("war warden war_ war.", "war")) == [0, 16]
