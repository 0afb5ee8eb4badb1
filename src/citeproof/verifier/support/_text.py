"""Claim and passage text as tokens: words with offsets, their folded stems, and what each
token is (a number with its unit and magnitude, a date, a name, a negation, a comparative,
a content word or a stop word). Pure functions, no I/O.

The fact layer compares these tokens; the learned layer counts them. Both rely on one
tokeniser, so "backed" means the same thing in every place that says it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, NamedTuple

from citeproof.sources import sentence_spans
from citeproof.verifier.support.lexicon import CARVED_IF, CARVING_OUT


def word_set(text: str) -> frozenset[str]:
    """The words of ``text``, split at white space: the word lists below."""
    return frozenset(text.split())


Kind = Literal["number", "date", "name", "negation", "comparative", "word", "stop"]

STOP_WORDS = word_set(
    """a an the and or but if then than that this these those there here it its it's is are
    was were be been being am do does did doing have has had having of in on at to from by for
    with about as into onto over under through during before after above below up down out off
    again further once so such too very can will just should would could may might must shall
    also only own same other some any each every all both few more most which who whom whose
    what when where why how i me my we our you your he him his she her they them their one's
    s t d ll re ve m o y per via while until because although though since yet even still
    however thus therefore whereas whether either upon within among between across around
    according said says say including include includes included"""
)
# How answers attribute what they report to the source ("the email notes that", "Dan wrote
# that"): framing, not a fact the source must back. Only written in lower case (or opening a
# sentence), so "United States" keeps its name.
ATTRIBUTION_WORDS = word_set(
    """wrote writes write written states stated mentions mentioned explains explained noted
    email emails e-mail memo message"""
)
NEGATIONS = word_set(
    """not no never none nor neither without cannot can't cant don't dont doesn't doesnt
    didn't didnt isn't isnt wasn't wasnt aren't arent weren't werent won't wont wouldn't
    couldn't shouldn't hasn't hasnt haven't havent hadn't hadnt mustn't nobody nothing
    n't"""
)
# Direction of a comparative: +1 "more than / above", -1 "less than / below".
COMPARATIVES: dict[str, int] = {
    "above": 1,
    "over": 1,
    "more": 1,
    "greater": 1,
    "higher": 1,
    "exceed": 1,
    "exceeds": 1,
    "exceeding": 1,
    "larger": 1,
    "least": 1,
    "minimum": 1,
    "below": -1,
    "under": -1,
    "less": -1,
    "fewer": -1,
    "lower": -1,
    "smaller": -1,
    "most": -1,
    "maximum": -1,
    "beneath": -1,
    "later": 1,
    "longer": 1,
    "earlier": -1,
    "sooner": -1,
    "shorter": -1,
}
# Direction of a change: +1 "rose / increased", -1 "fell / decreased". A change is backed only
# by a change in the same direction, and contradicted by one in the other; "up" and "down"
# count only before a number ("up 12%"; not "up to", "set up").
CHANGES: dict[str, int] = {
    **dict.fromkeys(
        word_set(
            """rose rise rises risen rising increased increase increases increasing grew grow
            grows growing grown climbed climb climbs gained jumped surged soared up"""
        ),
        1,
    ),
    **dict.fromkeys(
        word_set(
            """fell fall falls fallen falling decreased decrease decreases decreasing declined
            decline declines declining dropped drop drops dropping shrank shrink shrinks shrunk
            slipped slumped plunged down"""
        ),
        -1,
    ),
}
_CHANGE_BEFORE_NUMBER = frozenset({"up", "down"})


def direction(token_text: str) -> tuple[str, int] | None:
    """The family ("comparative" or "change") and direction (+1 / -1) of a comparative
    token's text, turned round by a negation before it ("not exceed" is "at most"); None
    for any other."""
    words = token_text.casefold().split()
    if not words:
        return None
    turn = -1 if len(words) > 1 and _is_negation(words[0]) else 1
    folded = words[-1]
    if words[-2:] == ["up", "to"]:
        return "comparative", turn * -1  # "up to 80%" is at most 80%
    if folded in COMPARATIVES:
        return "comparative", turn * COMPARATIVES[folded]
    if folded in CHANGES:
        return "change", turn * CHANGES[folded]
    return None


