"""A claim read against one row of a table, under the table's column headings.

A table row ("| 8-tonne tracked excavator | 1 | £620 | 2 weeks | 9% of rate |") says nothing on
its own: its first cell names what the row is about, and each other cell's value belongs to
that row and to its column's heading ("Weekly rate per item"). The sentence rules read a row as
a sentence and its heading as another, so a claim that joins them ("The excavator is hired at
£620 a week") is never confirmed, and one that takes a value from the wrong column ("$420 for a
20ft container", the 40ft price) is read as the row's. `table_row` reads the claim against the
row with each cell attached to its heading: the claim is stated by the row when every content
word is matched (`_reading`'s equivalences) in the row's own cells, their headings or the first
column's heading, every word of the row's first cell is matched by what the claim is about (not
by a phrase it compares it with: "Like the Premier plan"), each figure of the claim stands in a
cell whose column the claim names (or the only cell of the row that holds a figure, or a cell
whose own words the claim says of it), no word of the claim names a column whose value it does
not give, in a cell that lists several values with words of their own ("£58 dog, £54 cat") the
claim's words stand by its own figure, and the claim says nothing the row cannot carry: no
denial, condition, modal verb, direction or quantity word the row does not say itself.

Rows are Markdown table rows under a heading row and its ``|---|`` line, or paragraphs of
cells joined by `` | `` (a DOCX or HTML table as citeproof reads it) whose first is the
heading; every row of the table has the heading's number of cells.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from citeproof.model import Span
from citeproof.verifier.support.confirm._cells import beside_another
from citeproof.verifier.support.confirm._reading import Reading, folded, lemma, read
from citeproof.verifier.support.lexicon import (
    CONDITIONS,
    MODALITY,
    NEGATORS,
    STATING_VERBS,
    direction_of,
    quantifier_of,
)

if TYPE_CHECKING:
    from spacy.tokens import Token

TABLE_ROW = "table.row"
"""The rule id of a claim a table row states under its column headings."""

_RULE_LINE = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$")
_PARENTHESIS = re.compile(r"\([^)]*\)")
MAX_ROWS = 200
"""Rows read above a located row for its table's heading: a table is a page or two."""


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a table and its table's heading row, cell by cell."""

    heading: tuple[str, ...]
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RowStatement:
    """A claim the table row states: the row's first cell and the headings of the columns
    whose cells the claim gives."""

    row: Row
    columns: tuple[int, ...]

    @property
    def reason(self) -> str:
        headings = ", ".join(f"“{self.row.heading[j]}”" for j in self.columns)
        under = f" under {headings}" if headings else ""
        return f"the table's row “{self.row.cells[0]}” states this{under}"


def rows_of(source: str, span: tuple[int, int]) -> list[Row]:
    """The table rows of ``source`` that a located sentence at ``span`` spans, each with its
    table's heading row: one row read as a sentence of its own, or a whole table read as one
    (a Markdown table has no full stops). A sentence that is part of a line is no row."""
    start = source.rfind("\n", 0, span[0]) + 1
    rows = []
    while start < span[1]:
        end = source.find("\n", start)
        end = len(source) if end == -1 else end
        row = _row_at(source, start, end)
        if row is not None:
            rows.append(row)
        start = end + 1
    return rows


def _row_at(source: str, start: int, end: int) -> Row | None:
    """The line of ``source`` from ``start`` to ``end`` as a row under its table's heading
    row, or None: no row of a table with a heading, or the heading itself."""
    line = source[start:end]
    cells = _cells(line)
    if cells is None:
        return None
    above = _lines_above(source, start)
    heading = _heading(above, len(cells), markdown=line.lstrip().startswith("|"))
    if heading is None or heading == cells:
        return None
    return Row(heading, cells)


def _lines_above(source: str, start: int) -> list[str]:
    """The `MAX_ROWS` lines of ``source`` right above the line starting at ``start``, in
    order (read back from ``start``, not split from the top: a source may be megabytes)."""
    lines: list[str] = []
    end = start - 1
    while end >= 0 and len(lines) < MAX_ROWS:
        begin = source.rfind("\n", 0, end) + 1
        lines.append(source[begin:end])
        end = begin - 1
    return lines[::-1]


def _cells(line: str) -> tuple[str, ...] | None:
    text = line.strip()
    if text.startswith("|"):
        if not text.endswith("|") or _RULE_LINE.match(text):
            return None
        parts = text[1:-1].split("|")
    elif " | " in text:
        parts = text.split(" | ")
    else:
        return None
    cells = tuple(" ".join(p.split()) for p in parts)
    return cells if len(cells) >= 2 and cells[0] else None


