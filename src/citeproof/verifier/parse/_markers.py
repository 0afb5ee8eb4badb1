"""Citation markers: ``<cite:ID#pN>``, the bracket forms LLMs write, and Markdown footnotes.

A bracket is a citation only when *everything* inside it reads as source ids (with optional
paragraph suffixes); anything else (``[sic]``, ``[...]``, ``[ ]``, ``[citation needed]``, link
text) is left alone. The grammar is deliberately small so its mistakes are predictable. The
one exception is the turn's own names: a bracket naming sources the caller gave, by the id or
title they gave them (``[Contract]``, ``[src]``, ``[Q3 Report]``), cites them, though the
grammar alone would read a capitalised word or an editor's word as template text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from citeproof.errors import AnswerError
from citeproof.model import Citation, Span

# One cited source as written: its label and the paragraph named, if any.
Reference = tuple[str, int | None]

MAX_RANGE = 50  # "[1-100000]" must not become a hundred thousand citations
MAX_MARKERS = 20_000
"""Citation markers any answer may hold, plus one per `MARKER_SPACING` characters. Real
answers cite a few times per sentence; an answer denser than that is an attack on the parser
(each marker costs work later on), so it is refused, not read."""
MARKER_SPACING = 40

_CANONICAL = (
    r"<cite:[ \t]*(?P<cite>[\w.:/-]{1,200})[ \t]*"
    r"(?:\#[ \t]*(?:p|¶|para)?[ \t]*(?P<cite_para>[0-9]{1,6}))?[ \t]*>"
)
_MARKER = re.compile(
    _CANONICAL + r"|\[\^(?P<footnote>[^\[\]\s]{1,100})\]"
    # A bracket followed by "(" is a Markdown link or image, never a citation.
    r"|\[(?P<body>[^\[\]\n]{1,80})\](?!\()",
    re.IGNORECASE,
)
_CANONICAL_ONLY = re.compile(_CANONICAL, re.IGNORECASE)
_BRACKET = re.compile(r"\[(?P<body>[^\[\]\n]{1,80})\]")

_PARAGRAPH = (
    r"(?:¶¶?|paragraphs?|paras?\.?|pars?\.?|pp?\.?)[ \t]*(?P<para>[0-9]{1,6})"
    r"(?:[ \t]*[-–][ \t]*[0-9]{1,6})?"
)
# "Source 2", "Src-2", and "Document 2" or "Doc 2" with a space ("doc-2" is an id of its own).
_SOURCE_WORD = r"(?:(?:sources?|src)[ \t]*[-_]?|(?:documents?|docs?)[ \t])[ \t]*"
_NUMBERED_ID = (
    rf"(?:{_SOURCE_WORD}[0-9]{{1,6}}"
    r"|(?:doc|document|email|mail|attachment|att|file|ref|msg|message|chunk|passage)[-_][0-9]{1,6}"
    r"|[a-z]{1,3}[0-9]{1,6}"
    r"|[0-9]{1,6})"
)
# A source named by a word ("policy", "credit-policy", "memo.txt"): see `_names_a_source`.
_NAMED_ID = r"[a-z](?:[\w./:-]{0,62}[a-z0-9])?"
_ID = rf"(?:{_NUMBERED_ID}|{_NAMED_ID})"
_ITEM = re.compile(
    rf"(?P<first>{_ID})(?:[ \t]*[-–][ \t]*(?P<last>{_ID}))?(?:[ \t]*[:\#]?[ \t]*{_PARAGRAPH})?",
    re.IGNORECASE,
)
_NAMED_ITEM = re.compile(
    rf"(?P<first>{_NAMED_ID})(?:[ \t]*[:\#]?[ \t]*{_PARAGRAPH})?", re.IGNORECASE
)
_NUMBERED_ONLY = re.compile(_NUMBERED_ID, re.IGNORECASE)
# Where in a source, beside its name, other than a paragraph: "§ 4.2", "section 3", "clause 7",
# "page 12". The source is cited; the place is not read.
_LOCATOR = r"(?:§§?|sections?|sec\.|clauses?|cl\.|pages?|pg\.|articles?|art\.)[ \t]*[0-9][\w.()-]*"
_LOCATOR_ONLY = re.compile(_LOCATOR, re.IGNORECASE)
# One of the turn's own source names, as given (any case, spaces inside), with an optional
# paragraph or place: "Contract", "Q3 Report ¶2", "src, p. 4", "MSA § 12.1".
_KNOWN_ITEM = re.compile(
    rf"(?P<name>[^\[\]\n]+?)(?:[ \t]*[:\#,]?[ \t]*(?:{_PARAGRAPH}|{_LOCATOR}))?",
    re.IGNORECASE,
)
_NAME_GAPS = re.compile(r"[\W_]+")
# What LLMs write before a source's name: "[Source: Contract]", "[Document: Q3 Report]".
_NAME_PREFIX = re.compile(
    r"(?:sources?|src|documents?|docs?|references?|refs?)[ \t]*:[ \t]*", re.IGNORECASE
)
# Words that editors and templates put in brackets: never a source's name.
_EDITORIAL_WRITTEN = (
    "sic sic! redacted inaudible illegible unclear emphasis sp ibid id etc cf sic. omitted "
    "paraphrased translated citation ref reference source sources quote link here this that "
    "note nb ps edit update todo tbd fixme tk xx xxx name date amount company client customer "
    "address phone number year month time location city value placeholder insert sigh laughs "
    "applause pause crosstalk music pp p para the a an and or"
)
_EDITORIAL = frozenset(_EDITORIAL_WRITTEN.split())
_PARAGRAPH_ONLY = re.compile(rf"[:\#]?[ \t]*{_PARAGRAPH}", re.IGNORECASE)
_SEPARATOR = re.compile(r"[ \t]*(?:[,;&]|\band\b)[ \t]*", re.IGNORECASE)
_SOURCE_PREFIX = re.compile(_SOURCE_WORD, re.IGNORECASE)
_NUMBERED = re.compile(r"(?P<prefix>.*?)(?P<number>[0-9]+)")


@dataclass(frozen=True, slots=True)
class Marker:
    """One marker as written, with one citation per source it names."""

    span: Span
    citations: tuple[Citation, ...]


def find_markers(
    text: str,
    footnotes: Mapping[str, tuple[Reference, ...]],
    known: frozenset[str] = frozenset(),
) -> list[Marker]:
    """Every citation marker in ``text`` (pass the code-masked answer), in order. ``known``:
    the turn's source names, case folded (`fold_labels`)."""
    markers: list[Marker] = []
    limit = MAX_MARKERS + len(text) // MARKER_SPACING
    for match in _MARKER.finditer(text):
        references = _references(match, footnotes, known)
        if references:
            if len(markers) == limit:
                raise AnswerError(
                    f"more than {limit:,} citation markers (one per {MARKER_SPACING} "
                    "characters); not an answer to check",
                    field="answer",
                )
            span = (match.start(), match.end())
            written = match.group()
            markers.append(
                Marker(span, tuple(Citation(lbl, para, written, span) for lbl, para in references))
            )
    return markers


