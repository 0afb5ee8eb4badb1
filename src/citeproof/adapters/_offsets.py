"""One offset model for every vendor: a span of a text in code points, UTF-16 units and UTF-8
bytes.

The APIs count differently: Gemini's grounding segments are UTF-8 byte offsets into a part,
JavaScript and Java clients count UTF-16 code units, Python counts code points. The three agree
only on ASCII; an emoji is 1 code point, 2 UTF-16 units and 4 bytes, a CJK character 1, 1 and 3.
`TextOffsets` converts between them for one text, and refuses an offset that falls inside a
character or outside the text, since any index it could return would be wrong.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal

from citeproof.errors import AnswerError
from citeproof.model import Span

Unit = Literal["code_points", "utf16", "utf8"]
UNITS: tuple[Unit, ...] = ("code_points", "utf16", "utf8")


@dataclass(frozen=True, slots=True)
class TextSpan:
    """One half-open span of a text in the three units.

    ``code_points`` is a Python ``str`` slice; ``utf16`` counts UTF-16 code units (what
    JavaScript's ``String.slice`` takes); ``utf8`` counts bytes of the UTF-8 encoding.
    """

    code_points: Span
    utf16: Span
    utf8: Span

    def in_unit(self, unit: Unit) -> Span:
        """The span in ``unit``."""
        if unit == "code_points":
            return self.code_points
        return self.utf16 if unit == "utf16" else self.utf8


def utf8_length(char: str) -> int:
    """Bytes of one code point in UTF-8 (a lone surrogate, which JSON can carry, counts 3)."""
    point = ord(char)
    if point < 0x80:
        return 1
    if point < 0x800:
        return 2
    return 3 if point < 0x10000 else 4


def utf16_length(char: str) -> int:
    """UTF-16 code units of one code point: 2 above the Basic Multilingual Plane, else 1."""
    return 2 if ord(char) > 0xFFFF else 1


class TextOffsets:
    """Offsets of one text in every unit: build once, convert many spans.

    Every conversion raises `AnswerError` naming ``where`` for an offset outside the text or
    inside a character (the middle of an emoji's UTF-8 bytes or of a surrogate pair).
    """

    def __init__(self, text: str, *, where: str = "text") -> None:
        self.text = text
        self.where = where
        # Offset of each code point boundary, 0..len(text), in each unit; in ASCII text the
        # three units agree.
        self._utf8: Sequence[int]
        self._utf16: Sequence[int]
        if text.isascii():
            self._utf8 = self._utf16 = range(len(text) + 1)
        else:
            self._utf8 = [0, *accumulate(utf8_length(c) for c in text)]
            self._utf16 = [0, *accumulate(utf16_length(c) for c in text)]

    def length(self, unit: Unit) -> int:
        """The length of the text in ``unit``."""
        return len(self.text) if unit == "code_points" else self._table(unit)[-1]

    def to_index(self, offset: int, unit: Unit) -> int:
        """The ``str`` index of ``offset`` counted in ``unit``."""
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise AnswerError(f"offset {offset!r} is not an integer", where=self.where)
        total = self.length(unit)
        if not 0 <= offset <= total:
            raise AnswerError(
                f"offset {offset} is outside the text ({total} {_unit_name(unit)})",
                where=self.where,
            )
        if unit == "code_points":
            return offset
        table = self._table(unit)
        index = bisect_left(table, offset)
        if table[index] != offset:
            char = self.text[index - 1]
            raise AnswerError(
                f"offset {offset} ({_unit_name(unit)}) falls inside the character {char!r} "
                f"(U+{ord(char):04X}); an offset must fall between characters",
                where=self.where,
            )
        return index

    def from_index(self, index: int, unit: Unit) -> int:
        """The offset in ``unit`` of the ``str`` index ``index``."""
        if not 0 <= index <= len(self.text):
            raise AnswerError(
                f"index {index} is outside the text ({len(self.text)} code points)",
                where=self.where,
            )
        return index if unit == "code_points" else self._table(unit)[index]

    def span(self, start: int, end: int, unit: Unit = "code_points") -> TextSpan:
        """The span ``[start, end)`` counted in ``unit``, in all three units."""
        first = self.to_index(start, unit)
        last = self.to_index(end, unit)
        if last < first:
            raise AnswerError(
                f"span [{start}, {end}) ends before it starts ({_unit_name(unit)})",
                where=self.where,
            )
        return TextSpan(
            (first, last),
            (self._utf16[first], self._utf16[last]),
            (self._utf8[first], self._utf8[last]),
        )

    def _table(self, unit: Unit) -> Sequence[int]:
        return self._utf8 if unit == "utf8" else self._utf16


def past_the_end(text: str, offset: int) -> bool:
    """Whether ``offset`` is past the end of ``text`` in every unit, so wrong whichever a
    vendor counts in (its UTF-8 bytes are the longest count). Cheap for an offset within the
    text's code points, which is what a vendor sends: only one past them is measured."""
    if offset <= len(text):
        return False
    if text.isascii():
        return True
    return offset > len(text.encode("utf-8", "surrogatepass"))


def span_of(text: str, start: int, end: int, unit: Unit = "code_points") -> TextSpan:
    """`TextOffsets.span` for a single span of ``text``."""
    return TextOffsets(text).span(start, end, unit)


def _unit_name(unit: Unit) -> str:
    return {"code_points": "code points", "utf16": "UTF-16 units", "utf8": "UTF-8 bytes"}[unit]