def _is_negation(folded: str) -> bool:
    return folded in NEGATIONS or folded.endswith("n't")


NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "half": 0.5,
    "single": 1,
    "twice": 2,
    "double": 2,
}
ORDINAL = "th"  # the unit of an ordinal ("fifth", "5th"): it backs only ordinals
ORDINAL_WORDS = word_set("first second third fourth fifth sixth seventh eighth ninth tenth")
MAGNITUDES = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "m": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
    "tn": 1e12,
}
MONTHS = word_set(
    """january february march april may june july august september october november
    december jan feb mar apr jun jul aug sep sept oct nov dec"""
)

_NUMBER = (
    r"(?:(?P<cur>[$£€¥])\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<ord>st|nd|rd|th)?"
    r"(?:(?P<pence>p)\b|\s?(?P<unit>%|per\s?cent\b|percent\b|"
    r"(?:thousand|million|billion|trillion|bn|mn|tn|k|m|b)\b))?"
)
# A time of day, on the 24-hour clock ("22:00") or the 12-hour one ("10 pm", "5.30 a.m."):
# read as its hour of the day, so "10 pm" backs "22:00".
_CLOCK = (
    r"(?<![\d.:,])(?:(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)(?![\d:])"
    r"|(?P<h12>1[0-2]|0?[1-9])(?:[.:](?P<m12>[0-5]\d))?\s?(?P<ampm>[ap])\.?m\b\.?)"
)
# An ISO 8601 date ("2025-03-01"): read as its day, month and year, as "1 March 2025" is.
_ISO_DATE = (
    r"(?<![\d-])(?P<year>1[5-9]\d\d|20\d\d)-(?P<month>0[1-9]|1[0-2])-(?P<day>0[1-9]|[12]\d|3[01])"
    r"(?![\d-])"
)
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_TOKEN = re.compile(
    _ISO_DATE + "|" + _CLOCK + "|" + _NUMBER + r"|(?P<word>[^\W\d_](?:[\w]|['’][^\W\d_])*)",
    re.UNICODE,
)
# "over 80%" compares, "under the policy" does not: these two only before a number.
_BEFORE_NUMBER = frozenset({"over", "under"})
_OF_TIME = frozenset({"later", "longer", "earlier", "sooner", "shorter"})
"""Comparatives of time, read as one only after a denial and before "than": "no later than
180 days" is at most 180 days; "later that day" is a word."""
CARVE_OUT = re.compile(
    r"(?:The|This|These|That|Those|Such|It|They)\b[^.;:]{0,80}?\b"
    r"(?:does|do|did|shall|will|is|are)\s+not\s+(?:" + "|".join(sorted(CARVING_OUT)) + r")\b"
    r"|(?:This|These|That|Those|Such)\b[^.;:]{0,80}?\bnot\b[^.;:]{0,60}?\b(?:"
    + "|".join(sorted(CARVED_IF))
    + r")\b"
)
"""A sentence that opens by pointing back and says it does not apply (a verb of
`lexicon.CARVING_OUT`): "The discount does not apply to Health and Safety Leadership", "This
right does not apply if ..."; or that denies under a condition (`lexicon.CARVED_IF`: "This
fee is not payable if ..."): `condition.kept` reads it as an exception to the statement
before it."""
LIST_ITEM = re.compile(r"\s*(?:\(?[a-z0-9]{1,3}\)|[-*•]\s|[a-z0-9]{1,3}\.\s)", re.IGNORECASE)
"""The marker that opens an item of a list: "(c)", "a)", "- ", "2. "."""
LIST_REACH = 12
"""A list's items read back, at most, for the line that introduces it ("... does not cover:")."""
_NEXT_NUMBER = re.compile(r"\s*(?:[$£€¥]\s?)?\d")
_NUMBER_SIGN = re.compile(r"\.\s?\d")
"""After "No" (or "no"): the abbreviation of "number" ("No. 20", "no.5")."""
_YEAR = re.compile(r"1[5-9]\d\d|20\d\d")


