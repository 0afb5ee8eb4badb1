"""PDFs of a few kilobytes whose text expands to tens of millions of characters: one page
whose compressed content holds one enormous string, and one that draws the same form a
hundred thousand times. Before, the whole text was extracted (83 s of CPU and 961 MB for a
100 KB file) and only then found too long; now reading stops as soon as a limit is crossed,
and the error names that limit."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from citeproof.errors import SourceError
from citeproof.sources import ReadLimits
from citeproof.sources._pdf_reader import read_pdf

LIMITS = ReadLimits(max_source_chars=1_000_000, max_expanded_bytes=10_000_000)
FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def stream(data: bytes, extra: bytes = b"") -> bytes:
    packed = zlib.compress(data, 9)
    head = b"<< %s /Length %d /Filter /FlateDecode >>\nstream\n" % (extra, len(packed))
    return head + packed + b"\nendstream"


def pdf(content: bytes, form: bytes | None = None) -> bytes:
    """A one-page PDF with ``content`` as the page's content stream (and ``form`` as the
    form XObject /Fm1), cross-reference table and all."""
    xobject = b" /XObject << /Fm1 6 0 R >>" if form is not None else b""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
        b"<< /F1 5 0 R >>" + xobject + b" >> /Contents 4 0 R >>",
        stream(content),
        FONT,
    ]
    if form is not None:
        objects.append(
            stream(
                form,
                b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] "
                b"/Resources << /Font << /F1 5 0 R >> >>",
            )
        )
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_a_small_pdf_is_read_as_before() -> None:
    document = read_pdf(pdf(b"BT /F1 12 Tf 72 700 Td (The rate is fixed.) Tj ET"), "x", LIMITS)
    assert "The rate is fixed." in document.text


def test_one_enormous_string_is_refused_before_it_is_parsed() -> None:
    bomb = pdf(b"BT /F1 12 Tf 72 700 Td (" + b"A" * 40_000_000 + b") Tj ET")
    assert len(bomb) < 100_000
    with pytest.raises(SourceError, match="max_expanded_bytes") as refused:
        read_pdf(bomb, "bomb.pdf", LIMITS)
    assert "bomb.pdf" in str(refused.value)


def test_a_form_drawn_many_times_stops_at_the_text_limit(tmp_path: Path) -> None:
    form = b"BT /F1 12 Tf 72 700 Td (" + b"B" * 1_000 + b") Tj ET"
    bomb = pdf(b"q /Fm1 Do Q\n" * 100_000, form)
    assert len(bomb) < 100_000
    with pytest.raises(SourceError, match="max_source_chars") as refused:
        read_pdf(bomb, "forms.pdf", LIMITS)
    assert "by page 1" in str(refused.value)
