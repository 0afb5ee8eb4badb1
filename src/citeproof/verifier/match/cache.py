"""Source indexes reused across calls: keyed by a hash of the text and its paragraphs,
bounded by the characters they index, safe to share between threads.

The same text verified again (the same answer, another answer over the same corpus, another
line of a batch) finds its index here instead of normalising and tokenising the text again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from citeproof.model import Source
from citeproof.verifier.match.index import SourceIndex, TextIndex

DEFAULT_MAX_CHARS = 64_000_000
"""Characters of source text the default cache keeps indexes for (least recently used go)."""


def content_key(source: Source) -> str:
    """A hash of what an index depends on: the text and the paragraph spans."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(source.text.encode("utf-8", "surrogatepass"))
    digest.update(repr(source.paragraph_spans() if source.paragraphs else None).encode())
    return digest.hexdigest()


class IndexCache:
    """Least-recently-used `TextIndex` objects, at most ``max_chars`` source characters in all.

    Thread-safe. Two threads asking for the same new text may both build it; one result is
    kept. A text longer than ``max_chars`` is indexed but not kept.
    """

    def __init__(self, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.max_chars = max_chars
        self._entries: OrderedDict[str, TextIndex] = OrderedDict()
        # id(text) -> (text, key): the very same str object skips hashing. The entry holds the
        # str, so its id cannot be reused while the entry lives.
        self._known: dict[int, tuple[str, str]] = {}
        self._chars = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def chars(self) -> int:
        """Source characters indexed by the entries kept."""
        return self._chars

    def get(self, source: Source) -> SourceIndex:
        """The index for ``source``, built now only if no source with the same text and
        paragraphs was indexed before."""
        key = self.key(source)
        with self._lock:
            core = self._entries.get(key)
            if core is not None:
                self._entries.move_to_end(key)
                return SourceIndex(source, core)
        core = TextIndex(source.text, source.paragraph_spans())
        with self._lock:
            if key in self._entries:  # another thread built it meanwhile
                return SourceIndex(source, self._entries[key])
            if core.chars <= self.max_chars:
                self._entries[key] = core
                if source.paragraphs is None:
                    self._known[id(source.text)] = (source.text, key)
                self._chars += core.chars
                self._evict()
        return SourceIndex(source, core)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._known.clear()
            self._chars = 0

    def key(self, source: Source) -> str:
        """`content_key` of ``source``, without hashing again a text object kept here."""
        if source.paragraphs is None:
            with self._lock:
                known = self._known.get(id(source.text))
            if known is not None and known[0] is source.text:
                return known[1]
        return content_key(source)

    def _evict(self) -> None:
        while self._chars > self.max_chars and self._entries:
            key, core = self._entries.popitem(last=False)
            self._chars -= core.chars
            for ident, (_, known_key) in list(self._known.items()):
                if known_key == key:
                    del self._known[ident]


SHARED = IndexCache()
"""The cache `prepare` and `verify` use unless given another."""


def prepare(source: Source, cache: IndexCache | None = SHARED) -> SourceIndex:
    """The index for ``source``: from ``cache`` when a source with the same text and
    paragraphs was indexed before, else built (O(size)) and kept there. ``cache=None``
    builds a fresh index."""
    if cache is None:
        return SourceIndex(source)
    return cache.get(source)
