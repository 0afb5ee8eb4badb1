"""Offset-preserving normalisation: the text quotes are compared on, with a map back.

Most characters map one-to-one (a curly quote becomes ``"``, an NBSP a space), so the map is
stored as a few breakpoints rather than one integer per character: a 40 MB source with
ordinary prose has only as many breakpoints as it has collapsed whitespace runs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from citeproof.model import Span

if TYPE_CHECKING:  # numpy is imported where an array is made: `import citeproof` needs none
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

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
_VISIBLE_CHANGES_RE = re.compile(r"(?P<ws>  +)|(?P<ell>…)")
_ARRAYS_MIN_CHARS = 2048
"""Texts this long are rewritten with numpy (`_visible_changes`); a quote costs less by the
loop than numpy's set-up."""
# `str.translate` with a dict looks every character up in Python; for ASCII text bytes do it
# in C, and otherwise a numpy lookup table over the code points does.
_ASCII_TABLE = bytes(
    ord(_TABLE.get(i, chr(i))) if len(_TABLE.get(i, chr(i))) == 1 else i for i in range(128)
).ljust(256, b"\0")


@cache
def _lookup() -> npt.NDArray[np.uint32]:
    import numpy as np

    table = np.arange(max(_TABLE) + 1, dtype=np.uint32)
    for code, replacement in _TABLE.items():
        table[code] = ord(replacement)
    return table


def has_invisible(text: str) -> bool:
    """Whether ``text`` holds a character normalisation removes (zero-width, bidi control,
    word joiner, BOM, soft hyphen): one that may join two words into one."""
    # One `str.find` pass per character costs less than the character class's regex scan.
    return any(char in text for char in _INVISIBLE_CHARS)


