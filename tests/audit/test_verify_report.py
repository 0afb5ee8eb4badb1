"""`verify_log`'s report: the figures of an intact log, and for each kind of damage the first
bad record, the checkpoint involved and the sentence an auditor reads."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from citeproof.audit import (
    AuditStore,
    CheckpointDirectory,
    MerkleFrontier,
    Problem,
    Row,
    VerifyReport,
    build_entry,
    leaf_hash,
    open_store,
    parse_entry,
    payload_json,
    record_hash,
    verify_log,
)
from citeproof.audit._checkpoint import sign_checkpoint
from citeproof.audit._merkle import EMPTY_ROOT, root_hash

GENESIS = "0" * 64


def make_log(tmp_path: Path, count: int = 25, every: int = 10) -> tuple[Path, list[Row]]:
    target = tmp_path / "audit.db"
    with open_store(target, checkpoint_every=every) as store:
        for n in range(count):
            store.append({"n": n}, f"req-{n}")
        rows = [(r.sequence, r.request_id, r.record_hash, r.entry) for r in store.records()]
    return target, rows


def replace_rows(target: Path, rows: list[Row]) -> None:
    db = sqlite3.connect(target, isolation_level=None)
    db.execute("DROP TRIGGER IF EXISTS audit_records_no_update")
    db.execute("DROP TRIGGER IF EXISTS audit_records_no_delete")
    db.execute("BEGIN")
    db.execute("DELETE FROM audit_records")
    db.executemany("INSERT INTO audit_records VALUES (?, ?, ?, ?)", rows)
    db.execute("COMMIT")
    db.close()


def report_of(target: Path, **options: object) -> VerifyReport:
    with open_store(target) as store:
        return verify_log(store, **options)  # type: ignore[arg-type]


def entry(sequence: int, previous: str, request_id: str = "req-x", payload: object = None) -> bytes:
    return build_entry(
        payload_json({"forged": payload}),
        request_id=request_id,
        sequence=sequence,
        previous_hash=previous,
        recorded_at="2026-01-01T00:00:00.000000Z",
    )


def row(sequence: int, body: bytes, request_id: str = "req-x") -> Row:
    return (sequence, request_id, record_hash(body), body)


def tree_root(rows: list[Row]) -> str:
    return root_hash([leaf_hash(r[3]) for r in rows]).hex()


def test_an_intact_log_reports_its_size_root_head_and_checked_checkpoints(
    tmp_path: Path,
) -> None:
    target, rows = make_log(tmp_path)
    report = report_of(target)
    assert report.ok and report.problem is None
    assert report.to_json() == {
        "ok": True,
        "records": 25,
        "root_hash": tree_root(rows),
        "chain_head": rows[-1][2],
        "checkpoints": 2,
        "texts": 0,
        "problem": None,
    }


def test_an_empty_log_is_intact_with_the_empty_root_and_the_genesis_head(
    tmp_path: Path,
) -> None:
    target, _ = make_log(tmp_path, 0)
    report = report_of(target)
    assert (report.ok, report.records, report.checkpoints) == (True, 0, 0)
    assert (report.root_hash, report.chain_head) == (EMPTY_ROOT.hex(), GENESIS)


def test_a_damaged_log_reports_the_records_verified_before_the_damage(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path)
    changed = bytearray(rows[13][3])
    changed[-3] ^= 1
    replace_rows(target, [*rows[:13], (13, rows[13][1], rows[13][2], bytes(changed)), *rows[14:]])
    report = report_of(target)
    assert report.to_json() == {
        "ok": False,
        "records": 13,
        "root_hash": tree_root(rows[:13]),
        "chain_head": rows[12][2],
        "checkpoints": 1,
        "texts": 0,
        "problem": {
            "kind": "content_mismatch",
            "index": 13,
            "detail": "record 13 does not hash to its stored hash: its content was altered",
            "checkpoint": None,
        },
    }


def test_a_gap_in_the_stored_sequence_is_reported_missing(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path)
    replace_rows(target, [*rows[:7], *rows[9:]])
    assert report_of(target).problem == Problem(
        "missing", 7, "record 7 is missing: the next stored record is 9"
    )


def test_records_dropped_and_the_rest_renumbered_are_reported_missing(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path)
    renumbered = [(n - 2, rid, h, e) for n, rid, h, e in rows[9:]]
    replace_rows(target, [*rows[:7], *renumbered])
    assert report_of(target).problem == Problem(
        "missing", 7, "records 7..8 are missing: position 7 holds record 9"
    )


def test_an_entry_that_is_not_a_record_is_reported_malformed(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path)
    replace_rows(target, [*rows[:4], row(4, b"[1, 2]"), *rows[5:]])
    assert report_of(target).problem == Problem(
        "malformed", 4, "record 4 is not a record: entry is not a citeproof-audit/1 record"
    )


def test_the_first_record_must_start_the_chain(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path, 3)
    first = entry(0, "1" * 64, rows[0][1])
    replace_rows(target, [row(0, first, rows[0][1]), *rows[1:]])
    assert report_of(target).problem == Problem(
        "chain_break", 0, "record 0 does not start the chain"
    )


def test_a_record_rewritten_in_place_is_named_by_its_successor(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path)
    fields = parse_entry(rows[5][3])
    rewritten = entry(5, fields["previous_hash"], rows[5][1], "approve")
    replace_rows(target, [*rows[:5], row(5, rewritten, rows[5][1]), *rows[6:]])
    report = report_of(target)
    assert report.problem == Problem(
        "chain_break",
        5,
        "record 5 was rewritten: its hash is not the previous hash recorded by record 6",
    )
    assert (report.records, report.chain_head) == (6, record_hash(rewritten))


def test_a_record_filed_under_another_request_id_is_reported(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path)
    replace_rows(target, [*rows[:8], (8, "req-other", *rows[8][2:]), *rows[9:]])
    assert report_of(target).problem == Problem(
        "request_id_mismatch", 8, "record 8 is filed under request id 'req-other' but is 'req-8'"
    )


def test_a_record_inserted_before_the_one_it_displaced(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path, 25, every=0)
    forged = entry(15, rows[14][2])
    shifted = [(n + 1, rid, h, e) for n, rid, h, e in rows[15:]]
    replace_rows(target, [*rows[:15], row(15, forged), *shifted])
    assert report_of(target).problem == Problem(
        "inserted", 15, "record 15 was inserted: position 16 holds record 15, which it displaced"
    )


def test_a_record_copied_over_a_later_one_is_reported_inserted_where_it_stands(
    tmp_path: Path,
) -> None:
    target, rows = make_log(tmp_path, 25, every=0)
    replace_rows(target, [*rows[:20], (20, *rows[10][1:]), *rows[21:]])
    assert report_of(target).problem == Problem(
        "inserted", 20, "record 20 was inserted: position 20 holds record 10"
    )


def test_a_record_claiming_the_previous_place_with_another_link_is_inserted_here(
    tmp_path: Path,
) -> None:
    target, rows = make_log(tmp_path, 25, every=0)
    replace_rows(target, [*rows[:20], row(20, entry(19, "f" * 64)), *rows[21:]])
    assert report_of(target).problem == Problem(
        "inserted", 20, "record 20 was inserted: position 20 holds record 19"
    )


def test_swapped_records_name_where_the_missing_one_went_past_unreadable_ones(
    tmp_path: Path,
) -> None:
    target, rows = make_log(tmp_path, 25, every=0)
    damaged = list(rows)
    damaged[6], damaged[18] = (6, *rows[18][1:]), (18, *rows[6][1:])
    damaged[9] = row(9, b"{not json")
    damaged[11] = row(11, b"[6]")
    damaged[13] = row(13, b'"text"')
    replace_rows(target, damaged)
    assert report_of(target).problem == Problem(
        "reordered",
        6,
        "records are out of order: position 6 holds record 18; record 6 is at position 18",
    )


def test_records_beyond_the_largest_checkpoint_dropped_are_reported_truncated(
    tmp_path: Path,
) -> None:
    target, rows = make_log(tmp_path)
    replace_rows(target, rows[:14])
    report = report_of(target)
    assert report.problem == Problem(
        "truncated",
        14,
        "the log ends after 14 records but checkpoint 20 signed 20: records 14..19 are missing",
        20,
    )
    assert (report.records, report.checkpoints) == (14, 1)


def test_a_log_with_every_record_deleted_is_reported_truncated(tmp_path: Path) -> None:
    target, _ = make_log(tmp_path)
    replace_rows(target, [])
    report = report_of(target)
    assert report.problem == Problem(
        "truncated",
        0,
        "the log ends after 0 records but checkpoint 20 signed 20: records 0..19 are missing",
        20,
    )
    assert (report.records, report.checkpoints) == (0, 0)


def test_a_log_ending_at_its_last_checkpoint_is_not_truncated(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path)
    replace_rows(target, rows[:20])
    report = report_of(target)
    assert (report.ok, report.records, report.checkpoints) == (True, 20, 2)


def sign_over(target: Path, size: int, *, root: str | None = None, head: str | None = None) -> None:
    """Replace checkpoint `size` with one the log's own key signs over the given values."""
    with open_store(target) as store:
        rows = list(store.records(0, size))
        key = store.checkpoints.signing_key()
        directory = store.checkpoints
    frontier = MerkleFrontier()
    for r in rows:
        frontier.append(leaf_hash(r.entry))
    checkpoint = sign_checkpoint(
        key,
        tree_size=size,
        root_hash=root or frontier.root().hex(),
        chain_head=head or rows[-1].record_hash,
        frontier=frontier,
    )
    directory.file_for(size).unlink(missing_ok=True)
    directory.save(checkpoint)


