"""A DOCX opened with its styles part left as bytes, and which of its paragraph styles are
headings, read once per distinct styles part.

python-docx parses the whole styles part of every file it opens. Word and python-docx
templates write hundreds of kilobytes there (python-docx's own: 350 KB, 9,000 elements), and
parsing it was half of a short document's reading, while the reader needs of it only whether
each paragraph's style is a heading. Documents made from one template carry the same part,
byte for byte: what it says of headings is kept by its SHA-256 for the next one.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from typing import cast

from docx.document import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.package import Unmarshaller
from docx.opc.packuri import PackURI
from docx.opc.part import Part, PartFactory
from docx.opc.pkgreader import PackageReader
from docx.oxml.ns import qn
from docx.oxml.parser import parse_xml
from docx.oxml.simpletypes import ST_OnOff
from docx.oxml.styles import CT_Style, CT_Styles
from docx.package import Package
from docx.parts.document import DocumentPart
from docx.styles.style import StyleFactory

_TYPE = qn("w:type")
_DEFAULT = qn("w:default")
_STYLE_ID = qn("w:styleId")
KEPT = 64
"""Styles parts whose headings are kept (least recently used go)."""


def open_document(raw: bytes) -> Document:
    """``docx.Document`` of ``raw``, its styles part read as bytes and not parsed (see
    `HeadingStyles`); every other part as python-docx reads it, with the same errors."""
    stream = io.BytesIO(raw)
    package = Package()
    reader = PackageReader.from_file(stream)  # type: ignore[no-untyped-call]
    Unmarshaller.unmarshal(reader, package, _part)  # type: ignore[no-untyped-call]
    part = package.main_document_part
    if part.content_type != CT.WML_DOCUMENT_MAIN:  # as docx.Document checks it
        raise ValueError(
            f"file '{stream}' is not a Word file, content type is '{part.content_type}'"
        )
    document: Document = cast(DocumentPart, part).document
    return document


def _part(
    partname: PackURI, content_type: str, reltype: str, blob: bytes, package: Package
) -> Part:
    if content_type == CT.WML_STYLES and reltype != RT.IMAGE:
        return Part(partname, content_type, blob, package)
    # PartFactory(...) is the part its registered class loads, not a PartFactory.
    return cast(Part, PartFactory(partname, content_type, reltype, blob, package))


class HeadingStyles:
    """Whether a paragraph naming a style id is a heading, as the reader decides it from
    python-docx's ``Paragraph.style``: the style of that id when it is a paragraph style,
    else the document's default paragraph style; a heading when its name starts with
    "heading" or "title".

    A styles part that `open_document` left as bytes is read once per distinct content
    (kept for `KEPT` parts); one python-docx made (the default part of a file that has none)
    or one whose styles do not all read is asked style by style, as python-docx would be.
    """

    def __init__(self, document: Document) -> None:
        self._document = document
        self._blob = _styles_blob(document)
        self._element: CT_Styles | None = None
        self._known: dict[str | None, bool] | None = None
        if self._blob is not None:
            key = hashlib.sha256(self._blob).digest()
            self._known = _KNOWN.get(key)
            if self._known is None:
                self._known = _read_headings(self._styles())  # parsed here, as on opening
                if self._known is not None:
                    _KNOWN.put(key, self._known)

    def is_heading(self, style_id: str | None) -> bool:
        known = self._known
        # python-docx finds a style by an XPath that holds the id in double quotes.
        if known is None or (style_id and '"' in style_id):
            return _is_heading(_style_name(self._styles(), style_id))
        return known.get(style_id, known[None]) if style_id else known[None]

    def _styles(self) -> CT_Styles:
        if self._element is None:
            if self._blob is None:
                self._element = self._document.styles.element
            else:
                self._element = cast(CT_Styles, parse_xml(self._blob))
        return self._element


def _styles_blob(document: Document) -> bytes | None:
    """The styles part's bytes as `open_document` kept them; None when python-docx has to
    make the part (none in the file) or made it something else."""
    try:
        part = document.part.part_related_by(RT.STYLES)
    except KeyError:
        return None
    if type(part) is Part and part.content_type == CT.WML_STYLES:
        return part.blob
    return None


def _read_headings(element: CT_Styles) -> dict[str | None, bool] | None:
    """Whether each style id (the first style of that id) is read as a heading, and under
    None whether a paragraph naming no style, or a style that is not a paragraph style, is;
    None when a style's type or default flag does not read (python-docx raises then, and
    only for a paragraph that asks for it)."""
    try:
        default = _is_heading(_name(_default_paragraph_style(element)))
        known: dict[str | None, bool] = {None: default}
        for style in element.xpath("w:style"):
            style_id = style.get(_STYLE_ID)
            if style_id is None or style_id in known:
                continue
            paragraph = style.type == WD_STYLE_TYPE.PARAGRAPH
            known[style_id] = _is_heading(StyleFactory(style).name) if paragraph else default
    except Exception:  # python-docx raises it again, for a paragraph that asks
        return None
    return known


def _is_heading(name: str | None) -> bool:
    return name is not None and name.lower().startswith(("heading", "title"))


def _name(style: CT_Style | None) -> str | None:
    return StyleFactory(style).name if style is not None else ""


def _style_name(element: CT_Styles, style_id: str | None) -> str | None:
    """The name of the paragraph style ``style_id`` names, as ``Paragraph.style`` finds it:
    that style when it is a paragraph style, else the document's default paragraph style."""
    found = element.get_by_id(style_id) if style_id else None
    if found is None or found.type != WD_STYLE_TYPE.PARAGRAPH:
        found = _default_paragraph_style(element)
    return _name(found)


def _default_paragraph_style(element: CT_Styles) -> CT_Style | None:
    """``CT_Styles.default_for(WD_STYLE_TYPE.PARAGRAPH)`` (the last paragraph style marked
    default), each distinct attribute value read once: python-docx reads the type of every
    style anew through a scan of its enumeration, the most of a short document's reading."""
    types: dict[str, WD_STYLE_TYPE] = {}
    defaults: dict[str, bool] = {}
    found: CT_Style | None = None
    for style in element.xpath("w:style"):
        raw_type = style.get(_TYPE)
        if raw_type is None:
            kind = WD_STYLE_TYPE.PARAGRAPH
        elif raw_type in types:
            kind = types[raw_type]
        else:
            kind = types[raw_type] = WD_STYLE_TYPE.from_xml(raw_type)
        if kind != WD_STYLE_TYPE.PARAGRAPH:
            continue
        raw_default = style.get(_DEFAULT)
        if raw_default is None:
            continue
        if raw_default not in defaults:
            defaults[raw_default] = bool(ST_OnOff.from_xml(raw_default))
        if defaults[raw_default]:
            found = style
    return found


class _Kept:
    """The headings of the styles parts read last, by digest. Thread-safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[bytes, dict[str | None, bool]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes) -> dict[str | None, bool] | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: bytes, headings: dict[str | None, bool]) -> None:
        with self._lock:
            self._entries[key] = headings
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


_KNOWN = _Kept(KEPT)
