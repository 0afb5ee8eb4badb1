"""The model-update guardrail on the sample mailbox's golden set (issue 13; SPEC E)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from citeproof.cli import main
from citeproof.errors import InputError
from citeproof.operations import read_golden
from citeproof.providers import FunctionProvider
from citeproof.providers import _registry as registry

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
    assert result.stdout, result.output  # an error says why on standard error
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
    for run in ("baseline", "candidate"):
        figures = figures_of(comparison["questions"][run])
        assert {k: v for k, v in comparison[run].items() if k != "label"} == figures
    assert [f.split(":")[0] for f in comparison["failures"]] == failures_implied(comparison)


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
    # Two of the shipped questions: the default embedded model takes a minute or more a
    # question on this machine.
    golden = tmp_path / "golden.jsonl"
    golden.write_text("".join(GOLDEN.read_text(encoding="utf-8").splitlines(True)[:2]))
    status, comparison = guardrail(
        mailbox, "extractive", "embedded/small", "--max-tokens", "120", "--timeout", "300",
        golden=golden,
    )  # fmt: skip
    # The candidate really answered, and every figure it is judged by is the one its own
    # answers give: recomputed here from the per-question counts, with the verdict and the
    # failures those figures imply under the default margins.
    assert comparison["candidate"]["label"] == "embedded/small"
    candidate = comparison["questions"]["candidate"]
    assert [q["id"] for q in candidate] == ["referral", "self-employed"]
    assert all(q["answer"].strip() for q in candidate)
    assert all(0 <= q["verified"] <= q["quotes"] for q in candidate)
    assert all(0 <= q["with_evidence"] <= q["claims"] for q in candidate)
    assert comparison["candidate"] == {"label": "embedded/small", **figures_of(candidate)}
    assert comparison["baseline"]["citation_correctness"] == 1.0
    named = [failure.split(":")[0] for failure in comparison["failures"]]
    assert named == failures_implied(comparison)
    assert status == (1 if comparison["failures"] else 0)
    assert comparison["expected_sources_missed_by_candidate"] == [
        q["id"] for q in candidate if not q["expected_cited"]
    ]
    questions = comparison["questions"]
    for base, cand in zip(questions["baseline"], questions["candidate"], strict=True):
        assert (base["evidence"] != cand["evidence"]) == (
            base["id"] in comparison["changed_bundles"]
        )


def figures_of(questions: list[dict[str, Any]]) -> dict[str, float]:
    """The guardrail's figures, from one run's per-question counts (SPEC E)."""
    quotes = sum(q["quotes"] for q in questions)
    claims = sum(q["claims"] for q in questions)
    return {
        "citation_correctness": round(sum(q["verified"] for q in questions) / quotes, 4)
        if quotes
        else 0.0,
        "expected_sources": round(sum(q["expected_cited"] for q in questions) / len(questions), 4),
        "coverage": round(sum(q["with_evidence"] for q in questions) / claims, 4)
        if claims
        else 0.0,
        "ineligible_citations": sum(q["ineligible"] for q in questions),
    }


def failures_implied(comparison: dict[str, Any]) -> list[str]:
    """The names of the failures the default margins give for the two runs' figures."""
    base, cand = comparison["baseline"], comparison["candidate"]
    failed = [
        name
        for name, key, margin in (
            ("citation correctness", "citation_correctness", 0.05),
            ("expected sources", "expected_sources", 0.10),
            ("coverage", "coverage", 0.05),
        )
        if base[key] - cand[key] > margin + 1e-12
    ]
    if cand["ineligible_citations"] > base["ineligible_citations"]:
        failed.append("ineligible citations")
    return failed
