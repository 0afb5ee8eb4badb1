"""``.eml`` messages: the body (plain text preferred, else HTML converted to text), the
decoded headers that identify the message, and its attachments as raw parts.
"""

from __future__ import annotations

import email
import email.policy
import mimetypes
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from functools import lru_cache

from citeproof.errors import SourceError
from citeproof.sources._html_reader import html_to_text
from citeproof.sources._limits import DEFAULT_LIMITS, ReadLimits, over_limit
from citeproof.sources._segment import Segmented, email_paragraphs
from citeproof.sources._text_reader import normalise_newlines

PARSED_HEADERS = 4096
"""Parsed header values kept (least recently used go): the same ``Content-Type`` of every
part, asked for again and again while a message is read, is parsed once."""


class _ParsedOnce(email.policy.EmailPolicy):
    """``email.policy.default``, but a header is parsed once, not again on every ``get``:
    the standard library parses the raw value anew on each access (``get_content_type``,
    ``get_filename``, ``iter_attachments`` ask for the same headers many times). A parsed
    header is immutable (a ``str`` with read-only attributes), so the same value is shared."""

    def header_fetch_parse(self, name: str, value: str) -> str:
        if hasattr(value, "name"):
            return value
        return _parsed_header(name, value)


_POLICY = _ParsedOnce()


@lru_cache(maxsize=PARSED_HEADERS)
def _parsed_header(name: str, value: str) -> str:
    parsed: str = email.policy.default.header_fetch_parse(name, value)
    return parsed


@dataclass(frozen=True, slots=True)
class Attachment:
    """One attached file as sent: its (decoded) file name, MIME type and bytes. ``charset``
    is the declared charset of a ``text/*`` attachment."""

    filename: str
    content_type: str
    data: bytes
    charset: str | None = None


@dataclass(frozen=True, slots=True)
class ReadMessage:
    """A parsed message. ``body`` carries the quoted-history spans; ``message_id`` is the
    Message-ID without angle brackets, or ``None`` when the message has none; ``too_large``
    names the attachments over the size limit, left unread."""

    body: Segmented
    subject: str | None
    message_id: str | None
    sender: str | None
    date: str | None
    attachments: tuple[Attachment, ...]
    too_large: tuple[str, ...] = ()


def read_message(raw: bytes, where: str, limits: ReadLimits = DEFAULT_LIMITS) -> ReadMessage:
    """Parse an RFC 822 / MIME message the way a mail client would.

    Encoded-word headers (``=?utf-8?q?...?=``) and RFC 2231 file names are decoded; the body
    is decoded from its transfer encoding and declared charset (an unknown or wrong charset
    falls back to UTF-8, then Windows-1252, so a message always reads). Quoted reply history
    is kept in the text and its spans recorded. Raises `SourceError` naming ``where`` when
    the bytes are not a message at all, or its parts nest deeper than
    ``limits.max_mime_depth``. Attachments over ``limits.max_attachment_bytes`` are named in
    ``too_large`` and not decoded.
    """
    if not raw.strip():
        raise SourceError("the message is empty", where=where)
    try:
        message = email.message_from_bytes(raw, policy=_POLICY)
        _check_depth(message, limits, where)
    except RecursionError:
        raise _too_deep(limits, where) from None
    if not isinstance(message, EmailMessage):  # pragma: no cover - the default policy makes one
        raise SourceError("not an email message", where=where)
    if not message.keys():
        raise SourceError("not an email message: no headers found", where=where)
    body_part = message.get_body(preferencelist=("plain", "html"))
    body = _body(body_part) if body_part is not None else Segmented("", ())
    attachments: list[Attachment] = []
    too_large: list[str] = []
    for number, part in enumerate(message.iter_attachments(), start=1):
        if part is body_part:
            continue
        if _encoded_size(part) * 3 // 4 > limits.max_attachment_bytes:
            too_large.append(_clean(part.get_filename()) or f"attachment-{number}")
            continue
        attachments.append(_attachment(part, number))
    return ReadMessage(
        body=body,
        subject=_header(message, "subject"),
        message_id=_message_id(message),
        sender=_header(message, "from"),
        date=_header(message, "date"),
        attachments=tuple(attachments),
        too_large=tuple(too_large),
    )


