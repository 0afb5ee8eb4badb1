"""From one file on disk to the sources it holds, with their ids, before they are stored.

A document file gives one ``document`` source; an ``.eml`` message gives its ``email_body``
and one ``attachment`` source per readable attachment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING
from urllib.parse import quote

from citeproof.errors import SourceError
from citeproof.model import SOURCE_FIELDS, Source, SourceKind, Span
from citeproof.sources._ids import (
    attachment_doc_id,
    content_hash,
    file_doc_id,
    message_doc_id,
    readable_path,
    short_version,
    source_id,
)
from citeproof.sources._limits import (
    DEFAULT_LIMITS,
    ReadLimits,
    check_extent,
    over_limit,
    read_file_bounded,
)
from citeproof.sources._locations import paragraph_locations
from citeproof.sources._readers import EMAIL_SUFFIXES, document_format, reads_suffix
from citeproof.sources._readers import read_document as read_document_bytes
from citeproof.sources._segment import Segmented

if TYPE_CHECKING:
    from citeproof.sources._email_reader import Attachment, ReadMessage


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
    locations: tuple[str | None, ...] | None = None
    """Each paragraph in the document's own terms (`Source.locations`)."""

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
    """Whether ``path``'s suffix is one citeproof reads (built in, or by a plug-in)."""
    return reads_suffix(path.suffix)


def read_file(
    path: Path,
    *,
    version: str | None = None,
    trusted_roots: Sequence[Path] = (),
    limits: ReadLimits = DEFAULT_LIMITS,
) -> FileDrafts:
    """Read ``path`` into drafts. ``version`` overrides the content-hash version.

    A message is one document per file path, unless it lies under one of ``trusted_roots``
    (folders whose mail is known to be genuine): there, its Message-ID names the document, so
    a newer copy saved elsewhere in a trusted folder replaces an older one.

    Raises `SourceError` naming the file when it cannot be read at all, or breaks one of
    ``limits`` (an attachment over a limit is only reported among the file's problems).
    """
    where = str(path)
    raw = read_file_bounded(path, limits, where)
    absolute = path.resolve()
    url = absolute.as_uri()
    if path.suffix.lower() in EMAIL_SUFFIXES:
        from citeproof.sources._email_reader import read_message  # the email package: only here

        trusted = any(absolute.is_relative_to(root.resolve()) for root in trusted_roots)
        message = read_message(raw, where, limits)
        check_extent(message.body.text, len(message.body.paragraphs), limits, where)
        return _message_drafts(path, absolute, message, url, version, trusted, limits)
    if document_format(path.name) is None:
        raise SourceError(f"cannot read {path.suffix or 'extension-less'} files", where=where)
    document = read_document_bytes(raw, name=path.name, where=where, limits=limits)
    doc_id = file_doc_id(absolute)
    title = document.title or readable_path(path.name)
    draft = _draft("document", document, doc_id, url, readable_path(absolute), version, title)
    return FileDrafts(path, doc_id, (draft,))


def _message_drafts(
    path: Path,
    absolute: Path,
    message: ReadMessage,
    url: str,
    version: str | None,
    trusted: bool,
    limits: ReadLimits,
) -> FileDrafts:
    origin = readable_path(absolute)
    doc_id = message_doc_id(message.message_id, absolute, trusted=trusted)
    body = _draft(
        "email_body",
        message.body,
        doc_id,
        url,
        origin,
        version,
        message.subject or readable_path(path.name),
        message_id=message.message_id,
    )
    drafts = [body]
    problems = [
        str(over_limit("the attachment", f"{limits.max_attachment_bytes:,} bytes",
                       "max_attachment_bytes", f"{path}#attachment={name}"))
        for name in message.too_large
    ]  # fmt: skip
    skipped: list[str] = []
    seen: dict[str, int] = {}
    for attachment in message.attachments:
        seen[attachment.filename] = seen.get(attachment.filename, 0) + 1
        where = f"{path}#attachment={attachment.filename}"
        try:
            document = _read_attachment(attachment, where, limits)
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


def _read_attachment(attachment: Attachment, where: str, limits: ReadLimits) -> Segmented:
    from citeproof.sources._email_reader import decode_attachment_text, read_message

    name, content_type = attachment.filename, attachment.content_type
    if content_type == "message/rfc822" or PurePath(name).suffix.lower() in EMAIL_SUFFIXES:
        body = read_message(attachment.data, where, limits).body
        check_extent(body.text, len(body.paragraphs), limits, where)
        return body
    if document_format(name, content_type) is None:
        raise _Unsupported(f"{content_type} is not a format citeproof reads; skipped")
    text = decode_attachment_text(attachment) if content_type.startswith("text/") else None
    return read_document_bytes(
        attachment.data,
        name=name,
        where=where,
        content_type=content_type,
        text=text,
        limits=limits,
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
        locations=_located(document),
        origin=origin,
        parent_doc_id=parent_doc_id,
        message_id=message_id,
    )


def _located(document: Segmented) -> tuple[str | None, ...] | None:
    """The document's paragraphs in its own terms, as its reader gave them or read from its
    text (clause numbers, Markdown headings); None when no paragraph has one."""
    located = document.locations or paragraph_locations(document.text, document.paragraphs)
    return located if any(located) else None
