"""PDF: the text layer, extracted with pypdf, one paragraph per block of the page layout."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from pypdf import PageObject, PdfReader
from pypdf.errors import PyPdfError
from pypdf.generic import ArrayObject

from citeproof.errors import SourceError
from citeproof.model import Span
from citeproof.sources._limits import DEFAULT_LIMITS, Deadline, ReadLimits, over_limit
from citeproof.sources._segment import Block, Segmented, join_blocks, layout_paragraphs
from citeproof.sources._text_reader import normalise_newlines

_SPACES = re.compile(r"\s+")


def read_pdf(raw: bytes, where: str, limits: ReadLimits = DEFAULT_LIMITS) -> Segmented:
    """The text of every page, in order; paragraphs come from the page layout.

    A page's paragraphs are the blocks that pypdf's layout mode separates with vertical
    space; when the layout text does not line up with the plain text (several columns),
    a line that ends a sentence and is clearly shorter than its neighbours ends a paragraph.
    Lines wrapped by the layout are joined with a space. Pages are separate paragraphs. The
    title is the document's metadata title, if any.

    Raises `SourceError` naming ``where`` for a damaged or encrypted file, a PDF with no
    text layer (a scan), or one over ``limits`` (pages, time, characters of text, bytes of
    decompressed page content). A limit stops the reading when it is crossed: a page's
    content is measured before its text is extracted, and extraction stops at the text
    limit, so a small file that expands to millions of characters costs no more than that.
    """
    pages, title = _read_pages(raw, where, limits)
    return _join(pages, title, where)


def read_pdf_pages(
    raw: bytes, where: str, limits: ReadLimits = DEFAULT_LIMITS
) -> tuple[Segmented, tuple[Span, ...]]:
    """`read_pdf`, with the character span of each page in the text (page 1 first).

    A page with no text has an empty span where it would be. Callers that cite by page
    (Anthropic's ``page_location``) map page numbers to text with it.
    """
    pages, title = _read_pages(raw, where, limits)
    document = _join(pages, title, where)
    spans: list[Span] = []
    paragraph = 0
    position = 0
    for blocks in pages:
        count = sum(1 for block in blocks if block.text.strip())
        if count:
            first, last = document.paragraphs[paragraph], document.paragraphs[paragraph + count - 1]
            spans.append((first[0], last[1]))
            position = last[1]
            paragraph += count
        else:
            spans.append((position, position))
    return document, tuple(spans)


def _read_pages(raw: bytes, where: str, limits: ReadLimits) -> tuple[list[list[Block]], str | None]:
    with _pypdf_warnings_held():
        return _read_pages_quietly(raw, where, limits)


_HELD: ContextVar[list[str] | None] = ContextVar("pypdf_warnings_held", default=None)
"""pypdf's warnings about the PDF being read in this thread or task; None outside a read."""


class _PypdfWarnings(logging.Handler):
    """pypdf's own warnings (``EOF marker not found``, ``incorrect startxref pointer``...)
    about a file it repairs as it reads. While citeproof reads a PDF they are held for that
    read, so that what reaches a person is citeproof's message naming the file, never
    pypdf's lines before it. Outside a read they go where Python sends them without this
    handler (standard error, unless the application handles pypdf's logger itself)."""

    def emit(self, record: logging.LogRecord) -> None:
        held = _HELD.get()
        if held is not None:
            held.append(record.getMessage())
            return
        last = logging.lastResort
        if last is not None and record.levelno >= last.level and self._alone(record):
            last.handle(record)

    def _alone(self, record: logging.LogRecord) -> bool:
        """No other handler would see ``record``: Python would print it on standard error."""
        logger: logging.Logger | None = logging.getLogger(record.name)
        while logger is not None:
            if any(handler is not self for handler in logger.handlers):
                return False
            logger = logger.parent if logger.propagate else None
        return True


logging.getLogger("pypdf").addHandler(_PypdfWarnings())


@contextmanager
def _pypdf_warnings_held() -> Iterator[list[str]]:
    """Hold pypdf's warnings for the read inside (see `_PypdfWarnings`)."""
    held: list[str] = []
    token = _HELD.set(held)
    try:
        yield held
    finally:
        _HELD.reset(token)


def _read_pages_quietly(
    raw: bytes, where: str, limits: ReadLimits
) -> tuple[list[list[Block]], str | None]:
    deadline = Deadline.start(limits, where)
    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted:
            raise SourceError("the PDF is encrypted; give a decrypted copy", where=where)
        count = len(reader.pages)
        if count > limits.max_pdf_pages:
            raise over_limit(
                f"the number of pages ({count:,})", f"{limits.max_pdf_pages:,}", "max_pdf_pages",
                where,
            )  # fmt: skip
        pages: list[list[Block]] = []
        budget = _Budget(limits, where)
        for page in reader.pages:
            budget.take_content(page)
            pages.append(_page_blocks(budget.extract(page), _layout(page)))
            deadline.check()
        title = _title(reader)
    except SourceError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as error:
        raise SourceError(
            f"cannot read the PDF: damaged or truncated ({_describe(error)})", where=where
        ) from None
    return pages, title


class _TextLimit(Exception):
    """Raised inside pypdf's extraction when the text passes the limit: stops it there."""


class _Budget:
    """What one PDF may still cost: decompressed page content (``max_expanded_bytes``) and
    characters of text (``max_source_chars``), both over the whole file."""

    def __init__(self, limits: ReadLimits, where: str) -> None:
        self.limits = limits
        self.where = where
        self.content = 0
        self.chars = 0

    def take_content(self, page: PageObject) -> None:
        """Count the page's decompressed content streams; over the limit before any of it is
        parsed for text (each stream is inflated once, up to pypdf's own cap)."""
        self.content += _content_bytes(page)
        if self.content > self.limits.max_expanded_bytes:
            raise over_limit(
                f"the PDF's page content ({self.content:,} bytes decompressed by page "
                f"{page.page_number + 1 if page.page_number is not None else '?'})",
                f"{self.limits.max_expanded_bytes:,} bytes",
                "max_expanded_bytes",
                self.where,
            )

    def extract(self, page: PageObject) -> str:
        """The page's text, extraction stopped as soon as the file's text passes the limit."""
        limit = self.limits.max_source_chars

        def count(text: Any, *_: Any) -> None:
            self.chars += len(text) if isinstance(text, str) else 0
            if self.chars > limit:
                raise _TextLimit

        try:
            text = page.extract_text(visitor_text=count)
        except _TextLimit:
            raise over_limit(
                f"the PDF's text (more than {limit:,} characters by page "
                f"{page.page_number + 1 if page.page_number is not None else '?'})",
                f"{limit:,} characters",
                "max_source_chars",
                self.where,
            ) from None
        return text


def _content_bytes(page: PageObject) -> int:
    contents = page.get("/Contents")
    if contents is None:
        return 0
    found = contents.get_object()
    streams = found if isinstance(found, ArrayObject) else [found]
    return sum(len(stream.get_object().get_data()) for stream in streams)


def _join(pages: list[list[Block]], title: str | None, where: str) -> Segmented:
    document = join_blocks(
        [
            replace(block, page=f"page {number}")
            for number, blocks in enumerate(pages, start=1)
            for block in blocks
        ],
        title=title,
    )
    if not document.text:
        raise SourceError("the PDF has no text layer (a scan?); nothing to cite", where=where)
    return document


def _layout(page: PageObject) -> str | None:
    try:
        text = page.extract_text(extraction_mode="layout")
    except Exception:  # layout mode only refines paragraphs; the plain text suffices
        return None
    return text if isinstance(text, str) else None


def _page_blocks(plain: str, layout: str | None) -> list[Block]:
    text = normalise_newlines(plain)
    lines = text.split("\n")
    breaks = _layout_breaks(lines, layout) if layout else None
    if breaks is None:
        return [Block(_unwrap(text[s:e].split("\n"))) for s, e in layout_paragraphs(text)]
    blocks: list[Block] = []
    current: list[str] = []
    for number, line in enumerate(lines):
        if number in breaks and current:
            blocks.append(Block(_unwrap(current)))
            current = []
        current.append(line)
    if current:
        blocks.append(Block(_unwrap(current)))
    return blocks


def _unwrap(lines: list[str]) -> str:
    """A paragraph's lines joined with single spaces: PDF line breaks are layout, not text."""
    return " ".join(stripped for line in lines if (stripped := line.strip()))


def _layout_breaks(lines: list[str], layout: str) -> set[int] | None:
    """Numbers of the plain-text lines that start a new paragraph per the layout, or ``None``
    when the layout lines do not match the plain lines one to one."""
    plain_lines = [(n, _SPACES.sub(" ", line).strip()) for n, line in enumerate(lines)]
    plain_lines = [(n, line) for n, line in plain_lines if line]
    breaks: set[int] = set()
    index = 0
    gap = False
    for raw in normalise_newlines(layout).split("\n"):
        line = _SPACES.sub(" ", raw).strip()
        if not line:
            gap = True
            continue
        if index >= len(plain_lines) or plain_lines[index][1] != line:
            return None
        if gap:
            breaks.add(plain_lines[index][0])
        gap = False
        index += 1
    return breaks if index == len(plain_lines) else None


def _title(reader: PdfReader) -> str | None:
    metadata = reader.metadata
    title = metadata.title if metadata is not None else None
    return title.strip() or None if isinstance(title, str) else None


def _describe(error: Exception) -> str:
    message = str(error).strip()
    if not message:
        return type(error).__name__
    return message
