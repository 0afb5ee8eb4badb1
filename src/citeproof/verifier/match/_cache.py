"""Source indexes reused across calls: keyed by a hash of the text and its paragraphs,
bounded by the memory they hold (and the characters they index), safe to share between
threads.

The same text verified again (the same answer, another answer over the same corpus, another
line of a batch) finds its index here instead of normalising and tokenising the text again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from citeproof.model import Source
from citeproof.verifier.match._index import SourceIndex, TextIndex

DEFAULT_MAX_CHARS = 64_000_000
"""Characters of source text the default cache keeps indexes for (least recently used go)."""
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
"""Bytes the default cache's indexes may hold (`TextIndex.nbytes`), least recently used go."""
HASHED_MAX_CHARS = 16_000_000
"""Characters of texts hashed but not indexed (a source no quote needed) whose keys are
remembered, least recently used go: the texts are held, so this bounds what they keep alive."""


def content_key(source: Source) -> str:
    """A hash of what an index depends on: the text and the paragraph spans. Default answer
    ids, and so the request ids of logged answers, are made from it: a change here changes the
    id of every answer verified again from an old audit log."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(source.text.encode("utf-8", "surrogatepass"))
    digest.update(repr(source.paragraph_spans() if source.paragraphs else None).encode())
    return digest.hexdigest()


class IndexCache:
    """Least-recently-used `TextIndex` objects: at most ``max_bytes`` of memory held and
    ``max_chars`` source characters indexed, in all.

    An entry's size is measured when it is stored and again each time it is used, so the
    parts an index builds later (its candidate index) count from its next use: the bound
    holds but for what calls in progress are building. Thread-safe. Two threads asking for
    the same new text may both build it; one result is kept. An index over either bound on
    its own is built but not kept.
    """

    def __init__(
        self, max_chars: int = DEFAULT_MAX_CHARS, max_bytes: int = DEFAULT_MAX_BYTES
    ) -> None:
        self.max_chars = max_chars
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, TextIndex] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._bytes = 0
        # id(text) -> (text, key): the very same str object skips hashing. The entry holds the
        # str, so its id cannot be reused while the entry lives.
        self._known: dict[int, tuple[str, str]] = {}
        self._chars = 0
        # The same for texts hashed but never indexed, least recently used first.
        self._hashed: OrderedDict[int, tuple[str, str]] = OrderedDict()
        self._hashed_chars = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def chars(self) -> int:
        """Source characters indexed by the entries kept."""
        return self._chars

    @property
    def nbytes(self) -> int:
        """Bytes the entries kept held when last measured."""
        return self._bytes

    def get(self, source: Source) -> SourceIndex:
        """The index for ``source``, built now only if no source with the same text and
        paragraphs was indexed before."""
        key = self.key(source)
        with self._lock:
            core = self._entries.get(key)
            if core is not None:
                self._entries.move_to_end(key)
                self._measure(key, core)
                self._evict()
                return SourceIndex(source, core)
        core = TextIndex(source.text, source.paragraph_spans())
        size = core.nbytes()
        with self._lock:
            if key in self._entries:  # another thread built it meanwhile
                return SourceIndex(source, self._entries[key])
            if core.chars <= self.max_chars and size <= self.max_bytes:
                self._entries[key] = core
                if source.paragraphs is None:
                    self._known[id(source.text)] = (source.text, key)
                self._chars += core.chars
                self._sizes[key] = size
                self._bytes += size
                self._evict()
        return SourceIndex(source, core)

    def _measure(self, key: str, core: TextIndex) -> None:
        size = core.nbytes()
        self._bytes += size - self._sizes.get(key, 0)
        self._sizes[key] = size

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._known.clear()
            self._hashed.clear()
            self._hashed_chars = 0
            self._sizes.clear()
            self._chars = 0
            self._bytes = 0

    def key(self, source: Source) -> str:
        """`content_key` of ``source``, without hashing again a text object kept here."""
        if source.paragraphs is None:
            text = source.text
            with self._lock:
                known = self._known.get(id(text)) or self._hashed.get(id(text))
                if known is not None and known[0] is text:
                    if id(text) in self._hashed:
                        self._hashed.move_to_end(id(text))
                    return known[1]
            key = content_key(source)
            if len(text) <= HASHED_MAX_CHARS:
                with self._lock:
                    old = self._hashed.pop(id(text), None)
                    self._hashed_chars += len(text) - (len(old[0]) if old else 0)
                    self._hashed[id(text)] = (text, key)
                    while self._hashed_chars > HASHED_MAX_CHARS:
                        _, (dropped, _) = self._hashed.popitem(last=False)
                        self._hashed_chars -= len(dropped)
            return key
        return content_key(source)

    def _evict(self) -> None:
        """Drop least recently used entries until both bounds hold."""
        while (self._chars > self.max_chars or self._bytes > self.max_bytes) and self._entries:
            key, core = self._entries.popitem(last=False)
            self._chars -= core.chars
            self._bytes -= self._sizes.pop(key, 0)
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