def _heading(above: list[str], width: int, markdown: bool) -> tuple[str, ...] | None:
    """The heading row of the table whose rows end right above: for Markdown, the row above
    its ``|---|`` line; else the first of the rows of ``width`` cells (blank lines between
    them: one paragraph per row)."""
    heading: tuple[str, ...] | None = None
    for k in range(len(above) - 1, -1, -1):
        text = above[k].strip()
        if markdown and _RULE_LINE.match(text):
            cells = _cells(above[k - 1]) if k else None
            return cells if cells is not None and len(cells) == width else None
        if not text and not markdown:
            continue  # a Word or HTML table: one paragraph per row
        cells = _cells(text)
        if cells is None or len(cells) != width:
            break
        heading = cells
    return None if markdown else heading


def table_row(
    claim: str,
    rows: Sequence[Row],
    quoted: Sequence[Span] = (),
    source: str = "",
) -> RowStatement | None:
    """The first of ``rows`` that states ``claim`` under its headings (module doc), or None."""
    for row in rows:
        stated = _stated(claim, row, quoted, source)
        if stated is not None:
            return stated
    return None


def another_column(
    claim: str,
    rows: Sequence[Row],
    quoted: Sequence[Span] = (),
    source: str = "",
) -> str | None:
    """Why ``claim`` misreads a row of ``rows``, or None: it gives a figure of a cell under one
    heading and names another column of the row ("£52 for 250 copies" where £52 stands under
    "500 copies"). The sentence rules read a table as a run of words; this reads its columns.
    """
    return _column_misread(_read_rows(claim, rows, quoted, source))


def another_row(
    claim: str,
    rows: Sequence[Row],
    quoted: Sequence[Span] = (),
    source: str = "",
) -> str | None:
    """Why ``claim`` misreads the rows of ``rows``, or None: it gives a figure that stands
    only in the cells of rows whose first cell it does not name, and names another row's
    first cell ("The part-load minimum for the 26-tonne rigid ... is £160", where £160 is the
    18 t curtainsider's). A row is named by at least two words of its first cell, half of
    them or more, and more than the figure's row."""
    return _row_misread(_read_rows(claim, rows, quoted, source))


def misread(
    claim: str,
    rows: Sequence[Row],
    quoted: Sequence[Span] = (),
    source: str = "",
) -> str | None:
    """Why ``claim`` misreads ``rows``: `another_column`'s reason, else `another_row`'s, each
    row read once for both; None where neither finds one."""
    read_rows = _read_rows(claim, rows, quoted, source)
    return _column_misread(read_rows) or _row_misread(read_rows)


@dataclass(frozen=True, slots=True)
class _RowReading:
    row: Row
    reading: Reading
    parts: list[_Part]


def _read_rows(
    claim: str, rows: Sequence[Row], quoted: Sequence[Span], source: str
) -> list[_RowReading]:
    """``claim`` read against each of ``rows`` as text (`_text`)."""
    out = []
    for row in rows:
        text, parts = _text(row)
        out.append(_RowReading(row, read(claim, text, quoted, source), parts))
    return out


def _column_misread(read_rows: Sequence[_RowReading]) -> str | None:
    for r in read_rows:
        reading, parts = r.reading, r.parts
        hits = {i: _placed(reading, parts, i) for i in reading.content}
        figures = [i for i in hits if reading.figure("claim", i) is not None]
        if not any(p.kind == "cell" for i in figures for p in hits[i]):
            continue  # no figure of the claim stands in this row
        if _names_another(reading, parts, hits, _given(hits)):
            at = next(i for i in figures if any(p.kind == "cell" for p in hits[i]))
            under = ", ".join(
                f"“{r.row.heading[p.column]}”"
                for p in sorted(hits[at], key=lambda p: p.column)
                if p.kind == "cell"
            )
            return (
                f"the table gives “{_as_written(reading.claim[at])}” under {under}, not under "
                "the column the claim names"
            )
    return None


