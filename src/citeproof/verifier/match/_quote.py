"""A quote as the matcher sees it: normalised, trimmed, split at ellipses into segments, a
bracketed change of case ("[t]he") read as its letter and "[sic]" left out."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from citeproof.verifier.match._normalise import normalise

# After normalisation `…` is already `...`; `[…]` is `[...]`.
_ELLIPSIS = re.compile(r"\[ ?\.{3,} ?\]|\( ?\.{3,} ?\)|\.{3,}|\.(?: \.){2,}")
_TRIM = " \"'"
_QUOTE_MARKS = "\"' "
_WORD = re.compile(r"\w")
# An editor's change of a letter's case, marked by brackets as legal writing does: "[t]he",
# "[N]either". The letter is read as written; only its case may differ from the source's.
_CASE_CHANGE = re.compile(r"\[([^\W\d_])\](?=[^\W\d_])")
# "[sic]" after a word says the source has it so: a mark of the quoter's, not a word quoted.
_SIC = re.compile(r"[ \t]*[\[(][ \t]*sic!?[ \t]*[\])]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class QuoteText:
    """``full`` is the whole normalised quote, quotation marks at its edges kept (they may be
    the source's own); ``bare`` is ``full`` without them; ``segments`` are the parts of
    ``full`` between ellipses."""

    full: str
    segments: tuple[str, ...]
    bare: str


PARSED_MAX_CHARS = 4096
"""Quotes up to this long are parsed once: one quote is parsed for each source searched."""


def parse_quote(text: str) -> QuoteText:
    if len(text) <= PARSED_MAX_CHARS:
        return _parsed(text)
    return _parse(text)


@lru_cache(maxsize=1024)
def _parsed(text: str) -> QuoteText:
    return _parse(text)


def _parse(text: str) -> QuoteText:
    full = _SIC.sub("", _CASE_CHANGE.sub(r"\1", normalise(text).text.strip()))
    parts = (part.strip() for part in _ELLIPSIS.split(full))
    # A part with no word character (a comma left next to an elision) cannot be located.
    segments = tuple(part for part in parts if _WORD.search(part))
    if not segments and full:
        segments = (full,)
    full = _strip_edge_ellipses(full)
    return QuoteText(full, segments, full.strip(_QUOTE_MARKS))


def _strip_edge_ellipses(full: str) -> str:
    """A leading or trailing ellipsis only says the quote is partial: drop it."""
    while True:
        m = _ELLIPSIS.match(full)
        if m is None or not full[m.end() :].strip(_TRIM):
            break
        full = full[m.end() :].strip(_TRIM)
    while True:
        tail = [m for m in _ELLIPSIS.finditer(full) if m.end() == len(full)]
        if not tail or not full[: tail[0].start()].strip(_TRIM):
            break
        full = full[: tail[0].start()].strip(_TRIM)
    return full
