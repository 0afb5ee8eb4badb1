"""Figures a claim works out from the passage's, applies a bound of the passage to, or gives
where the passage gives a figure of another kind.

A claim may state a sum, a difference, a product, a quotient or a share of two figures the
passage states ("£19,776" for 48 rentals of £412; "18 March" for "13 March" and "five days"
later; "£429" for 15% of £2,860), or a case of a bound ("12 years' service" against "at least
10 years"). citeproof checks neither: the fact layer reads such a figure as another figure
than the passage's, and would call a true worked example `contradicted`. `worked_out` tells
which figures give it, so that the judge leaves the claim `unconfirmed` for a reader instead
(rules `facts.worked` and `facts.applied`), never `supported`. Nor is a figure of another
kind than the claim's a conflict (`other_measure`: "12" delegates against "£2,140").

A sum is one a reader could write down: its figures measure the same thing (money with money,
days with days, plain counts with counts), a product or quotient has at most one measured
figure, a share is a percentage of a figure, and a day of the month moves only by a number of
days. An ordinal is a position and no operand ("the Second Battle" + 20 is no 22).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from citeproof.model import ClaimDifference, ClaimSupport
from citeproof.verifier.support._locate import Sentence
from citeproof.verifier.support._request import Examined, Request
from citeproof.verifier.support._text import ORDINAL, Token, tokenize
from citeproof.verifier.support.lexicon import BOUNDS

WORKED = "facts.worked"
"""The rule id of a claim whose conflicting figures its passage's figures work out."""
APPLIED = "facts.applied"
"""The rule id of a claim that applies a bound of its passage to a case of its own."""
OTHER_MEASURE = "facts.other_measure"
"""The rule id of a claim whose figure the fact layer set against one of another kind."""
MAX_OPERANDS = 40
"""Figures read as operands, at most (the claim's and the passage's, first first)."""
BOUND_REACH = 3
"""Words before a figure that may bound it: "no more than", "at least"."""
_CENT = 0.005  # money and shares are rounded to the penny or the hundredth
_DAY = "day of month"  # the measure of "19" in "January 19": it moves by days only
_DAYS = "d"  # the unit of a duration, in days
_SHARE = "%"


def worked_out(request: Request, found: Examined, support: ClaimSupport) -> ClaimSupport | None:
    """The fact layer's `contradicted`, `unconfirmed` where each figure it found in conflict
    is one the claim works out or applies, not another figure (and the head's `partial` or
    `unsupported`, where each figure the passage does not give is one the claim works out or
    works it out from: "A £20,000 overdraft carries a fee of £300" against "1.5% of the
    limit"): worked out from two figures of the passage or the claim (`worked_from`: a sum
    the reader must check, rule `WORKED`), or a case of a bound of the passage ("12 years'
    continuous service" against "at least 10 years'", "reaches us at 14:30" against "after
    13:00": rule `APPLIED`). The rule is the first figure's. None otherwise."""
    conflicts = [d for d in support.differences if d.instead is not None]
    if support.verdict != "contradicted":  # a figure the passage does not give
        conflicts = [d for d in support.differences if d.kind in ("number", "date")]
    if not conflicts or any(d.kind not in ("number", "date") for d in conflicts):
        return None
    claim = tokenize(request.claim)
    text = request.source.text
    said = [(s, t) for s in found.chosen for t in s.tokens if t.value is not None]
    stated = list(_figures(claim))
    passage = [f for s in found.chosen for f in _figures(s.tokens)]
    ways: list[tuple[str, str]] = []
    operands: set[tuple[int, int]] = set()  # the claim's own figures a sum is worked from
    unread: list[tuple[int, int]] = []  # figures no sum gives: each must be an operand
    for d in conflicts:
        own = next((t for t in claim if t.span == d.span and t.value is not None), None)
        if own is None:
            return None
        result = next((f for f in stated if f.span == own.span), None)
        others = [f for f in stated if f.span != own.span]
        working = (
            _working(result, [*others, *passage])
            if d.kind == "number" and result is not None
            else None
        )
        if working is not None:
            operands |= {f.span for f in (working[0], working[2]) if f in others}
            ways.append((WORKED, f"works “{own.text}” out from the passage's ({_sum(working)})"))
            continue
        against = support.verdict == "contradicted"  # a bound the passage sets in its place
        bound = (
            _case_of(own, d, text, said)
            if against and not _bound(request.claim[: d.span[0]])
            else ""
        )
        if bound:
            ways.append((APPLIED, f"applies the passage's “{bound}” to “{own.text}”"))
        elif against:
            return None
        else:  # the claim's own case ("A £20,000 overdraft"), if a sum is worked from it
            unread.append(own.span)
    if not ways or any(span not in operands for span in unread):
        return None
    told = "; ".join(way for _, way in ways)
    checks = {rule for rule, _ in ways}
    what = " or ".join("sums" if r == WORKED else "a case against a bound" for r in sorted(checks))
    return dataclasses.replace(
        support,
        verdict="unconfirmed",
        reason=f"citeproof could not confirm this: the claim {told}, and citeproof does not "
        f"check {what}",
        rule=ways[0][0],
    )


