"""`assert_cited` for teams testing their LLM app: thresholds per status, readable failures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from citeproof.adapters import from_anthropic
from citeproof.model import Source
from citeproof.testing import assert_cited
from tests.adapters.fixtures import load

POLICY = Source(
    id="policy",
    kind="document",
    text="Applications above 80% loan-to-value must be referred to a senior underwriter.\n\n"
    "Valuations older than six months are not accepted.",
    title="Credit policy",
)
GOOD = 'The policy says "Valuations older than six months are not accepted." [policy]'
BAD = (
    'The policy says "Valuations older than six months are not acceptable." [policy] '
    'It adds "Every applicant gets a free valuation." [policy]'
)


def test_an_answer_whose_quotes_hold_passes_and_is_returned_F_4() -> None:
    verified = assert_cited(GOOD, [POLICY], min_quotes=1, min_cited_claims=1.0)
    assert verified.counts()["verified"] == 1


def test_a_failure_names_each_failing_quote_its_source_and_what_was_found_F_4() -> None:
    with pytest.raises(AssertionError) as failure:
        assert_cited(BAD, [POLICY], max_corrected=0)
    message = str(failure.value)
    assert "quotes (" in message.splitlines()[0]
    assert "'Every applicant gets a free valuation.' citing policy" in message
    assert "not_found quotes (at most 0 allowed)" in message


def test_thresholds_per_status_let_a_team_accept_some_corrections_F_4() -> None:
    # The corrected quote changed the source's figure: that too must be allowed explicitly.
    verified = assert_cited(
        BAD, [POLICY], max_corrected=5, max_mismatch=5, max_not_found=1, max_meaning_changed=2
    )
    assert len(verified.quotes) == 2


def test_claims_without_a_provided_source_fail_the_share_asked_for_F_4() -> None:
    answer = GOOD + " Rates will fall next year."
    with pytest.raises(AssertionError, match=r"50% of claims cite a provided source"):
        assert_cited(answer, [POLICY], min_cited_claims=0.9)


def test_a_claim_citing_a_source_never_provided_fails_by_default_as_the_cli_does_F_4(
    tmp_path: Path,
) -> None:
    """A quote-less claim citing a document the model was never shown: `verify --fail-on
    claim` fails it; `assert_cited` passed it until it counted under ``max_ineligible``."""
    answer = GOOD + " The board approved the budget [S9]."
    with pytest.raises(AssertionError) as failure:
        assert_cited(answer, [POLICY])
    message = str(failure.value)
    assert "1 claims cite a source that was not provided, with no quote" in message
    assert "'The board approved the budget [S9].' cites S9, not provided" in message
    assert len(assert_cited(answer, [POLICY], max_ineligible=1).claims) == 2
    answer_file = tmp_path / "answer.md"
    answer_file.write_text(answer, encoding="utf-8")
    policy_file = tmp_path / "policy.md"
    policy_file.write_text(POLICY.text, encoding="utf-8")
    cli = subprocess.run(
        [sys.executable, "-m", "citeproof", "verify", str(answer_file),
         "--source", f"policy={policy_file}", "--fail-on", "claim"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert cli.returncode == 1, cli.stdout + cli.stderr


def test_a_vendor_response_is_checked_as_it_comes_F_4() -> None:
    converted = from_anthropic(load("anthropic-response-policy"), load("anthropic-request-policy"))
    with pytest.raises(AssertionError, match="corrected quotes"):
        assert_cited(converted, max_corrected=0)


def test_the_pytest_plugin_gives_the_fixture_F_4(tmp_path: Path) -> None:
    test_file = tmp_path / "test_app.py"
    test_file.write_text(
        "from citeproof.model import Source\n"
        "SOURCE = Source(id='s1', kind='document', text='The rate is 4.5% from March.')\n"
        "def test_ok(assert_cited):\n"
        "    assert_cited('It said \"The rate is 4.5% from March.\" [s1]', [SOURCE])\n"
        "def test_bad(assert_cited):\n"
        "    assert_cited('It said \"The rate is 9% forever.\" [s1]', [SOURCE])\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        # No "-p": the installed package registers the plugin through its pytest11 entry point.
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert "1 failed, 1 passed" in result.stdout, result.stdout + result.stderr
    assert "'The rate is 9% forever.' citing s1" in result.stdout
