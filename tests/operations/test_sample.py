"""Audit sampling for manual review and reviewers' verdicts (issue 13; SPEC E, audit sampling)."""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner

from citeproof.audit import verify_log
from citeproof.cli import main
from citeproof.operations._logged import REVIEW_SCHEMA
from tests.operations.world import World, make_world


def sample(world: World, out: Path, rate: str, seed: str) -> list[dict[str, str]]:
    result = CliRunner().invoke(
        main,
        ["audit", "sample", "--audit", world.audit, "--rate", rate, "--seed", seed,
         "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    with (out / "sample.csv").open(encoding="utf-8", newline="") as sheet:
        return list(csv.DictReader(sheet))


def test_the_same_seed_draws_the_same_sample_and_another_seed_another_E(tmp_path: Path) -> None:
    world = make_world(tmp_path, str(tmp_path / "audit.db"), copies=10)  # 40 answers
    first = sample(world, tmp_path / "a", "0.25", "2026-11")
    again = sample(world, tmp_path / "b", "0.25", "2026-11")
    other = sample(world, tmp_path / "c", "0.25", "other seed")
    assert first == again and 0 < len(first) < 40
    assert [r["request_id"] for r in other] != [r["request_id"] for r in first]
    assert len(sample(world, tmp_path / "d", "1", "x")) == 40


def test_each_sampled_answer_gets_a_review_page_with_its_quotes_E(tmp_path: Path) -> None:
    world = make_world(tmp_path, str(tmp_path / "audit.db"))
    rows = sample(world, tmp_path / "review", "1", "s")
    assert [row["quotes"] for row in rows] == ["1"] * 4
    assert all(row["verdict"] == "" and row["coverage"] == "1/1" for row in rows)
    page = (tmp_path / "review" / rows[0]["page"]).read_text(encoding="utf-8")
    assert "loan-to-value ratio above 80% must be referred to a senior" in page
    assert "<script" not in page


def test_a_reviewers_verdict_is_appended_as_its_own_record_E(tmp_path: Path) -> None:
    world = make_world(tmp_path, str(tmp_path / "audit.db"))
    request_id = world.request_ids["memo"]
    result = CliRunner().invoke(
        main,
        ["audit", "review", request_id, "--audit", world.audit, "--verdict", "wrong",
         "--note", "the memo was withdrawn", "--reviewer", "priya"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    with world.open_log() as log:
        last = list(log.records())[-1].payload
        assert verify_log(log).ok
    assert last["schema"] == REVIEW_SCHEMA and last["verdict"] == "wrong"
    assert last["answer"]["request_id"] == request_id and last["reviewer"] == "priya"
    report = CliRunner().invoke(main, ["report", "--audit", world.audit, "--format", "json"])
    assert '"wrong": 1' in report.stdout


def test_a_verdict_on_an_unknown_request_is_refused_by_name_E(tmp_path: Path) -> None:
    world = make_world(tmp_path, str(tmp_path / "audit.db"))
    result = CliRunner().invoke(
        main, ["audit", "review", "req_nope", "--audit", world.audit, "--verdict", "ok"]
    )
    assert result.exit_code == 1 and "req_nope" in result.output
