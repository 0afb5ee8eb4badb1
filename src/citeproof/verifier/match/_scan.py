"""A quote's words found in a casefolded text by scanning it with `str.find` (C speed): where
one stands as a whole word, and how often each occurs at all, the rarest counted in the same
pass that finds them.

A count is of occurrences that do not overlap, left to right, as `str.count` counts them, and
the search for the next occurrence goes on past the end of the last: so the first ones found
one by one and the rest counted (or found) from there are the same occurrences as one count
or one search over the whole text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain

EXAMINED = 1_000
"""Occurrences of a word found one by one before its search stops: a word this frequent is
rarely among the rarest, and its count is taken only if it is needed."""


def is_word(char: str) -> bool:
    """Same notion of a word character as ``re``'s ``\\w``."""
    return char.isalnum() or char == "_"


def stands_alone(text: str, at: int, end: int) -> bool:
    """Whether ``text[at:end]`` is no part of a longer word."""
    return not (at > 0 and is_word(text[at - 1])) and not (end < len(text) and is_word(text[end]))


def whole_word_hits(folded: str, word: str, start: int = 0) -> Iterator[int]:
    """Where ``word`` stands in ``folded`` as a whole word, in order, from the occurrence at
    or after ``start`` on: "war" is not in "warden"."""
    at = folded.find(word, start)
    while at >= 0:
        end = at + len(word)
        if stands_alone(folded, at, end):
            yield at
        at = folded.find(word, end)


@dataclass(frozen=True, slots=True)
class Scanned:
    """A word's first `EXAMINED` occurrences in a text (``starts``, in order), and where its
    search goes on (``resume``), -1 when ``starts`` holds them all."""

    word: str
    offset: int  # where the word is in the quote
    starts: tuple[int, ...]
    resume: int

    @property
    def complete(self) -> bool:
        return self.resume < 0

    def count(self, folded: str) -> int:
        """How often the word occurs in ``folded`` (the text scanned): the rest counted now
        when the scan stopped short."""
        if self.complete:
            return len(self.starts)
        return len(self.starts) + folded.count(self.word, self.resume)

    def whole_word_hits(self, folded: str) -> Iterator[int]:
        """`whole_word_hits` of the word in ``folded``, the occurrences scanned first."""
        end = len(self.word)
        first = (at for at in self.starts if stands_alone(folded, at, at + end))
        if self.complete:
            return first
        return chain(first, whole_word_hits(folded, self.word, self.resume))


def scan(folded: str, word: str, offset: int) -> Scanned:
    """One pass over ``folded`` for ``word``, which stops at its `EXAMINED`-th occurrence."""
    found: list[int] = []
    at = folded.find(word)
    while at >= 0:
        found.append(at)
        if len(found) >= EXAMINED:
            return Scanned(word, offset, tuple(found), at + len(word))
        at = folded.find(word, at + len(word))
    return Scanned(word, offset, tuple(found), -1)


def rarest(folded: str, scanned: Sequence[Scanned], most: int) -> list[tuple[int, Scanned]]:
    """The ``most`` rarest of the words ``scanned`` in ``folded`` that occur there, with how
    often each does, rarest first (ties: by the word): the words sorted by their counts, each
    counted whole only when the words whose scan found them all do not make ``most``."""
    found = [s for s in scanned if s.starts]
    whole = [s for s in found if s.complete]
    # A scan that stopped short found more occurrences than any complete one holds.
    counted = [(s.count(folded), s) for s in (whole if len(whole) >= most else found)]
    counted.sort(key=lambda t: (t[0], t[1].word))
    return counted[:most]