def _translate(text: str) -> str:
    """``text.translate(_TABLE)``, faster: every replacement is one character for one."""
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_TABLE).decode("ascii")
    if len(text) < 4096:  # a quote: numpy's set-up would cost more than it saves
        return text.translate(_TABLE)
    # One lookup per code point, in numpy.
    import numpy as np

    lookup = _lookup()
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    low = points < len(lookup)
    mapped = np.where(low, lookup[np.where(low, points, 0)], points)
    return mapped.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")


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

    __slots__ = ("_end", "_fixed_end", "_norm", "_orig", "_size")

    def __init__(
        self, norm: IntArray, orig: IntArray, fixed_end: IntArray, size: int, end: int
    ) -> None:
        # Segment k starts at normalised norm[k] and original orig[k]. A linear segment
        # (fixed_end == -1) maps char by char; a fixed one maps every char it holds to the
        # whole original run [orig[k], fixed_end[k]) (a collapsed space run, an expanded …).
        self._norm = norm
        self._orig = orig
        self._fixed_end = fixed_end
        self._size = size
        self._end = end

    def __len__(self) -> int:
        return self._size + 1

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays the map holds."""
        return int(self._norm.nbytes + self._orig.nbytes + self._fixed_end.nbytes)

    def __getitem__(self, i: int) -> int:
        if not 0 <= i <= self._size:
            raise IndexError(i)
        return self.start(i)

    def __iter__(self) -> Iterator[int]:
        return (self.start(i) for i in range(self._size + 1))

    def start(self, i: int) -> int:
        """Original index where normalised character ``i`` comes from."""
        import numpy as np

        if i >= self._size:
            return self._end
        k = int(np.searchsorted(self._norm, i, side="right")) - 1
        if self._fixed_end[k] >= 0:
            return int(self._orig[k])
        return int(self._orig[k] + (i - self._norm[k]))

    def stop(self, i: int) -> int:
        """Original index just past the characters that produced normalised character ``i``."""
        import numpy as np

        k = int(np.searchsorted(self._norm, i, side="right")) - 1
        if self._fixed_end[k] >= 0:
            return int(self._fixed_end[k])
        return int(self._orig[k] + (i - self._norm[k])) + 1

    def span(self, start: int, end: int) -> Span:
        """The original span whose characters produced normalised ``[start, end)``."""
        if end <= start:
            at = self.start(start)
            return (at, at)
        return (self.start(start), self.stop(end - 1))

    def to_normalised(self, positions: IntArray) -> IntArray:
        """For each original index, the first normalised index that comes from at or after it."""
        import numpy as np

        k = np.searchsorted(self._orig, positions, side="right") - 1
        safe = np.maximum(k, 0)
        seg_len = np.diff(np.append(self._norm, self._size))[safe]
        inside = positions - self._orig[safe]
        fixed = self._fixed_end[safe] >= 0
        linear = self._norm[safe] + np.minimum(inside, seg_len)
        fixed_pos = np.where(inside == 0, self._norm[safe], self._norm[safe] + seg_len)
        result = np.where(fixed, fixed_pos, linear)
        return np.where(k < 0, 0, result).astype(np.int64)


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
    import numpy as np

    translated = _translate(text)
    changes: Iterator[tuple[int, int, str]]
    if not translated.isascii() and not unicodedata.is_normalized("NFC", translated):
        changes = _matches(_changes_with_nfc(), translated)
    elif not translated.isascii() and has_invisible(translated):
        changes = _matches(_CHANGES_RE, translated)
    elif len(translated) >= _ARRAYS_MIN_CHARS:
        return _visible_changes(text, translated)
    else:
        changes = _matches(_VISIBLE_CHANGES_RE, translated)
    pieces: list[str] = []
    norm: list[int] = []
    orig: list[int] = []
    fixed: list[int] = []
    out = 0  # normalised length so far
    last = 0  # original index up to which text has been emitted
    for start, end, replacement in changes:
        if start > last:
            pieces.append(translated[last:start])
            norm.append(out)
            orig.append(last)
            fixed.append(-1)
            out += start - last
        if replacement:
            pieces.append(replacement)
            norm.append(out)
            orig.append(start)
            fixed.append(end)
            out += len(replacement)
        last = end
    if last < len(text):
        pieces.append(translated[last:])
        norm.append(out)
        orig.append(last)
        fixed.append(-1)
        out += len(text) - last
    if not norm:  # keep at least one segment so lookups never index an empty array
        norm, orig, fixed = [0], [len(text)], [-1]
    offsets = OffsetMap(
        np.array(norm, dtype=np.int64),
        np.array(orig, dtype=np.int64),
        np.array(fixed, dtype=np.int64),
        out,
        len(text),
    )
    return Normalised("".join(pieces) if pieces else "", offsets)


def _visible_changes(text: str, translated: str) -> Normalised:
    """`normalise` where only runs of spaces (each becomes its first space) and "…" (three
    dots) change, found with numpy: a source of code has a run on most of its lines."""
    import numpy as np

    size = len(text)
    if translated.isascii():
        points = np.frombuffer(translated.encode("ascii"), dtype=np.uint8)
        ellipses = np.zeros(0, dtype=np.int64)
    else:
        points = np.frombuffer(translated.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        ellipses = np.flatnonzero(points == ord("…"))
    space = points == ord(" ")
    extra = np.flatnonzero(space[1:] & space[:-1]) + 1  # spaces after a space: dropped
    breaks = np.flatnonzero(np.diff(extra) != 1)
    run_start = np.concatenate((extra[:1], extra[breaks + 1])) - 1
    run_end = np.concatenate((extra[breaks], extra[-1:])) + 1
    # The changes in order: (start, end, length of the replacement); none overlap.
    starts = np.concatenate((run_start, ellipses)).astype(np.int64)
    order = np.argsort(starts, kind="stable")
    starts = starts[order]
    ends = np.concatenate((run_end, ellipses + 1)).astype(np.int64)[order]
    lengths = np.concatenate(
        (np.ones(len(run_start), dtype=np.int64), np.full(len(ellipses), 3, dtype=np.int64))
    )[order]
    offsets = _segments(size, starts, ends, lengths)
    if not len(starts):
        return Normalised(translated, offsets)
    kept = np.ones(len(points), dtype=bool)
    kept[extra] = False
    codec = "ascii" if translated.isascii() else "utf-32-le"
    collapsed = points[kept].tobytes().decode(codec, "surrogatepass")
    return Normalised(collapsed.replace("…", "...") if len(ellipses) else collapsed, offsets)


def _segments(size: int, starts: IntArray, ends: IntArray, lengths: IntArray) -> OffsetMap:
    """The map of a text of ``size`` characters whose changes, in order and apart, replace
    ``[starts[k], ends[k])`` with ``lengths[k]`` characters: a linear segment before each
    change (where text precedes it), a fixed one for each change, a last linear one."""
    import numpy as np

    if not len(starts):
        zero = np.zeros(1, dtype=np.int64)
        return OffsetMap(zero, zero.copy(), np.full(1, -1, dtype=np.int64), size, size)
    shift = np.cumsum(lengths - (ends - starts))
    before = np.concatenate(([0], shift[:-1]))  # characters gained before each change
    plain = np.concatenate(([0], ends[:-1]))  # where the text before each change starts
    keep = plain < starts
    orig = [plain[keep], starts]
    norm = [(plain + before)[keep], starts + before]
    fixed = [np.full(int(keep.sum()), -1, dtype=np.int64), ends]
    if ends[-1] < size:
        orig.append(ends[-1:])
        norm.append(ends[-1:] + shift[-1])
        fixed.append(np.full(1, -1, dtype=np.int64))
    all_orig = np.concatenate(orig)
    order = np.argsort(all_orig, kind="stable")
    return OffsetMap(
        np.concatenate(norm)[order].astype(np.int64),
        all_orig[order].astype(np.int64),
        np.concatenate(fixed)[order].astype(np.int64),
        size + int(shift[-1]),
        size,
    )


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
