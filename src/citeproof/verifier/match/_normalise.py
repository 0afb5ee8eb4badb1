"""Offset-preserving normalisation: the text quotes are compared on, with a map back.

Most characters map one-to-one (a curly quote becomes ``"``, an NBSP a space), so the map is
stored as the few places where they do not rather than one integer per character: a 40 MB
source with ordinary prose has only as many as it has collapsed whitespace runs. Plain Python
and C-speed string methods throughout, no numpy: normalising the sources of one answer costs
less than importing it.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from citeproof.model import Span

_SPACES = "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
_SPACES += "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
_DOUBLE_QUOTES = "“”„‟«»「」『』〝〞〟″‶＂"
_SINGLE_QUOTES = "‘’‚‛‹›′‵＇"
_DASHES = "‐‑‒–—―−"

# One-to-one replacements run through `str.translate` (C speed, offsets unchanged).
_TABLE: dict[int, str] = {
    **{ord(c): " " for c in _SPACES},
    **{ord(c): '"' for c in _DOUBLE_QUOTES},
    **{ord(c): "'" for c in _SINGLE_QUOTES},
    **{ord(c): "-" for c in _DASHES},
}

# Invisible characters: zero-width, bidi controls, word joiner, BOM, soft hyphen.
_INVISIBLE = "\u200b-\u200d\u2060\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069\u00ad"
# Length-changing rewrites, found on the already translated text (all spaces are " " there).
_CHANGES = (
    rf"(?P<ws> [ {_INVISIBLE}]+|[{_INVISIBLE}]+ [ {_INVISIBLE}]*)"
    rf"|(?P<inv>[{_INVISIBLE}]+)"
    r"|(?P<ell>…)"
)
_CHANGES_RE = re.compile(_CHANGES)
_INVISIBLE_CHARS = "".join(
    "".join(map(chr, range(ord(m[1]), ord(m[2] or m[1]) + 1)))
    for m in re.finditer(r"(.)(?:-(.))?", _INVISIBLE)
)
# The same for text without an invisible character: only space runs and "…" change length.
# Split at them (a capturing split: the text between, then each change), C-speed both; the
# alternation, slower to scan for, only where there is a "…".
_SPACE_RUNS = re.compile(r"(  +)")
_SPACE_RUNS_OR_ELLIPSES = re.compile(r"(  +|…)")
# `str.translate` with a dict looks every character up in Python. For ASCII text bytes do it
# in C; otherwise the UTF-8 bytes do it for the ASCII characters (a byte below 128 is one in
# UTF-8) and a regex over the bytes finds the few others the table replaces (the encoding of
# a character starts only where a character does).
_ASCII_TABLE = bytes(
    ord(_TABLE.get(i, chr(i))) if len(_TABLE.get(i, chr(i))) == 1 else i for i in range(128)
).ljust(256, b"\0")
_UTF8_TABLE = _ASCII_TABLE[:128] + bytes(range(128, 256))
_UTF8_REPLACED = {
    chr(code).encode("utf-8"): _TABLE[code].encode("ascii") for code in _TABLE if code >= 128
}
_UTF8_REPLACED_RE = re.compile(b"|".join(map(re.escape, sorted(_UTF8_REPLACED))))


def has_invisible(text: str) -> bool:
    """Whether ``text`` holds a character normalisation removes (zero-width, bidi control,
    word joiner, BOM, soft hyphen): one that may join two words into one."""
    # One `str.find` pass per character costs less than the character class's regex scan.
    return any(char in text for char in _INVISIBLE_CHARS)


def _translate(text: str) -> str:
    """``text.translate(_TABLE)``, faster: every replacement is one character for one."""
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_TABLE).decode("ascii")
    if len(text) < 4096:  # a quote: the set-up below would cost more than it saves
        return text.translate(_TABLE)
    bytewise = text.encode("utf-8", "surrogatepass").translate(_UTF8_TABLE)
    return _UTF8_REPLACED_RE.sub(_replaced, bytewise).decode("utf-8", "surrogatepass")


def _replaced(encoded: re.Match[bytes]) -> bytes:
    return _UTF8_REPLACED[encoded.group()]


@lru_cache(maxsize=1)
def _changes_with_nfc() -> re.Pattern[str]:
    """The rewrite pattern plus NFC clusters; built only when a text is not already NFC."""
    unstable = []
    # Every character that composition can touch lies below U+2FA20 (CJK compatibility).
    for code in range(0x80, 0x2FA20):
        char = chr(code)
        if unicodedata.combining(char) or unicodedata.normalize("NFC", char) != char:
            unstable.append(code)
        # The second of a canonical pair composes with the character before it, though it is
        # stable alone (Bengali, Oriya, Tamil, Kannada, Malayalam, Sinhala vowel signs).
        pair = unicodedata.decomposition(char).split()
        if len(pair) == 2 and not pair[0].startswith("<"):
            unstable.append(int(pair[1], 16))
    unstable.extend(range(0x1160, 0x1200))  # Hangul medial/final jamo compose with a lead
    ranges = _code_ranges(sorted(set(unstable)))
    cls = "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(_CHANGES + rf"|(?P<nfc>(?s:.)?[{cls}]+)")


def _code_ranges(codes: list[int]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return ranges


class OffsetMap:
    """Normalised index -> original index, for ``0 <= i <= len(normalised)``.

    ``offsets[i]`` is where the original characters that produced normalised character ``i``
    start; ``offsets[len(normalised)]`` is ``len(original)``.
    """

    __slots__ = ("_end", "_norm", "_orig", "_size")

    def __init__(self, orig: Iterable[int], norm: Iterable[int], size: int, end: int) -> None:
        # The changes in order, each as two bounds, where it starts and where it ends: in
        # the original text (``orig``) and in the normalised one (``norm``). A change made
        # its normalised characters (none, for removed ones) from its whole original run;
        # between changes one character maps to one.
        self._orig = array("q", orig)
        self._norm = array("q", norm)
        self._size = size
        self._end = end

    def __len__(self) -> int:
        return self._size + 1

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays the map holds."""
        return (len(self._orig) + len(self._norm)) * self._orig.itemsize

    def __getitem__(self, i: int) -> int:
        if not 0 <= i <= self._size:
            raise IndexError(i)
        return self.start(i)

    def __iter__(self) -> Iterator[int]:
        return (self.start(i) for i in range(self._size + 1))

    def start(self, i: int) -> int:
        """Original index where normalised character ``i`` comes from."""
        if i >= self._size:
            return self._end
        bound = bisect_right(self._norm, i)  # odd: inside a change
        if not bound:
            return i
        if bound % 2:
            return self._orig[bound - 1]
        return self._orig[bound - 1] + (i - self._norm[bound - 1])

    def stop(self, i: int) -> int:
        """Original index just past the characters that produced normalised character ``i``
        (``0 <= i < len(normalised)``)."""
        bound = bisect_right(self._norm, i)
        if not bound:
            return i + 1
        if bound % 2:
            return self._orig[bound]
        return self._orig[bound - 1] + (i - self._norm[bound - 1]) + 1

    def span(self, start: int, end: int) -> Span:
        """The original span whose characters produced normalised ``[start, end)``."""
        if end <= start:
            at = self.start(start)
            return (at, at)
        return (self.start(start), self.stop(end - 1))

    def to_normalised(self, positions: Iterable[int]) -> list[int]:
        """For each original index, the first normalised index that comes from at or after it."""
        return [self._normalised(p) for p in positions]

    def _normalised(self, p: int) -> int:
        bound = bisect_right(self._orig, p)  # odd: inside a change
        if not bound:
            return min(p, self._size)
        if bound % 2:
            return self._norm[bound - 1 if p == self._orig[bound - 1] else bound]
        after = self._norm[bound - 1]
        return after + min(p - self._orig[bound - 1], self._size - after)


