"""Stable ids: derived from what a source says and where it came from, never from its
position in a list or the order files were ingested in.

- ``doc_id`` names an origin across versions: a file's absolute path (a message's too: a
  header anyone can write never decides which document a message replaces), a message's
  Message-ID only when the message comes from a trusted source (so the same message saved
  twice there is one document), an attachment's message and file name.
- a source ``id`` names one version of one origin: ``<prefix>-<12 hex>`` of the doc_id and
  the content hash, with the prefix ``d`` (document), ``e`` (email body) or ``a`` (attachment).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path

from citeproof.model import SourceKind
from citeproof.text_hash import TEXT_KEY_PREFIX, text_key

_PREFIX: dict[str, str] = {"document": "d", "email_body": "e", "attachment": "a"}
ID_HEX = 12


def content_hash(text: str) -> str:
    """The text's key (`citeproof.text_hash.text_key`: ``sha256:<64 hex>`` of its UTF-8), the
    key the audit log stores it under: names one version of a source.

    The same text object hashed again soon after is not read again (one answer's evidence,
    validation and audit record each name every source's hash)."""
    known = _RECENT.get(text)
    if known is not None:
        return known
    digest = text_key(text)
    _RECENT.put(text, digest)
    return digest


class _RecentTexts:
    """Digests of the texts hashed last, by the text object: at most ``texts`` of them and
    ``chars`` characters kept alive; a text over a quarter of that is not kept. An entry
    holds its text, so no other object has that id meanwhile. Thread-safe."""

    def __init__(self, texts: int, chars: int) -> None:
        self.texts, self.chars = texts, chars
        self._entries: OrderedDict[int, tuple[str, str]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, text: str) -> str | None:
        with self._lock:
            known = self._entries.get(id(text))
            if known is None:
                return None
            self._entries.move_to_end(id(text))
            return known[1]

    def put(self, text: str, digest: str) -> None:
        if len(text) > self.chars // 4:
            return  # a large file's text, hashed once as it is read
        with self._lock:
            if id(text) not in self._entries:
                self._entries[id(text)] = (text, digest)
                self._held += len(text)
            while len(self._entries) > self.texts or self._held > self.chars:
                _, (dropped, _) = self._entries.popitem(last=False)
                self._held -= len(dropped)


_RECENT = _RecentTexts(texts=256, chars=16_000_000)  # the sources of the answers in flight


def short_version(digest: str) -> str:
    """The version recorded when none is given: the first 12 hex digits of the content hash."""
    return digest.removeprefix(TEXT_KEY_PREFIX)[:ID_HEX]


def file_doc_id(path: Path) -> str:
    """``file:<16 hex>`` of the absolute, resolved path."""
    return "file:" + _hex(str(path.resolve()), 16)


def message_doc_id(message_id: str | None, path: Path, *, trusted: bool = False) -> str:
    """``msg:<16 hex>`` of the file path; of the Message-ID when the message comes from a
    trusted source (``trusted``) and has one."""
    origin = f"message-id:{message_id}" if trusted and message_id else f"path:{path.resolve()}"
    return "msg:" + _hex(origin, 16)


def attachment_doc_id(message_doc_id: str, filename: str, occurrence: int = 1) -> str:
    """``att:<16 hex>`` of the message's doc_id and the file name (and its occurrence number
    when one message attaches two files with the same name)."""
    suffix = f"#{occurrence}" if occurrence > 1 else ""
    return "att:" + _hex(f"{message_doc_id}\0{filename}{suffix}", 16)


def source_id(kind: SourceKind, doc_id: str, digest: str) -> str:
    """The id of one version of one origin, e.g. ``d-3f9a1c2b7e40``."""
    return _PREFIX[kind] + "-" + _hex(doc_id + "\0" + digest, ID_HEX)


def _hex(value: str, length: int) -> str:
    # surrogateescape: a file name whose bytes are not UTF-8 still has one stable id.
    return hashlib.sha256(value.encode("utf-8", "surrogateescape")).hexdigest()[:length]


def readable_path(path: Path | str) -> str:
    """The path as text that can be stored and printed: bytes of a file name that are not
    UTF-8 become U+FFFD."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
