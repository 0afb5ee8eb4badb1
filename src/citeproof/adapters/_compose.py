"""Compose the converted answer: the vendor's text with a citation marker after each cited
span, and the sources the markers name.

A marker goes right after the cited words (trailing spaces skipped), so it lands in the
sentence those words belong to and that sentence becomes the cited claim. Where the vendor
states the cited text, it follows as an inline quote inside parentheses, each quote directly
before its own marker: ``the grass is green (“The grass is green.” <cite:doc-0#p1>)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from citeproof.adapters._converted import LocationCheck, VendorCitation
from citeproof.adapters._offsets import TextOffsets
from citeproof.errors import SourceError
from citeproof.model import Source, SourceKind, Span
from citeproof.sources import sentence_spans

MAX_INLINE_QUOTE = 2000  # the parser reads longer inline quotes as no quote
_MARKER_ID = re.compile(r"[\w.:/-]{1,200}")
_QUOTE_MARKS = (("“", "”"), ("«", "»"), ("「", "」"), ("『", "』"))
_WORD = re.compile(r"\w")


@dataclass(frozen=True, slots=True)
class Cite:
    """One vendor citation before composing.

    ``words`` are the cited words of the output text (``str`` indices); ``at`` is where the
    marker goes when not at the end of ``words`` (an OpenAI annotation's ``index``);
    ``show_quote`` is False when ``cited_text`` cannot be checked (its source has no text);
    ``replaces`` is the vendor's own marker in the output (Perplexity's ``[1]``), which the
    new marker takes the place of.
    """

    words: Span
    source_id: str
    kind: str
    paragraph: int | None = None
    cited_text: str | None = None
    confidence: float | None = None
    check: LocationCheck | None = None
    show_quote: bool = True
    at: int | None = None
    replaces: Span | None = None


@dataclass(frozen=True, slots=True)
class VendorSource:
    """A source as the vendor names it; ``text`` is None when the response does not carry it."""

    id: str
    text: str | None
    title: str | None = None
    url: str | None = None
    paragraphs: tuple[Span, ...] | None = None
    kind: SourceKind = "document"


class SourceSet:
    """The sources of one converted answer: the caller's, then the ones the vendor carries.

    A vendor source is the caller's source with the same id, url or title when there is one
    (the caller's copy wins); else it becomes a `Source` of its own when the response carries
    its text; else its id stays in the marker and the verifier reports it as not provided.
    """

    def __init__(self, given: Sequence[Source]) -> None:
        self.given = tuple(given)
        self._created: dict[str, Source] = {}
        self._resolved: dict[str, str] = {}
        self.notes: list[str] = []

    def add(self, vendor: VendorSource) -> str:
        """The id to write in the marker for ``vendor``."""
        if vendor.id in self._resolved:
            return self._resolved[vendor.id]
        label = self._match_given(vendor)
        if label is None:
            label = vendor.id
            if vendor.text is not None and vendor.text.strip():
                self._created[vendor.id] = Source(
                    id=vendor.id,
                    kind=vendor.kind,
                    text=vendor.text,
                    title=vendor.title,
                    url=vendor.url,
                    paragraphs=vendor.paragraphs,
                )
            else:
                named = vendor.title or vendor.url or vendor.id
                self.notes.append(
                    f"{vendor.id} ({named}): the response does not carry its text; give it "
                    f"with --source {vendor.id}=FILE to check what cites it"
                )
        self._resolved[vendor.id] = label
        return label

    def get(self, source_id: str) -> Source | None:
        """The source a marker id names, if its text is known."""
        found = self._created.get(source_id)
        if found is not None:
            return found
        return next((s for s in self.given if s.id == source_id), None)

    def sources(self) -> tuple[Source, ...]:
        return self.given + tuple(self._created.values())

    def _match_given(self, vendor: VendorSource) -> str | None:
        for source in self.given:
            if source.id == vendor.id:
                return source.id
        wanted_url = same_url(vendor.url) if vendor.url else None
        for source in self.given:
            if wanted_url and source.url and same_url(source.url) == wanted_url:
                return source.id
        wanted = vendor.title.strip().casefold() if vendor.title else None
        for source in self.given:
            if wanted and source.title and source.title.strip().casefold() == wanted:
                return source.id
        return None


def same_url(url: str) -> str:
    """``url`` without what search tools add to it (``utm_*`` parameters, a trailing slash),
    so a cited page matches the caller's copy of it."""
    parts = urlsplit(url.strip())
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.startswith("utm_")
    ]
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, urlencode(query), ""))


def marker(source_id: str, paragraph: int | None = None) -> str:
    """``<cite:ID>`` or ``<cite:ID#pN>``; raises `SourceError` for an id a marker cannot hold."""
    if not _MARKER_ID.fullmatch(source_id):
        raise SourceError(
            f"the source id {source_id!r} cannot be written in a citation marker "
            "(letters, digits and . : / - _ only); give the source another id",
            field="id",
        )
    return f"<cite:{source_id}#p{paragraph}>" if paragraph else f"<cite:{source_id}>"