def other_measure(support: ClaimSupport) -> ClaimSupport | None:
    """The fact layer's `contradicted` (rule `facts.number`), `unconfirmed` where each figure
    it found in the claim's figure's place measures another thing: "the passage says “12”,
    not “£2,140”" sets a count against an amount of money, "“10%”, not “£64,000”" a share
    against a price, "“16:30”, not “half”" a time of day against a count. A figure
    contradicts only a figure of its own measure (money, a share, a length of time, a time
    of day, a count), or the same number in another ("40%" for a fee of "£40"); against
    another, the passage does not give the claim's figure where the fact layer looked, and a
    reader must (rule `OTHER_MEASURE`). None otherwise, and wherever the fact layer found
    anything but figures."""
    conflicts = [d for d in support.differences if d.instead is not None]
    if support.rule != "facts.number" or not conflicts:
        return None
    if any(d.kind != "number" for d in conflicts) or any(
        d.kind == "negation" for d in support.differences
    ):
        return None
    pairs = [(d.text, d.instead or "") for d in conflicts]
    for ours, theirs in pairs:
        a, b = _measure(ours), _measure(theirs)
        if a is None or b is None or a[0] == b[0] or a[1] == b[1]:
            return None  # one measure; or one number in two ("40%" for the fee of "£40")
    told = "; ".join(
        f"the passage gives “{theirs}” where the claim gives “{ours}”" for ours, theirs in pairs
    )
    return dataclasses.replace(
        support,
        verdict="unconfirmed",
        reason=f"citeproof could not confirm this: {told}, a figure of another kind",
        rule=OTHER_MEASURE,
    )


def _measure(text: str) -> tuple[str, float] | None:
    """What the first figure of ``text`` measures (its unit: "£", "%", "d", "h", "" for a
    count) and its value, or None where it has none."""
    return next(
        ((t.unit, t.value) for t in tokenize(text) if t.kind == "number" and t.value is not None),
        None,
    )


class Figure(NamedTuple):
    """A figure that may enter a sum: its text, its value, what it measures (a unit, "" for
    a plain count, `_DAY` for a day of the month) and where it stands."""

    text: str
    value: float
    measure: str
    span: tuple[int, int]


def worked_from(result: Figure, operands: Sequence[Figure]) -> str | None:
    """How two of ``operands`` give ``result``, written for a reader ("48 months × £412"),
    or None. Operands of 0 and 1 count for nothing; a value the operands state as it is, or
    two equal operands, work out nothing (a figure said of another thing is the fact
    layer's to read, not a sum); and the operands must measure what the result measures
    (`_gives`)."""
    working = _working(result, operands)
    return _sum(working) if working is not None else None


def _working(result: Figure, operands: Sequence[Figure]) -> tuple[Figure, str, Figure] | None:
    """The two of ``operands`` and the sign that give ``result`` (see `worked_from`)."""
    figures = [f for f in operands[:MAX_OPERANDS] if f.value not in (0.0, 1.0)]
    if any(_equal(f.value, result.value) for f in figures):
        return None
    for a, b in itertools.permutations(figures, 2):
        if _equal(a.value, b.value):
            continue
        for value, sign in _results(a, b):
            if (
                value is not None
                and _equal(value, result.value)
                and _gives(a, sign, b) == result.measure
            ):
                return a, sign, b
    return None