def _row_misread(read_rows: Sequence[_RowReading]) -> str | None:
    if not read_rows:
        return None
    claim = read_rows[0].reading  # the claim's words are the same in every reading
    named = [_named_by(r.reading, r.parts) for r in read_rows]
    for i in claim.content:
        if claim.figure("claim", i) is None:
            continue
        holding = [
            k
            for k, r in enumerate(read_rows)
            if any(p.kind == "cell" for p in _placed(r.reading, r.parts, i))
        ]
        if not holding:
            continue
        most = max(named[k] for k in holding)
        others = [
            k
            for k in range(len(read_rows))
            if named[k] >= 2 and named[k] > most and k not in holding
        ]
        if others:
            return (
                f"the table gives “{_as_written(claim.claim[i])}” in the row "
                f"“{read_rows[holding[0]].row.cells[0]}”, not in the row "
                f"“{read_rows[others[0]].row.cells[0]}” the claim names"
            )
    return None


def _as_written(figure: Token) -> str:
    """A figure of the claim with its currency sign ("£52")."""
    before = figure.doc[figure.i - 1] if figure.i else None
    sign = before.text if before is not None and before.is_currency else ""
    return sign + figure.text


def _named_by(reading: Reading, parts: list[_Part]) -> int:
    """How many words of the row's first cell the claim matches, where they are half of its
    words or more (else none)."""
    key = next(p for p in parts if p.kind == "key")
    words = [t for t in reading.passage if key.start <= t.idx < key.end and _content(t)]
    matched = sum(1 for t in words if t.i in reading.placed)
    return matched if words and matched * 2 >= len(words) else 0


@dataclass(frozen=True, slots=True)
class _Part:
    kind: str  # "key": the first cell; "keyhead": its heading; "heading" or "cell" of `column`
    column: int
    start: int
    end: int


def _text(row: Row) -> tuple[str, list[_Part]]:
    """The row as text the parser reads, one sentence per part, and where each part stands."""
    pieces = [("keyhead", 0, row.heading[0]), ("key", 0, row.cells[0])]
    for j in range(1, len(row.cells)):
        pieces += [("heading", j, row.heading[j]), ("cell", j, row.cells[j])]
    text, parts = "", []
    for kind, column, words in pieces:
        if not words:
            continue
        parts.append(_Part(kind, column, len(text), len(text) + len(words)))
        text += words + (" " if kind in ("keyhead", "heading") else ".\n")
    return text, parts


def _stated(claim: str, row: Row, quoted: Sequence[Span], source: str) -> RowStatement | None:
    text, parts = _text(row)
    reading = read(claim, text, quoted, source)
    if _says_more(reading, text):
        return None
    hits: dict[int, set[_Part]] = {}
    for i in reading.content:
        if i not in reading.candidates:  # matched by its verified quote
            continue
        hits[i] = _placed(reading, parts, i)
        token = reading.claim[i]
        if not hits[i] and not (token.pos_ == "VERB" and lemma(token) in STATING_VERBS):
            return None
    if not _key_matched(reading, parts, hits):
        return None
    given = _given(hits)
    named = {p.column for found in hits.values() for p in found if p.kind == "heading"}
    if _names_another(reading, parts, hits, given) or _beside_another(reading, parts, hits):
        return None
    sole = _sole(reading, parts)
    for i, placed in hits.items():
        if reading.figure("claim", i) is None:
            continue
        cells = {p.column for p in placed if p.kind == "cell"}
        worded = {  # a cell that says what its figure is ("includes up to 5 commodity lines")
            p.column
            for j, found in hits.items()
            if j != i and reading.figure("claim", j) is None
            for p in found
            if p.kind == "cell"
        }
        if cells and not sole and not cells & (named | worded):
            return None  # the figure stands in a column the claim does not name
    return RowStatement(row, tuple(sorted(given)))


def _names_another(
    reading: Reading, parts: list[_Part], hits: dict[int, set[_Part]], given: set[int]
) -> bool:
    """Whether the claim names a column whose value it does not give: it matches every word
    of that column's heading, and of no longer heading of a column it gives ("20ft
    container" for the value under "40ft container"); or, naming none of the columns it
    gives in full, one of its words stands only in the heading of another ("20ft")."""
    full = {}
    for p in parts:
        if p.kind == "heading":
            words = [t.i for t in reading.passage if p.start <= t.idx < p.end and _content(t)]
            if words and all(k in reading.placed for k in words):
                full[p.column] = len(words)
    longest = max((full[j] for j in given if j in full), default=0)
    if any(n >= longest for k, n in full.items() if k not in given):
        return True
    if longest:
        return False
    for found in hits.values():
        headings = {p.column for p in found if p.kind == "heading"}
        if headings and not headings & given and all(p.kind == "heading" for p in found):
            return True
    return False


