"""Claim support's prepared sources: kept between verifications, bounded in bytes."""

from __future__ import annotations

import sys

from citeproof import Source
from citeproof.verifier.support._locate import PreparedCache, footprint, prepare_source


def _deep_size(root: object, skip: object) -> int:
    """Every object reachable from ``root`` as ``sys.getsizeof`` counts it, once each."""
    seen = {id(skip)}
    size = 0
    todo = [root]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        size += sys.getsizeof(item)
        if isinstance(item, dict):
            todo += [*item.keys(), *item.values()]
        elif isinstance(item, tuple | list | set | frozenset):
            todo += list(item)
        elif hasattr(item, "__slots__") and not isinstance(item, str):
            todo += [getattr(item, name, None) for name in item.__slots__]
    return size


def _source(n: int, sentences: int = 400) -> Source:
    text = " ".join(
        f"Invoice {n}-{i} of March {i % 28 + 1}, 2024 was paid late by Hartley Ltd."
        for i in range(sentences)
    )
    return Source(id=f"S{n}", kind="document", text=text)


def test_the_footprint_is_what_the_prepared_source_holds_within_a_fifth() -> None:
    for n in range(3):
        prepared = prepare_source(_source(n, sentences=50 + 300 * n))
        measured = _deep_size(prepared, prepared.source)
        assert 0.8 * measured <= footprint(prepared) <= 1.2 * measured


def test_the_cache_holds_at_most_its_bytes_least_recently_used_first() -> None:
    sources = [_source(n) for n in range(4)]
    one = footprint(prepare_source(sources[0]))
    cache = PreparedCache(max_bytes=int(2.5 * one))
    kept = [cache.get(s) for s in sources[:3]]
    assert len(cache) == 2 and cache.nbytes <= cache.max_bytes
    assert cache.get(sources[2]) is kept[2]  # the most recent stays
    assert cache.get(sources[0]) is not kept[0]  # the oldest went: prepared again
    huge = _source(9, sentences=4000)
    cache.get(huge)  # too big to keep, but prepared all the same
    assert cache.nbytes <= cache.max_bytes
