"""Which reader reads which file: one entry point for documents and attachments."""

from __future__ import annotations

from pathlib import PurePath

from citeproof.errors import SourceError
from citeproof.sources.docx_reader import read_docx
from citeproof.sources.html_reader import html_to_text
from citeproof.sources.limits import DEFAULT_LIMITS, ReadLimits, check_extent
from citeproof.sources.pdf_reader import read_pdf
from citeproof.sources.segment import Segmented, markdown_paragraphs, plain_paragraphs
from citeproof.sources.text_reader import (
    MARKDOWN_SUFFIXES,
    TEXT_SUFFIXES,
    decode_text,
    normalise_newlines,
    read_markdown,
    read_text,
)

EMAIL_SUFFIXES = frozenset({".eml"})
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
DOCUMENT_SUFFIXES = frozenset(
    {".pdf", ".docx"} | HTML_SUFFIXES | MARKDOWN_SUFFIXES | (TEXT_SUFFIXES - {""})
)
SUPPORTED_SUFFIXES = DOCUMENT_SUFFIXES | EMAIL_SUFFIXES

_BY_CONTENT_TYPE = {
    "application/pdf": ".pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
    "text/html": ".html",
    "text/markdown": ".md",
    "text/plain": ".txt",
}


def document_format(name: str, content_type: str | None = None) -> str | None:
    """The suffix that decides how ``name`` is read (``.pdf``, ``.docx``, ``.html``, ``.md``,
    ``.txt``...), from its file name, else from its MIME type; ``None`` if unsupported."""
    suffix = PurePath(name).suffix.lower()
    if suffix in DOCUMENT_SUFFIXES:
        return suffix
    if content_type is not None:
        return _BY_CONTENT_TYPE.get(content_type.lower())
    return None


def read_document(
    raw: bytes,
    *,
    name: str,
    where: str,
    content_type: str | None = None,
    text: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Segmented:
    """Read a document's bytes by its format (see `document_format`).

    ``text`` is the already-decoded text of a text attachment (mail declares its charset);
    files on disk are decoded strictly as UTF-8. Raises `SourceError` naming ``where`` for
    an unsupported format, a file that cannot be read, or one over ``limits``.
    """
    document = _read_by_format(raw, name, where, content_type, text, limits)
    check_extent(document.text, len(document.paragraphs), limits, where)
    return document


def _read_by_format(
    raw: bytes,
    name: str,
    where: str,
    content_type: str | None,
    text: str | None,
    limits: ReadLimits,
) -> Segmented:
    suffix = document_format(name, content_type)
    if suffix is None:
        shown = PurePath(name).suffix or content_type or "this kind of"
        raise SourceError(f"cannot read {shown} files (unsupported format)", where=where)
    if suffix == ".pdf":
        return read_pdf(raw, where, limits)
    if suffix == ".docx":
        return read_docx(raw, where, limits)
    if text is not None:
        return _from_text(normalise_newlines(text), suffix)
    if suffix in HTML_SUFFIXES:
        return html_to_text(decode_text(raw, where))
    if suffix in MARKDOWN_SUFFIXES:
        return read_markdown(raw, where)
    return read_text(raw, where)


def _from_text(text: str, suffix: str) -> Segmented:
    if suffix in HTML_SUFFIXES:
        return html_to_text(text)
    if suffix in MARKDOWN_SUFFIXES:
        return Segmented(text, markdown_paragraphs(text))
    return Segmented(text, plain_paragraphs(text))
