"""Properties of verification that hold for any text (003.2, 003.6)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeproof import Source, verify
from tests.lending import MEMO_TEXT, POLICY_TEXT

TEXT = POLICY_TEXT + "\n\n" + MEMO_TEXT
SOURCE = Source(id="S1", kind="document", text=TEXT)
# Words per paragraph: a quote never spans a blank line.
PARAGRAPHS = [
    [(p[0] + m.start(), p[0] + m.end()) for m in re.finditer(r"\S+", TEXT[p[0] : p[1]])]
    for p in SOURCE.paragraph_spans()
]
HOMOGLYPHS = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "i": "і"}


@st.composite
def slices(draw: st.DrawFn) -> tuple[int, int]:
    words = draw(st.sampled_from(PARAGRAPHS))
    first = draw(st.integers(0, len(words) - 1))
    last = draw(st.integers(first, min(len(words) - 1, first + 25)))
    return (words[first][0], words[last][1])


def quoted(text: str) -> str:
    return f"The source says “{text}” [S1]."


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slices())
def test_exact_substring_of_the_cited_source_always_verifies_003_2(span: tuple[int, int]) -> None:
    text = TEXT[span[0] : span[1]]
    (quote,) = verify(quoted(text), [SOURCE]).quotes
    assert quote.status == "verified"
    assert TEXT[slice(*quote.source_span)].split() == text.split()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slices(), st.data())
def test_one_changed_letter_or_homoglyph_never_verifies_003_6(
    span: tuple[int, int], data: st.DataObject
) -> None:
    text = TEXT[span[0] : span[1]]
    letters = [i for i, ch in enumerate(text) if ch.isalpha() and ch.isascii()]
    if not letters:
        return
    i = data.draw(st.sampled_from(letters))
    original = text[i]
    homoglyph = HOMOGLYPHS.get(original.lower())
    replacements = [c for c in "abcdefghijklmnopqrstuvwxyz" if c != original.lower()]
    if homoglyph:
        replacements.append(homoglyph)
    changed = text[:i] + data.draw(st.sampled_from(replacements)) + text[i + 1 :]
    if changed in TEXT:
        return
    (quote,) = verify(quoted(changed), [SOURCE]).quotes
    assert quote.status != "verified"
