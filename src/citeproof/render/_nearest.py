"""The passage nearest to a quote that no source holds, so a reader can see why it was
refused: the sentence sharing the most of the quote's words, and the words no source has.

This is for showing, never for judging: verification has already said "not found". The search
is bounded (``MAX_CHARS`` of text, sentences of at most ``MAX_SENTENCE`` characters), so a
huge source costs a bounded time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citeproof.model import Source

MAX_CHARS = 400_000
MAX_SENTENCE = 600
_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;]?")
_WORD = re.compile(r"\w+")
# Words too common to say two sentences are about the same thing.
_COMMON = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "to",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "as",
        "so",
        "if",
        "then",
        "than",
        "not",
        "no",
    ]
)


@dataclass(frozen=True, slots=True)
class Nearest:
    """A sentence of ``source`` at ``span`` sharing ``shared`` of the quote's ``total`` words;
    ``missing`` are the quote's words this sentence lacks, in the quote's order."""

    source: Source
    span: tuple[int, int]
    shared: int
    total: int
    missing: tuple[str, ...]

    @property
    def paragraph(self) -> int | None:
        if not self.source.paragraphs:
            return None
        for number, (start, end) in enumerate(self.source.paragraphs, start=1):
            if start <= self.span[0] < max(end, start + 1):
                return number
        return None


def refusal(found: Nearest | None) -> str:
    """Why a quote was refused, in words, from its nearest passage (or the lack of one)."""
    if found is None:
        return "Refused: no source provided with this answer shares a word with this quote."
    lacks = ", ".join(f"“{w}”" for w in found.missing[:8])
    return (
        f"Refused: the nearest passage shares {found.shared} of the quote's {found.total} words"
        + (f"; it lacks {lacks}" if lacks else "; their order or wording differs too much")
        + ". A quote must match a source's words to be kept."
    )


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def nearest_passage(quote: str, sources: list[Source]) -> Nearest | None:
    """The sentence of ``sources`` sharing the most distinct words with ``quote``, common
    words ("the", "was"...) aside (the first such, the shortest on a tie), or None when no
    sentence shares one."""
    wanted = [w for w in dict.fromkeys(_words(quote)) if w not in _COMMON]
    if not wanted:
        return None
    best: tuple[int, int, Source, tuple[int, int]] | None = None
    budget = MAX_CHARS
    for source in sources:
        text = source.text[:budget]
        budget -= len(text)
        for found in _SENTENCE.finditer(text):
            sentence = found.group()
            if len(sentence) > MAX_SENTENCE or not sentence.strip():
                continue
            have = set(_words(sentence))
            shared = sum(1 for w in wanted if w in have)
            if shared and (best is None or (shared, -len(sentence)) > (best[0], -best[1])):
                start = found.start() + len(sentence) - len(sentence.lstrip())
                best = (
                    shared,
                    len(sentence),
                    source,
                    (start, found.start() + len(sentence.rstrip())),
                )
        if budget <= 0:
            break
    if best is None:
        return None
    shared, _, source, span = best
    have = set(_words(source.text[span[0] : span[1]]))
    missing = tuple(w for w in wanted if w not in have)
    return Nearest(source, span, shared, len(wanted), missing)
