"""`AuditStoreConformance`: the behaviour every audit store must show, as pytest tests.

A backend's test class subclasses it (its name starting with ``Test``) and supplies the hooks:
a fresh log (`new_log`), how to open it (`open`, default `citeproof.audit.open_store`), raw
access that bypasses the append-only guard, to play the attacker (`raw_replace_rows`,
`raw_set_column`, `raw_execute`), a fresh copy of a 10,000-record log (`big_log_copy`) and a
writer process (`writer_command`). citeproof's SQLite and PostgreSQL stores pass it; a store of
your own proves itself the same way (docs/extending.md). Needs pytest.
"""

from __future__ import annotations

import base64
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from citeproof.audit import (
    AuditStore,
    CheckpointDirectory,
    MerkleFrontier,
    Row,
    build_entry,
    leaf_hash,
    open_store,
    parse_entry,
    payload_json,
    record_hash,
    text_key,
    verify_log,
)
from citeproof.errors import AuditRecordError, RecordNotFoundError

SRC = Path(__file__).resolve().parents[2]
"""The folder the citeproof under test is imported from (for the writer processes)."""
BIG_LOG_SIZE = 10_000
"""Records in the log `AuditStoreConformance.big_log_copy` copies (`fill` it with this many)."""
SIGNED_FIELDS = ("tree_size", "root_hash", "chain_head", "created_at", "key_id", "frontier")
"""The checkpoint fields its signature covers, but for ``format`` (tested on its own)."""


def sample_payload(number: int) -> dict[str, Any]:
    """A payload shaped like what `citeproof verify --audit` logs."""
    return {
        "request": {"answer_file": f"answer-{number}.md", "sources": ["policy", "memo"]},
        "response": {"original": f"The LTV is {number} %.", "corrected": f"LTV {number} %"},
        "evidence": [{"doc_id": "policy", "version": "v3", "excerpt": "Loans above 80 % LTV"}],
        "verdicts": [{"quote": 0, "status": "verified", "score": 0.97}],
        "live_values": {"rate": {"value": 4.25, "fetched_at": "2024-05-01T00:00:00Z"}},
        "rules": {"fired": ["refer-high-ltv"], "decision": "refer"},
    }


def fill(store: AuditStore, count: int, batch: int = 500) -> None:
    """Append ``count`` `sample_payload` records (request ids ``req-0``...), ``batch`` a call."""
    for start in range(0, count, batch):
        items = [(sample_payload(n), f"req-{n}") for n in range(start, min(count, start + batch))]
        store.append_many(items)


def reseal(rows: list[Row], start: int) -> list[Row]:
    """Rebuild rows from `start` on with correct hashes, as a careful forger would."""
    previous = rows[start - 1][2] if start else "0" * 64
    out = rows[:start]
    for position, (_, request_id, _, entry) in enumerate(rows[start:], start):
        fields = parse_entry(entry)
        new_entry = build_entry(
            payload_json(fields["payload"]),
            request_id=fields["request_id"],
            sequence=position,
            previous_hash=previous,
            recorded_at=fields["recorded_at"],
        )
        previous = record_hash(new_entry)
        out.append((position, request_id, previous, new_entry))
    return out


