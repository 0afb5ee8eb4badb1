"""Inline quotes: text between a pair of quotation marks inside one paragraph.

Straight marks are ambiguous, so an opening mark must look like one (not after a letter or
digit: ``5'10"``, ``27"``, ``don't``) and a closing mark must too (not before a letter:
``it’s``). A pair never spans another opening mark of its own kind: the text between an
unbalanced mark and the next quote is not a quote. Marks of other kinds inside a quote are part
of it, so ``"He said ‘yes’ to it"`` is one quote.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from citeproof.errors import AnswerError
from citeproof.model import Span
from citeproof.verifier.parse._text import has_word, trim

MAX_QUOTE = 2000
MAX_QUOTES = 20_000
"""Most inline quotes in one paragraph: past this an answer is an attack on the parser."""

# Each opening mark and the marks that may close it.
_CLOSERS: dict[str, str] = {
    '"': '"',
    "'": "'",
    "“": "”",
    "‘": "’",
    "«": "»",
    "»": "«",
    "„": "“”",
    "‚": "‘’",
    "「": "」",
    "『": "』",
}
_MARKS = re.compile("[\"'“”‘’«»„‚「」『』]")
_SPACED_OPENERS = "«「『"  # French and CJK quotes may have a space inside the mark
_SPACED_CLOSERS = "»«」』”“"
_WORD_BOUND = "\"'‘’‚"  # marks that double as apostrophes or inch marks
_BEFORE_SINGLE = '([{<"“«‘—–-/'  # what may precede an opening single quote besides a space


@dataclass(frozen=True, slots=True)
class InlineQuote:
    outer: Span  # from the opening mark to just after the closing mark
    inner: Span  # the quoted text, trimmed of whitespace


def find_inline_quotes(text: str, start: int, end: int) -> list[InlineQuote]:
    """Quotes in ``text[start:end]``, one paragraph of the code-masked answer, in order."""
    openers: list[int] = []
    opens: dict[str, list[int]] = {}
    closes: dict[str, list[int]] = {}
    for match in _MARKS.finditer(text, start, end):
        at = match.start()
        mark = text[at]
        before = text[at - 1] if at > start else " "
        after = text[at + 1] if at + 1 < end else " "
        if mark in _CLOSERS and _can_open(mark, before, after):
            openers.append(at)
            opens.setdefault(mark, []).append(at)
        if _can_close(mark, before, after):
            closes.setdefault(mark, []).append(at)
    quotes: list[InlineQuote] = []
    resume = start
    for at in openers:
        if at < resume:
            continue  # inside the previous quote
        quote = _pair(text, at, closes, opens)
        if quote is not None:
            if len(quotes) == MAX_QUOTES:
                raise AnswerError(
                    f"more than {MAX_QUOTES:,} quotes in one paragraph; not an answer to check",
                    field="answer",
                )
            quotes.append(quote)
            resume = quote.outer[1]
    return quotes


def _pair(
    text: str, at: int, closes: dict[str, list[int]], opens: dict[str, list[int]]
) -> InlineQuote | None:
    mark = text[at]
    closer = _first_closer(at, mark, closes)
    if closer is None or closer == at + 1 or closer - at - 1 > MAX_QUOTE:
        return None
    reopened = _next_after(opens[mark], at)
    if reopened is not None and reopened < closer:
        return None  # another opening mark of the same kind first: this one is unbalanced
    if mark == "'" and "\n" in text[at:closer]:
        return None  # straight single quotes are too often apostrophes to trust across lines
    inner = trim(text, at + 1, closer)
    if not has_word(text, *inner):
        return None
    return InlineQuote((at, closer + 1), inner)


def _first_closer(at: int, mark: str, closes: dict[str, list[int]]) -> int | None:
    first: int | None = None
    for closing_mark in _CLOSERS[mark]:
        found = _next_after(closes.get(closing_mark, ()), at)
        if found is not None and (first is None or found < first):
            first = found
    return first


def _next_after(positions: Sequence[int], at: int) -> int | None:
    i = bisect_right(positions, at)
    return positions[i] if i < len(positions) else None


def _can_open(mark: str, before: str, after: str) -> bool:
    if after.isspace():
        return mark in _SPACED_OPENERS
    if mark == '"' or mark == "‚":
        return not before.isalnum()
    if mark in "'‘":
        return (before.isspace() or before in _BEFORE_SINGLE) and not after.isdigit()
    return True


def _can_close(mark: str, before: str, after: str) -> bool:
    if before.isspace() and mark not in _SPACED_CLOSERS:
        return False
    if mark in _WORD_BOUND:
        return not after.isalnum()
    return True
