"""The source store: versions, supersession, failures that lose nothing, the ingest command."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeproof.cli._ingest import ingest_command
from citeproof.errors import SourceError, UnknownSourceError
from citeproof.sources import (
    FileFailure,
    ReadLimits,
    SourceStore,
    ingest_files,
    ingest_paths,
)
from citeproof.sources import _ingest as ingest_module
from citeproof.sources._build import FileDrafts
from citeproof.sources._ids import message_doc_id
from tests.mailfixtures import (
    Mailbox,
    build_mailbox,
    message_with_attachments,
    pdf_bytes,
    write_broken_files,
    write_message,
)

ENRON = Path(__file__).resolve().parent / "fixtures" / "enron"  # origin, licence: README.md
T0 = datetime(2026, 3, 10, 16, 42, 5, tzinfo=UTC)
T1 = datetime(2026, 3, 11, 9, 0, 0, tzinfo=UTC)


@pytest.fixture
def mailbox(tmp_path: Path) -> Mailbox:
    return build_mailbox(tmp_path / "box")


def open_store(tmp_path: Path, at: datetime = T0) -> SourceStore:
    return SourceStore(tmp_path / "sources.db", clock=lambda: at)


def test_store_is_one_sqlite_file_in_wal_mode(tmp_path: Path) -> None:
    with open_store(tmp_path):
        pass
    db = sqlite3.connect(tmp_path / "sources.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_ingested_message_stores_body_and_attachments_linked(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    with open_store(tmp_path) as store:
        result = store.ingest_file(mailbox.with_attachments, acl=["priya", "dan"])
        assert [c.status for c in result.changes] == ["added"] * 3
        body_id = result.changes[0].source_id
        body = store.record(body_id)
        assert body.kind == "email_body" and body.message_id == "hartley-1@lending.example"
        assert body.source.retrieved_at == "2026-03-10T16:42:05Z"
        assert body.acl == ("dan", "priya")
        attachments = store.attachments(body.doc_id)
        assert [a.source.title for a in attachments] == ["Mémo Hartley.docx", "credit-policy.pdf"]
        assert all(a.parent_doc_id == body.doc_id for a in attachments)
        assert store.get(attachments[1].id).text.startswith("Residential Credit Policy")


def test_quoted_history_spans_survive_the_store(tmp_path: Path, mailbox: Mailbox) -> None:
    with open_store(tmp_path) as store:
        [change] = store.ingest_file(mailbox.reply).changes
        record = store.record(change.source_id)
        assert record.quoted_paragraphs() == (2,)
        [(start, end)] = record.quoted_spans
        assert record.source.text[start:end].startswith("On Tue, 10 Mar 2026")


def test_reingesting_an_unchanged_file_adds_nothing(tmp_path: Path, mailbox: Mailbox) -> None:
    with open_store(tmp_path) as store:
        first = store.ingest_file(mailbox.pdf)
    with open_store(tmp_path, at=T1) as store:
        again = store.ingest_file(mailbox.pdf)
        assert [c.status for c in again.changes] == ["unchanged"]
        assert again.changes[0].source_id == first.changes[0].source_id
        assert store.count(include_superseded=True) == 1
        assert store.get(first.changes[0].source_id).retrieved_at == "2026-03-10T16:42:05Z"


def test_changed_file_becomes_version_2_and_version_1_stays_readable(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    with open_store(tmp_path) as store:
        v1 = store.ingest_file(mailbox.pdf).changes[0]
        mailbox.pdf.write_bytes(pdf_bytes(["Credit policy, revision 8", "Above 85% refer."]))
        v2 = store.ingest_file(mailbox.pdf).changes[0]
        assert (v2.status, v2.revision, v2.doc_id) == ("new_version", 2, v1.doc_id)
        assert v2.source_id != v1.source_id
        old, new = store.versions(v1.doc_id)
        assert (old.revision, old.superseded, old.superseded_by) == (1, True, v2.source_id)
        assert (new.revision, new.superseded) == (2, False)
        assert "revision 7" in store.get(v1.source_id).text
        assert [r.id for r in store.current()] == [v2.source_id]


def test_file_reverted_to_old_content_restores_that_version(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    original = mailbox.text.read_bytes()
    with open_store(tmp_path) as store:
        v1 = store.ingest_file(mailbox.text).changes[0]
        mailbox.text.write_text("Different notes.\n", encoding="utf-8")
        v2 = store.ingest_file(mailbox.text).changes[0]
        mailbox.text.write_bytes(original)
        back = store.ingest_file(mailbox.text).changes[0]
        assert (back.status, back.source_id) == ("restored", v1.source_id)
        assert store.record(v2.source_id).superseded_by == v1.source_id
        assert not store.record(v1.source_id).superseded


def test_attachment_dropped_from_a_changed_message_is_withdrawn(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    with open_store(tmp_path) as store:
        store.ingest_file(mailbox.with_attachments)
        message = message_with_attachments()
        message.clear_content()
        message.set_content("Hi Priya, sending the policy again later.\n")
        write_message(mailbox.with_attachments, message)
        statuses = sorted(c.status for c in store.ingest_file(mailbox.with_attachments).changes)
        assert statuses == ["new_version", "withdrawn", "withdrawn"]
        assert [r.kind for r in store.current()] == ["email_body"]


def test_ids_are_stable_across_reingest_and_independent_of_order(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    files = [*mailbox.messages, *mailbox.documents]
    with SourceStore(tmp_path / "a.db") as forward:
        ingest_paths(forward, files)
        forward_ids = [r.id for r in forward.current()]
    with SourceStore(tmp_path / "b.db") as backward:
        ingest_paths(backward, list(reversed(files)))
        assert [r.id for r in backward.current()] == forward_ids
    assert len(forward_ids) == 12


def test_broken_files_are_named_and_the_rest_ingested(tmp_path: Path, mailbox: Mailbox) -> None:
    with open_store(tmp_path) as store:
        ingest_paths(store, [mailbox.pdf])
        before = [r.id for r in store.current()]
        broken = write_broken_files(mailbox.root / "docs" / "broken")
        report = ingest_paths(store, [mailbox.root])
        failed = {f.path: f.message for f in report.failures}
        assert set(failed) == set(broken.values())
        for path, message in failed.items():
            assert message.startswith(str(path))
        assert not report.ok
        assert report.count("added") == 11 and report.count("unchanged") == 1
        assert set(before) <= {r.id for r in store.current()}
        assert store.count() == 12


def test_failure_inside_a_file_leaves_the_store_as_it_was(
    tmp_path: Path, mailbox: Mailbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(tmp_path) as store:
        store.ingest_file(mailbox.pdf)
        from citeproof.sources import _store as store_module

        def explode(*args: object, **kwargs: object) -> object:
            raise SourceError("disk on fire", where="test")

        monkeypatch.setattr(store_module, "passage_windows", explode)
        with pytest.raises(SourceError):
            store.ingest_file(mailbox.with_attachments)
        assert store.count(include_superseded=True) == 1


def test_unknown_id_raises_a_lookup_error(tmp_path: Path) -> None:
    with open_store(tmp_path) as store, pytest.raises(UnknownSourceError, match="d-000"):
        store.get("d-000000000000")


def test_not_a_store_is_a_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(SourceError, match=r"bogus\.db.*not a citeproof store"):
        SourceStore(bogus)


def test_ingest_command_reports_and_fails_after_ingesting_the_rest(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    write_broken_files(mailbox.root / "broken")
    (mailbox.root / "logo.png").write_bytes(b"\x89PNG")
    db = tmp_path / "cli.db"
    result = CliRunner().invoke(ingest_command, [str(mailbox.root), "--store", str(db)])
    assert result.exit_code == 1, result.output
    assert "10 files ingested" in result.stdout and "12 sources added" in result.stdout
    assert "1 file ignored" in result.stdout
    assert "truncated.pdf" in result.stderr and "3 files failed" in result.stderr
    again = CliRunner().invoke(ingest_command, [str(mailbox.pdf), "--store", str(db)])
    assert again.exit_code == 0, again.output
    assert "0 sources added, 0 new versions, 1 unchanged" in again.stdout


def test_enron_sample_ingests(tmp_path: Path) -> None:
    copy = tmp_path / "enron"
    shutil.copytree(ENRON, copy)
    with open_store(tmp_path) as store:
        report = ingest_paths(store, [copy])
        assert report.ok and report.count("added") == 6  # 5 messages and the README.md
        kinds = sorted(r.kind for r in store.current())
        assert kinds == ["document"] + ["email_body"] * 5


def _two_files(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    first, second = folder / "a-memo.txt", folder / "b-notes.txt"
    first.write_text("The Hartley memo.\n", "utf-8")
    second.write_text("Notes of the credit committee.\n", "utf-8")
    return first, second


def test_ingest_gives_every_file_its_readers_and_reports_each_file_done(tmp_path: Path) -> None:
    first, second = _two_files(tmp_path / "in")
    done: list[Path] = []
    with open_store(tmp_path) as store:
        report = ingest_paths(store, [tmp_path / "in"], acl=["bob", "alice"], on_file=done.append)
        assert sorted((r.origin.rsplit("/", 1)[-1], r.acl) for r in store.current()) == [
            ("a-memo.txt", ("alice", "bob")),
            ("b-notes.txt", ("alice", "bob")),
        ]
    assert done == [first, second] and report.ok


def test_ingest_reads_each_file_within_the_limits_given(tmp_path: Path) -> None:
    _two_files(tmp_path / "in")
    with open_store(tmp_path) as store:
        report = ingest_paths(store, [tmp_path / "in"], limits=ReadLimits(max_file_bytes=20))
        assert [r.origin.rsplit("/", 1)[-1] for r in store.current()] == ["a-memo.txt"]
    (failure,) = report.failures
    assert failure.path.name == "b-notes.txt" and "max_file_bytes" in failure.message
    assert not report.ok


def test_mail_under_a_trusted_folder_is_one_document_per_message_id(tmp_path: Path) -> None:
    trusted = tmp_path / "trusted"
    trusted.mkdir()
    copy = write_message(trusted / "copy.eml", message_with_attachments("same@lending.example"))
    with open_store(tmp_path) as store:
        ingest_paths(store, [trusted], trusted_roots=[trusted])
        (body,) = [r for r in store.current() if r.kind == "email_body"]
    assert body.doc_id == message_doc_id("same@lending.example", copy, trusted=True)
    assert body.doc_id != message_doc_id("same@lending.example", copy)


def test_a_file_a_library_chokes_on_is_named_with_the_error_and_the_rest_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = _two_files(tmp_path / "in")
    real = ingest_module.read_file

    def choking(path: Path, **options: object) -> FileDrafts:
        if path == first:
            raise ValueError("unexpected byte at 7")  # not a CiteproofError
        return real(path, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest_module, "read_file", choking)
    with open_store(tmp_path) as store:
        report = ingest_files(store, [first, second])
        assert [r.origin.rsplit("/", 1)[-1] for r in store.current()] == ["b-notes.txt"]
    assert report.failures == (FileFailure(first, f"{first}: ValueError: unexpected byte at 7"),)
    assert [result.path for result in report.results] == [second]
    # Files given one by one come from no walk: nothing ignored, no link left alone.
    assert (report.ignored, report.not_followed) == ((), ())
