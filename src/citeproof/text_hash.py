"""The one name of a text's content: ``sha256:`` and the SHA-256 of its UTF-8.

A source's version is named by it (`citeproof.sources` ``content_hash``, and so source ids and
the evidence's ``content_hash``), and the audit log stores each source text under it
(`citeproof.audit` ``text_key``): a record names its texts by their sources' content hashes,
and the log finds and checks them by the same key. Both come from here, so they cannot
drift apart.

A lone surrogate (a text read from a file name or an email that was not UTF-8) is hashed as
``surrogatepass`` writes it, so every text has a key.
"""

from __future__ import annotations

import hashlib

TEXT_KEY_PREFIX = "sha256:"


def text_bytes(text: str) -> bytes:
    """A text as it is hashed and stored: UTF-8, a lone surrogate kept (``surrogatepass``)."""
    return text.encode("utf-8", "surrogatepass")


def bytes_key(data: bytes) -> str:
    """The key of a text whose `text_bytes` are ``data``: ``sha256:<64 hex>``."""
    return TEXT_KEY_PREFIX + hashlib.sha256(data).hexdigest()


def text_key(text: str) -> str:
    """The key of ``text``: ``sha256:<64 hex>`` of its `text_bytes`."""
    return bytes_key(text_bytes(text))
