"""The strict judge's verdicts reach the gates a user relies on: `--fail-on review`,
`assert_cited(max_unconfirmed=...)`, the JSON the CLI writes, and a quote citeproof corrected
with a change of meaning, which is never shown as supported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citeproof import Policy, Source, answer_to_json, verify
from citeproof.testing import assert_cited
from tests.cli_runs import invoke

LOAN = (
    "4.2 Margin. The Margin is 2.75% per annum for Facility A and 2.25% per annum for "
    "Facility B.\n\n"
    "9.1 Notice. Either party may end this agreement by giving six months' written notice."
)
FALSE = "Facility B carries a Margin of 2.75% per annum. [loan]\n"
TRUE = "Facility A carries a Margin of 2.75% per annum. [loan]\n"
STRICT = Policy(support_judge="strict")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "loan.txt").write_text(LOAN, encoding="utf-8")
    (tmp_path / "false.md").write_text(FALSE, encoding="utf-8")
    (tmp_path / "true.md").write_text(TRUE, encoding="utf-8")
    return {p.stem: p for p in tmp_path.iterdir()}


def test_fail_on_review_fails_an_unconfirmed_claim_and_claim_does_not(
    files: dict[str, Path],
) -> None:
    source = f"loan={files['loan']}"
    common = ["verify", str(files["false"]), "--source", source, "--support-judge", "strict"]
    code, out, err = invoke(*common, "--format", "json", "--fail-on", "review")
    assert code == 1, err
    assert "claim c1 (unconfirmed)" in err
    (claim,) = json.loads(out)["claims"]
    assert claim["verdict"] == "unconfirmed"
    assert claim["support"][0]["rule"] == "figure.attached"
    assert "2.25%" in claim["support"][0]["reason"]
    code, _, err = invoke(*common, "--format", "json", "--fail-on", "claim")
    assert code == 0, err
    code, _, err = invoke(
        "verify", str(files["true"]), "--source", source, "--support-judge", "strict",
        "--fail-on", "review",
    )  # fmt: skip
    assert code == 0, err


def test_assert_cited_counts_unconfirmed_claims_when_asked() -> None:
    sources = [Source(id="loan", kind="document", text=LOAN)]
    with pytest.raises(AssertionError, match="1 unconfirmed claims"):
        assert_cited(FALSE, sources, max_unconfirmed=0, policy=STRICT)
    assert_cited(TRUE, sources, max_unconfirmed=0, policy=STRICT)


def test_a_quote_corrected_with_another_meaning_is_never_shown_supported() -> None:
    """The answer said "three months"; citeproof corrects the quote to the source's "six
    months'" and the claim is held back, whatever the passage says of the corrected words."""
    answer = (
        "The notice clause says \"Either party may end this agreement by giving three months' "
        'written notice" [loan].'
    )
    sources = [Source(id="loan", kind="document", text=LOAN)]
    verified = verify(answer, sources, policy=STRICT)
    assert [q.status for q in verified.quotes] == ["corrected"]
    assert verified.quotes[0].meaning_changed
    (claim,) = answer_to_json(verified)["claims"]
    assert claim["verdict"] == "unconfirmed"
    assert claim["support"][0]["rule"] == "quote.meaning_changed"
    assert "meaning changed" in claim["support"][0]["reason"]


class _Reader:
    """The entailment model's place, with a fixed P(entails): the unit under test is how the
    strict judge uses it."""

    def __init__(self, entails: float) -> None:
        self.entails = entails
        self.asked: list[tuple[str, str]] = []

    def score(self, pairs: list[tuple[str, str]]) -> list[object]:
        from citeproof.verifier.support._nli import Entailment

        self.asked += pairs
        return [Entailment(self.entails, 0.0, 1 - self.entails) for _ in pairs]


@pytest.mark.parametrize(
    ("entails", "verdict", "rule"),
    [(0.9, "supported", "model.raised"), (0.3, "unconfirmed", "match.every_word")],
)
def test_the_model_raises_only_words_the_lexicon_missed_and_orders_the_rest(
    entails: float, verdict: str, rule: str
) -> None:
    from citeproof.verifier.support import SupportJudge
    from citeproof.verifier.support._judge import Request, kept_promise

    source = Source(
        id="sla", kind="document", text="The Provider keeps each backup for five weeks."
    )
    claim = "The Provider retains every backup for five weeks."  # "retains": no WordNet sense
    judge = SupportJudge(STRICT)
    found = judge.examine(claim, source)
    request = Request(claim, source)
    (support,) = judge._judged([request], [found])
    reader = _Reader(entails)
    kept = kept_promise(request, found, support, reader)  # type: ignore[arg-type]
    if support.verdict != "supported":
        pytest.skip(f"the head did not back it ({support.verdict}): nothing for the model")
    assert kept.verdict == verdict
    assert kept.rule == rule
    assert kept.score == entails
    assert reader.asked == [("The Provider keeps each backup for five weeks.", claim)]


def test_the_model_never_overrules_a_structural_finding() -> None:
    from citeproof.verifier.support import SupportJudge
    from citeproof.verifier.support._judge import Request, kept_promise

    source = Source(id="loan", kind="document", text=LOAN)
    claim = "Facility B carries a Margin of 2.75% per annum."
    judge = SupportJudge(STRICT)
    found = judge.examine(claim, source)
    request = Request(claim, source)
    (support,) = judge._judged([request], [found])
    reader = _Reader(0.99)
    kept = kept_promise(request, found, support, reader)  # type: ignore[arg-type]
    assert kept.verdict != "supported"
    assert kept.rule == "figure.attached"
    assert reader.asked == []