class Token(NamedTuple):
    """One token of a text: ``span`` into that text, ``key`` the folded form two tokens must
    share to back each other (a stem for words, the value and unit for numbers). A named
    tuple: sources are cut into hundreds of thousands of them, and a tuple is made in a
    fraction of a frozen dataclass's time."""

    text: str
    span: tuple[int, int]
    key: str
    kind: Kind
    value: float | None = None
    unit: str = ""


# Irregular past forms, read as their verb: "consent shall not be unreasonably withheld" says
# "withhold", "the fees paid" says "pay".
_IRREGULAR = {
    "held": "hold",
    "withheld": "withhold",
    "upheld": "uphold",
    "paid": "pay",
    "made": "make",
    "gave": "give",
    "given": "give",
    "took": "take",
    "taken": "take",
    "wrote": "write",
    "written": "write",
    "sold": "sell",
    "bought": "buy",
    "sent": "send",
    "kept": "keep",
    "brought": "bring",
    "told": "tell",
    "shown": "show",
    "chose": "choose",
    "chosen": "choose",
    "began": "begin",
    "begun": "begin",
    "grew": "grow",
    "grown": "grow",
    "drew": "draw",
    "drawn": "draw",
}


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A crude English stem: case folded, common inflections removed ("loans" → "loan",
    "referred" → "refer", "valuation" stays). Two words back each other when stems agree.
    Remembered for the last 65,536 distinct words (a word is stemmed once per text it is in,
    and most words recur across claims and sources)."""
    w = word.casefold().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = _IRREGULAR.get(w, w)
    for suffix, keep in (
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("es", ""),
        ("ly", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: len(w) - len(suffix)] + keep
            break
    if len(w) > 4 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # "referr" → "refer", "planned" → "plan"
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def _number_key(value: float, unit: str) -> str:
    text = f"{value:.6g}"
    return f"#{text}{unit}"


class _Reading(NamedTuple):
    """What a word is by itself: its key and kind, and where its place in the text decides."""

    key: str
    kind: Kind
    value: float | None = None
    unit: str = ""
    before_number: bool = False  # a comparative only right before a number ("over 80%")
    stop_at_start: bool = False  # an attribution word: a stop word where it opens a sentence
    opening_word: bool = False  # capitalised: a plain word where it opens a sentence or line
    spelled: bool = False  # may open a number spelled in words ("thirty-six")


_BEFORE_NO_DATE = frozenset("0123456789-.:,")  # what the date and clock patterns look behind at


@lru_cache(maxsize=65_536)
def _reading(word: str) -> _Reading:
    """How `tokenize` reads ``word`` wherever it stands, its place aside (remembered: most
    words recur)."""
    folded = word.casefold().replace("’", "'")
    key = stem(word)
    if _is_negation(folded):
        return _Reading("¬", "negation")
    if folded in _CLOCK_WORDS:  # "midday" is 12:00
        hour = _CLOCK_WORDS[folded]
        return _Reading(_number_key(hour, CLOCK), "number", hour, CLOCK)
    if folded in NUMBER_WORDS:
        value = float(NUMBER_WORDS[folded])
        unit = ORDINAL if folded in ORDINAL_WORDS else ""
        spelled = folded in _SMALL or folded in _TENS
        return _Reading(_number_key(value, unit), "number", value, unit, spelled=spelled)
    if (folded in COMPARATIVES and folded not in _BEFORE_NUMBER | _OF_TIME) or (
        folded in CHANGES and folded not in _CHANGE_BEFORE_NUMBER
    ):
        return _Reading(key, "comparative")
    before_number = folded in COMPARATIVES or folded in CHANGES
    if folded in MONTHS and word[:1].isupper():
        return _Reading(key, "date", before_number=before_number)
    if folded in STOP_WORDS or (folded in ATTRIBUTION_WORDS and word.islower()):
        return _Reading(key, "stop", before_number=before_number)
    stop_at_start = folded in ATTRIBUTION_WORDS
    if word.isupper() and len(word) >= 2:  # "ACME", "LTV": a name wherever it stands
        return _Reading(key, "name", None, "", before_number, stop_at_start)
    if word[:1].isupper():
        return _Reading(key, "name", None, "", before_number, stop_at_start, opening_word=True)
    return _Reading(key, "word", None, "", before_number, stop_at_start)


def tokenize(text: str, first: int = 0, last: int | None = None) -> list[Token]:
    """Every number and word of ``text[first:last]`` in order, each classified (see `Kind`),
    with spans into ``text``: the same tokens as ``tokenize(text[first:last])`` would give,
    each shifted by ``first``, without the copies."""
    last = len(text) if last is None else last
    if 0 < first < len(text) and text[first - 1] in _BEFORE_NO_DATE:
        # The date pattern looks behind its start, which the slice would not let it see.
        return [
            Token(t.text, (t.span[0] + first, t.span[1] + first), t.key, t.kind, t.value, t.unit)
            for t in tokenize(text[first:last])
        ]
    tokens: list[Token] = []
    window = text[first:last] if first or last < len(text) else text
    starts: set[int] | None = None  # where sentences start: read only when a word needs it
    spelled = comparative = negation = up = duration = half = False  # what the joins need
    percent = fraction = False
    for found in _TOKEN.finditer(text, first, last):
        start, end = found.span()
        word = found.group("word")
        if word is not None:
            reading = _reading(word)
            kind = reading.kind
            if reading.before_number and _NEXT_NUMBER.match(text, end, last):
                kind = "comparative"
            elif kind == "negation" and _NUMBER_SIGN.match(text, end, last):
                kind = "stop"  # "No. 1 Pop": the number sign, no denial
            elif reading.stop_at_start or reading.opening_word:
                if starts is None:
                    starts = {first} | {
                        first + s for s, _ in sentence_spans(window, line_breaks=True)
                    }
                if reading.stop_at_start and start in starts:
                    kind = "stop"
                elif reading.opening_word and (start in starts or _after_open(text, start, first)):
                    kind = "word"
            tokens.append(Token(word, (start, end), reading.key, kind, reading.value, reading.unit))
            spelled = spelled or reading.spelled
            comparative = comparative or kind == "comparative" or word.casefold() in _OF_TIME
            negation = negation or kind == "negation"
            up = up or reading.key == "up"
            duration = duration or reading.key in _DAYS_BY_KEY
            half = half or reading.value == 0.5  # "half"
            fraction = fraction or word.casefold() in _FRACTIONS
            continue
        if found.group("year") is not None:
            tokens += _iso_date(found)
            continue
        if found.group("h24") is not None or found.group("h12") is not None:
            tokens.append(_clock(found))
            continue
        raw = found.group("num").replace(",", "")
        value = float(raw)
        unit_word = (found.group("unit") or "").casefold().replace(" ", "")
        unit = ""
        if unit_word in ("%", "percent", "percent"):
            unit = "%"
        elif unit_word in MAGNITUDES:
            value *= MAGNITUDES[unit_word]
        elif unit_word.startswith("per"):
            unit = "%"
        if found.group("pence"):
            value, unit = value / 100, "£"  # "58p" is £0.58
        if found.group("cur"):
            unit = found.group("cur") + unit
        if found.group("ord"):
            unit = ORDINAL  # "5th" is not "5"
        whole = found.group("num")
        is_year = (
            not found.group("cur")
            and not unit_word
            and not found.group("ord")
            and _YEAR.fullmatch(whole) is not None
        )
        number_kind: Kind = "date" if is_year else "number"
        percent = percent or unit == "%"
        tokens.append(
            Token(found.group(0), (start, end), _number_key(value, unit), number_kind, value, unit)
        )
    # Each join below changes nothing without the words it joins: skipped then (most texts).
    if spelled:
        tokens = _join_spelled_numbers(text, tokens)
    if comparative and negation:
        tokens = _join_negated_comparatives(text, tokens)
    if up:
        tokens = _join_up_to(text, tokens)
    if half:
        tokens = _join_halves(text, tokens)
    if fraction:
        tokens = _join_fractions(text, tokens)
    if percent:
        tokens = _join_ranges(text, tokens)
    return _join_durations(text, tokens) if duration else tokens


CLOCK = "h"  # the unit of a time of day, in hours after midnight: "10 pm" is 22
_CLOCK_WORDS = {"midday": 12.0, "noon": 12.0}


def _clock(found: re.Match[str]) -> Token:
    """A time of day as one number token: its hour after midnight, minutes as a fraction."""
    if found.group("h24") is not None:
        hour, minute = int(found.group("h24")), int(found.group("m24"))
    else:
        hour, minute = int(found.group("h12")) % 12, int(found.group("m12") or 0)
        hour += 12 if found.group("ampm").casefold() == "p" else 0
    value = round(hour + minute / 60, 6)
    return Token(found.group(0), found.span(), _number_key(value, CLOCK), "number", value, CLOCK)


_AND_A_HALF = ("and", "a", "half")


def _join_halves(text: str, tokens: list[Token]) -> list[Token]:
    """A number and "and a half" after it as one number: "two and a half hours" is 2.5
    hours, not two and half an hour."""
    joined: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        words = tokens[i + 1 : i + 4]
        if (
            token.kind == "number"
            and token.value is not None
            and not token.unit
            and tuple(t.text.casefold() for t in words) == _AND_A_HALF
            and all(
                text[a.span[1] : b.span[0]] == " " for a, b in itertools.pairwise(tokens[i : i + 4])
            )
        ):
            value = token.value + 0.5
            span = (token.span[0], words[-1].span[1])
            joined.append(
                Token(text[span[0] : span[1]], span, _number_key(value, ""), "number", value)
            )
            i += 4
            continue
        joined.append(token)
        i += 1
    return joined


_FRACTIONS = {
    "half": 1 / 2,
    "halves": 1 / 2,
    "quarter": 1 / 4,
    "quarters": 1 / 4,
    "third": 1 / 3,
    "thirds": 1 / 3,
}
_COUNTS = word_set("one two three")
"""How many of a fraction a text may count in words ("two thirds"): never a figure, which
may be a clause number ("2.2 Half of the fees")."""
_HALF_OF = word_set("of the its their your our his her this that")
"""What "half" is half of, without an "of" ("half the fee")."""


def _join_fractions(text: str, tokens: list[Token]) -> list[Token]:
    """A fraction of something as the percentage it is: "half of the fee", "half the fee",
    "a quarter of the charge" and "two thirds of the shares" say 50%, 25% and 66.7%. A
    "quarter" or "third" with no count before it is left as it is ("the third of June")."""
    out: list[Token] = []
    for i, token in enumerate(tokens):
        share = _FRACTIONS.get(token.text.casefold())
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            share is None
            or after is None
            or text[token.span[1] : after.span[0]] != " "
            or not (after.key == "of" or (share == 1 / 2 and after.text.casefold() in _HALF_OF))
        ):
            out.append(token)
            continue
        before = out[-1] if out else None
        count, start = 1.0, token.span[0]
        if (
            before is not None
            and text[before.span[1] : token.span[0]] == " "
            and (before.key in ("a", "an") or before.text.casefold() in _COUNTS)
        ):
            count = before.value if before.kind == "number" and before.value else 1.0
            start = before.span[0]
            out.pop()
        elif share != 1 / 2:
            out.append(token)
            continue
        value = round(count * share * 100, 1)
        written = text[start : token.span[1]]
        out.append(
            Token(written, (start, token.span[1]), _number_key(value, "%"), "number", value, "%")
        )
    return out


_RANGE_GAP = re.compile(r"[ \t]*[-–—][ \t]*|[ \t]+to[ \t]+")


def _join_ranges(text: str, tokens: list[Token]) -> list[Token]:
    """A bare number before a percentage it makes a range with ("7-9%", "7 to 9%") in the
    percentage's unit: the claim's "7-9%" is the passage's "7% to 9%"."""
    out = list(tokens)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if (
            a.kind == "number"
            and a.value is not None
            and not a.unit
            and b.kind == "number"
            and b.unit == "%"
            and _RANGE_GAP.fullmatch(text, a.span[1], b.span[0])
        ):
            out[i] = a._replace(key=_number_key(a.value, "%"), unit="%")
    return out


