"""Properties of the quote matcher over generated texts."""

from __future__ import annotations

import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citeproof.model import Source
from citeproof.verifier.match import VerbatimProbe, find_quote, normalise, prepare
from citeproof.verifier.match import _align as align
from citeproof.verifier.match._probe import plain

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéü"
# Homoglyphs of Latin letters (Cyrillic а е о р с х, Greek ο).
HOMOGLYPHS = "\u0430\u0435\u043e\u0440\u0441\u0445\u03bf"
SEPARATORS = [
    " ",
    "  ",
    "\n",
    "\n\n",
    "\u00a0",
    ", ",
    ". ",
    " \u2014 ",
    " \u201c",
    "\u201d ",
    "\u2026 ",
]

words = st.text(alphabet=LETTERS + "0123456789", min_size=1, max_size=8)
# Zero-width characters and soft hyphens may sit inside source words.
source_words = st.builds(
    lambda w, inv, at: w[:at] + inv + w[at:],
    words,
    st.sampled_from(["", "", "", "\u200b", "\u00ad", "\u2060"]),
    st.integers(0, 8),
)


@st.composite
def text_and_slice(draw: st.DrawFn) -> tuple[str, str]:
    """A source built from words and separators, and a run of whole words from it."""
    tokens = draw(st.lists(source_words, min_size=1, max_size=40))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(tokens), max_size=len(tokens)))
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    length = 0
    for word, sep in zip(tokens, seps, strict=True):
        starts.append(length)
        parts.append(word)
        length += len(word)
        ends.append(length)
        parts.append(sep)
        length += len(sep)
    text = "".join(parts)
    i = draw(st.integers(0, len(tokens) - 1))
    j = draw(st.integers(i, min(len(tokens) - 1, i + 8)))
    return text, text[starts[i] : ends[j]]


def _norm(text: str) -> str:
    return normalise(text).text.strip(" \"'")


@settings(max_examples=200, deadline=None)
@given(text_and_slice())
def test_exact_substring_is_found_exactly(case: tuple[str, str]) -> None:
    text, quote = case
    src = Source(id="S", kind="document", text=text)
    match = find_quote(quote, prepare(src))
    assert match is not None
    assert match.method == "exact" and match.score == 1.0
    assert match.text == text[match.span[0] : match.span[1]]
    found = _norm(match.text)
    assert found == _norm(quote)


@settings(max_examples=200, deadline=None)
@given(text_and_slice(), st.data())
def test_changed_letter_is_never_exact(case: tuple[str, str], data: st.DataObject) -> None:
    text, quote = case
    positions = [i for i, c in enumerate(quote) if c in LETTERS]
    assume(positions)
    at = data.draw(st.sampled_from(positions))
    other = data.draw(st.sampled_from(LETTERS + HOMOGLYPHS).filter(lambda c: c != quote[at]))
    changed = quote[:at] + other + quote[at + 1 :]
    # Only meaningful when the changed quote does not occur verbatim somewhere else, nor its
    # pieces in order around an ellipsis (an elision: "O… A" is found exactly in "O A… A").
    assume(_norm(changed) not in normalise(text).text)
    assume(not any(mark in changed for mark in ("…", "...")))
    match = find_quote(changed, prepare(Source(id="S", kind="document", text=text)))
    assert match is None or match.method == "fuzzy"
    assert match is None or match.score < 1.0


# Characters normalisation changes: a decomposed é, the Kelvin sign (NFC makes it "K"), a
# soft hyphen or zero-width space inside a word (removed: the word's halves join).
unstable_words = st.builds(
    lambda w, odd, at: w[:at] + odd + w[at:],
    words,
    st.sampled_from(["", "e\u0301", "\u212a", "\u00ad", "\u200b", "\u2019", "\t"]),
    st.integers(0, 8),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(unstable_words, min_size=1, max_size=30), st.data())
def test_a_source_the_probe_rules_out_never_holds_the_quote_word_for_word(
    tokens: list[str], data: st.DataObject
) -> None:
    text = " ".join(tokens)
    i = data.draw(st.integers(0, len(tokens) - 1))
    j = data.draw(st.integers(i, min(len(tokens) - 1, i + 6)))
    # The words as a reader copies them (normalised), or as the source writes them, or with
    # one letter changed.
    written = " ".join(tokens[i : j + 1])
    quote = data.draw(st.sampled_from([normalise(written).text, written, written[::-1]]))
    found = find_quote(
        quote, prepare(Source(id="S", kind="document", text=text), cache=None), exact_only=True
    )
    probe = VerbatimProbe.of(quote)
    if found is not None:
        assert probe.may_hold(text)
        assert probe.may_hold(text, plain(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(unstable_words, min_size=1, max_size=20), st.lists(st.sampled_from(SEPARATORS)))
def test_text_without_invisible_characters_normalises_as_the_general_rewrite_does(
    tokens: list[str], seps: list[str]
) -> None:
    """A text with no invisible character takes a faster rewrite: the same as the general
    one, which a zero-width space at its end forces (and which removes that space)."""
    text = "".join(t + (seps[i % len(seps)] if seps else " ") for i, t in enumerate(tokens))
    text = text.replace("\u00ad", "").replace("\u200b", "") + "\u2026"
    fast, general = normalise(text), normalise(text + "\u200b")
    assert fast.text == general.text
    assert [fast.offsets[i] for i in range(len(fast.text))] == [
        general.offsets[i] for i in range(len(general.text))
    ]


@given(st.text(max_size=12))
def test_word_letters_are_the_token_without_its_non_word_characters(token: str) -> None:
    assert align._letters(token) == re.sub(r"\W+", "", token)


@settings(max_examples=300, deadline=None)
@given(st.lists(source_words, min_size=1, max_size=20), st.lists(st.sampled_from(SEPARATORS)))
def test_an_original_offset_maps_to_the_first_normalised_character_from_it(
    tokens: list[str], seps: list[str]
) -> None:
    text = "".join(t + (seps[i % len(seps)] if seps else " ") for i, t in enumerate(tokens))
    offsets = normalise(text).offsets
    size = len(offsets) - 1
    for position in range(len(text) + 2):
        first = next((i for i in range(size + 1) if offsets[i] >= position), size)
        assert offsets.to_normalised([position]) == [first], position


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(words, st.sampled_from(["-", "(a)", "x,", "\u00e9t\u00e9.", "\x01", "a\x01b"])),
        min_size=0,
        max_size=20,
    ),
    st.lists(st.sampled_from([" ", "  ", "\n", "\t ", "\u00a0"]), min_size=1),
)
def test_a_window_has_the_letters_and_bounds_of_each_of_its_tokens(
    tokens: list[str], seps: list[str]
) -> None:
    # Joined by their letters in C where the window is ASCII: the same as token by token.
    target = " " + "".join(t + seps[i % len(seps)] for i, t in enumerate(tokens))
    window = align._Window(target)
    assert window.words == [align._letters(t) for t in target.split()]
    spans = [m.span() for m in re.finditer(r"\S+", target)]
    starts, ends = window.bounds(target)
    assert (list(starts), list(ends)) == ([a for a, _ in spans], [b for _, b in spans])
