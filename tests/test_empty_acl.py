"""An empty access list lets nobody see a source (012.1): it is not "no access list".

``acl=None`` means everyone may read a source; ``acl=[]`` means no one may. Every place that
reads the list keeps that difference: the stored record, the store's search, the library a
turn reads, and eligibility."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof.model import Candidate, Source
from citeproof.sources import SourceStore, StoreLibrary
from citeproof.turn import StoreRetriever
from citeproof.turn._eligibility import decide_eligibility

PRIVATE = "Board minutes: the Hartley facility is to be withdrawn at the next review."
OPEN = "Branch notice: the Hartley facility review is on Monday."


@pytest.fixture
def store(tmp_path: Path) -> SourceStore:
    (tmp_path / "minutes.txt").write_text(PRIVATE + "\n", "utf-8")
    (tmp_path / "notice.txt").write_text(OPEN + "\n", "utf-8")
    opened = SourceStore(tmp_path / "sources.db")
    opened.ingest_file(tmp_path / "minutes.txt", acl=[])
    opened.ingest_file(tmp_path / "notice.txt")
    return opened


def ids_by_text(store: SourceStore) -> dict[str, str]:
    return {record.source.text.strip(): record.id for record in store.current()}


def test_an_empty_access_list_is_stored_as_empty_not_as_none_012_1(store: SourceStore) -> None:
    with store:
        ids = ids_by_text(store)
        private, public = store.record(ids[PRIVATE]), store.record(ids[OPEN])
        assert private.acl == ()
        assert public.acl is None
        assert not private.readable_by(["priya"])
        assert not private.readable_by([])
        assert public.readable_by([])


def test_a_search_never_returns_a_source_with_an_empty_access_list_012_1(
    store: SourceStore,
) -> None:
    with store:
        ids = ids_by_text(store)
        hits = store.search('"hartley"', limit=10, principals=["priya", "dan"])
        assert [hit.source_id for hit in hits] == [ids[OPEN]]
        retrieved = StoreRetriever(store, principals=["priya"]).retrieve("Hartley facility")
        assert {passage.source_id for passage in retrieved} == {ids[OPEN]}
        # Without principals (a trusted, local caller) the store searches everything.
        assert len(store.search('"hartley"', limit=10)) == 2


def test_a_turn_shows_nobody_a_source_with_an_empty_access_list_012_1(
    store: SourceStore,
) -> None:
    with store:
        ids = ids_by_text(store)
        library = StoreLibrary(store, principals=["priya"])
        assert list(library.known_ids()) == [ids[OPEN]]
        candidate = library.candidate(ids[PRIVATE])
        assert candidate.acl == frozenset()
        for user in ("priya", None):
            eligibility = decide_eligibility([candidate, library.candidate(ids[OPEN])], user=user)
            assert eligibility.eligible == (ids[OPEN],)
            (excluded,) = eligibility.excluded
            assert (excluded.source_id, excluded.reason) == (ids[PRIVATE], "not_permitted")


def test_eligibility_tells_an_empty_access_list_from_none_012_1() -> None:
    source = Source(id="S1", kind="document", text=PRIVATE)
    nobody = decide_eligibility([Candidate(source, len(PRIVATE), acl=frozenset())], user="priya")
    everyone = decide_eligibility([Candidate(source, len(PRIVATE), acl=None)], user="priya")
    assert (nobody.eligible, [e.reason for e in nobody.excluded]) == ((), ["not_permitted"])
    assert (everyone.eligible, everyone.excluded) == (("S1",), ())