def _references(
    match: re.Match[str], footnotes: Mapping[str, tuple[Reference, ...]], known: frozenset[str]
) -> tuple[Reference, ...]:
    if match.group("cite") is not None:
        para = match.group("cite_para")
        return ((match.group("cite"), int(para) if para else None),)
    name = match.group("footnote")
    if name is not None:
        # A reference without a definition still cites something: the footnote's own name.
        return footnotes.get(name) or ((name, None),)
    return _bracket_ids(match.group("body"), known) or ()


def name_key(name: str) -> str:
    """How a source's name is compared: case folded, every run of spaces and punctuation read
    as one space, so "Credit Policy", "credit-policy" and "credit_policy" are one name."""
    return " ".join(_NAME_GAPS.split(name.casefold())).strip()


def fold_labels(labels: Iterable[str]) -> frozenset[str]:
    """Source names as `find_markers` compares them (`name_key`), empty ones out."""
    return frozenset(key for label in labels if (key := name_key(label)))


def _bracket_ids(body: str, known: frozenset[str]) -> tuple[Reference, ...] | None:
    """The ids a bracket's text names: the turn's own source names first (`_named`), then
    the grammar (`parse_ids`)."""
    return _named(body, known) or parse_ids(body)


def _named(body: str, known: frozenset[str]) -> tuple[Reference, ...] | None:
    """A bracket that names sources: one of the turn's names in ``known`` (its whole text, or
    each item of a list, with an optional paragraph: ``[Contract ¶2, Memo]``), every other item
    reading as ids; or any name after ``Source:`` (``[Source: Board Minutes]``, a citation
    whether or not that source was given). None otherwise."""
    written = body.strip()
    whole = _without_name_prefix(written)
    said = whole != written  # "Source: ..." says that what follows names sources
    if not known and not said:
        return None
    if name_key(whole) in known:
        return ((whole, None),)
    references: list[Reference] = []
    named = False
    for token in _SEPARATOR.split(whole):
        if not token:
            continue
        paragraph_only = _PARAGRAPH_ONLY.fullmatch(token)
        if paragraph_only and references and references[-1][1] is None:
            references[-1] = (references[-1][0], int(paragraph_only.group("para")))
            continue
        if named and _LOCATOR_ONLY.fullmatch(token):
            continue  # "Q3 Report, section 3": the source named before it
        item = _KNOWN_ITEM.fullmatch(_without_name_prefix(token))
        if item is None or name_key(item.group("name")) not in known:
            others = parse_ids(token)
            if others is not None:
                references.extend(others)
                named = named or said
                continue
            if item is None or not said:
                return None
        para = item.group("para")
        references.append((item.group("name"), int(para) if para else None))
        named = True
    return tuple(references) if named else None


