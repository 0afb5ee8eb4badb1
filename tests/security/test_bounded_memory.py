"""The source index cache is bounded by the memory its indexes hold, not by the characters
they index: fresh 1M-character sources with their candidate indexes built fill it to its
byte bound and no further, and what it counts is what the indexes hold."""

from __future__ import annotations

import gc
import random
import tracemalloc

from citeproof import Source
from citeproof.verifier.match import IndexCache

WORDS = [
    "".join(random.Random(n).choice("abcdefghijklmnopqrstuvwxyzé") for _ in range(2 + n % 9))
    for n in range(30_000)
]


def fresh_source(seed: int, chars: int = 1_000_000) -> Source:
    pick = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < chars:
        word = pick.choice(WORDS)
        parts.append(word + ("\n\n" if pick.random() < 0.02 else " "))
        size += len(parts[-1])
    return Source(id=f"S{seed}", kind="document", text="".join(parts)[:chars])


def test_fresh_large_sources_fill_the_cache_to_its_byte_bound_and_no_further() -> None:
    bound = 8 * 1024 * 1024  # about three of these indexes
    cache = IndexCache(max_bytes=bound)
    for seed in range(8):
        index = cache.get(fresh_source(seed))
        index.build_candidate_index()  # the lazy part a fuzzy search builds
        cache.get(index.source)  # used again: measured with it
        assert cache.nbytes <= bound
    assert 2 <= len(cache) < 8  # several kept, the oldest dropped
    assert cache.chars < 8_000_000  # where a characters-only bound (64M) kept all eight


def test_what_the_cache_counts_is_what_its_indexes_hold() -> None:
    cache = IndexCache()
    source = fresh_source(99)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        index = cache.get(source)
        index.build_candidate_index()
        cache.get(source)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 0.5 * held <= cache.nbytes <= 1.5 * held, (held, cache.nbytes)
