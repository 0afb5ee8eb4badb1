"""Which reader reads which file: one entry point for documents and attachments.

The built-in readers are chosen by suffix (else by MIME type): PDF and DOCX import pypdf and
python-docx only when such a file is read. A suffix citeproof does not read itself is looked
up among the plug-ins: the ``citeproof.readers`` entry point named by the suffix without its
dot (``rtf`` for ``.rtf``) names a `Reader`.
"""

from __future__ import annotations

import functools
from pathlib import PurePath
from typing import Protocol, runtime_checkable

from citeproof.errors import SourceError
from citeproof.plugins import READERS_GROUP, load_plugin, plugin_names
from citeproof.sources._html_reader import html_to_text
from citeproof.sources._limits import DEFAULT_LIMITS, ReadLimits, check_extent
from citeproof.sources._segment import Segmented, markdown_paragraphs, plain_paragraphs
from citeproof.sources._text_reader import (
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
"""The suffixes the built-in readers read (plug-ins may add more: see `reads_suffix`)."""


@runtime_checkable
class Reader(Protocol):
    """A reader of one document format, as a plug-in offers it under ``citeproof.readers``.

    ``read`` gets the file's bytes, where they come from (a path, or a path and attachment
    name: for messages) and the read limits, and returns a `Segmented`: the text, its
    paragraph spans (half-open ``(start, end)`` character offsets, in order, inside the
    text), optionally the spans of quoted reply history and a title. A file it cannot read
    raises `SourceError` naming ``where``. The text's size and paragraph count are checked
    against ``limits`` after it returns; a reader that may expand its input (a compressed
    format) checks ``limits.max_expanded_bytes`` itself. The entry point may name the
    reader object or a class, which is called with no arguments.
    """

    def read(self, raw: bytes, *, where: str, limits: ReadLimits) -> Segmented: ...


def reads_suffix(suffix: str) -> bool:
    """Whether a file with ``suffix`` (``.pdf``, ``.RTF``...) can be read: by a built-in
    reader, or by a plug-in (its entry point is listed, not loaded)."""
    suffix = suffix.lower()
    return suffix in SUPPORTED_SUFFIXES or _offered_by_plugin(suffix)


def _offered_by_plugin(suffix: str) -> bool:
    return bool(suffix) and _plugin_name(suffix) in plugin_names(READERS_GROUP)


def _plugin_name(suffix: str) -> str:
    return suffix.removeprefix(".")


@functools.cache
def plugin_reader(suffix: str) -> tuple[Reader, str] | None:
    """The plug-in `Reader` for ``suffix`` and the words that name its entry point, or
    ``None`` when no installed distribution offers one.

    Raises `SourceError` naming the entry point when it fails to load or what it names is
    not a `Reader`.
    """
    plugin = load_plugin(READERS_GROUP, _plugin_name(suffix.lower()), SourceError)
    if plugin is None:
        return None
    value = plugin.value
    if isinstance(value, type):
        try:
            value = value()
        except Exception as error:  # the plug-in's own constructor failed
            raise SourceError(
                f"the {plugin.described} failed to make its reader: {type(error).__name__}: {error}"
            ) from error
    if not isinstance(value, Reader):
        raise SourceError(
            f"the {plugin.described} is not a reader: {type(value).__name__} has no "
            "read(raw, *, where, limits) method"
        )
    return value, plugin.described


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
    if suffix not in SUPPORTED_SUFFIXES and _offered_by_plugin(suffix):
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
        from citeproof.sources._pdf_reader import read_pdf

        return read_pdf(raw, where, limits)
    if suffix == ".docx":
        from citeproof.sources._docx_reader import read_docx

        return read_docx(raw, where, limits)
    if suffix not in DOCUMENT_SUFFIXES:
        return _read_by_plugin(raw, suffix, where, limits)
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


def _read_by_plugin(raw: bytes, suffix: str, where: str, limits: ReadLimits) -> Segmented:
    found = plugin_reader(suffix)
    if found is None:  # pragma: no cover - document_format only returns listed suffixes
        raise SourceError(f"cannot read {suffix} files (unsupported format)", where=where)
    reader, described = found
    document = reader.read(raw, where=where, limits=limits)
    if not isinstance(document, Segmented) or not isinstance(document.text, str):
        raise SourceError(
            f"the reader of the {described} returned {type(document).__name__}, "
            "not a Segmented text",
            where=where,
        )
    return document
