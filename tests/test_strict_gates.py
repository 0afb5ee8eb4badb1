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
    ("claim", "entails", "verdict", "rule"),
    [
        # "snapshot": no WordNet sense shared with "backup"; the verb is matched.
        ("The Provider keeps each snapshot for five weeks.", 0.9, "supported", "model.raised"),
        (
            "The Provider keeps each snapshot for five weeks.",
            0.3,
            "unconfirmed",
            "match.every_word",
        ),
        # "retains": the claim's verb itself has no match, which the model is not asked for.
        (
            "The Provider retains every backup for five weeks.",
            0.9,
            "unconfirmed",
            "match.predicate",
        ),
    ],
)
def test_the_model_raises_only_words_the_lexicon_missed_and_orders_the_rest(
    claim: str, entails: float, verdict: str, rule: str
) -> None:
    from citeproof.verifier.support import SupportJudge
    from citeproof.verifier.support._promise import kept_promise
    from citeproof.verifier.support._request import Request

    source = Source(
        id="sla", kind="document", text="The Provider keeps each backup for five weeks."
    )
    judge = SupportJudge(STRICT)
    found = judge.examine(claim, source)
    request = Request(claim, source)
    (support,) = judge._judged([request], [found])
    reader = _Reader(entails)
    kept = kept_promise(request, found, support, lambda: reader)  # type: ignore[return-value]
    if support.verdict != "supported":
        pytest.skip(f"the head did not back it ({support.verdict}): nothing for the model")
    assert kept.verdict == verdict
    assert kept.rule == rule
    if rule == "match.predicate":
        assert reader.asked == []
        return
    assert kept.score == entails
    assert reader.asked == [("The Provider keeps each backup for five weeks.", claim)]


def test_the_model_never_overrules_a_structural_finding() -> None:
    from citeproof.verifier.support import SupportJudge
    from citeproof.verifier.support._promise import kept_promise
    from citeproof.verifier.support._request import Request

    source = Source(id="loan", kind="document", text=LOAN)
    claim = "Facility B carries a Margin of 2.75% per annum."
    judge = SupportJudge(STRICT)
    found = judge.examine(claim, source)
    request = Request(claim, source)
    (support,) = judge._judged([request], [found])
    reader = _Reader(0.99)
    kept = kept_promise(request, found, support, lambda: reader)  # type: ignore[return-value]
    assert kept.verdict != "supported"
    assert kept.rule == "figure.attached"
    assert reader.asked == []


def test_only_the_review_band_is_escalated_in_one_call_and_the_summary_counts_it() -> None:
    from citeproof.providers import FunctionProvider
    from citeproof.render import render

    asked: list[str] = []

    def respond(request: object) -> str:
        prompt = request.prompt  # type: ignore[attr-defined]
        asked.append(prompt)
        items = prompt.count("Item ")
        return json.dumps(
            [
                {"item": n, "verdict": "contradicts", "reason": "B is 2.25%"}
                for n in range(1, items + 1)
            ]
        )

    provider = FunctionProvider(respond)
    sources = [Source(id="loan", kind="document", text=LOAN)]
    answer = FALSE.strip() + " " + TRUE.strip()
    verified = verify(answer, sources, policy=STRICT, support_provider=provider)
    verdicts = [c.verdict for c in verified.claims]
    assert verdicts == ["contradicted", "supported"]
    (escalated,) = verified.claims[0].support
    assert (escalated.method, escalated.rule) == ("provider", "escalated")
    assert "B is 2.25%" in escalated.reason
    assert verified.claims[1].support[0].rule == "confirmed"  # decided here, never asked
    assert len(asked) == 1 and asked[0].count("Item ") == 1
    assert "(1 escalated to the configured model)" in render(verified, "html")
    verify(answer, sources, policy=STRICT, support_provider=provider)
    assert len(asked) == 1  # the same answer again: from the cache


def test_escalate_to_is_for_the_strict_judge(files: dict[str, Path]) -> None:
    code, _, err = invoke(
        "verify", str(files["false"]), "--source", f"loan={files['loan']}",
        "--support-judge", "lexical", "--escalate-to", "embedded",
    )  # fmt: skip
    assert code == 2
    assert "--escalate-to goes with the strict judge" in err