@dataclass(frozen=True, slots=True)
class Normalised:
    """Normalised text and the map back: ``offsets[i]`` is the original index of ``text[i]``."""

    text: str
    offsets: OffsetMap

    def original_span(self, start: int, end: int) -> Span:
        """Original span covering exactly the characters that produced ``text[start:end]``."""
        return self.offsets.span(start, end)


def normalise(text: str) -> Normalised:
    """NFC, whitespace runs -> one space, quote marks -> ``"``/``'``, dashes -> ``-``,
    ``…`` -> ``...``, invisible characters removed; case and letters are kept as they are.
    """
    translated = _translate(text)
    changes: Iterator[tuple[int, int, str]]
    if not translated.isascii() and not unicodedata.is_normalized("NFC", translated):
        changes = _matches(_changes_with_nfc(), translated)
    elif not translated.isascii() and has_invisible(translated):
        changes = _matches(_CHANGES_RE, translated)
    else:
        return _visible_changes(translated)
    pieces: list[str] = []
    orig: list[int] = []  # where each change starts and ends, in the text and normalised
    norm: list[int] = []
    out = 0  # normalised length so far
    last = 0  # original index up to which text has been emitted
    for start, end, replacement in changes:
        pieces.append(translated[last:start])
        out += start - last
        pieces.append(replacement)
        orig += (start, end)
        norm += (out, out + len(replacement))
        out += len(replacement)
        last = end
    pieces.append(translated[last:])
    out += len(text) - last
    return Normalised("".join(pieces), OffsetMap(orig, norm, out, len(text)))


def _visible_changes(translated: str) -> Normalised:
    """`normalise` where only runs of spaces (each becomes its first space) and "…" (three
    dots) change: a capturing split at them (the text between, then each change), and the
    offsets of both sides from the lengths of the pieces, all at C speed (a source of code
    has a run on most of its lines)."""
    ellipses = "…" in translated
    pieces = (_SPACE_RUNS_OR_ELLIPSES if ellipses else _SPACE_RUNS).split(translated)
    # Where each piece ends is where a change starts or ends: in the text, then normalised.
    orig = list(accumulate(map(len, pieces)))
    size = orig.pop()
    if ellipses:
        pieces[1::2] = ["..." if run == "…" else " " for run in pieces[1::2]]
    else:
        pieces[1::2] = [" "] * (len(pieces) // 2)
    norm = list(accumulate(map(len, pieces)))
    normalised_size = norm.pop()
    return Normalised("".join(pieces), OffsetMap(orig, norm, normalised_size, size))


def _matches(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int, str]]:
    for m in pattern.finditer(text):
        yield m.start(), m.end(), _replacement(m)


def _replacement(m: re.Match[str]) -> str:
    kind = m.lastgroup
    if kind == "ws":
        return " "
    if kind == "ell":
        return "..."
    if kind == "nfc":
        return unicodedata.normalize("NFC", m.group()).translate(_TABLE)
    return ""
