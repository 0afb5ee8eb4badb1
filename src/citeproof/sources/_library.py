"""The source store seen by a turn: each source with the access list and version state that
eligibility needs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from citeproof.model import Candidate
from citeproof.sources._store import SourceStore


class StoreLibrary:
    """`citeproof.turn._pipeline.Library` over a `SourceStore`.

    With ``principals``, `known_ids` names only the sources one of them may read, so a turn's
    record never lists the ids of sources its user cannot see.
    """

    def __init__(self, store: SourceStore, *, principals: Iterable[str] | None = None):
        self._store = store
        self._principals = frozenset(principals) if principals is not None else None

    def candidate(self, source_id: str) -> Candidate:
        record = self._store.record(source_id)
        acl = frozenset(record.acl) if record.acl is not None else None
        return Candidate(record.source, len(record.source.text), acl, record.superseded)

    def known_ids(self) -> Sequence[str]:
        readers = self._principals
        return [
            record.id
            for record in self._store.current()
            if readers is None or record.readable_by(readers)
        ]