DURATION = "d"  # the unit of a length of time, in days: "three months" backs "90 days"
_DAYS = {
    "minute": 1 / 1440,
    "hour": 1 / 24,
    "day": 1,
    "week": 7,
    "fortnight": 14,
    "month": 30,  # contracts count a month as 30 days: "ninety days' notice" is three months
    "year": 360,  # twelve months
}
_DAYS_BY_KEY = {stem(word): days for word, days in _DAYS.items()}
"""`_DAYS` by the tokens' keys, their stems: "minutes" and "minute" are both "minut"."""


_DURATION_GAP = re.compile(r"[ \t]*(?:-[ \t]*)?|[ \t]*\(\s*[\d.,]+\s*\)[ \t]*(?:-[ \t]*)?")


def _join_durations(text: str, tokens: list[Token]) -> list[Token]:
    """A number and the unit of time after it as one number token in days ("three months",
    "ninety (90) days", "30-day"), so lengths of time in other units back each other."""
    joined: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        j = i + 1
        # "ninety (90) days": the figure in brackets repeats the words.
        if (
            j < len(tokens)
            and tokens[j].kind == "number"
            and tokens[j].value == token.value
            and "(" in text[token.span[1] : tokens[j].span[0]]
        ):
            j += 1
        gap_end = j
        days = _DAYS_BY_KEY.get(tokens[j].key) if j < len(tokens) else None
        if (
            token.key in ("a", "an")
            and days is not None
            and _one_length(text, joined, token, tokens[j], tokens[j + 1 : j + 2])
        ):
            span = (token.span[0], tokens[j].span[1])
            written = text[span[0] : span[1]]
            joined.append(
                Token(written, span, _number_key(days, DURATION), "number", days, DURATION)
            )
            i = j + 1
            continue
        # "half a year": the article is part of the figure.
        if (
            token.value == 0.5
            and j + 1 < len(tokens)
            and tokens[j].key in ("a", "an")
            and text[tokens[j].span[1] : tokens[j + 1].span[0]] == " "
        ):
            j += 1
        unit = tokens[j] if j < len(tokens) else None
        days = _DAYS_BY_KEY.get(unit.key) if unit is not None else None
        gap = text[token.span[1] : tokens[gap_end].span[0]] if unit is not None else ""
        if (
            token.kind == "number"
            and token.value is not None
            and not token.unit
            and unit is not None
            and days is not None
            and _DURATION_GAP.fullmatch(gap)
        ):
            value = round(token.value * days, 6)
            span = (token.span[0], unit.span[1])
            written = text[span[0] : span[1]]
            joined.append(
                Token(written, span, _number_key(value, DURATION), "number", value, DURATION)
            )
            i = j + 1
            continue
        joined.append(_unit_carried(joined, token))
        i += 1
    return joined


