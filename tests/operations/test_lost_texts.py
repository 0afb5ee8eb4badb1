"""Re-validation and sampling name the record whose source text the log no longer holds."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from citeproof.cli import main
from tests.operations.world import World, make_world


def _lose_the_policy_text(world: World) -> tuple[int, str]:
    """Delete the policy answer's first source text from the SQLite file (triggers dropped,
    as someone with the file could): its record's sequence and the text's key."""
    with world.open_log() as log:
        record = log.get(world.request_ids["policy"])
        key = record.payload["sources"][0]["content_hash"]
    db = sqlite3.connect(world.audit, isolation_level=None)
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        db.execute(f'DROP TRIGGER "{name}"')
    db.execute("DELETE FROM audit_texts WHERE key = ?", (key,))
    db.close()
    return record.sequence, key


def test_revalidate_names_the_record_whose_text_is_lost(tmp_path: Path) -> None:
    world = make_world(tmp_path, str(tmp_path / "audit.db"))
    sequence, key = _lose_the_policy_text(world)
    result = CliRunner().invoke(
        main,
        ["revalidate", "--audit", world.audit, "--checkpoints", str(world.checkpoints),
         "--store", str(world.store_path), "--workers", "1"],
    )  # fmt: skip
    assert result.exit_code == 1
    said = result.output
    assert f"audit record {sequence} ({world.request_ids['policy']})" in said
    assert f"the audit log holds no text '{key}'" in said


def test_sample_skips_the_answers_whose_text_is_lost_and_says_why(tmp_path: Path) -> None:
    world = make_world(tmp_path, str(tmp_path / "audit.db"))
    sequence, key = _lose_the_policy_text(world)
    out = tmp_path / "review"
    result = CliRunner().invoke(
        main,
        ["audit", "sample", "--audit", world.audit, "--checkpoints", str(world.checkpoints),
         "--rate", "1", "--seed", "s", "--out", str(out)],
    )  # fmt: skip
    with (out / "sample.csv").open(encoding="utf-8", newline="") as sheet:
        sampled = [row["request_id"] for row in csv.DictReader(sheet)]
    assert sampled == []  # the four answers were all verified against the lost text
    assert (
        f"4 skipped as damaged (first: record {sequence}, sources[0]: the audit log holds no "
        f"text '{key}'" in result.output
    )