def _beside_another(reading: Reading, parts: list[_Part], hits: dict[int, set[_Part]]) -> bool:
    """Whether a word of the claim stands in a cell that lists several figures, each with
    words of its own, only by another figure than the claim's ("£58" for a cat in "£58 dog,
    £54 cat": `_cells`)."""
    for i in hits:
        if reading.figure("claim", i) is None:
            continue
        for m in reading.candidates.get(i, ()):
            if m.passage is None:
                continue
            at = reading.passage[m.passage].idx
            part = _part(parts, at)
            if part is None or part.kind != "cell":
                continue
            if beside_another(reading, i, at, (part.start, part.end)) is not None:
                return True
    return False


def _placed(reading: Reading, parts: list[_Part], i: int) -> set[_Part]:
    """The parts of the row (first cell, headings, cells) claim token ``i`` is matched in."""
    found = reading.candidates.get(i, ())
    where = (_part(parts, reading.passage[m.passage].idx) for m in found if m.passage is not None)
    return {p for p in where if p is not None}


def _given(hits: dict[int, set[_Part]]) -> set[int]:
    """The columns whose cells the claim's words are matched in: the values it gives."""
    return {p.column for found in hits.values() for p in found if p.kind == "cell"}


def _part(parts: list[_Part], at: int) -> _Part | None:
    return next((p for p in parts if p.start <= at < p.end), None)


def _says_more(reading: Reading, text: str) -> bool:
    """Whether the claim says what a row cannot carry unless it says it too: a denial, a
    condition, a modal verb (or one of the same modality: "has to" for the row's "Must",
    "can" for its "may"), a direction or a quantity word."""
    said = {w.casefold() for w in re.findall(r"\w+", text)}
    modalities = {
        MODALITY[lemma(p)] for p in reading.passage if p.tag_ == "MD" and lemma(p) in MODALITY
    }
    for t in reading.claim:
        low, lem = folded(t), lemma(t)
        before = reading.claim[t.i - 1].lower_ if t.i else ""
        if _modal(t) and MODALITY[lem] in modalities:  # its denial, if any, is read below
            continue
        marked = (
            low in NEGATORS
            or low in CONDITIONS
            or _modal(t)
            or direction_of(lem) is not None
            or quantifier_of(lem, before) is not None
        )
        if marked and low not in said:
            return True
    return False


def _modal(token: Token) -> bool:
    """Whether ``token`` makes its clause an obligation or a permission (`MODALITY`): "has"
    only with its `to` infinitive ("has to pay"); with an object ("has a daily limit of
    £400") it says what the row's cell holds."""
    if lemma(token) not in MODALITY:
        return False
    return lemma(token) != "have" or any(c.dep_ == "xcomp" for c in token.children)


def _key_matched(reading: Reading, parts: list[_Part], hits: dict[int, set[_Part]]) -> bool:
    """Whether the claim matches every content word of the row's first cell (its words in
    parentheses aside: "Electronic payments (Faster Payments, BACS)"), by words that say what
    the claim is about: not words it compares it with ("Like the Premier plan, the
    Traditional plan includes ..." is no claim of the Premier row)."""
    key = next(p for p in parts if p.kind == "key")
    placed = {
        m.passage
        for i, found in reading.candidates.items()
        if not _compared(reading.claim[i])
        for m in found
        if m.passage is not None
    }
    quiet = {
        k
        for hole in _PARENTHESIS.finditer(reading.passage.text[key.start : key.end])
        for k in range(key.start + hole.start(), key.start + hole.end())
    }
    for t in reading.passage:
        if not key.start <= t.idx < key.end or t.idx in quiet or not _content(t):
            continue
        if t.i not in placed:
            return False
    return True


_COMPARED_WITH = frozenset({"like", "unlike", "than"})


def _compared(token: Token) -> bool:
    """Whether ``token`` is in a phrase the claim compares its subject with ("like the
    Premier plan", "than the Premier plan")."""
    return any(a.lower_ in _COMPARED_WITH for a in token.ancestors)


def _content(token: Token) -> bool:
    return token.pos_ in ("NOUN", "PROPN", "ADJ", "NUM", "VERB") and not token.is_stop


def _sole(reading: Reading, parts: list[_Part]) -> bool:
    """Whether one cell of the row (its first aside) holds a figure, and no other."""
    holding = set()
    for t in reading.passage:
        part = _part(parts, t.idx)
        if part is not None and part.kind == "cell" and reading.figure("passage", t.i) is not None:
            holding.add(part.column)
    return len(holding) == 1
