"""A DOCX's styles part is read once per distinct content: whether each paragraph is a
heading is what python-docx's own ``Paragraph.style`` says, on a first read and on a read of
another document made from the same template."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import docx
import pytest

from citeproof.errors import SourceError
from citeproof.sources._docx_reader import read_docx
from citeproof.sources._docx_styles import HeadingStyles, open_document


def _document(*, heading: str = "Schedule 2: Security") -> bytes:
    document = docx.Document()
    document.add_heading(heading, level=0)
    document.add_heading("Clause 7 Insurance", level=1)
    document.add_paragraph("The property must be insured at all times.")
    document.add_paragraph("Valuation", style="List Bullet")
    document.add_paragraph("No style named.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _edited(raw: bytes, name: str, edit: Callable[[bytes], bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as source, zipfile.ZipFile(out, "w") as target:
        for member in source.namelist():
            data = source.read(member)
            target.writestr(member, edit(data) if member == name else data)
    return out.getvalue()


def _python_docx_headings(raw: bytes) -> list[bool]:
    paragraphs = docx.Document(io.BytesIO(raw)).paragraphs
    return [p.style.name.lower().startswith(("heading", "title")) for p in paragraphs]


def _headings(raw: bytes) -> list[bool]:
    document = open_document(raw)
    styles = HeadingStyles(document)
    return [styles.is_heading(p._p.style) for p in document.paragraphs]


def test_headings_are_python_docx_s_on_a_first_read_and_a_kept_one() -> None:
    raw = _document()
    expected = _python_docx_headings(raw)
    assert expected == [True, True, False, False, False]
    assert _headings(raw) == expected
    assert _headings(_document(heading="Schedule 3: Fees")) == expected  # the same template


def test_a_styles_part_that_differs_is_read_for_itself() -> None:
    renamed = _edited(
        _document(),
        "word/styles.xml",
        lambda xml: xml.replace(b'w:val="heading 1"', b'w:val="Clause text"'),
    )
    assert _headings(_document()) == [True, True, False, False, False]
    assert _python_docx_headings(renamed) == [True, False, False, False, False]
    assert _headings(renamed) == [True, False, False, False, False]


def test_a_paragraph_naming_a_character_style_or_an_unknown_one_reads_as_the_default() -> None:
    raw = _edited(
        _document(),
        "word/document.xml",
        lambda xml: xml.replace(b'w:val="Heading1"', b'w:val="DefaultParagraphFont"').replace(
            b'w:val="ListBullet"', b'w:val="NoSuchStyle"'
        ),
    )
    assert _headings(raw) == _python_docx_headings(raw) == [True, False, False, False, False]


def test_a_document_without_a_styles_part_reads_python_docx_s_default_styles() -> None:
    def unrelated(rels: bytes) -> bytes:
        start = rels.rindex(b"<Relationship ", 0, rels.index(b"styles.xml"))
        end = rels.index(b"/>", start) + 2
        return rels[:start] + rels[end:]

    raw = _edited(_document(), "word/_rels/document.xml.rels", unrelated)
    assert _headings(raw) == _python_docx_headings(raw)
    assert read_docx(raw, "memo.docx").text.startswith("Schedule 2: Security")


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda xml: xml[:-40], "cannot read the DOCX"),
        (lambda xml: xml.replace(b'w:default="1"', b'w:default="maybe"', 1), "'maybe'"),
    ],
)
def test_a_damaged_styles_part_fails_as_before_on_every_read(
    edit: Callable[[bytes], bytes], says: str
) -> None:
    raw = _edited(_document(), "word/styles.xml", edit)
    for _ in range(2):
        with pytest.raises(SourceError, match=says):
            read_docx(raw, "memo.docx")
