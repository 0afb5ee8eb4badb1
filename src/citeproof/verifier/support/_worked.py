"""Figures a claim works out from the passage's: a sum, a difference, a product, a quotient or
a share of two figures it states ("£19,776" for 48 rentals of £412; "29 April" for "24 April"
and "five days" later; "£429" for 15% of £2,860).

citeproof does not check arithmetic: the fact layer reads such a figure as another figure
than the passage's, and would call a true worked example `contradicted`. `worked_from` says
which two figures give it, so that the judge leaves the claim `unconfirmed` for a reader
instead (rule `facts.worked`), never `supported`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from citeproof.verifier.support._text import Token

WORKED = "facts.worked"
"""The rule id of a claim whose conflicting figures its passage's figures work out."""
MAX_OPERANDS = 40
"""Figures read as operands, at most (the claim's and the passage's, first first)."""
_CENT = 0.005  # money and shares are rounded to the penny or the hundredth


def worked_from(value: float, operands: Sequence[Token]) -> str | None:
    """How two of ``operands`` (figures with values) give ``value``, written for a reader
    ("48 × £412"), or None. Operands of 0 and 1 count for nothing; a value the operands
    state as it is, or two equal operands, work out nothing (a figure said of another thing
    is the fact layer's to read, not a sum)."""
    figures = [f for t in operands[:MAX_OPERANDS] for f in _values(t)]
    if any(_equal(x, value) for _, x, _ in figures):
        return None
    for (a, x, share), (b, y, _) in itertools.permutations(figures, 2):
        if _equal(x, y):
            continue
        for result, sign in (
            (x + y, "+"),
            (x - y, "−"),
            (x * y, "×"),
            (x / y if y else None, "÷"),
            (x / 100 * y if share else None, "of"),
        ):
            if result is not None and _equal(result, value):
                return f"{a} {sign} {b}"
    return None


def _equal(x: float, y: float) -> bool:
    return abs(x - y) <= max(_CENT, abs(y) * 1e-9)


_COUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _values(token: Token) -> list[tuple[str, float, bool]]:
    """The values ``token`` may enter a sum with: its value, and for a duration the count it
    is written with too ("48 months": 1,440 days, and 48); none for one of a unit ("a single
    year" + "two years" is no sum a claim works out) or a count it cannot read ("a
    fortnight"). Each with its text and whether it is a share (a percentage)."""
    if token.value is None or token.value in (0.0, 1.0):
        return []
    out = [(token.text, token.value, token.unit == "%")]
    if token.unit != "d":
        return out
    count = _count(token.text)
    if count in (None, 0.0, 1.0):
        return []  # "a single year", "one month", or a count not read
    if count != token.value:
        out.append((token.text, count, False))
    return out


_SPELLED = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip


def _count(text: str) -> float | None:
    """How many of its unit a duration says ("48 months": 48, "a single year": 1)."""
    digits = _COUNT.match(text)
    if digits:
        return float(digits.group().replace(",", ""))
    first = text.split()[0].casefold() if text.split() else ""
    return float(_SPELLED[first]) if first in _SPELLED else None
