"""The shipped entailment model, the parts a claim is cut into, and the provider judge.

The model's files are checked against their SHA-256 before first use; a claim with two facts
is judged part by part; ``Policy(support_judge="provider")`` asks the team's LLM once per
answer and never turns a reply it cannot read into ``supported``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from citeproof import Policy, PolicyError, Source, SupportModelError, verify
from citeproof.providers import FunctionProvider, Request
from citeproof.verifier.support import _nli as nli
from citeproof.verifier.support._parts import claim_parts
from citeproof.verifier.support._provider_judge import read_verdicts
from tests.cli_runs import invoke
from tests.support_runs import support_of

ROOT = Path(__file__).resolve().parent.parent
POLICY = Source(
    id="policy",
    kind="document",
    text=(
        "Applications with a loan-to-value ratio above 80% must be referred to a senior "
        "underwriter before an offer is issued. Applications above 95% are declined."
    ),
)


def test_the_shipped_model_is_checked_against_its_sha256() -> None:
    model, tokenizer = nli.read_shipped()
    assert len(model) > 1_000_000 and json.loads(tokenizer)["model"]["type"] == "WordPiece"
    with pytest.raises(SupportModelError, match=r"model\.onnx has sha256"):
        nli.read_shipped(model_sha256="0" * 64)
    with pytest.raises(SupportModelError, match=r"tokenizer\.json has sha256"):
        nli.read_shipped(tokenizer_sha256="0" * 64)


def test_the_model_scores_entailment_and_contradiction_apart() -> None:
    model = nli.NliModel.get()
    assert model is not None
    passage = "The Customer may terminate the agreement on thirty days' written notice."
    entails, contradicts = model.score(
        [
            (passage, "The Customer can end the agreement with thirty days' notice."),
            (passage, "The Customer may not terminate the agreement."),
        ]
    )
    assert entails.entails > entails.contradicts
    assert contradicts.contradicts > contradicts.entails
    for e in (entails, contradicts):
        assert abs(e.entails + e.contradicts + e.neither - 1.0) < 1e-3


def test_a_pairs_score_does_not_depend_on_what_is_scored_with_it() -> None:
    """The int8 model quantises activations over the whole input tensor: batched, a pair's
    probabilities would move with its batch-mates and their padding. A fresh model each
    time, so nothing comes from the cache."""
    model, tokenizer_json = nli.read_shipped()
    passage = POLICY.text
    claim = "Loans above 80% go to a senior underwriter."
    mates = [
        # the same number of tokens, one number changed
        (passage, "Loans above 95% go to a senior underwriter."),
        # longer pairs: the claim alone would be padded to their length in a batch
        (
            passage + " Every referral is logged in the case file within two working days.",
            "An application with a loan-to-value ratio of 90% is referred to a senior "
            "underwriter, who decides before any offer is issued.",
        ),
        (passage, "Applications above 95% are declined and never reach an underwriter."),
    ]
    from tokenizers import Tokenizer

    tokens = Tokenizer.from_str(tokenizer_json)
    length = len(tokens.encode(passage, claim).ids)
    assert len(tokens.encode(*mates[0]).ids) == length
    assert all(len(tokens.encode(*m).ids) > length for m in mates[1:])
    (alone,) = nli.NliModel(model, tokenizer_json).score([(passage, claim)])
    together = nli.NliModel(model, tokenizer_json).score([*mates, (passage, claim)])
    assert together[-1] == alone
    for mate, scored in zip(mates, together, strict=False):
        assert nli.NliModel(model, tokenizer_json).score([mate]) == [scored]


@pytest.mark.parametrize(
    ("claim", "parts"),
    [
        ("The loan was approved on 3 May.", ["The loan was approved on 3 May."]),
        (
            "The loan was approved on 3 May, and the borrower signed the offer a week later.",
            ["The loan was approved on 3 May", "the borrower signed the offer a week later."],
        ),
        (
            "Rates rose in March; the lender kept its fixed products unchanged.",
            ["Rates rose in March", "the lender kept its fixed products unchanged."],
        ),
        ("Tea, and coffee, are served.", ["Tea, and coffee, are served."]),
    ],
)
def test_a_claim_is_cut_into_the_facts_it_holds(claim: str, parts: list[str]) -> None:
    assert [claim[s:e] for s, e in claim_parts(claim)] == parts


def test_a_claim_with_one_part_backed_and_one_not_is_partial_with_its_reason() -> None:
    answer = verify(
        "Loans above 80% LTV are referred to a senior underwriter, and the broker receives "
        "a fee of 2% for each referral [policy].",
        [POLICY],
    )
    (claim,) = [c for c in answer.claims if c.support]
    (support,) = claim.support
    assert support.verdict in ("partial", "unsupported")
    assert "broker" in support.reason or "2%" in support.reason or "part" in support.reason


def test_the_provider_judge_asks_once_per_answer_and_caches() -> None:
    asked: list[Request] = []

    def respond(request: Request) -> str:
        asked.append(request)
        items = request.prompt.count("Item ")
        return json.dumps(
            [{"item": n, "verdict": "entails", "reason": "it says so"} for n in range(1, items + 1)]
        )

    provider = FunctionProvider(respond)
    policy = Policy(support_judge="provider")
    text = (
        "Loans above 80% LTV go to a senior underwriter [policy]. "
        "Applications above 95% are turned down [policy]."
    )
    answer = verify(text, [POLICY], policy=policy, support_provider=provider)
    assert [c.verdict for c in answer.claims if c.support] == ["supported", "supported"]
    assert {s.method for c in answer.claims for s in c.support} == {"provider"}
    assert len(asked) == 1  # both claims in one call
    verify(text, [POLICY], policy=policy, support_provider=provider)
    assert len(asked) == 1  # the same answer again: from the cache


def test_a_provider_reply_that_cannot_be_read_is_never_supported() -> None:
    provider = FunctionProvider.answering("Sure! Everything looks supported to me.")
    answer = verify(
        "Loans above 80% LTV go to a senior underwriter [policy].",
        [POLICY],
        policy=Policy(support_judge="provider"),
        support_provider=provider,
    )
    (support,) = answer.claims[0].support
    assert support.verdict != "supported"
    assert "could not be read" in support.reason


def test_the_provider_judge_needs_a_provider() -> None:
    with pytest.raises(PolicyError, match="support_judge"):
        verify(
            "Loans go to an underwriter [policy].",
            [POLICY],
            policy=Policy(support_judge="provider"),
        )


def test_verdicts_are_read_item_by_item() -> None:
    reply = 'Here: [{"item": 2, "verdict": "contradicts", "reason": "says 95%"}, {"item": 9}]'
    first, second = read_verdicts(reply, 2)
    assert first.entailment.neither == 1.0 and "could not be read" in first.reason
    assert second.entailment.contradicts == 1.0 and second.reason == "says 95%"


def test_training_still_runs_end_to_end_on_a_few_pairs(tmp_path: Path) -> None:
    """The training script on 48 pairs made from the repository's own examples (no data set
    needed): trains, exports ONNX, quantises, writes the manifest (needs the ``train`` extra;
    CITEPROOF_REQUIRE_TRAIN=1 makes it mandatory)."""
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        if os.environ.get("CITEPROOF_REQUIRE_TRAIN") == "1":
            raise
        pytest.skip("the train extra is not installed: pip install 'citeproof[train]'")
    ship = tmp_path / "ship"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "train" / "train_support_model.py"),
            "--smoke",
            "--pairs",
            "48",
            "--epochs",
            "1",
            "--batch",
            "16",
            "--out",
            str(tmp_path / "run"),
            "--ship",
            str(ship),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    manifest = json.loads((ship / "manifest.json").read_text())
    assert manifest["labels"] == ["entails", "contradicts", "neither"]
    assert manifest["training"]["pairs"] == 48
    assert (ship / "model.onnx").stat().st_size > 1_000_000


RESULTS = Source(
    id="q3-results",
    kind="document",
    title="Third-quarter results",
    text=(
        "Revenue rose 8% to $4.2 billion in the third quarter, driven by cloud sales. Operating "
        "costs were flat. The company lowered its full-year forecast because of weak demand in "
        "Europe. The board approved a dividend of 40 cents per share."
    ),
)


def _judged(claim: str, judge: str) -> tuple[str, str]:
    policy = Policy(support_judge=judge)  # type: ignore[arg-type]
    support = support_of(f"{claim} [q3-results]", [RESULTS], policy=policy)
    return support.verdict, support.method


def test_lexical_and_model_overrules_a_supported_claim_the_model_reads_as_contradicted() -> None:
    """Every word of "Revenue rose 8% despite weak cloud sales" is the source's; the model
    reads "driven by cloud sales" against it. With ``lexical+model`` the model's verdict
    stands."""
    claim = "Revenue rose 8% despite weak cloud sales."
    assert _judged(claim, "lexical")[0] == "supported"
    assert _judged(claim, "lexical+model") == ("contradicted", "entailment")


def test_lexical_and_model_keeps_the_heads_verdict_otherwise() -> None:
    true_claim = "The board approved a dividend of 40 cents per share."
    verdict, method = _judged(true_claim, "lexical+model")
    assert verdict == "supported" and method == _judged(true_claim, "lexical")[1]
    assert method != "entailment"
    turned = "The company raised its full-year forecast."  # the fact layer's own contradiction
    assert _judged(turned, "lexical+model")[0] == "contradicted"


def test_lexical_and_model_is_a_judge_the_cli_and_policy_name(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="'lexical', 'model', 'lexical\\+model', 'provider'"):
        Policy(support_judge="both")  # type: ignore[arg-type]
    results = tmp_path / "results.txt"
    results.write_text(RESULTS.text, encoding="utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text("Revenue rose 8% despite weak cloud sales [q3-results].", encoding="utf-8")
    code, out, err = invoke(
        "verify",
        str(answer),
        "--source",
        f"q3-results={results}",
        "--support-judge",
        "lexical+model",
        "--format",
        "json",
    )
    assert code == 0, err
    (claim,) = json.loads(out)["claims"]
    assert claim["support"][0]["verdict"] == "contradicted"
