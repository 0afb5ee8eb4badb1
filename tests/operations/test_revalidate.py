"""Re-validation of logged answers against the current sources (issue 13; SPEC E, citation
correctness re-run on a schedule): outcomes, the appended records, resumption, idempotence."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from citeproof.audit import verify_log
from citeproof.cli import main
from citeproof.errors import InputError
from citeproof.operations._logged import REVALIDATION_SCHEMA
from citeproof.operations.revalidate_log import revalidate_log
from citeproof.outcome import payload_with_texts
from citeproof.outcome.replay import replay
from citeproof.sources import SourceStore
from tests.operations.world import CHANGED_POLICY, NEW_RATES, World, log_answers, make_world


def run_cli(
    world: World, *args: str, store: Path | None = None
) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(
        main,
        [
            "revalidate",
            "--audit",
            world.audit,
            "--checkpoints",
            str(world.checkpoints),
            "--store",
            str(store or world.store_path),
            "--json",
            "--workers",
            "1",
            *args,
        ],
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


def by_name(world: World, lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    names = {rid: name for name, rid in world.request_ids.items()}
    return {names[line["request_id"]]: line for line in lines}


def test_every_answer_holds_on_an_unchanged_store_and_exits_0_E(
    tmp_path: Path, audit_target: str
) -> None:
    world = make_world(tmp_path, audit_target)
    status, lines = run_cli(world)
    assert status == 0
    assert [line["outcome"] for line in lines] == ["holds"] * 4
    assert all(line["quotes"] == [] and line["claims"] == [] for line in lines)


def test_a_changed_paragraph_and_a_superseded_version_are_caught_and_named_E(
    tmp_path: Path, audit_target: str
) -> None:
    world = make_world(tmp_path, audit_target)
    world.write("policy.md", CHANGED_POLICY)
    world.write("rates.md", NEW_RATES)
    world.reingest()
    status, lines = run_cli(world)
    assert status == 1
    outcomes = by_name(world, lines)
    assert {name: line["outcome"] for name, line in outcomes.items()} == {
        "policy": "changed",
        "rates": "superseded",
        "memo": "holds",
        "guide": "holds",
    }
    (quote,) = outcomes["policy"]["quotes"]
    assert quote["id"] == "q1" and quote["was"] == "verified"
    # 80% → 85%: a number that changes the meaning, whatever status the verifier gives it.
    assert quote["meaning_changed"] or quote["now"] in ("mismatch", "not_found")
    (rates,) = outcomes["rates"]["sources"]
    assert rates["state"] == "superseded" and rates["current_id"] != rates["id"]
    # Without --json: one line per answer that does not hold, naming what changed.
    text = CliRunner().invoke(
        main,
        ["revalidate", "--audit", world.audit, "--checkpoints", str(world.checkpoints),
         "--store", str(world.store_path), "--workers", "1"],
    ).stdout  # fmt: skip
    policy_line = next(line for line in text.splitlines() if world.request_ids["policy"] in line)
    assert policy_line.startswith(f"{world.request_ids['policy']}: changed; quote q1 verified ->")
    assert f"{world.request_ids['rates']}: superseded; source {rates['id']} superseded" in text


def test_a_deleted_source_is_reported_missing_with_the_quotes_it_held_E(
    tmp_path: Path, audit_target: str
) -> None:
    world = make_world(tmp_path, audit_target)
    (world.folder / "memo.md").unlink()
    status, lines = run_cli(world, store=world.rebuild_store())
    assert status == 1
    outcomes = by_name(world, lines)
    assert outcomes["memo"]["outcome"] == "source_missing"
    assert outcomes["memo"]["quotes"] == [
        {"id": "q1", "was": "verified", "now": "source_missing", "meaning_changed": False}
    ]
    assert [outcomes[n]["outcome"] for n in ("policy", "rates", "guide")] == ["holds"] * 3


def test_outcomes_are_appended_as_their_own_records_and_the_log_still_verifies_E(
    tmp_path: Path, audit_target: str
) -> None:
    world = make_world(tmp_path, audit_target)
    world.write("policy.md", CHANGED_POLICY)
    world.reingest()
    run_cli(world)
    with world.open_log() as log:
        payloads = [record.payload for record in log.records()]
        answer_hashes = [record.record_hash for record in log.records(0, 4)]
        assert verify_log(log).ok
        # The original answer is untouched and still replays to the same result.
        logged = log.get(world.request_ids["policy"]).payload
        with pytest.raises(InputError, match="payload_with_texts"):
            replay(logged)
        assert replay(payload_with_texts(logged, log)).ok
    assert [p["schema"] for p in payloads[4:]] == [REVALIDATION_SCHEMA] * 4
    assert [p["answer"]["sequence"] for p in payloads[4:]] == [0, 1, 2, 3]
    assert [p["answer"]["record_hash"] for p in payloads[4:]] == answer_hashes
    show = CliRunner().invoke(
        main,
        [
            "audit",
            "replay",
            world.request_ids["policy"],
            "--audit",
            world.audit,
            "--checkpoints",
            str(world.checkpoints),
        ],
    )
    assert show.exit_code == 0 and "same result" in show.output


def test_a_second_run_on_the_same_store_appends_nothing_and_reports_the_same_E(
    tmp_path: Path, audit_target: str
) -> None:
    world = make_world(tmp_path, audit_target)
    world.write("rates.md", NEW_RATES)
    world.reingest()
    first = run_cli(world)
    with world.open_log() as log:
        size = log.size()
    assert run_cli(world) == first
    with world.open_log() as log:
        assert log.size() == size
    # A changed store is a new run: the history keeps both outcomes.
    world.write("rates.md", NEW_RATES.replace("4.50%", "4.75%"))
    world.reingest()
    run_cli(world)
    with world.open_log() as log:
        assert log.size() == size + 4


def test_a_run_killed_with_sigkill_and_restarted_gives_the_unbroken_report_E(
    tmp_path: Path, audit_target: str, second_audit_target: str
) -> None:
    killed = make_world(tmp_path, audit_target, copies=60)
    # The same answers logged again in a second log: one run is killed, the other is not.
    unbroken = replace(
        killed, audit=second_audit_target, checkpoints=tmp_path / "unbroken-checkpoints"
    )
    log_answers(killed.store_path, killed.folder, unbroken.audit, unbroken.checkpoints, 60)
    killed.write("policy.md", CHANGED_POLICY)
    killed.write("rates.md", NEW_RATES)
    killed.reingest()
    answers = 240
    command = [sys.executable, "-m", "citeproof.cli._main", "revalidate", "--audit", killed.audit]
    command += ["--checkpoints", str(killed.checkpoints), "--store", str(killed.store_path)]
    command += ["--json", "--workers", "1", "--chunk-size", "1"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = 0
    with killed.open_log() as log:
        deadline = time.monotonic() + 120
        while process.poll() is None and time.monotonic() < deadline:
            done = log.size() - answers
            if done >= 3:
                os.kill(process.pid, signal.SIGKILL)
                break
            time.sleep(0.005)
    process.wait()
    assert process.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    assert 0 < done < answers
    status, restarted = run_cli(killed)
    expected_status, expected = run_cli(unbroken)
    assert (status, restarted) == (expected_status, expected) and status == 1
    with killed.open_log() as log:
        assert log.size() == 2 * answers  # every answer re-validated exactly once
        assert verify_log(log).ok


def test_the_library_call_says_how_many_outcomes_it_computed_and_reused_E(tmp_path: Path) -> None:
    world = make_world(tmp_path, str(tmp_path / "audit.db"))
    with world.open_log() as log, SourceStore(world.store_path) as store:
        first = revalidate_log(log, store, workers=1)
        second = revalidate_log(log, store, workers=1)
    assert (first.appended, first.reused) == (4, 0)
    assert (second.appended, second.reused) == (0, 4)
    assert second.results == first.results and first.ok
    assert first.counts() == {"holds": 4, "changed": 0, "superseded": 0, "source_missing": 0}


def test_a_malformed_answer_record_stops_the_run_naming_the_record_E(tmp_path: Path) -> None:
    world = make_world(tmp_path, str(tmp_path / "audit.db"))
    with world.open_log() as log:
        broken = log.get(world.request_ids["memo"]).payload
        broken["answer"]["policy"] = {"min_similarity": 7}  # not in (0, 1]
        log.append(broken, "req-broken")
    result = CliRunner().invoke(
        main,
        ["revalidate", "--audit", world.audit, "--checkpoints", str(world.checkpoints),
         "--store", str(world.store_path), "--workers", "1", "--chunk-size", "1"],
    )  # fmt: skip
    assert result.exit_code == 1
    assert "audit record 4 (req-broken): cannot verify it again" in result.output
    assert "min_similarity" in result.output
    with world.open_log() as log:  # the four good answers before it were recorded
        assert log.size() == 5 + 4
