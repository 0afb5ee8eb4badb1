"""The SQLite audit store passes the conformance suite (issue 4 §3)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from citeproof.audit import Row, open_store
from citeproof.testing import AuditStoreConformance
from citeproof.testing._audit_store import BIG_LOG_SIZE, fill


@pytest.fixture(scope="session")
def sqlite_big_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("big-sqlite")
    target, checkpoints = folder / "audit.db", folder / "audit.db.checkpoints"
    with open_store(target, checkpoint_dir=checkpoints, checkpoint_every=1000) as store:
        fill(store, BIG_LOG_SIZE, batch=1000)
    return target, checkpoints


def without_triggers(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TRIGGER IF EXISTS audit_records_no_update")
    db.execute("DROP TRIGGER IF EXISTS audit_records_no_delete")
    db.execute("DROP TRIGGER IF EXISTS audit_texts_no_update")
    return db


class TestSQLiteAudit(AuditStoreConformance):
    @pytest.fixture(autouse=True)
    def _folders(self, tmp_path: Path, sqlite_big_log: tuple[Path, Path]) -> None:
        self.tmp_path = tmp_path
        self.big = sqlite_big_log
        self.count = 0

    def new_log(self) -> tuple[str, Path]:
        self.count += 1
        target = self.tmp_path / f"log{self.count}.db"
        return str(target), self.tmp_path / f"log{self.count}.db.checkpoints"

    def raw_replace_rows(self, target: str, rows: list[Row]) -> None:
        with without_triggers(target) as db:
            db.execute("BEGIN")
            db.execute("DELETE FROM audit_records")
            db.executemany("INSERT INTO audit_records VALUES (?, ?, ?, ?)", rows)
            db.execute("COMMIT")
        db.close()

    def raw_set_column(self, target: str, sequence: int, column: str, value: object) -> None:
        db = without_triggers(target)
        db.execute(f"UPDATE audit_records SET {column} = ? WHERE sequence = ?", (value, sequence))
        db.close()

    def raw_set_text(self, target: str, key: str, data: bytes) -> None:
        db = without_triggers(target)
        db.execute("UPDATE audit_texts SET text = ? WHERE key = ?", (data, key))
        db.close()

    def raw_execute(self, target: str, statement: str) -> None:
        db = sqlite3.connect(target, isolation_level=None)
        try:
            db.execute(statement)
        finally:
            db.close()

    def big_log_copy(self) -> tuple[str, Path]:
        target, checkpoints = self.new_log()
        shutil.copyfile(self.big[0], target)
        shutil.copytree(self.big[1], checkpoints)
        return target, checkpoints


def test_sqlite_log_uses_wal_and_full_sync(tmp_path: Path) -> None:
    with open_store(tmp_path / "a.db") as store:
        db = store._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        names = [n for (n,) in db.execute("SELECT name FROM audit_migrations ORDER BY name")]
        assert names == ["m001_audit_records", "m002_append_only_triggers", "m003_audit_texts"]


def test_a_writer_in_another_process_queues_on_the_lock_file_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    """Writers queue on ``<db>.writer-lock`` before SQLite's lock: while another process holds
    it, an append waits (it neither fails nor writes), and goes in once the lock is released."""
    import fcntl
    import os
    import threading

    target = tmp_path / "audit.db"
    with open_store(target) as store:
        store.append({"n": 0}, "req-0")
        lock_file = tmp_path / "audit.db.writer-lock"
        assert lock_file.exists()
        holder = os.open(lock_file, os.O_RDWR)  # another open file description: another writer
        fcntl.flock(holder, fcntl.LOCK_EX)
        done = threading.Event()
        worker = threading.Thread(target=lambda: (store.append({"n": 1}, "req-1"), done.set()))
        worker.start()
        assert not done.wait(0.5)
        assert store.size() == 1
        fcntl.flock(holder, fcntl.LOCK_UN)
        os.close(holder)
        worker.join(timeout=30)
        assert done.is_set()
        assert [r.payload["n"] for r in store.records()] == [0, 1]
