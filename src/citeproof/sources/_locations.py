"""Where a paragraph is, in the document's own terms: its clause or section number, the
heading it sits under, the page it is on. A reader looks for "§4", "page 3" or a heading, not
for the fifth blank-line block citeproof counted.

`paragraph_locations` reads each paragraph's own number ("4. Verification of income.",
"12.1", "Section 4", "Clause 12.1", "§ 4"), the headings the format marks (Markdown ``#``
lines, Word heading styles, HTML ``<h1>``-``<h6>``) and the pages a PDF reader gives, and
names every paragraph by the nearest of them: its own number and title, else the heading it
falls under; a page comes first when there is one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citeproof.model import Span

_NUMBERED = re.compile(
    r"^(?:(?:section|clause|article|§)\s*(?P<named>\d{1,3}(?:\.\d{1,3}){0,3})[.):]?"
    r"|(?P<listed>\d{1,3}(?:\.\d{1,3}){0,3})[.)]"
    r"|(?P<dotted>\d{1,3}(?:\.\d{1,3}){1,3}))\s+"
    r"(?:(?P<title>[A-Z][^.:\n]{0,60}?)[.:](?:\s|$))?",
    re.IGNORECASE,
)
"""A paragraph's own number: after "Section", "Clause", "Article" or "§"; a list number
("4." or "4)"); or a dotted one ("12.1") when a title follows it. A bare "3 applicants" is not."""
_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(?P<text>.+?)[ \t#]*$")
_LONGEST_HEADING = 80


def own_number(paragraph: str) -> str | None:
    """``§4 Verification of income`` for a paragraph that opens with its own number (and a
    short title), else None."""
    found = _NUMBERED.match(paragraph)
    if found is None:
        return None
    title = found.group("title")
    if found.group("dotted") and not title:
        return None  # "1.5 million": a figure, not a clause
    number = found.group("named") or found.group("listed") or found.group("dotted")
    return f"§{number} {title.strip()}" if title else f"§{number}"


def markdown_heading(paragraph: str) -> str | None:
    """The text of a Markdown ATX heading (``# Title``), else None."""
    found = _ATX.match(paragraph.strip())
    return found.group("text").strip() if found else None


def _heading(text: str) -> str:
    """A heading as a location: ``§4 Default`` for "4. Default", else its text."""
    numbered = own_number(text)
    if numbered is None or " " in numbered:
        return numbered or text
    rest = _LEADING_NUMBER.sub("", text, count=1).strip()
    return f"{numbered} {rest}" if rest else numbered


_LEADING_NUMBER = re.compile(
    r"^(?:(?:section|clause|article|§)\s*)?\d{1,3}(?:\.\d{1,3}){0,3}[.):]?\s*", re.IGNORECASE
)


def paragraph_locations(
    text: str,
    paragraphs: Sequence[Span],
    *,
    headings: Sequence[bool] = (),
    pages: Sequence[str | None] = (),
) -> tuple[str | None, ...]:
    """One location per paragraph (None where the document gives none): ``page 3 · §4
    Verification of income``, ``§4``, ``Exceptions`` (the heading above it). ``headings``
    marks the paragraphs the format gives as headings; ``pages`` each paragraph's page."""
    located: list[str | None] = []
    heading: str | None = None
    for index, (start, end) in enumerate(paragraphs):
        words = text[start:end]
        marked = markdown_heading(words)
        if marked is None and index < len(headings) and headings[index]:
            marked = " ".join(words.split())[:_LONGEST_HEADING]
        if marked is not None:
            heading = _heading(marked)
            place: str | None = heading
        else:
            place = own_number(words) or heading
        page = pages[index] if index < len(pages) else None
        if page and place:
            place = f"{page} · {place}"
        located.append(place or page)
    return tuple(located)
