"""Texts a log keeps once, by their hash: the sources' full texts that many records name.

An answer's record names each source's text by its content hash (`citeproof.text_hash`: the
one definition the source store names a version by too) instead of carrying it: the same documents
behind many answers are stored once, and a record is a few kilobytes instead of the size of
its sources. A payload lists the keys of the texts it needs in its top-level ``texts`` (a JSON
list of strings): the record's hash, and so the chain and the Merkle tree, covers them. A
stored text is checked against its key when it is written, when it is read back
(`AuditStore.texts`) and by `verify_log`, which also reports a text a record names that the
log does not hold.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from citeproof.errors import AuditRecordError
from citeproof.text_hash import bytes_key, text_bytes
from citeproof.text_hash import text_key as text_key  # the audit face's name for it


def named_keys(payload: object) -> list[str]:
    """The keys of the texts a payload names in its top-level ``texts`` list (none when it has
    no such list of strings, or is not a JSON object: a damaged entry's may be anything)."""
    named = payload.get("texts") if isinstance(payload, Mapping) else None
    if not isinstance(named, list) or not all(isinstance(key, str) for key in named):
        return []
    return list(dict.fromkeys(named))


def stored_text(key: str, stored: bytes) -> str:
    """The text stored under `key`; `AuditRecordError` when it does not hash to the key (it
    was changed after it was written)."""
    if bytes_key(stored) != key:
        raise AuditRecordError(f"the stored text {key} does not hash to its key: it was changed")
    return stored.decode("utf-8", "surrogatepass")


def texts_to_write(texts: Mapping[str, str], known: KnownTexts) -> list[tuple[str, bytes]]:
    """The (key, bytes) of the texts in `texts` not known to be stored already, each checked
    to hash to its key (`AuditRecordError` naming the key when one does not)."""
    rows = []
    for key, text in texts.items():
        if key in known:
            continue
        if not isinstance(text, str):
            raise AuditRecordError(f"text {key!r} must be a string, not {type(text).__name__}")
        data = text_bytes(text)
        if not isinstance(key, str) or bytes_key(data) != key:
            raise AuditRecordError(f"text key {key!r} is not the hash of its text")
        rows.append((key, data))
    return rows


class ReadTexts:
    """The texts read back last, by key: at most ``chars`` characters of them, the least
    recently read dropped first (a log's readers read the same few documents' texts for many
    records). A text is kept only once checked against its key. Thread-safe."""

    def __init__(self, chars: int = 16_000_000) -> None:
        self.chars = chars
        self._texts: OrderedDict[str, str] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            text = self._texts.get(key)
            if text is not None:
                self._texts.move_to_end(key)
            return text

    def put(self, key: str, text: str) -> None:
        if len(text) > self.chars // 4:
            return  # one huge text would push out every other
        with self._lock:
            if key in self._texts:
                return
            self._texts[key] = text
            self._held += len(text)
            while self._held > self.chars:
                _, dropped = self._texts.popitem(last=False)
                self._held -= len(dropped)


class KnownTexts:
    """The keys of texts this process has seen committed (the latest ``size``). A stored text
    is never deleted (the database rejects it), so a key seen once need not be written again.
    Thread-safe."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._keys: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def __contains__(self, key: object) -> bool:
        with self._lock:
            if key not in self._keys:
                return False
            self._keys.move_to_end(key)  # type: ignore[arg-type]
            return True

    def add(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                self._keys[key] = None
                self._keys.move_to_end(key)
            while len(self._keys) > self.size:
                self._keys.popitem(last=False)