@pytest.mark.parametrize("signed", ["root", "head"])
def test_a_signed_checkpoint_that_differs_from_the_log_names_the_records_since_the_last_good(
    tmp_path: Path, signed: str
) -> None:
    target, _ = make_log(tmp_path, 35)
    other = "ab" * 32
    sign_over(target, 30, **{signed: other})
    report = report_of(target)
    assert report.problem == Problem(
        "checkpoint_mismatch",
        20,
        "records 20..29 are not the ones checkpoint 30 signed (rewritten with recomputed hashes)",
        30,
    )
    assert (report.records, report.checkpoints) == (30, 3)


def test_a_mismatch_at_the_first_checkpoint_names_the_records_from_0(tmp_path: Path) -> None:
    target, _ = make_log(tmp_path)
    sign_over(target, 10, head="cd" * 32)
    problem = report_of(target).problem
    assert problem is not None
    assert (problem.kind, problem.index, problem.checkpoint) == ("checkpoint_mismatch", 0, 10)
    assert problem.detail.startswith("records 0..9 are not the ones checkpoint 10 signed")


def test_without_the_public_key_checkpoints_cannot_be_checked(tmp_path: Path) -> None:
    target, _ = make_log(tmp_path)
    public = CheckpointDirectory(str(target) + ".checkpoints").public_key_path
    public.unlink()
    report = report_of(target)
    assert report.problem == Problem(
        "checkpoint_signature",
        None,
        f"cannot check checkpoints: {public}: cannot read public key: "
        f"[Errno 2] No such file or directory: '{public}'",
    )
    assert (report.records, report.checkpoints) == (25, 0)


