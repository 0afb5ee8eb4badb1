"""Ruling a source out of a word-for-word search before its index is built.

Normalisation (`normalise`) of ASCII text only turns whitespace into single spaces, so every
run of the normalised quote without a space is a run of the source text itself. In text that
is already NFC and holds no invisible character, normalisation still never makes or joins a
letter or digit, so each ASCII word of the quote is in the source text as it is. A source
that lacks one of the quote's such runs cannot hold the quote word for word: a few
``str.__contains__`` (C speed), longest run first, instead of normalising and indexing it.
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from citeproof.model import Source
from citeproof.verifier.match._normalise import has_invisible
from citeproof.verifier.match._quote import parse_quote

_K = TypeVar("_K", bound=Hashable)
_ASCII_WORD = re.compile(r"[0-9A-Za-z_]+")
RUNS = 32
"""Most runs of a quote looked for, longest first (a misspelt word, which no source holds,
may be short)."""


def plain(text: str) -> bool:
    """Whether normalising ``text`` keeps each of its ASCII words as it is (see the module):
    ASCII text, or NFC text without an invisible character."""
    if text.isascii():
        return True
    return unicodedata.is_normalized("NFC", text) and not has_invisible(text)


@dataclass(frozen=True, slots=True)
class VerbatimProbe:
    """What one quote needs of a source to occur in it word for word (as `find_quote` finds
    it with ``exact_only``): ``runs``, the `RUNS` longest distinct space-free runs of the
    normalised quote, in an ASCII source; ``words``, its `RUNS` longest ASCII words, in any
    other plain one. Empty: nothing to rule a source out by. ``digest`` names the quote."""

    digest: bytes
    runs: tuple[str, ...]
    words: tuple[str, ...]
    ascii: bool

    @classmethod
    def of(cls, quote: str) -> VerbatimProbe:
        bare = parse_quote(quote).bare
        runs = sorted(set(bare.split(" ")) - {""}, key=lambda r: (-len(r), r))
        words = sorted(set(_ASCII_WORD.findall(bare)), key=lambda w: (-len(w), w))
        digest = hashlib.blake2b(quote.encode("utf-8", "surrogatepass"), digest_size=16)
        return cls(digest.digest(), tuple(runs[:RUNS]), tuple(words[:RUNS]), bare.isascii())

    def may_hold(self, text: str, is_plain: bool | None = None) -> bool:
        """False only when ``text`` cannot hold the quote word for word. ``is_plain`` is
        `plain` of ``text`` when the caller knows it (it costs a pass over the text)."""
        if not self.runs:
            return True
        if text.isascii():
            return self.ascii and all(run in text for run in self.runs)
        if not self.words or not (plain(text) if is_plain is None else is_plain):
            return True
        return all(word in text for word in self.words)


class Rulings:
    """What probes found of texts, by content key (`IndexCache.key`), so the same quote
    over the same text is not probed again: whether each text is `plain`, and each probe's
    outcome (by the quote's digest: a few dozen bytes each); at most ``most`` of each kept,
    least recently used go. Thread-safe."""

    def __init__(self, most: int = 65_536) -> None:
        self.most = most
        self._plain: OrderedDict[str, bool] = OrderedDict()
        self._found: OrderedDict[tuple[str, bytes], bool] = OrderedDict()
        self._lock = threading.Lock()

    def may_hold(self, probe: VerbatimProbe, text: str, key: str) -> bool:
        """`VerbatimProbe.may_hold` of ``text``, whose content key is ``key``."""
        with self._lock:
            known = self._found.get((key, probe.digest))
            if known is not None:
                self._found.move_to_end((key, probe.digest))
                return known
            is_plain = self._plain.get(key)
        if is_plain is None and not text.isascii():
            is_plain = plain(text)
            self._remember(self._plain, key, is_plain)
        found = probe.may_hold(text, is_plain)
        self._remember(self._found, (key, probe.digest), found)
        return found

    def _remember(self, table: OrderedDict[_K, bool], key: _K, value: bool) -> None:
        with self._lock:
            table[key] = value
            table.move_to_end(key)
            while len(table) > self.most:
                table.popitem(last=False)


RULINGS = Rulings()
"""The rulings every verification in this process shares."""

MayHold = Callable[[VerbatimProbe, Source], bool]
"""Whether a source may hold a quote word for word: `VerbatimProbe.may_hold` on its text,
with what the caller knows of the text."""


def may_hold(probe: VerbatimProbe, source: Source) -> bool:
    """`VerbatimProbe.may_hold` of ``source``'s text, learning nothing in advance."""
    return probe.may_hold(source.text)