def _check_depth(message: Message, limits: ReadLimits, where: str) -> None:
    """Walk the MIME tree without recursion; `SourceError` when it nests too deeply."""
    stack: list[tuple[Message, int]] = [(message, 0)]
    while stack:
        part, depth = stack.pop()
        if depth > limits.max_mime_depth:
            raise _too_deep(limits, where)
        payload = part.get_payload()
        if isinstance(payload, list):
            stack.extend((child, depth + 1) for child in payload if isinstance(child, Message))
        elif isinstance(payload, Message):
            stack.append((payload, depth + 1))


def _too_deep(limits: ReadLimits, where: str) -> SourceError:
    return over_limit(
        "the nesting of MIME parts", f"{limits.max_mime_depth} levels", "max_mime_depth", where
    )


def _encoded_size(part: Message) -> int:
    payload = part.get_payload()
    return len(payload) if isinstance(payload, str | bytes) else 0


def _body(part: Message) -> Segmented:
    text = _text_content(part)
    if part.get_content_subtype() == "html":
        return html_to_text(text)
    return email_paragraphs(normalise_newlines(text))


def _text_content(part: Message) -> str:
    """The decoded text of a ``text/*`` part, whatever its declared charset claims."""
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    charset = part.get_content_charset()
    for candidate in (charset, "utf-8"):
        if candidate:
            try:
                return data.decode(candidate)
            except (LookupError, UnicodeDecodeError):
                continue
    return data.decode("cp1252", errors="replace")


def _attachment(part: Message, number: int) -> Attachment:
    content_type = part.get_content_type()
    filename = _clean(part.get_filename())
    if not filename:
        extension = mimetypes.guess_extension(content_type) or ".bin"
        filename = f"attachment-{number}{extension}"
    if part.get_content_maintype() == "message":
        inner = part.get_payload()
        first = inner[0] if isinstance(inner, list) and inner else inner
        data = first.as_bytes() if isinstance(first, Message) else b""
        return Attachment(filename, content_type, data)
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    charset = part.get_content_charset() if part.get_content_maintype() == "text" else None
    return Attachment(filename, content_type, data, charset)


def decode_attachment_text(attachment: Attachment) -> str:
    """The text of a ``text/*`` attachment, decoded from its declared charset."""
    for candidate in (attachment.charset, "utf-8-sig"):
        if candidate:
            try:
                return normalise_newlines(attachment.data.decode(candidate))
            except (LookupError, UnicodeDecodeError):
                continue
    return normalise_newlines(attachment.data.decode("cp1252", errors="replace"))


# Header values the standard library's parser gives back as they are (whitespace aside,
# which `_clean` folds): a subject of printable ASCII without an encoded word, a bare
# address, a plain Message-ID. Their parse (most of a small message's reading) is skipped.
_VERBATIM = {
    "subject": re.compile(r"(?!.*=\?)[ -~]*"),
    "from": re.compile(r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"),
    "message-id": re.compile(
        r"<[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>"
    ),
}


def _header(message: EmailMessage, name: str) -> str | None:
    verbatim = _VERBATIM.get(name)
    if verbatim is not None:
        raw = next((v for k, v in message.raw_items() if k.lower() == name), None)
        if raw is None:
            return None
        if isinstance(raw, str) and verbatim.fullmatch(raw):
            return _clean(raw)
    try:
        value = message.get(name)
    except (ValueError, IndexError, TypeError):  # a malformed header the parser chokes on
        return None
    return _clean(str(value)) if value is not None else None


def _message_id(message: EmailMessage) -> str | None:
    value = _header(message, "message-id")
    if not value:
        return None
    return value.strip().strip("<>").strip() or None


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    text = " ".join(value.split())
    return text or None
