"""DOCX: paragraphs and tables in document order, as python-docx reads them."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator

from docx.document import Document
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table
from docx.text.paragraph import Paragraph

from citeproof.errors import SourceError
from citeproof.sources._docx_styles import HeadingStyles, open_document
from citeproof.sources._limits import DEFAULT_LIMITS, ReadLimits, over_limit
from citeproof.sources._segment import Block, Segmented, join_blocks
from citeproof.sources._text_reader import normalise_newlines


def read_docx(raw: bytes, where: str, limits: ReadLimits = DEFAULT_LIMITS) -> Segmented:
    """One paragraph per non-empty Word paragraph; each table row is one paragraph with its
    cells joined by `` | `` (merged cells once). The title is the document's core title.

    Raises `SourceError` naming ``where`` when the file is not a valid DOCX package, or
    expands to more than ``limits.max_expanded_bytes``.
    """
    try:
        _check_expansion(raw, limits, where)
        document = open_document(raw)
        blocks = [
            Block(normalise_newlines(text), heading=heading) for text, heading in _texts(document)
        ]
        title = (document.core_properties.title or "").strip() or None
    except SourceError:
        raise
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        detail = str(error).strip() or type(error).__name__
        raise SourceError(
            f"cannot read the DOCX (not a valid Word package: {detail})", where=where
        ) from None
    except Exception as error:  # lxml raises its own XMLSyntaxError for damaged parts
        if type(error).__module__.startswith(("lxml", "docx")):
            raise SourceError(f"cannot read the DOCX ({error})", where=where) from None
        raise
    return join_blocks(blocks, title=title)


def _check_expansion(raw: bytes, limits: ReadLimits, where: str) -> None:
    # zipfile stops every member at its declared size, so the declared sizes bound what
    # python-docx can unpack: check them before anything is decompressed.
    with zipfile.ZipFile(io.BytesIO(raw)) as package:
        expanded = sum(member.file_size for member in package.infolist())
    if expanded > limits.max_expanded_bytes:
        raise over_limit(
            f"the unpacked DOCX ({expanded:,} bytes)",
            f"{limits.max_expanded_bytes:,} bytes",
            "max_expanded_bytes",
            where,
        )


def _texts(document: Document) -> Iterator[tuple[str, bool]]:
    """Each paragraph's text and whether its style is a heading; each table row's."""
    styles = HeadingStyles(document)
    # Whether each style id (None: no style named) is a heading's, looked up once.
    headings: dict[str | None, bool] = {}
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            style_id = item._p.style
            heading = headings.get(style_id)
            if heading is None:
                heading = headings[style_id] = styles.is_heading(style_id)
            yield item.text, heading
        elif isinstance(item, Table):
            yield from ((row, False) for row in _rows(item))


def _rows(table: Table) -> Iterator[str]:
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:
            if id(cell._tc) in seen:  # a merged cell repeats across the columns it spans
                continue
            seen.add(id(cell._tc))
            text = " ".join(cell.text.split())
            if text:
                cells.append(text)
        if cells:
            yield " | ".join(cells)