def _sum(working: tuple[Figure, str, Figure]) -> str:
    a, sign, b = working
    return f"{a.text} {sign} {b.text}"


def _results(a: Figure, b: Figure) -> Iterator[tuple[float | None, str]]:
    x, y = a.value, b.value
    yield x + y, "+"
    yield x - y, "−"
    yield x * y, "×"
    yield (x / y if y else None), "÷"
    yield (x / 100 * y if a.measure == _SHARE else None), "of"


def _gives(a: Figure, sign: str, b: Figure) -> str | None:
    """What ``a sign b`` measures, or None for no sum a reader would write: days move a day
    of the month; otherwise a sum or difference is of its figures' one measure, a product
    has at most one measured figure, a quotient's divisor is a count or of the dividend's
    measure, and a share is of the figure it is taken of."""
    if sign in ("+", "−"):
        if a.measure == _DAY and b.measure == _DAYS:
            return _DAY
        return a.measure if a.measure == b.measure != _DAY else None
    if _DAY in (a.measure, b.measure):
        return None
    if sign == "×":
        return None if a.measure and b.measure else a.measure or b.measure
    if sign == "÷":
        return a.measure if not b.measure else "" if a.measure == b.measure else None
    return b.measure  # "of": a share of b


def _figures(tokens: Sequence[Token]) -> Iterator[Figure]:
    """The figures of ``tokens`` that may enter a sum: each number with what it measures, and
    for a duration the count it is written with too ("48 months": 1,440 days, and 48); none
    for an ordinal, one of a unit ("a single year" + "two years" is no sum a claim works
    out) or a count it cannot read ("a fortnight")."""
    for i, token in enumerate(tokens):
        if token.kind != "number" or token.value is None or token.unit == ORDINAL:
            continue
        count = _count(token.text) if token.unit == _DAYS else None
        if token.unit == _DAYS and count in (None, 0.0, 1.0):
            continue  # "a single year", "one month", or a count not read
        yield Figure(
            token.text, token.value, _DAY if _day_of_month(tokens, i) else token.unit, token.span
        )
        if count is not None and count != token.value:
            yield Figure(token.text, count, "", token.span)


def _day_of_month(tokens: Sequence[Token], i: int) -> bool:
    """Whether the plain number ``tokens[i]`` is a day of the month: 1 to 31, beside a
    month's name ("January 19", "19 January")."""
    token = tokens[i]
    if token.unit or token.value is None or token.value % 1 or not 1 <= token.value <= 31:
        return False
    beside = [tokens[j] for j in (i - 1, i + 1) if 0 <= j < len(tokens)]
    return any(t.kind == "date" and t.value is None for t in beside)


def _equal(x: float, y: float) -> bool:
    return abs(x - y) <= max(_CENT, abs(y) * 1e-9)


_COUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")
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


def _case_of(
    own: Token, conflict: ClaimDifference, text: str, said: Sequence[tuple[Sentence, Token]]
) -> str:
    """The bound of the passage ("at least 10 years") the claim's figure ``own``, no bound
    itself, stands against, or "": a figure the passage states as it is is no case."""
    if any(t.value == own.value and t.unit == own.unit for _, t in said):
        return ""
    return next(
        (
            f"{words} {t.text}"
            for sentence, t in said
            if t.text == conflict.instead
            and t.unit == own.unit
            and (words := _bound(text[sentence.span[0] : t.span[0]]))
        ),
        "",
    )


def _bound(before: str) -> str:
    """The words that make a figure a bound, among the three before it ("at least"), or ""."""
    near = before.split()[-BOUND_REACH:]
    at = next((i for i, w in enumerate(near) if w.strip(".,;:()'\"").casefold() in BOUNDS), None)
    return "" if at is None else " ".join(near[at:])
