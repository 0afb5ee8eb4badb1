"""The audit log keeps each source's text once, by its content hash, and reads it back whole.

Every answer logged over the same documents used to carry their full texts in its own record
(66 KB a record for 50 KB of sources). Now a record names each text by its content hash, the
log stores the text once beside the records, and every reader (`audit show --texts`, `audit
replay`, sampling, re-validation, the review pages) puts it back. A text changed or removed in
the database file is caught and named.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from citeproof.audit import open_store
from tests.cli_runs import EXAMPLE_SOURCES, LENDING, invoke


def _log_three_answers(audit: Path) -> list[str]:
    """The example answer verified three times into ``audit``; the request ids."""
    ids = []
    for number in range(3):
        answer = audit.parent / f"answer-{number}.md"
        text = (LENDING / "answer.md").read_text(encoding="utf-8")
        answer.write_text(text + f"\nReviewed {number + 1} times.\n", encoding="utf-8")
        code, _, err = invoke("verify", str(answer), *EXAMPLE_SOURCES, "--audit", str(audit))
        assert code in (0, 1), err
        ids.append(err.split("audit: request ")[1].split()[0])
    return ids


def _without_triggers(audit: Path) -> sqlite3.Connection:
    db = sqlite3.connect(audit, isolation_level=None)
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        db.execute(f'DROP TRIGGER "{name}"')
    return db


def test_answers_over_the_same_sources_store_each_text_once_and_read_back_whole(
    tmp_path: Path,
) -> None:
    audit = tmp_path / "audit.db"
    ids = _log_three_answers(audit)
    code, out, err = invoke("audit", "verify", "--audit", str(audit))
    assert code == 0, out + err
    assert "ok: 3 records" in out and "3 source texts" in out
    with open_store(audit) as log:
        records = list(log.records())
        logged = records[0].payload["sources"]
        assert [s["id"] for s in logged] == ["policy", "email", "memo"]
        assert all("text" not in s and s["content_hash"].startswith("sha256:") for s in logged)
        texts = log.texts(s["content_hash"] for s in logged)
        assert log.check_texts() == ({s["content_hash"] for s in logged}, [])
        assert records[0].payload["texts"] == [s["content_hash"] for s in logged]
    policy = (LENDING / "credit-policy.md").read_text(encoding="utf-8")
    assert policy in texts.values()  # whole, and in no record (as canonical JSON writes it)
    assert not any(json.dumps(policy)[1:-1].encode() in record.entry for record in records)

    code, out, err = invoke("audit", "show", ids[1], "--audit", str(audit), "--texts")
    assert code == 0, err
    sources = json.loads(out)["payload"]["sources"]
    assert sources[0]["text"] == policy
    for source in sources:
        digest = hashlib.sha256(source["text"].encode()).hexdigest()
        assert source["content_hash"] == "sha256:" + digest
    code, out, _ = invoke("audit", "show", ids[1], "--audit", str(audit))
    assert code == 0 and all("text" not in s for s in json.loads(out)["payload"]["sources"])

    code, out, err = invoke("audit", "replay", ids[2], "--audit", str(audit))
    assert code == 0 and out.endswith("same result\n"), out + err


def test_a_source_text_changed_in_the_database_file_fails_verify_and_replay(
    tmp_path: Path,
) -> None:
    audit = tmp_path / "audit.db"
    ids = _log_three_answers(audit)
    with _without_triggers(audit) as db:
        db.execute(
            "UPDATE audit_texts SET text = CAST(replace(CAST(text AS TEXT), '80%', '90%') AS BLOB)"
        )
    code, out, err = invoke("audit", "verify", "--audit", str(audit))
    assert code == 1
    assert "FAILED at a source text: text_mismatch" in out
    assert "does not hash to its key: it was changed" in out
    code, out, err = invoke("audit", "replay", ids[0], "--audit", str(audit))
    assert code != 0 and "it was changed" in out + err


def test_a_source_text_removed_from_the_database_file_is_named_when_read(
    tmp_path: Path,
) -> None:
    audit = tmp_path / "audit.db"
    ids = _log_three_answers(audit)
    with open_store(audit) as log:
        memo = log.get(ids[0]).payload["sources"][2]
    with _without_triggers(audit) as db:
        db.execute("DELETE FROM audit_texts WHERE key = ?", (memo["content_hash"],))
    for command in (["replay", ids[0]], ["show", ids[0], "--texts"]):
        code, out, err = invoke("audit", *command, "--audit", str(audit))
        assert code != 0
        assert f"holds no text '{memo['content_hash']}' for source 'memo'" in out + err
    code, out, _ = invoke("audit", "verify", "--audit", str(audit))
    assert code == 1
    assert out.startswith(
        f"FAILED at record 0: text_missing: record 0 names the text {memo['content_hash']}, "
        "which the log does not hold"
    )


def test_an_inclusion_proof_carries_the_texts_its_record_names_and_checks_them(
    tmp_path: Path,
) -> None:
    audit = tmp_path / "audit.db"
    ids = _log_three_answers(audit)
    code, out, err = invoke("audit", "proof", ids[1], "--audit", str(audit))
    assert code == 0, err
    proof = json.loads(out)
    policy = (LENDING / "credit-policy.md").read_text(encoding="utf-8")
    assert len(proof["texts"]) == 3 and policy in proof["texts"].values()
    public_key = str(audit) + ".checkpoints/signing.pub"

    def check(data: dict[str, object]) -> tuple[int, str]:
        path = tmp_path / "proof.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        code, out, err = invoke("audit", "check-proof", str(path), "--public-key", public_key)
        return code, out + err

    assert check(proof) == (0, "ok: the proof holds\n")
    key = next(k for k, text in proof["texts"].items() if text == policy)
    changed = {**proof["texts"], key: policy.replace("80%", "90%")}
    code, said = check({**proof, "texts": changed})
    assert code == 1 and f"text {key} does not hash to its key" in said
    stranger = "A text the record never named."
    extra = {**proof["texts"], "sha256:" + hashlib.sha256(stranger.encode()).hexdigest(): stranger}
    code, said = check({**proof, "texts": extra})
    assert code == 1 and "the entry names no text" in said


def test_a_log_whose_texts_table_is_gone_fails_verify_saying_so(tmp_path: Path) -> None:
    audit = tmp_path / "audit.db"
    _log_three_answers(audit)
    with _without_triggers(audit) as db:
        db.execute("DROP TABLE audit_texts")
    code, out, _ = invoke("audit", "verify", "--audit", str(audit))
    assert code == 1
    assert "FAILED at a source text: texts_unreadable" in out
    assert "cannot read the source texts: no such table: audit_texts" in out
