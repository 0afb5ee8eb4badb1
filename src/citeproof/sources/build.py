"""From one file on disk to the sources it holds, with their ids, before they are stored.

A document file gives one ``document`` source; an ``.eml`` message gives its ``email_body``
and one ``attachment`` source per readable attachment.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePath
from urllib.parse import quote

from citeproof.errors import SourceError
from citeproof.model import SOURCE_FIELDS, Source, SourceKind, Span
from citeproof.sources.email_reader import (
    Attachment,
    ReadMessage,
    decode_attachment_text,
    read_message,
)
from citeproof.sources.ids import (
    attachment_doc_id,
    content_hash,
    file_doc_id,
    message_doc_id,
    short_version,
    source_id,
)
from citeproof.sources.readers import EMAIL_SUFFIXES, SUPPORTED_SUFFIXES, document_format
from citeproof.sources.readers import read_document as read_document_bytes
from citeproof.sources.segment import Segmented


@dataclass(frozen=True, slots=True)
class Draft:
    """One source read from a file, with its stable ids, not yet stored.

    ``parent_doc_id`` and ``message_id`` link an attachment to its message; ``quoted_spans``
    mark quoted reply history in ``text``; ``origin`` is the file it was read from.
    """

    id: str
    kind: SourceKind
    doc_id: str
    version: str
    title: str | None
    url: str
    text: str
    paragraphs: tuple[Span, ...]
    quoted_spans: tuple[Span, ...]
    content_hash: str
    origin: str
    parent_doc_id: str | None = None
    message_id: str | None = None

    def source(self, retrieved_at: str | None = None) -> Source:
        """The `Source` this draft becomes: its fields of the same names, and the time."""
        shared = {name: getattr(self, name) for name in SOURCE_FIELDS if name != "retrieved_at"}
        return Source(**shared, retrieved_at=retrieved_at)


@dataclass(frozen=True, slots=True)
class FileDrafts:
    """What one file holds: its drafts, and what could not be read inside it.

    ``problems`` are attachments in a supported format that failed to read (a truncated PDF
    attached to a message), each naming the attachment; ``skipped`` are attachments in a
    format citeproof does not read (images...), named too.
    """

    path: Path
    doc_id: str
    drafts: tuple[Draft, ...]
    problems: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()


def is_supported(path: Path) -> bool:
    """Whether ``path``'s suffix is one citeproof reads."""
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def read_file(path: Path, *, version: str | None = None) -> FileDrafts:
    """Read ``path`` into drafts. ``version`` overrides the content-hash version.

    Raises `SourceError` naming the file when it cannot be read at all.
    """
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise SourceError(f"cannot read the file: {error.strerror or error}", where=where) from None
    absolute = path.resolve()
    url = absolute.as_uri()
    if path.suffix.lower() in EMAIL_SUFFIXES:
        return _message_drafts(path, read_message(raw, where), url, version)
    if document_format(path.name) is None:
        raise SourceError(f"cannot read {path.suffix or 'extension-less'} files", where=where)
    document = read_document_bytes(raw, name=path.name, where=where)
    doc_id = file_doc_id(path)
    draft = _draft(
        "document", document, doc_id, url, str(absolute), version, document.title or path.name
    )
    return FileDrafts(path, doc_id, (draft,))


def _message_drafts(path: Path, message: ReadMessage, url: str, version: str | None) -> FileDrafts:
    origin = str(path.resolve())
    doc_id = message_doc_id(message.message_id, path)
    body = _draft(
        "email_body",
        message.body,
        doc_id,
        url,
        origin,
        version,
        message.subject or path.name,
        message_id=message.message_id,
    )
    drafts = [body]
    problems: list[str] = []
    skipped: list[str] = []
    seen: dict[str, int] = {}
    for attachment in message.attachments:
        seen[attachment.filename] = seen.get(attachment.filename, 0) + 1
        where = f"{path}#attachment={attachment.filename}"
        try:
            document = _read_attachment(attachment, where)
        except _Unsupported as why:
            skipped.append(f"{where}: {why}")
            continue
        except SourceError as error:
            problems.append(str(error))
            continue
        if not document.text.strip():
            skipped.append(f"{where}: no text")
            continue
        drafts.append(
            _draft(
                "attachment",
                document,
                attachment_doc_id(doc_id, attachment.filename, seen[attachment.filename]),
                f"{url}#attachment={quote(attachment.filename)}",
                origin,
                version,
                attachment.filename,
                parent_doc_id=doc_id,
                message_id=message.message_id,
            )
        )
    return FileDrafts(path, doc_id, tuple(drafts), tuple(problems), tuple(skipped))


class _Unsupported(Exception):
    pass


def _read_attachment(attachment: Attachment, where: str) -> Segmented:
    name, content_type = attachment.filename, attachment.content_type
    if content_type == "message/rfc822" or PurePath(name).suffix.lower() in EMAIL_SUFFIXES:
        return read_message(attachment.data, where).body
    if document_format(name, content_type) is None:
        raise _Unsupported(f"{content_type} is not a format citeproof reads; skipped")
    text = decode_attachment_text(attachment) if content_type.startswith("text/") else None
    return read_document_bytes(
        attachment.data, name=name, where=where, content_type=content_type, text=text
    )


def _draft(
    kind: SourceKind,
    document: Segmented,
    doc_id: str,
    url: str,
    origin: str,
    version: str | None,
    title: str,
    *,
    parent_doc_id: str | None = None,
    message_id: str | None = None,
) -> Draft:
    digest = content_hash(document.text)
    return Draft(
        id=source_id(kind, doc_id, digest),
        kind=kind,
        doc_id=doc_id,
        version=version or short_version(digest),
        title=title,
        url=url,
        text=document.text,
        paragraphs=document.paragraphs,
        quoted_spans=document.quoted_spans,
        content_hash=digest,
        origin=origin,
        parent_doc_id=parent_doc_id,
        message_id=message_id,
    )
