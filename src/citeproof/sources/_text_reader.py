"""Plain text and Markdown files: decoded strictly, newlines normalised to ``\\n``."""

from __future__ import annotations

import codecs
import re

from citeproof.errors import SourceError
from citeproof.sources._segment import Segmented, markdown_paragraphs, plain_paragraphs

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
TEXT_SUFFIXES = frozenset({".txt", ".text", ".rst", ".csv", ".log", ""})
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+")


def decode_text(raw: bytes, where: str) -> str:
    """UTF-8 (a BOM allowed, or UTF-16 with a BOM) with newlines normalised to ``\\n``.

    Raises `SourceError` naming ``where``, the byte offset and the line of the first byte
    that is not valid UTF-8: the file is never guessed at.
    """
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return normalise_newlines(raw.decode("utf-16"))
        except UnicodeDecodeError as error:
            raise SourceError(f"invalid UTF-16 at byte {error.start}", where=where) from None
    try:
        return normalise_newlines(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise SourceError(
            f"invalid UTF-8 at byte {error.start} (line {line}): "
            f"{raw[error.start : error.start + 4]!r}; save the file as UTF-8",
            where=where,
        ) from None


def normalise_newlines(text: str) -> str:
    """``\\r\\n`` and lone ``\\r`` become ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text(raw: bytes, where: str) -> Segmented:
    """A plain text file: paragraphs are its blank-line-separated blocks."""
    text = decode_text(raw, where)
    return Segmented(text, plain_paragraphs(text))


def read_markdown(raw: bytes, where: str) -> Segmented:
    """A Markdown file, kept as written: blank-line blocks, headings their own paragraphs."""
    text = decode_text(raw, where)
    heading = next((line for line in text.splitlines() if _HEADING.match(line)), None)
    title = _HEADING.sub("", heading).strip(" #") if heading else None
    return Segmented(text, markdown_paragraphs(text), title=title or None)
