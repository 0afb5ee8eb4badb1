"""Group commit: appends from many threads of a service share transactions, and every one
of them is stored, in the chain, durably, before its caller hears back (D, audit service)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from citeproof.audit import AppendedRecord, GroupCommit, open_store, verify_log
from citeproof.errors import AuditRecordError

THREADS = 8
EACH = 25


def test_every_append_from_many_threads_is_stored_once_and_the_chain_holds(
    tmp_path: Path,
) -> None:
    target = tmp_path / "audit.db"
    lock = threading.Lock()
    acknowledged: list[AppendedRecord] = []
    with open_store(target) as store:
        appends = GroupCommit(store, lock)

        def client(number: int) -> None:
            for n in range(EACH):
                record = appends.append({"answer": f"{number}-{n}"}, f"req-{number}-{n}")
                with lock:
                    acknowledged.append(record)

        threads = [threading.Thread(target=client, args=(t,)) for t in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(r.sequence for r in acknowledged) == list(range(THREADS * EACH))
    with open_store(target) as reopened:
        assert verify_log(reopened).ok
        for record in acknowledged:
            stored = reopened.get(record.request_id)
            assert (stored.sequence, stored.record_hash) == (record.sequence, record.record_hash)
            number, n = record.request_id.removeprefix("req-").split("-")
            assert stored.payload["answer"] == f"{number}-{n}"


def test_a_record_that_cannot_be_logged_fails_alone(tmp_path: Path) -> None:
    with open_store(tmp_path / "audit.db") as store:
        appends = GroupCommit(store)
        with pytest.raises(AuditRecordError, match="not canonical JSON"):
            appends.append({"score": float("nan")}, "req-bad")
        good = appends.append({"score": 0.5}, "req-good")
        assert good.sequence == 0
        assert store.size() == 1


def test_a_commit_the_database_refuses_fails_its_appends_and_the_next_one_starts_afresh(
    tmp_path: Path,
) -> None:
    with open_store(tmp_path / "audit.db") as store:
        appends = GroupCommit(store)
        refused = RuntimeError("disk full")
        real = store.append_prepared

        def full_once(prepared, texts=None):  # type: ignore[no-untyped-def]
            store.append_prepared = real  # type: ignore[method-assign]
            raise refused

        store.append_prepared = full_once  # type: ignore[method-assign]
        with pytest.raises(RuntimeError, match="disk full"):
            appends.append({"n": 1}, "req-1")
        assert appends.append({"n": 2}, "req-2").sequence == 0
