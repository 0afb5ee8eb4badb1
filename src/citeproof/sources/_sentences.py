"""Sentence segmentation of source text with character offsets into the stored text.

`sentence_spans` returns half-open ``(start, end)`` spans into the exact text it was given, in
order, non-overlapping and trimmed of surrounding whitespace: the same contract as the
paragraph spans of `citeproof.sources._segment`. Every place that cuts source text into
sentences (the quote-first grammar, claim support, the extractive provider, the vendor
adapters) cuts it here, so a sentence offered to a model is the sentence the verifier reads.

A sentence ends at ``.``, ``!``, ``?`` or ``…`` (a run of them, as in ``...``, plus any closing
quotes or brackets) followed by whitespace, or at a full-width ``。``, ``！`` or ``？`` with or
without it, and then something that starts a sentence: an uppercase or uncased letter, a
digit, an opening quote or bracket. So no sentence ends inside a number (``3.5%``,
``$1,234.56``, ``v2.1.3``, ``Section 4.2``), before a lowercase word (``wait... then``), after
an initial (``J. R. R. Tolkien``) or after an abbreviation (`is_abbreviation`: ``e.g.``,
``Dr.``, ``cl. 12.1``, ``No. 5``, ``In S.A. 3262, ...``). A blank line always ends one; with
``line_breaks`` every line break does (lists, verse, a page's lines), except inside prose
wrapped at a width: a line that starts with a lowercase letter goes on the sentence before.

The answer parser (`citeproof.verifier.parse`) has its own splitter, which knows citation
markers and quotes, and shares this module's abbreviations and sentence starts.
"""

from __future__ import annotations

import re

from citeproof.model import Span

FULL_WIDTH_STOPS = "。！？"  # Chinese and Japanese write no space after a sentence
CLOSING = "\"'”’»«」』）】)]*_"
OPENING = "\"'“‘«»„‚「『（【([*_¿¡<"

# Abbreviations are written in lower case, without their last full stop.
# Never the end of a sentence: titles before a name, references before a number, Latin.
_NEVER_FINAL_WRITTEN = """mr mrs ms mx dr prof rev fr sr jr st mt gen col capt lt sgt hon messrs
e.g i.e cf vs v viz approx ca resp fig figs eq eqs p pp para paras sec secs art arts ch chap cl
cls vol vols al dept est jan feb apr jun jul aug sep sept oct nov dec u.s u.k u.s.a e.u"""
_NEVER_FINAL = frozenset(_NEVER_FINAL_WRITTEN.split())
# The end of a sentence, except before a number: "No. 5", "S.A. 3262", "etc. 2024".
# Any word with a full stop inside ("S.A", "A.D", "p.m") is read the same way.
_BEFORE_NUMBER_WRITTEN = "no nos nr etc inc ltd co corp bros plc llc"
_BEFORE_NUMBER = frozenset(_BEFORE_NUMBER_WRITTEN.split())
_STOPS = ".!?…"

_LETTER = r"[^\W\d_]"
_WORD_BEFORE_DOT = re.compile(rf"(?<![^\W\d_.]){_LETTER}(?:{_LETTER}|\.){{0,9}}\Z")
# Only a stop or a line break can end a sentence; one character class is what `re` scans
# fastest, the rest is read at each hit.
_CANDIDATE = re.compile(rf"[{_STOPS}{FULL_WIDTH_STOPS}\n]")
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
_NOT_SPACE = re.compile(r"\S")


def sentence_spans(
    text: str, start: int = 0, end: int | None = None, *, line_breaks: bool = False
) -> tuple[Span, ...]:
    """The sentences of ``text[start:end]`` as trimmed spans into ``text``, in order.

    Blank stretches give no sentence; a text without a sentence end is one sentence. With
    ``line_breaks`` every line break ends a sentence, else only a blank line does. Linear in
    the length of the text.
    """
    stop = len(text) if end is None else end
    spans: list[Span] = []
    current = position = start
    while (found := _CANDIDATE.search(text, position, stop)) is not None:
        at = found.start()
        if text[at] == "\n":
            blank = _BLANK_LINE.match(text, at, stop)
            position = at + 1 if blank is None or line_breaks else blank.end()
            if blank is None and (not line_breaks or _wrapped(text, at + 1, stop)):
                continue
            cut = at
        else:
            full_width = text[at] in FULL_WIDTH_STOPS
            cut = _run_end(text, at, stop, FULL_WIDTH_STOPS if full_width else _STOPS)
            single_dot = cut == at + 1 and text[at] == "."
            cut = position = _run_end(text, cut, stop, CLOSING)
            if cut < stop and not full_width and not text[cut].isspace():
                continue
            following = _NOT_SPACE.search(text, cut, stop)
            if following is None:
                break
            first = text[following.start()]
            if not starts_sentence(first) or (
                single_dot and is_abbreviation(text, at, first, start)
            ):
                continue
        _add_trimmed(text, current, cut, spans)
        current = cut
    _add_trimmed(text, current, stop, spans)
    return tuple(spans)


def _wrapped(text: str, at: int, stop: int) -> bool:
    """Whether the line starting at ``at`` goes on the sentence of the line before: prose
    wrapped at a width ("repairs to the\nroof and structure"), its first character a
    lowercase letter, which no sentence, list item or heading starts with."""
    following = _NOT_SPACE.search(text, at, stop)
    return following is not None and text[following.start()].islower()


def is_abbreviation(text: str, dot: int, following: str, start: int = 0) -> bool:
    """Whether the full stop at ``text[dot]`` closes an abbreviation or an initial rather than
    a sentence, given ``following``, the first character after it that is not a space (or
    closing punctuation). ``start`` bounds how far back the word before it is read."""
    word = _WORD_BEFORE_DOT.search(text, max(start, dot - 12), dot)
    if word is None:
        return False
    written = word.group()
    folded = written.lower()
    if folded in _NEVER_FINAL or (len(written) == 1 and written.isupper()):
        return True
    return following.isdigit() and (folded in _BEFORE_NUMBER or "." in written)


def starts_sentence(character: str) -> bool:
    """Whether a sentence may start with ``character``: a digit, an opening quote or bracket,
    or a letter that is not lowercase (uppercase, or of a script without case)."""
    return (
        character.isdigit()
        or character in OPENING
        or (character.isalpha() and not character.islower())
    )


def _run_end(text: str, at: int, stop: int, characters: str) -> int:
    """The offset after the characters of ``characters`` that start at ``at``."""
    while at < stop and text[at] in characters:
        at += 1
    return at


def _add_trimmed(text: str, start: int, end: int, spans: list[Span]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))