def test_a_log_without_checkpoints_needs_no_public_key(tmp_path: Path) -> None:
    target, _ = make_log(tmp_path, 5, every=0)
    report = report_of(target)
    assert (report.ok, report.records, report.checkpoints) == (True, 5, 0)


def test_a_pinned_public_key_and_a_directory_of_copies_are_what_is_checked(
    tmp_path: Path,
) -> None:
    target, _ = make_log(tmp_path)
    copies = CheckpointDirectory(tmp_path / "copies")
    copies.path.mkdir()
    own = CheckpointDirectory(str(target) + ".checkpoints")
    copies.file_for(10).write_bytes(own.file_for(10).read_bytes())
    report = report_of(target, checkpoints=copies, public_key=own.public_key())
    assert (report.ok, report.checkpoints) == (True, 1)
    stranger = Ed25519PrivateKey.generate().public_key()
    problem = report_of(target, public_key=stranger).problem
    assert problem == Problem(
        "checkpoint_signature", None, "checkpoint at tree size 10: bad signature", 10
    )


def test_the_first_bad_checkpoint_is_reported_and_the_others_still_checked(
    tmp_path: Path,
) -> None:
    target, _ = make_log(tmp_path, 45)
    directory = CheckpointDirectory(str(target) + ".checkpoints")
    directory.file_for(20).write_text("{broken")
    data = json.loads(directory.file_for(30).read_text())
    directory.file_for(30).write_text(json.dumps({**data, "created_at": "1999"}))
    report = report_of(target)
    assert report.problem is not None
    assert (report.problem.kind, report.problem.index, report.problem.checkpoint) == (
        "checkpoint_unreadable",
        None,
        20,
    )
    assert report.problem.detail.startswith(f"{directory.file_for(20)}: unreadable checkpoint")
    assert report.checkpoints == 2  # 10 and 40


def test_a_bad_signature_before_an_unreadable_checkpoint_is_the_one_reported(
    tmp_path: Path,
) -> None:
    target, _ = make_log(tmp_path, 45)
    directory = CheckpointDirectory(str(target) + ".checkpoints")
    data = json.loads(directory.file_for(20).read_text())
    directory.file_for(20).write_text(json.dumps({**data, "created_at": "1999"}))
    directory.file_for(30).write_text("{broken")
    assert report_of(target).problem == Problem(
        "checkpoint_signature", None, "checkpoint at tree size 20: bad signature", 20
    )


def test_damage_to_a_record_is_reported_before_a_bad_checkpoint(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path)
    directory = CheckpointDirectory(str(target) + ".checkpoints")
    directory.file_for(10).write_text("{broken")
    replace_rows(target, [*rows[:3], (3, "req-other", *rows[3][2:]), *rows[4:]])
    problem = report_of(target).problem
    assert problem is not None and (problem.kind, problem.index) == ("request_id_mismatch", 3)


def test_a_checkpoint_beyond_a_damaged_record_is_not_counted(tmp_path: Path) -> None:
    target, rows = make_log(tmp_path, 30)
    replace_rows(target, [*rows[:20], (20, "req-other", *rows[20][2:]), *rows[21:]])
    report = report_of(target)
    assert (report.records, report.checkpoints) == (20, 2)


def test_a_problem_without_a_record_has_no_index_in_its_json() -> None:
    problem = Problem("checkpoint_signature", None, "why", 30)
    assert problem.to_json() == {
        "kind": "checkpoint_signature",
        "index": None,
        "detail": "why",
        "checkpoint": 30,
    }
    assert Problem("missing", 3, "gone").checkpoint is None


def test_verify_log_reads_the_store_it_is_given(tmp_path: Path) -> None:
    target, _ = make_log(tmp_path, 12)
    with open_store(target) as store:
        assert isinstance(store, AuditStore)
        report = verify_log(store)
    assert (report.records, report.checkpoints) == (12, 1)