_ONE_LENGTH_AFTER = word_set(
    """within for after least most than over to about under in before by only just nearly
    almost around roughly of"""
)
"""The words after which "a week" is a length of time, one week ("within a week", "at
least a year"), not a rate or a frequency ("£80 a week", "twice a year")."""


_ONE_LENGTH_BEFORE = word_set("after before later earlier ago")
"""The words before which "a week" is a length of time ("a week after the period ends")."""


def _one_length(
    text: str, before: Sequence[Token], article: Token, unit: Token, after: Sequence[Token]
) -> bool:
    """Whether ``article`` ("a", "an") and ``unit`` right after it say one unit of time:
    after a word of `_ONE_LENGTH_AFTER`, before one of `_ONE_LENGTH_BEFORE` ("a week after
    the period ends"), or as a possessive ("a week's notice")."""
    if text[article.span[1] : unit.span[0]] != " ":
        return False
    if unit.text.endswith(("'s", "’s")) or text.startswith(("'s", "’s"), unit.span[1]):
        return True
    if before and before[-1].kind == "number":
        return False  # a rate: "£1,140 a month before VAT"
    if after and after[0].text.casefold() in _ONE_LENGTH_BEFORE:
        return True
    return bool(before) and before[-1].text.casefold() in _ONE_LENGTH_AFTER