def compose(
    output: str, cites: Sequence[Cite], *, quotes: bool = True, where: str = "response"
) -> tuple[str, tuple[VendorCitation, ...], tuple[str, ...]]:
    """The answer text with markers (and quotes), one `VendorCitation` per cite, and notes."""
    offsets = TextOffsets(output, where=where)
    placed = sorted(
        ((_position(output, cite), number, cite) for number, cite in enumerate(cites)),
        key=lambda item: (item[0], item[1]),
    )
    pieces: list[str] = []
    length = 0
    previous = 0
    results: dict[int, VendorCitation] = {}
    notes: list[str] = []
    for at, items in groupby(placed, key=lambda item: item[0]):
        pieces.append(output[previous:at])
        length += at - previous
        group = [(number, cite) for _, number, cite in items]
        previous = max([at] + [c.replaces[1] for _, c in group if c.replaces is not None])
        written = next((piece[-1] for piece in reversed(pieces) if piece), "")
        inserted, spans = _insertion(output, written, previous, group, quotes, notes)
        for (number, cite), (start, end) in zip(group, spans, strict=True):
            results[number] = VendorCitation(
                kind=cite.kind,
                source_id=cite.source_id,
                cited_words=offsets.span(*cite.words),
                marker_span=(length + start, length + end),
                cited_text=cite.cited_text,
                confidence=cite.confidence,
                check=cite.check,
            )
        pieces.append(inserted)
        length += len(inserted)
    pieces.append(output[previous:])
    return "".join(pieces), tuple(results[n] for n in range(len(cites))), tuple(notes)


def _position(output: str, cite: Cite) -> int:
    if cite.replaces is not None:
        return cite.replaces[0]
    start, end = cite.words
    at = end if cite.at is None else cite.at
    if cite.at is None:
        while at > start and output[at - 1].isspace():
            at -= 1
    return at


def _insertion(
    output: str,
    before: str,
    resume: int,
    group: Sequence[tuple[int, Cite]],
    quotes: bool,
    notes: list[str],
) -> tuple[str, list[Span]]:
    """The text inserted after the character ``before`` (the output resumes at ``resume``)
    and each cite's marker span relative to the start of that text."""
    text = " " if before and not before.isspace() else ""
    spans: dict[int, Span] = {}
    quoted: list[tuple[int, Cite, str]] = []
    written: dict[str, Span] = {}
    for number, cite in group:
        shown = _quotable(cite, notes) if quotes else None
        if shown is not None:
            quoted.append((number, cite, shown))
            continue
        written_marker = marker(cite.source_id, cite.paragraph)
        if written_marker not in written:
            written[written_marker] = (len(text), len(text) + len(written_marker))
            text += written_marker
        spans[number] = written[written_marker]
    if quoted:
        text += " (" if written else "("
        for position, (number, cite, shown) in enumerate(quoted):
            if position:
                text += "; "
            text += shown + " "
            written_marker = marker(cite.source_id, cite.paragraph)
            spans[number] = (len(text), len(text) + len(written_marker))
            text += written_marker
        text += ")"
    if resume < len(output) and not output[resume].isspace() and output[resume] not in ".,;:!?)]}":
        text += " "
    return text, [spans[number] for number, _ in group]


def _quotable(cite: Cite, notes: list[str]) -> str | None:
    """The cited text as an inline quote with its marks, or None (and why, in ``notes``)."""
    if cite.cited_text is None or not cite.show_quote:
        return None
    flat = " ".join(cite.cited_text.split())
    if not _WORD.search(flat):
        return None
    if len(flat) > MAX_INLINE_QUOTE:
        notes.append(
            f"the cited text for {cite.source_id} is {len(flat):,} characters, longer than an "
            f"inline quote may be ({MAX_INLINE_QUOTE:,}): its claim is cited, the text not quoted"
        )
        return None
    for opening, closing in _QUOTE_MARKS:
        if opening not in flat and closing not in flat:
            return f"{opening}{flat}{closing}"
    notes.append(
        f"the cited text for {cite.source_id} holds every kind of quotation mark: "
        "its claim is cited, the text not quoted"
    )
    return None


def paragraph_at(source: Source, index: int) -> int:
    """The 1-based number of the paragraph of ``source`` holding ``index`` (or the next one)."""
    spans = source.paragraph_spans()
    for number, (_, end) in enumerate(spans, start=1):
        if index < end:
            return number
    return len(spans)


_NUMBERED_MARKER = re.compile(r"\[\d{1,3}\]")  # "[1]": a vendor's marker, not part of a sentence


def sentence_before(text: str, at: int) -> Span:
    """The sentence that ends at or just before ``at`` (the claim a trailing citation cites).

    Spaces before ``at`` are skipped; sentences end as `citeproof.sources._sentences` ends them
    and at every line break, and the numbered markers (``[1][2]``) that close the sentence
    before are not part of this one.
    """
    end = at
    while end > 0 and text[end - 1].isspace():
        end -= 1
    line = text.rfind("\n", 0, end) + 1
    masked = _NUMBERED_MARKER.sub(lambda found: " " * len(found.group()), text[line:end])
    spans = sentence_spans(masked)
    return (line + spans[-1][0], end) if spans else (end, end)
