"""The hash chain: each record's hash covers its entry, and the entry names the previous hash.

``record_hash = SHA-256(entry)``, and every entry carries ``previous_hash`` (the record hash of
the record before it, or `GENESIS_HASH` for the first), so each hash covers the whole history.
"""

from __future__ import annotations

import hashlib

GENESIS_HASH = "0" * 64
"""The ``previous_hash`` of record 0."""


def record_hash(entry: bytes) -> str:
    """Hex SHA-256 of an entry's exact bytes."""
    return hashlib.sha256(entry).hexdigest()