def _unit_carried(before: Sequence[Token], token: Token) -> Token:
    """A bare number after "to" that follows a length of time, in that length's unit: "cut the
    term from seven years to five" says five years. Any other token as it is."""
    if (
        token.kind != "number"
        or token.value is None
        or token.unit
        or len(before) < 2
        or before[-1].text.casefold() != "to"
        or before[-2].unit != DURATION
    ):
        return token
    words = before[-2].text.split()
    days = _DAYS_BY_KEY.get(stem(words[-1])) if words else None  # "seven years": years
    if days is None:
        return token
    value = round(token.value * days, 6)
    return Token(token.text, token.span, _number_key(value, DURATION), "number", value, DURATION)


_LINKING = frozenset({"be", "been", "being", "to"})


def _join_negated_comparatives(text: str, tokens: list[Token]) -> list[Token]:
    """A negation right before a comparative and the comparative as one comparative token
    in the other direction: "must not exceed 45%" reads as "at most 45%", "no more than" as
    "at most", "not less than" as "at least", "no later than" (`_OF_TIME`) as "at most"."""
    joined: list[Token] = []
    for i, token in enumerate(tokens):
        of_time = (
            token.text.casefold() in _OF_TIME
            and i + 1 < len(tokens)
            and tokens[i + 1].text.casefold() == "than"
        )
        if token.kind == "comparative" or of_time:
            # "not exceed", "no more", and with a verb between: "may not be more than".
            back = 1
            while back <= len(joined) and joined[-back].text.casefold() in _LINKING:
                back += 1
            before = joined[-back] if back <= len(joined) else None
            if before is not None and before.kind == "negation" and back <= 3:
                span = (before.span[0], token.span[1])
                written = text[span[0] : span[1]]
                key = _direction_key(written)
                if key is not None and not re.search(r"[^\w\s'’-]", written):
                    del joined[-back:]
                    joined.append(Token(written, span, key, "comparative"))
                    continue
        joined.append(token)
    return joined


