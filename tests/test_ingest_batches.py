"""Ingestion stores its files a batch at a time, one transaction each: what is stored and
reported is what storing each file alone gives, and a file that fails, fails alone."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from citeproof.errors import SourceError
from citeproof.sources import FileFailure, ReadLimits, SourceStore, ingest_files
from citeproof.sources._build import FileDrafts, read_file
from citeproof.sources._ingest import Batch
from tests.mailfixtures import Mailbox, build_mailbox

T0 = datetime(2026, 3, 10, 16, 42, 5, tzinfo=UTC)


@pytest.fixture
def mailbox(tmp_path: Path) -> Mailbox:
    return build_mailbox(tmp_path / "box")


def _store(path: Path) -> SourceStore:
    return SourceStore(path, clock=lambda: T0)


def _notes(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"note-{number}.txt" for number in range(count)]
    for number, path in enumerate(paths):
        path.write_text(f"Note {number} of the credit committee.\n", "utf-8")
    return paths


def test_a_batch_stores_and_reports_what_each_file_stored_alone_would(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    files = [read_file(path) for path in (*mailbox.messages, *mailbox.documents)]
    with _store(tmp_path / "alone.db") as alone, _store(tmp_path / "batch.db") as batch:
        for _ in range(2):  # added, then unchanged
            one_by_one = [alone.put(file, acl=["priya"]) for file in files]
            together = batch.put_many(files, acl=["priya"])
            assert together == one_by_one
        assert batch.current() == alone.current()
        assert batch.passage_count() == alone.passage_count()
        assert batch.passage_frequencies(["hartley", "valuation"]) == alone.passage_frequencies(
            ["hartley", "valuation"]
        )


def test_a_file_that_fails_to_store_fails_alone_and_the_others_are_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = _notes(tmp_path / "in", 3)
    real = SourceStore._put_file

    def failing(store: SourceStore, file: FileDrafts, acl: str | None, now: str) -> object:
        if file.path == second:
            raise SourceError("disk full", where=str(second))
        return real(store, file, acl, now)

    monkeypatch.setattr(SourceStore, "_put_file", failing)
    done: list[Path] = []
    with _store(tmp_path / "sources.db") as store:
        report = ingest_files(store, [first, second, third], on_file=done.append)
        stored = sorted(record.origin.rsplit("/", 1)[-1] for record in store.current())
    assert stored == ["note-0.txt", "note-2.txt"]
    assert report.failures == (FileFailure(second, f"{second}: disk full"),)
    assert [result.path for result in report.results] == [first, third]
    assert done == [first, second, third]


def test_each_file_is_reported_done_in_order_around_one_that_fails_to_read(
    tmp_path: Path,
) -> None:
    first, second, third = _notes(tmp_path / "in", 3)
    second.write_text("A note far longer than the limit allows.\n", "utf-8")
    done: list[Path] = []
    with _store(tmp_path / "sources.db") as store:
        report = ingest_files(
            store,
            [first, second, third],
            on_file=done.append,
            limits=ReadLimits(max_file_bytes=40),
        )
    assert done == [first, second, third]
    assert [failure.path for failure in report.failures] == [second]
    assert [result.path for result in report.results] == [first, third]


def test_files_are_stored_a_full_batch_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _notes(tmp_path / "in", 5)
    monkeypatch.setattr(Batch, "FILES", 2)
    sizes: list[int] = []
    real = SourceStore.put_many

    def counted(store: SourceStore, files: list[FileDrafts], **options: object) -> object:
        sizes.append(len(files))
        return real(store, files, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(SourceStore, "put_many", counted)
    with _store(tmp_path / "sources.db") as store:
        report = ingest_files(store, paths)
        assert store.count() == 5
    assert sizes == [2, 2, 1]
    assert [result.path for result in report.results] == paths


def test_a_batch_is_full_at_its_characters_or_its_age(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (path,) = _notes(tmp_path / "in", 1)
    file = read_file(path)
    assert not Batch().add(file)
    monkeypatch.setattr(Batch, "CHARS", len(file.drafts[0].text))
    assert Batch().add(file)
    monkeypatch.setattr(Batch, "CHARS", 10**9)
    monkeypatch.setattr(Batch, "SECONDS", 0.0)
    assert Batch().add(file)