class AuditStoreConformance:
    """The tests every audit store passes; a subclass implements the hooks up to `open`.

    Each hook's target is whatever ``open`` takes (a path, a URL) as a string; checkpoints
    go to the folder given beside it."""

    def new_log(self) -> tuple[str, Path]:
        """(target, checkpoint directory) of a new, empty log."""
        raise NotImplementedError

    def raw_replace_rows(self, target: str, rows: list[Row]) -> None:
        """Replace every stored row with `rows`, bypassing the triggers."""
        raise NotImplementedError

    def raw_set_column(self, target: str, sequence: int, column: str, value: object) -> None:
        """Overwrite one column of one row, bypassing the triggers."""
        raise NotImplementedError

    def raw_set_text(self, target: str, key: str, data: bytes) -> None:
        """Overwrite the stored bytes of the text under ``key``, bypassing the triggers."""
        raise NotImplementedError

    def raw_execute(self, target: str, statement: str) -> None:
        """Run `statement` through an ordinary connection (triggers active): an SQL
        ``UPDATE audit_records ...`` or ``DELETE FROM audit_records`` (or of
        ``audit_texts``). A store without SQL
        attempts the same change its own way; either must raise an error that says
        "append-only"."""
        raise NotImplementedError

    def big_log_copy(self) -> tuple[str, Path]:
        """A fresh copy of one 10,000-record log (checkpoint every 1,000)."""
        raise NotImplementedError

    def open(self, target: str, checkpoints: Path, every: int = 10) -> Any:
        """The store of ``target``, opened (a context manager), checkpointing every ``every``
        appends into ``checkpoints``."""
        return open_store(target, checkpoint_dir=checkpoints, checkpoint_every=every)

    def writer_command(self, target: str, checkpoints: Path, count: int, tag: str) -> list[str]:
        """A process that opens ``target`` (checkpoints every 50 appends), appends ``count``
        records with request ids ``TAG-0``... and prints ``<sequence> <request id>`` after
        each acknowledged append; by default `citeproof.testing._audit_writer`."""
        module = "citeproof.testing._audit_writer"
        return [sys.executable, "-m", module, target, str(checkpoints), str(count), tag]

    # -- helpers -------------------------------------------------------------------------

    def small_log(self, count: int = 50) -> tuple[str, Path, list[Row]]:
        target, checkpoints = self.new_log()
        with self.open(target, checkpoints) as store:
            fill(store, count, batch=7)
            rows = [(r.sequence, r.request_id, r.record_hash, r.entry) for r in store.records()]
        return target, checkpoints, rows

    def report(self, target: str, checkpoints: Path) -> Any:
        with self.open(target, checkpoints) as store:
            return verify_log(store)

    # -- append / get / records ---------------------------------------------------------
    def test_append_get_records_round_trip(self) -> None:
        target, checkpoints = self.new_log()
        with self.open(target, checkpoints) as store:
            assert store.size() == 0
            first = store.append(sample_payload(0), "req-a")
            second = store.append(sample_payload(1), "req-b")
            assert (first.sequence, second.sequence) == (0, 1)
            assert store.get("req-b").payload == sample_payload(1)
            assert store.get("req-b").previous_hash == first.record_hash
            assert [r.request_id for r in store.records()] == ["req-a", "req-b"]
            assert [r.sequence for r in store.records(1, 2)] == [1]
            assert store.size() == 2
            with pytest.raises(RecordNotFoundError):
                store.get("req-unknown")

    def test_reopened_log_continues_the_chain(self) -> None:
        target, checkpoints = self.new_log()
        with self.open(target, checkpoints) as store:
            fill(store, 15)
        with self.open(target, checkpoints) as store:
            assert store.append({"late": True}, "req-late").sequence == 15
            assert verify_log(store).ok

    def test_same_request_id_twice_get_returns_the_latest(self) -> None:
        target, checkpoints = self.new_log()
        with self.open(target, checkpoints) as store:
            store.append({"n": 1}, "req-x")
            store.append({"n": 2}, "req-x")
            assert store.get("req-x").payload == {"n": 2}

    def test_request_id_derived_from_the_request_is_reproducible(self) -> None:
        target, checkpoints = self.new_log()
        with self.open(target, checkpoints) as store:
            a = store.append({"request": {"q": "LTV?"}, "response": "1"})
            b = store.append({"request": {"q": "LTV?"}, "response": "2"})
            assert a.request_id == b.request_id and a.request_id.startswith("req-")

    def test_checkpoints_are_written_every_n_appends_outside_the_database(self) -> None:
        target, checkpoints = self.new_log()
        with self.open(target, checkpoints, every=10) as store:
            fill(store, 35, batch=1)
        directory = CheckpointDirectory(checkpoints)
        assert directory.sizes() == [10, 20, 30]
        assert oct(directory.key_path.stat().st_mode & 0o777) == "0o600"
        assert directory.public_key_path.exists()

    # -- append-only ---------------------------------------------------------------------
    @pytest.mark.parametrize(
        "statement",
        ["UPDATE audit_records SET request_id = 'x'", "DELETE FROM audit_records"],
    )
    def test_update_and_delete_are_rejected_by_the_database(self, statement: str) -> None:
        target, checkpoints, _ = self.small_log(3)
        with pytest.raises(Exception, match="append-only"):
            self.raw_execute(target, statement)
        assert self.report(target, checkpoints).ok

    # -- texts kept once -----------------------------------------------------------------
    def test_texts_named_by_many_records_are_stored_once_and_read_back(self) -> None:
        target, checkpoints = self.new_log()
        policy, memo = "Loans above 80 % LTV are referred.", "Memo: rates rise in May.\n"
        with self.open(target, checkpoints) as store:
            for number in range(3):
                texts = {text_key(policy): policy, text_key(memo): memo} if number else {}
                store.append(sample_payload(number), f"req-{number}", texts=texts)
            store.append(sample_payload(9), "req-9", texts={text_key(policy): policy})
            missing = text_key("never logged")
            found = store.texts([text_key(memo), missing, text_key(policy)])
            assert found == {text_key(memo): memo, text_key(policy): policy}
            assert store.check_texts() == ({text_key(policy), text_key(memo)}, [])
        report = self.report(target, checkpoints)
        assert report.ok and (report.records, report.texts) == (4, 2)

    def test_a_text_a_record_names_but_the_log_does_not_hold_fails_verify_at_that_record(
        self,
    ) -> None:
        target, checkpoints = self.new_log()
        held, lost = "Loans above 80 % LTV are referred.", "The valuation was 410,000."
        with self.open(target, checkpoints) as store:
            fill(store, 3)
            store.append({"texts": [text_key(held)]}, "req-held", texts={text_key(held): held})
            store.append({"texts": [text_key(held), text_key(lost)]}, "req-lost")
            store.append({"texts": [text_key(lost)]}, "req-lost-again")
        report = self.report(target, checkpoints)
        assert report.problem is not None and report.records == 6
        assert (report.problem.kind, report.problem.index) == ("text_missing", 4)
        assert report.problem.detail == (
            f"record 4 names the text {text_key(lost)}, which the log does not hold"
        )

    def test_a_text_under_a_key_that_is_not_its_hash_is_refused_and_nothing_is_written(
        self,
    ) -> None:
        target, checkpoints, _ = self.small_log(3)
        text = "The borrower's income is verified."
        with self.open(target, checkpoints) as store:
            with pytest.raises(AuditRecordError, match="is not the hash of its text"):
                store.append({"n": 1}, "req-n", texts={text_key(text + "!"): text})
            assert store.size() == 3
            assert store.texts([text_key(text), text_key(text + "!")]) == {}

    def test_a_text_with_a_lone_surrogate_reads_back_as_it_was_written(self) -> None:
        target, checkpoints = self.new_log()
        text = "broken \ud800 pair, and \u00e9 and \U0001f600"
        with self.open(target, checkpoints) as store:
            store.append({"n": 1}, "req-n", texts={text_key(text): text})
            assert store.texts([text_key(text)]) == {text_key(text): text}

    def test_a_changed_text_is_reported_by_verify_and_refused_when_read(self) -> None:
        target, checkpoints = self.new_log()
        text = "Loans above 80 % LTV are referred."
        with self.open(target, checkpoints) as store:
            fill(store, 5)
            store.append({"n": 1}, "req-n", texts={text_key(text): text})
        self.raw_set_text(target, text_key(text), text.replace("80", "90").encode())
        report = self.report(target, checkpoints)
        assert report.records == 6 and report.problem is not None
        assert report.problem.kind == "text_mismatch"
        assert text_key(text) in report.problem.detail
        with self.open(target, checkpoints) as store, pytest.raises(AuditRecordError):
            store.texts([text_key(text)])

    @pytest.mark.parametrize(
        "statement", ["UPDATE audit_texts SET text = text || text", "DELETE FROM audit_texts"]
    )
    def test_stored_texts_cannot_be_changed_or_deleted(self, statement: str) -> None:
        target, checkpoints = self.new_log()
        text = "Loans above 80 % LTV are referred."
        with self.open(target, checkpoints) as store:
            store.append({"n": 1}, "req-n", texts={text_key(text): text})
        with pytest.raises(Exception, match="append-only"):
            self.raw_execute(target, statement)
        with self.open(target, checkpoints) as store:
            assert store.texts([text_key(text)]) == {text_key(text): text}

    # -- tamper detection -----------------------------------------------------------------
    def test_intact_log_verifies(self) -> None:
        target, checkpoints, _ = self.small_log()
        report = self.report(target, checkpoints)
        assert report.ok and report.records == 50 and report.checkpoints == 5

    def test_flipped_byte_in_any_of_10000_records_is_found_at_its_index(self) -> None:
        rng = random.Random(4)
        positions = [0, BIG_LOG_SIZE - 1, *rng.sample(range(1, BIG_LOG_SIZE - 1), 48)]
        for position in positions:
            target, checkpoints = self.big_log_copy()
            with self.open(target, checkpoints) as store:
                entry = next(store.records(position, position + 1)).entry
            offset = rng.randrange(len(entry))
            flipped = bytearray(entry)
            flipped[offset] ^= 1 << rng.randrange(8)
            self.raw_set_column(target, position, "entry", bytes(flipped))
            report = self.report(target, checkpoints)
            assert report.problem is not None, position
            assert (report.problem.kind, report.problem.index) == ("content_mismatch", position)

    def test_flipped_byte_in_a_stored_hash_is_found(self) -> None:
        target, checkpoints, rows = self.small_log()
        digest = rows[17][2]
        self.raw_set_column(
            target, 17, "record_hash", ("1" if digest[0] != "1" else "2") + digest[1:]
        )
        problem = self.report(target, checkpoints).problem
        assert problem is not None and (problem.kind, problem.index) == ("content_mismatch", 17)

    def test_deleted_record_is_reported_missing(self) -> None:
        target, checkpoints, rows = self.small_log()
        self.raw_replace_rows(target, rows[:20] + rows[21:])
        problem = self.report(target, checkpoints).problem
        assert problem is not None and (problem.kind, problem.index) == ("missing", 20)

    def test_deleted_record_with_renumbered_successors_is_reported_missing(self) -> None:
        target, checkpoints, rows = self.small_log()
        shifted = [(n - 1, rid, h, e) for n, rid, h, e in rows[21:]]
        self.raw_replace_rows(target, rows[:20] + shifted)
        problem = self.report(target, checkpoints).problem
        assert problem is not None and (problem.kind, problem.index) == ("missing", 20)

    def test_swapped_records_are_reported_reordered(self) -> None:
        target, checkpoints, rows = self.small_log()
        swapped = list(rows)
        swapped[12], swapped[30] = (12, *rows[30][1:]), (30, *rows[12][1:])
        self.raw_replace_rows(target, swapped)
        problem = self.report(target, checkpoints).problem
        assert problem is not None and (problem.kind, problem.index) == ("reordered", 12)
        assert "position 30" in problem.detail

    def test_inserted_record_is_reported_at_its_position(self) -> None:
        target, checkpoints, rows = self.small_log()
        forged_entry = build_entry(
            payload_json({"forged": True}),
            request_id="req-forged",
            sequence=25,
            previous_hash=rows[24][2],
            recorded_at="2024-01-01T00:00:00.000000Z",
        )
        forged = (25, "req-forged", record_hash(forged_entry), forged_entry)
        shifted = [(n + 1, rid, h, e) for n, rid, h, e in rows[25:]]
        self.raw_replace_rows(target, [*rows[:25], forged, *shifted])
        problem = self.report(target, checkpoints).problem
        assert problem is not None and (problem.kind, problem.index) == ("inserted", 25)

    def test_append_prepared_stores_what_append_stores(self) -> None:
        target, checkpoints = self.new_log()
        with self.open(target, checkpoints) as store:
            store.append(sample_payload(1), "req-a")
            store.append_prepared([(payload_json(sample_payload(1)), "req-b")])
            first, second = store.records()
            assert second.payload == first.payload
            assert second.fields["previous_hash"] == first.record_hash
            with pytest.raises(AuditRecordError):
                store.append_prepared([(payload_json(sample_payload(2)), "has space")])
        assert self.report(target, checkpoints).ok

    def test_extract_gives_the_values_at_the_paths_of_each_parsed_entry(self) -> None:
        target, checkpoints, rows = self.small_log()
        paths = ["$.payload.rules.decision", "$.payload.evidence", "$.recorded_at", "$.payload.x"]
        with self.open(target, checkpoints) as store:
            extracted = list(store.extract(paths, 5, 45))
            (only,) = store.extract(["$.sequence"], 7, 8)
        expected = []
        for sequence, _, _, entry in rows[5:45]:
            fields = parse_entry(entry)
            payload = fields["payload"]
            values = [payload["rules"]["decision"], payload["evidence"], fields["recorded_at"]]
            expected.append((sequence, [*values, None]))
        assert extracted == expected
        assert only == (7, [7])

    def test_extract_names_an_entry_that_is_not_json(self) -> None:
        target, checkpoints, _ = self.small_log()
        self.raw_set_column(target, 30, "entry", b"{not json")
        with self.open(target, checkpoints) as store, pytest.raises(AuditRecordError):
            list(store.extract(["$.payload.rules", "$.recorded_at"]))

    def test_truncated_tail_is_reported_against_the_last_checkpoint(self) -> None:
        target, checkpoints, rows = self.small_log()
        self.raw_replace_rows(target, rows[:35])
        problem = self.report(target, checkpoints).problem
        assert problem is not None
        assert (problem.kind, problem.index, problem.checkpoint) == ("truncated", 35, 50)

    def test_rewritten_record_with_recomputed_hash_breaks_the_chain(self) -> None:
        target, checkpoints, rows = self.small_log()
        fields = parse_entry(rows[12][3])
        entry = build_entry(
            payload_json({**fields["payload"], "rules": {"decision": "approve"}}),
            request_id=fields["request_id"],
            sequence=12,
            previous_hash=fields["previous_hash"],
            recorded_at=fields["recorded_at"],
        )
        self.raw_replace_rows(
            target, [*rows[:12], (12, rows[12][1], record_hash(entry), entry), *rows[13:]]
        )
        problem = self.report(target, checkpoints).problem
        assert problem is not None and (problem.kind, problem.index) == ("chain_break", 12)

    def test_resealed_tail_is_caught_by_the_signed_checkpoints(self) -> None:
        target, checkpoints, rows = self.small_log()
        forged = list(rows)
        fields = parse_entry(rows[23][3])
        payload = {**fields["payload"], "rules": {"decision": "approve"}}
        forged[23] = (
            23,
            rows[23][1],
            "",
            build_entry(
                payload_json(payload),
                request_id=fields["request_id"],
                sequence=23,
                previous_hash="",
                recorded_at=fields["recorded_at"],
            ),
        )
        self.raw_replace_rows(target, reseal(forged, 23))
        problem = self.report(target, checkpoints).problem
        assert problem is not None
        assert (problem.kind, problem.index, problem.checkpoint) == ("checkpoint_mismatch", 20, 30)

    def test_changed_request_id_column_is_reported(self) -> None:
        target, checkpoints, _ = self.small_log()
        self.raw_set_column(target, 8, "request_id", "req-other")
        problem = self.report(target, checkpoints).problem
        assert problem is not None and (problem.kind, problem.index) == ("request_id_mismatch", 8)

    @pytest.mark.parametrize("field", SIGNED_FIELDS)
    def test_every_signed_checkpoint_field_tampered_in_turn_breaks_its_signature(
        self, field: str
    ) -> None:
        target, checkpoints, _ = self.small_log()
        directory = CheckpointDirectory(checkpoints)
        path = directory.file_for(30)
        data = json.loads(path.read_text())
        # Each value is one a forger could take from a genuine checkpoint of the same log.
        other = json.loads(directory.file_for(20).read_text())
        forged = {
            "tree_size": 31,
            "root_hash": other["root_hash"],
            "chain_head": other["chain_head"],
            "created_at": "1999-01-01T00:00:00.000000Z",
            "key_id": "0" * 16,
            "frontier": [*data["frontier"][:-1], other["root_hash"]],
        }[field]
        assert data[field] != forged
        data[field] = forged
        if field == "tree_size":  # the file is named for its size: the forger renames it too
            path.unlink()
            path = directory.file_for(31)
        path.write_text(json.dumps(data))
        report = self.report(target, checkpoints)
        assert not report.ok
        assert report.problem is not None
        assert (report.problem.kind, report.problem.index) == ("checkpoint_signature", None)
        assert report.problem.checkpoint == data["tree_size"]
        assert report.checkpoints == 4  # the tampered one is not counted as checked

    def test_a_checkpoint_whose_signature_is_changed_is_reported(self) -> None:
        target, checkpoints, _ = self.small_log()
        path = CheckpointDirectory(checkpoints).file_for(30)
        data = json.loads(path.read_text())
        signature = bytearray(base64.b64decode(data["signature"]))
        signature[0] ^= 1
        data["signature"] = base64.b64encode(bytes(signature)).decode()
        path.write_text(json.dumps(data))
        problem = self.report(target, checkpoints).problem
        assert problem is not None
        assert (problem.kind, problem.checkpoint) == ("checkpoint_signature", 30)

    def test_a_checkpoint_of_another_format_is_unreadable(self) -> None:
        target, checkpoints, _ = self.small_log()
        path = CheckpointDirectory(checkpoints).file_for(30)
        data = json.loads(path.read_text())
        data["format"] = "citeproof-audit-checkpoint/0"
        path.write_text(json.dumps(data))
        problem = self.report(target, checkpoints).problem
        assert problem is not None
        assert (problem.kind, problem.checkpoint) == ("checkpoint_unreadable", 30)

    def test_a_full_forgery_with_the_checkpoint_hashes_edited_is_caught_by_the_signature(
        self,
    ) -> None:
        # The forger rewrites record 23, re-hashes the rest of the log, and edits every later
        # checkpoint's root hash and chain head to the forged log's: only the signature, which
        # covers both, still tells.
        target, checkpoints, rows = self.small_log()
        fields = parse_entry(rows[23][3])
        payload = {**fields["payload"], "rules": {"decision": "approve"}}
        forged = list(rows)
        forged[23] = (23, rows[23][1], "", build_entry(
            payload_json(payload),
            request_id=fields["request_id"],
            sequence=23,
            previous_hash="",
            recorded_at=fields["recorded_at"],
        ))  # fmt: skip
        forged = reseal(forged, 23)
        self.raw_replace_rows(target, forged)
        directory = CheckpointDirectory(checkpoints)
        for size in directory.sizes():
            if size <= 23:
                continue
            frontier = MerkleFrontier()
            for row in forged[:size]:
                frontier.append(leaf_hash(row[3]))
            path = directory.file_for(size)
            data = json.loads(path.read_text())
            data["root_hash"] = frontier.root().hex()
            data["chain_head"] = forged[size - 1][2]
            path.write_text(json.dumps(data))
        report = self.report(target, checkpoints)
        assert not report.ok
        assert report.problem is not None
        assert (report.problem.kind, report.problem.checkpoint) == ("checkpoint_signature", 30)
        assert report.checkpoints == 2  # only those before the rewritten record still hold

    # -- crashes and concurrency ---------------------------------------------------------
    def writer(self, target: str, checkpoints: Path, count: int, tag: str) -> subprocess.Popen[str]:
        # The code under test: the citeproof imported here comes first, then PYTHONPATH.
        path = [p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        return subprocess.Popen(
            self.writer_command(target, checkpoints, count, tag),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )

    def test_kill_9_twenty_times_during_5000_appends_loses_no_acknowledged_record(self) -> None:
        target, checkpoints = self.new_log()
        self.open(target, checkpoints).close()
        rng = random.Random(9)
        acknowledged: dict[int, str] = {}
        for round_number in range(20):
            process = self.writer(target, checkpoints, 5000, f"w{round_number}")
            assert process.stdout is not None
            remaining = max(0, 5000 - len(acknowledged))
            rounds_left = 20 - round_number
            share = -(-remaining // rounds_left)
            stop_after = remaining if rounds_left == 1 else rng.randrange(1, 2 * share + 1)
            for _ in range(stop_after):
                line = process.stdout.readline()
                if not line:
                    break
                sequence, request_id = line.split()
                acknowledged[int(sequence)] = request_id
            time.sleep(rng.random() * 0.004)  # land anywhere: mid-transaction, mid-checkpoint
            process.send_signal(signal.SIGKILL)
            process.wait()
        assert len(acknowledged) >= 5000
        with self.open(target, checkpoints) as store:
            stored = {r.sequence: r.request_id for r in store.records()}
            report = verify_log(store)
        assert report.ok, report.problem
        missing = {s: r for s, r in acknowledged.items() if stored.get(s) != r}
        assert not missing

    def test_eight_concurrent_writers_keep_one_contiguous_chain(self) -> None:
        target, checkpoints = self.new_log()
        self.open(target, checkpoints).close()
        writers = [self.writer(target, checkpoints, 150, f"p{n}") for n in range(8)]
        acknowledged: dict[int, str] = {}
        for process in writers:
            out, _ = process.communicate(timeout=240)
            assert process.returncode == 0
            for line in out.splitlines():
                sequence, request_id = line.split()
                assert int(sequence) not in acknowledged
                acknowledged[int(sequence)] = request_id
        assert sorted(acknowledged) == list(range(8 * 150))
        with self.open(target, checkpoints) as store:
            assert [r.sequence for r in store.records()] == list(range(8 * 150))
            report = verify_log(store)
        assert report.ok, report.problem
        assert report.checkpoints == 8 * 150 // 50
