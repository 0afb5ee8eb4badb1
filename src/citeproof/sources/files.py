"""A source from one file given on the command line: plain text, Markdown, HTML or an .eml
message (its body becomes an ``email_body`` source)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path

from citeproof.errors import SourceError
from citeproof.model import Source, SourceKind

TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".text", ".rst", ".csv", ""}


def read_source_file(
    path: Path, *, source_id: str | None = None, kind: SourceKind | None = None
) -> Source:
    """Read ``path`` into a `Source`; the id defaults to the file name without its suffix."""
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise SourceError(f"cannot read the file: {error.strerror}", where=where) from None
    suffix = path.suffix.lower()
    sid = source_id or path.stem
    url = path.resolve().as_uri()
    if suffix == ".eml":
        return Source(
            id=sid,
            kind=kind or "email_body",
            text=_email_body(raw, where),
            title=path.name,
            url=url,
        )
    if suffix in (".html", ".htm"):
        return Source(
            id=sid,
            kind=kind or "document",
            text=_html_text(_decode(raw, where)),
            title=path.name,
            url=url,
        )
    if suffix not in TEXT_SUFFIXES:
        raise SourceError(
            f"cannot read {suffix} files here; "
            "give the text as a .txt file or in a --sources JSON file",
            where=where,
        )
    return Source(
        id=sid, kind=kind or "document", text=_decode(raw, where), title=path.name, url=url
    )


def _decode(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise SourceError(
            f"invalid UTF-8 at byte {error.start} (line {line}): "
            f"{raw[error.start : error.start + 4]!r}",
            where=where,
        ) from None


def _email_body(raw: bytes, where: str) -> str:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    if not isinstance(message, EmailMessage):  # pragma: no cover - the default policy makes one
        raise SourceError("not an email message", where=where)
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        raise SourceError("the message has no text body", where=where)
    try:
        content = part.get_content()
    except (LookupError, UnicodeError) as error:
        raise SourceError(f"cannot decode the body: {error}", where=where) from None
    if not isinstance(content, str):
        raise SourceError("the message body is not text", where=where)
    if part.get_content_subtype() == "html":
        return _html_text(content)
    return content.replace("\r\n", "\n")


class _TextOnly(HTMLParser):
    _BLOCKS = frozenset(
        {
            "p",
            "div",
            "br",
            "li",
            "tr",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "blockquote",
            "pre",
            "table",
            "ul",
            "ol",
        }
    )
    _SKIP = frozenset({"script", "style", "head", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skipping:
            self._skipping -= 1
        elif tag in self._BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def _html_text(markup: str) -> str:
    """The visible text of an HTML page, one paragraph per block element; scripts dropped."""
    parser = _TextOnly()
    parser.feed(markup)
    parser.close()
    blocks = [" ".join(b.split()) for b in "".join(parser.parts).split("\n\n")]
    return "\n\n".join(b for b in blocks if b)