def _direction_key(written: str) -> str | None:
    """The key of a joined comparative token: its family and direction ("comparative-1" for
    "not exceed" and "up to"), so tokens that point the same way back each other."""
    turned = direction(written)
    return f"{turned[0]}{turned[1]:+d}" if turned is not None else None


def _join_up_to(text: str, tokens: list[Token]) -> list[Token]:
    """ "up to" right before a number as one comparative token, at most: "Applications up to
    80%" against "above 80%" says the other way round."""
    joined: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if (
            token.text.casefold() == "up"
            and i + 2 < len(tokens)
            and tokens[i + 1].text.casefold() == "to"
            and tokens[i + 2].kind == "number"
            and text[token.span[1] : tokens[i + 1].span[0]] == " "
        ):
            span = (token.span[0], tokens[i + 1].span[1])
            written = text[span[0] : span[1]]
            joined.append(Token(written, span, _direction_key(written) or "", "comparative"))
            i += 2
            continue
        joined.append(token)
        i += 1
    return joined


_SMALL = {
    w: NUMBER_WORDS[w]
    for w in word_set(
        """zero one two three four five six seven eight nine ten eleven twelve thirteen
        fourteen fifteen sixteen seventeen eighteen nineteen"""
    )
}
_TENS = {
    w: NUMBER_WORDS[w] for w in word_set("twenty thirty forty fifty sixty seventy eighty ninety")
}
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_JOIN = re.compile(r"[ \t]+|[ \t]*-[ \t]*")
_JOIN_AND = re.compile(r"[ \t]+and[ \t]+")


_WORD_CLASS = {
    **dict.fromkeys(_SMALL, "small"),
    **dict.fromkeys(_TENS, "tens"),
    "hundred": "hundred",
    **dict.fromkeys(_SCALES, "scale"),
}


