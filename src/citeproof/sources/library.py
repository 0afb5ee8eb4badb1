"""The source store seen by a turn: each source with the access list and version state that
eligibility needs."""

from __future__ import annotations

from collections.abc import Sequence

from citeproof.model import Candidate
from citeproof.sources.store import SourceStore


class StoreLibrary:
    """`citeproof.turn.pipeline.Library` over a `SourceStore`."""

    def __init__(self, store: SourceStore):
        self._store = store

    def candidate(self, source_id: str) -> Candidate:
        record = self._store.record(source_id)
        acl = frozenset(record.acl) if record.acl is not None else None
        return Candidate(record.source, len(record.source.text), acl, record.superseded)

    def known_ids(self) -> Sequence[str]:
        return [record.id for record in self._store.current()]
