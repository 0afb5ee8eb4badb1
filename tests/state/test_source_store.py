"""The source store's conformance suite (issue 48): every operation of `SourceStore`, run
against SQLite and PostgreSQL alike, and the same ranking from both."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from citeproof.errors import SourceError, UnknownSourceError
from citeproof.sources import SourceStore
from citeproof.turn import StoreRetriever
from citeproof.turn._retrieve import fts5_query
from tests.mailfixtures import build_mailbox

T0 = datetime(2026, 3, 10, 16, 42, 5, tzinfo=UTC)

DOCS = {
    "policy.md": "Loans above 80% LTV need the credit committee.\n\n"
    "The committee meets every Tuesday; the café downstairs hosts it.",
    "memo.txt": "Rates rose by a quarter point in March.\n\nLTV limits did not change.",
    "note.txt": "Nothing about loans here, only the weather: rain on Tuesday.",
}


def write_docs(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(folder / name)
    return paths


def test_files_are_stored_versioned_restored_and_read_back(target: str, tmp_path: Path) -> None:
    policy, memo, _ = write_docs(tmp_path / "docs")
    with SourceStore(target, clock=lambda: T0) as store:
        added = store.ingest_file(policy, acl=["alice"])
        assert [c.status for c in added.changes] == ["added"]
        first = added.changes[0]
        assert store.ingest_file(policy, acl=["alice"]).changes[0].status == "unchanged"
        policy.write_text("Loans above 90% LTV need the board.", encoding="utf-8")
        second = store.ingest_file(policy, acl=["alice"]).changes[0]
        assert (second.status, second.revision) == ("new_version", 2)
        old = store.record(first.source_id)
        assert old.superseded and old.superseded_by == second.source_id
        assert old.source.retrieved_at == "2026-03-10T16:42:05Z"
        assert store.get(second.source_id).text == "Loans above 90% LTV need the board."
        assert [r.revision for r in store.versions(first.doc_id)] == [1, 2]
        policy.write_text(DOCS["policy.md"], encoding="utf-8")
        assert store.ingest_file(policy, acl=["alice"]).changes[0].status == "restored"
        store.ingest_file(memo)
        assert store.count() == 2 and store.count(include_superseded=True) == 3
        assert [r.id for r in store.current()] == sorted(r.id for r in store.current())
        assert [r.id for r in store.current([first.source_id, "nope"])] == [first.source_id]
        assert store.passage_count() >= 3
        with pytest.raises(UnknownSourceError):
            store.record("d-000000000000")


def test_access_lists_belong_to_documents_and_change_at_once(target: str, tmp_path: Path) -> None:
    policy, _, _ = write_docs(tmp_path / "docs")
    with SourceStore(target) as store:
        doc_id = store.ingest_file(policy, acl=["bob", "alice", "alice"]).changes[0].doc_id
        assert store.readers(doc_id) == ("alice", "bob")
        assert store.set_readers(doc_id, ["carol"]) == ("carol",)
        assert all(r.acl == ("carol",) for r in store.versions(doc_id))
        assert store.set_readers(doc_id, None) is None
        with pytest.raises(UnknownSourceError):
            store.set_readers("no-such-doc", ["x"])
        with pytest.raises(UnknownSourceError):
            store.readers("no-such-doc")
    with SourceStore(target) as again:  # another connection sees it at once
        assert again.readers(doc_id) is None


def test_a_message_keeps_its_attachments_linked_and_withdraws_dropped_ones(
    target: str, tmp_path: Path
) -> None:
    box = build_mailbox(tmp_path / "box")
    with SourceStore(target) as store:
        result = store.ingest_file(box.with_attachments, acl=["priya"])
        body = result.changes[0]
        attachments = store.attachments(body.doc_id)
        assert len(attachments) == 2
        assert all(a.parent_doc_id == body.doc_id for a in attachments)
        assert all(a.readable_by(["priya"]) and not a.readable_by(["eve"]) for a in attachments)


def test_search_ranks_alike_on_both_backends_and_honours_readers(
    target: str, tmp_path: Path
) -> None:
    paths = write_docs(tmp_path / "docs")
    with SourceStore(target) as store:
        store.ingest_file(paths[0], acl=["alice"])
        store.ingest_file(paths[1])
        store.ingest_file(paths[2])
        hits = store.search(fts5_query(["ltv", "tuesday"]), limit=5)
        ranked = [(hit.source_id, hit.first, round(hit.score, 6)) for hit in hits]
        assert any("LTV limits did not change." in hit.text for hit in hits)
        policy_doc = hits_doc(store, "policy.md")
        for_bob = store.search(fts5_query(["ltv"]), limit=5, principals=["bob"])
        assert for_bob and all(hit.doc_id != policy_doc for hit in for_bob)
        assert "café" in store.search(fts5_query(["cafe"]), limit=3)[0].text
        assert store.passage_frequencies(["ltv", "tuesday", "absent"]) == {"ltv": 2, "tuesday": 2}
        assert store.search(fts5_query(["ltv"]), limit=0) == []
        passages = StoreRetriever(store, principals=["alice"]).retrieve("LTV committee", limit=2)
        assert passages and "Loans above 80% LTV" in passages[0].text
    # The same documents in a SQLite store rank the same: one ranking for both backends.
    with SourceStore(tmp_path / "reference.db") as reference:
        for path in paths:
            reference.ingest_file(path, acl=["alice"] if path == paths[0] else None)
        expected = [
            (hit.source_id, hit.first, round(hit.score, 6))
            for hit in reference.search(fts5_query(["ltv", "tuesday"]), limit=5)
        ]
    assert ranked == expected


def hits_doc(store: SourceStore, name: str) -> str:
    (found,) = [r.doc_id for r in store.current() if r.origin.endswith(name)]
    return found


def test_postgresql_reads_only_quoted_terms_joined_by_or(target: str, backend: str) -> None:
    if backend != "postgresql":
        pytest.skip("FTS5 reads its own syntax: citeproof only ever writes quoted terms")
    with SourceStore(target) as store, pytest.raises(SourceError, match="quoted terms"):
        store.search("ltv NEAR rates", limit=3)


def test_an_ingest_that_fails_leaves_the_store_as_it_was(target: str, tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 not really")
    with SourceStore(target) as store:
        with pytest.raises(SourceError):
            store.ingest_file(broken)
        assert store.count(include_superseded=True) == 0 and store.passage_count() == 0


def test_the_schema_is_recorded_once(target: str) -> None:
    from citeproof.database import open_engine, schema_status
    from citeproof.sources._store import MIGRATIONS

    SourceStore(target).close()
    SourceStore(target).close()
    (status,) = schema_status(open_engine(target), {"sources": MIGRATIONS})
    assert status.current and status.version == 2 and json.dumps(status.names) == "[]"


CLAUSES = (
    "# Facility terms\n\n"
    "1. Scope. These terms govern the Hartley bridging facility.\n\n"
    "2. Arrangement fee. An arrangement fee of 1% of the facility is payable on signing.\n"
)
"""A Markdown document numbered by its own clauses (issue 46: locations in its own terms)."""
CLAUSE_LOCATIONS = ("Facility terms", "§1 Scope", "§2 Arrangement fee")


def test_locations_are_stored_with_each_version_and_copied(
    target: str, other_target: str, tmp_path: Path
) -> None:
    terms = tmp_path / "terms.md"
    terms.write_text(CLAUSES, encoding="utf-8")
    _, memo, _ = write_docs(tmp_path / "docs")
    with SourceStore(target) as store:
        first = store.ingest_file(terms).changes[0]
        terms.write_text(CLAUSES.replace("1%", "2%"), encoding="utf-8")
        second = store.ingest_file(terms).changes[0]
        plain = store.ingest_file(memo).changes[0]
        assert store.get(first.source_id).locations == CLAUSE_LOCATIONS
        assert store.get(second.source_id).locations == CLAUSE_LOCATIONS
        assert store.get(second.source_id).location(3) == "§2 Arrangement fee"
        assert store.get(plain.source_id).locations is None  # nothing to name: ¶ counts
        assert [r.source.locations for r in store.current([second.source_id])] == [CLAUSE_LOCATIONS]
        with SourceStore(other_target) as copy:
            assert copy.copy_from(store)[0] == 3
            for change in (first, second, plain):
                assert copy.get(change.source_id) == store.get(change.source_id)


def test_a_store_from_before_locations_is_migrated_and_reads_back_without_them(
    target: str, backend: str, tmp_path: Path
) -> None:
    from citeproof.database import open_engine, schema_status
    from citeproof.sources._store import MIGRATIONS

    terms = tmp_path / "terms.md"
    terms.write_text(CLAUSES, encoding="utf-8")
    with SourceStore(target) as store:
        old = store.ingest_file(terms).changes[0]
    # The store as citeproof wrote it before step 2: no locations column, schema version 1.
    engine = open_engine(target)
    with engine.transaction():
        engine.run("ALTER TABLE sources DROP COLUMN locations")
        engine.run("UPDATE schema_versions SET version = ? WHERE component = ?", (1, "sources"))
    if backend == "sqlite":
        engine.run("PRAGMA user_version = 1")
    engine.close()
    with SourceStore(target) as store:
        record = store.record(old.source_id)
        assert record.source.text == CLAUSES and record.source.locations is None
        assert store.ingest_file(terms).changes[0].status == "unchanged"
        assert store.get(old.source_id).locations is None  # kept as stored: ¶ counts
        terms.write_text(CLAUSES.replace("1%", "2%"), encoding="utf-8")
        new = store.ingest_file(terms).changes[0]
        assert store.get(new.source_id).locations == CLAUSE_LOCATIONS
        assert store.search(fts5_query(["arrangement"]), limit=1)[0].source_id == new.source_id
    (status,) = schema_status(open_engine(target), {"sources": MIGRATIONS})
    assert status.current and status.version == 2
