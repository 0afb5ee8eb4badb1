"""The model-update guardrail on the sample mailbox's golden set (issue 13; SPEC E)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from citeproof.cli.main import main
from citeproof.errors import InputError
from citeproof.operations.guardrail import read_golden
from citeproof.providers import registry
from citeproof.providers.function import FunctionProvider

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "examples" / "golden" / "mailbox.jsonl"


@pytest.fixture(scope="module")
def mailbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("mailbox") / "mailbox.db"
    result = CliRunner().invoke(
        main, ["ingest", str(ROOT / "examples" / "mailbox"), "--store", str(store)]
    )
    assert result.exit_code == 0, result.output
    return store


def register_misquoting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A provider ``misquoting`` whose every answer quotes words no source has."""
    misquoting = FunctionProvider.answering(
        'The policy says "every application is approved the same day" [S1].'
    )
    monkeypatch.setitem(registry._factories, "misquoting", lambda **_: misquoting)


def guardrail(
    store: Path, baseline: str, candidate: str, *args: str, golden: Path = GOLDEN
) -> tuple[int, Any]:
    result = CliRunner().invoke(
        main,
        ["guardrail", "--golden", str(golden), "--store", str(store), "--baseline", baseline,
         "--candidate", candidate, "--json", *args],
    )  # fmt: skip
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)


def test_the_same_model_passes_with_identical_bundles_E(mailbox: Path) -> None:
    status, comparison = guardrail(mailbox, "extractive", "extractive")
    assert status == 0 and comparison["failures"] == []
    assert comparison["changed_bundles"] == []
    assert comparison["baseline"] == {
        "label": "extractive",
        "citation_correctness": 1.0,
        "expected_sources": 1.0,
        "coverage": 1.0,
        "ineligible_citations": 0,
    }


def test_a_candidate_that_misquotes_is_stopped_and_the_differences_named_E(
    mailbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_misquoting(monkeypatch)
    status, comparison = guardrail(mailbox, "extractive", "misquoting")
    assert status == 1
    assert comparison["candidate"]["citation_correctness"] == 0.0
    assert [f.split(":")[0] for f in comparison["failures"]] == [
        "citation correctness",
        "expected sources",
        "coverage",
        "ineligible citations",  # [S1] names no source the turn allowed
    ]
    assert len(comparison["changed_bundles"]) == 7
    assert comparison["expected_sources_missed_by_candidate"][0] == "referral"


def test_changed_bundles_fail_only_when_a_limit_is_set_E(
    mailbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_misquoting(monkeypatch)
    lenient = ["--max-correctness-drop", "1", "--max-expected-drop", "1"]
    lenient += ["--max-coverage-drop", "1", "--max-extra-ineligible", "100"]
    assert guardrail(mailbox, "extractive", "misquoting", *lenient)[0] == 0
    status, comparison = guardrail(
        mailbox, "extractive", "misquoting", *lenient, "--max-changed-bundles", "6"
    )
    assert status == 1
    assert comparison["failures"] == ["evidence bundles: 7 questions changed, at most 6 allowed"]


def test_a_malformed_golden_line_is_named_by_line_and_field_E(tmp_path: Path) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_text('{"id": "a", "question": "Q?", "expected_sources": ["x"]}\n{"id": "b"}\n')
    with pytest.raises(InputError, match="line 2") as caught:
        read_golden(golden)
    assert caught.value.field == "question"


@pytest.mark.model
@pytest.mark.slow
def test_the_embedded_model_against_the_extractive_baseline_E(
    mailbox: Path, tmp_path: Path
) -> None:
    # Two of the shipped questions: the small model takes about 25 s a question here.
    golden = tmp_path / "golden.jsonl"
    golden.write_text("".join(GOLDEN.read_text(encoding="utf-8").splitlines(True)[:2]))
    status, comparison = guardrail(
        mailbox, "extractive", "embedded", "--max-tokens", "120", "--timeout", "300",
        golden=golden,
    )  # fmt: skip
    # The verdict follows the figures: exit 1 exactly when a margin is exceeded, and every
    # question whose evidence differs from the baseline's is listed.
    assert status == (1 if comparison["failures"] else 0)
    assert comparison["baseline"]["citation_correctness"] == 1.0
    questions = comparison["questions"]
    for base, cand in zip(questions["baseline"], questions["candidate"], strict=True):
        assert (base["evidence"] != cand["evidence"]) == (
            base["id"] in comparison["changed_bundles"]
        )