def _without_name_prefix(written: str) -> str:
    """``Source: Contract`` → ``Contract`` (also ``Document:``, ``Doc:``, ``Ref:``, ``Src:``)."""
    prefix = _NAME_PREFIX.match(written)
    return written[prefix.end() :] if prefix else written


def resolve_footnote(definition: str, known: frozenset[str] = frozenset()) -> tuple[Reference, ...]:
    """The sources a footnote definition names; its trimmed text when it names none by id."""
    canonical = [
        (m.group("cite"), int(m.group("cite_para")) if m.group("cite_para") else None)
        for m in _CANONICAL_ONLY.finditer(definition)
    ]
    if canonical:
        return tuple(canonical)
    for bracket in _BRACKET.finditer(definition):
        references = _bracket_ids(bracket.group("body"), known)
        if references:
            return references
    written = definition.strip()
    whole = written.rstrip(".").strip()
    references = _bracket_ids(whole, known) if len(whole) <= 80 else None
    if references:
        return references
    return ((written, None),) if written else ()


@lru_cache(maxsize=4096)  # answers repeat the same few markers many times
def parse_ids(body: str) -> tuple[Reference, ...] | None:
    """Read ``S2, ¶4``, ``1, 3``, ``2-4``, ``Source 2 para 4``...; ``None`` if it is not ids."""
    labels: list[str] = []
    paragraphs: list[int | None] = []
    latest: list[int] = []  # indices of the references the last id token produced
    for token in _SEPARATOR.split(body.strip()):
        if not token:
            continue
        paragraph_only = _PARAGRAPH_ONLY.fullmatch(token)
        if paragraph_only:
            if not latest:
                return None  # "[p. 4]" alone names no source
            for i in latest:
                if paragraphs[i] is None:
                    paragraphs[i] = int(paragraph_only.group("para"))
            continue
        item = _ITEM.fullmatch(token)
        if item is None:
            return None
        expanded = _expand(_label(item.group("first")), item.group("last"))
        if expanded is None:
            # Not a range: "q3-results" and "fy24-report" are one source's name.
            item = _NAMED_ITEM.fullmatch(token)
            if item is None:
                return None
            expanded = [item.group("first")]
        para = int(item.group("para")) if item.group("para") else None
        latest = list(range(len(labels), len(labels) + len(expanded)))
        labels.extend(expanded)
        paragraphs.extend([para] * len(expanded))
    if not labels or not all(map(_names_a_source, labels, paragraphs)):
        return None
    return tuple(zip(labels, paragraphs, strict=True))


def _names_a_source(label: str, paragraph: int | None) -> bool:
    """Numbered ids always name a source; a word does with a paragraph (``[policy ¶3]``) or
    when written like an id: lower case, two letters or more, not an editor's word (``[sic]``).
    Capitalised words are left alone: ``[Name]`` and ``[Note]`` are template text, not ids."""
    if paragraph is not None or _NUMBERED_ONLY.fullmatch(label):
        return True
    return len(label) >= 2 and label[0].islower() and label.lower() not in _EDITORIAL


def _label(written: str) -> str:
    """``Source 2`` is labelled ``2``; every other id is kept as written."""
    prefix = _SOURCE_PREFIX.match(written)
    return written[prefix.end() :] if prefix else written


def _expand(first: str, last_written: str | None) -> list[str] | None:
    """``S2-S4`` or ``S2-4`` → ``S2, S3, S4`` (at most ``MAX_RANGE``); ``None`` if not a range."""
    if last_written is None:
        return [first]
    start = _NUMBERED.fullmatch(first)
    stop = _NUMBERED.fullmatch(_label(last_written))
    if start is None or stop is None:
        return None
    prefix = start.group("prefix")
    if stop.group("prefix") and stop.group("prefix").lower() != prefix.lower():
        return None
    low, high = int(start.group("number")), int(stop.group("number"))
    if high < low:
        return None
    width = len(start.group("number"))
    high = min(high, low + MAX_RANGE - 1)
    return [f"{prefix}{str(n).zfill(width)}" for n in range(low, high + 1)]