def _word_class(token: Token) -> str | None:
    """What part a word plays in a spelled number, or None."""
    return _WORD_CLASS.get(token.text.casefold())


# Which word may follow which in one spelled number ("thirty-six", "one hundred and twenty",
# "two million", "three thousand five hundred"); "five six" or "two and three" are two numbers.
_FOLLOWS = {
    "small": {"hundred", "scale"},
    "tens": {"small", "hundred", "scale"},
    "hundred": {"small", "tens", "scale"},
    "scale": {"small", "tens"},
}


def _join_spelled_numbers(text: str, tokens: list[Token]) -> list[Token]:
    """``tokens`` with each number spelled in several words ("thirty-six", "one hundred and
    twenty", "two million") as one number token, so it backs "36", "120" or "2,000,000"."""
    joined: list[Token] = []
    i = 0
    while i < len(tokens):
        first = _word_class(tokens[i])
        j = i
        if first in ("small", "tens"):
            while j + 1 < len(tokens):
                here = _word_class(tokens[j])
                step = 1
                if here in ("hundred", "scale") and tokens[j + 1].text.casefold() == "and":
                    step = 2  # "one hundred and twenty"
                if here is None or j + step >= len(tokens):
                    break
                nxt = tokens[j + step]
                between = text[tokens[j].span[1] : nxt.span[0]]
                joins = (_JOIN_AND if step == 2 else _JOIN).fullmatch(between)
                if _word_class(nxt) not in _FOLLOWS[here] or not joins:
                    break
                j += step
        if j == i:
            joined.append(tokens[i])
            i += 1
            continue
        value = _spelled_value([t.text.casefold() for t in tokens[i : j + 1] if t.kind != "stop"])
        span = (tokens[i].span[0], tokens[j].span[1])
        joined.append(Token(text[span[0] : span[1]], span, _number_key(value, ""), "number", value))
        i = j + 1
    return joined


def _spelled_value(words: list[str]) -> float:
    total, current = 0.0, 0.0
    for word in words:
        if word == "hundred":
            current = (current or 1.0) * 100
        elif word in _SCALES:
            total += (current or 1.0) * _SCALES[word]
            current = 0.0
        else:
            current += float(_SMALL.get(word, _TENS.get(word, 0)))
    return total + current


def _iso_date(found: re.Match[str]) -> list[Token]:
    """The day, month and year of an ISO date, each a token over its own digits, keyed as
    the same parts of a date written in words ("1 March 2025")."""
    year, month, day = (int(found.group(g)) for g in ("year", "month", "day"))
    return [
        Token(found.group("day"), found.span("day"), _number_key(day, ""), "number", day),
        Token(found.group("month"), found.span("month"), stem(_MONTH_NAMES[month - 1]), "date"),
        Token(found.group("year"), found.span("year"), _number_key(year, ""), "date", year),
    ]


def _after_open(text: str, start: int, first: int = 0) -> bool:
    """The word opens a bullet, heading, quotation or table cell (capitalised by position);
    ``first``: where the text read begins."""
    before = text[max(first, start - 3) : start].rstrip(" ")
    return before == "" or before[-1:] in '\n"“‘*-•#:>|'


def is_content(token: Token) -> bool:
    """A token that carries meaning of its own (not a stop word)."""
    return token.kind != "stop"


def sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans of ``text[start:end]`` (as spans into ``text``; every line break ends
    one too), long ones cut at about 400 characters on a word boundary so one passage never
    swallows a page."""
    result: list[tuple[int, int]] = []
    for s, e in sentence_spans(text, start, end, line_breaks=True):
        while e - s > 500:
            cut = text.rfind(" ", s + 200, s + 400)
            cut = cut if cut > s else s + 400
            result.append((s, cut))
            s = cut + 1
        trimmed_s = s + (len(text[s:e]) - len(text[s:e].lstrip()))
        trimmed_e = e - (len(text[s:e]) - len(text[s:e].rstrip()))
        if trimmed_e > trimmed_s:
            result.append((trimmed_s, trimmed_e))
    return result
