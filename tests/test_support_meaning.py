"""Meaning, not words: a claim that keeps the source's words but moves its meaning is never
``supported``, and one that says the same in other words is. Judged by the shipped
entailment model (``Policy(support_judge="model")``) and, at the end, by the default judge.

The cases the model does not get right yet are strict xfails: each names what a careful
reader would say, and passes (failing the xfail) the day a model that reads it ships.

Each claim is verified alone, as a team's answer would carry it (``CLAIM [source]``), against
a services agreement, a credit-policy email, a support ticket and the lending team's example
sources; each verdict comes with a reason a reader understands. The claims are the ones a new
user tried: party swaps, dropped and mis-scoped negations, antonyms, reversed conditions, and
true restatements (a duration in other units, a synonym).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof import Policy, Source, verify
from citeproof.model import ClaimSupport
from citeproof.sources import read_source_file
from citeproof.testing import assert_cited
from tests.cli_runs import invoke
from tests.support_runs import support_of, true_claim

LENDING = Path(__file__).resolve().parent.parent / "examples" / "lending"
MODEL = Policy(support_judge="model")

AGREEMENT = Source(
    id="msa",
    kind="document",
    title="Services agreement",
    text=(
        "1. Term. This Agreement starts on 1 March 2025 and runs for three years.\n\n"
        "2. Termination. Either party may terminate this Agreement on ninety (90) days' "
        "written notice. The Customer may also terminate for convenience on thirty (30) days' "
        "written notice; the Supplier may not.\n\n"
        "3. Liability. The Supplier's total liability in any contract year is capped at the "
        "fees paid in that year. Neither party excludes or limits liability for fraud.\n\n"
        "4. Fees. The Supplier may increase the fees by up to 3% a year, but only after the "
        "first anniversary of the start date."
    ),
)
CREDIT = Source(
    id="credit",
    kind="email_body",
    title="Credit policy update",
    text=(
        "Hi all,\n\nFrom Monday, applications above 95% LTV are declined outright. Exceptions "
        "to the policy may be approved by the Head of Credit, not by branch managers.\n\n"
        "Thanks, Dana"
    ),
)
TICKET = Source(
    id="ticket",
    kind="email_body",
    title="Re: router fault",
    text=(
        "Hello, the router still drops the connection every evening. I have not opened the "
        "router's case and I will wait for your engineer on Thursday."
    ),
)


def judged(claim: str, *sources: Source, policy: Policy = MODEL) -> ClaimSupport:
    cited = sources[0].id
    support = support_of(
        f"{claim} [{cited}]", [AGREEMENT, CREDIT, TICKET, *sources[1:]], policy=policy
    )
    assert support.reason, "every verdict says why"
    return support


MEANING_MOVED = [
    pytest.param("The Supplier's liability is unlimited.", AGREEMENT, id="antonym-unlimited"),
    pytest.param(
        "Liability for fraud is excluded for both parties.", AGREEMENT, id="mis-scoped-neither"
    ),
    pytest.param(
        "The Supplier may terminate for convenience on 30 days' notice.",
        AGREEMENT,
        id="party-swap",
    ),
    pytest.param("Branch managers can approve exceptions.", CREDIT, id="mis-scoped-not-by"),
    pytest.param("The customer opened the router's case.", TICKET, id="dropped-negation"),
    pytest.param(
        "Fees can rise by up to 3% in the first year.", AGREEMENT, id="reversed-condition"
    ),
    pytest.param("Applications above 95% LTV are approved.", CREDIT, id="antonym-approved"),
]


@pytest.mark.parametrize(("claim", "source"), MEANING_MOVED)
def test_a_claim_whose_meaning_moved_is_contradicted(claim: str, source: Source) -> None:
    support = judged(claim, source)
    assert support.verdict == "contradicted", support
    assert support.passage is not None  # the sentence that says otherwise is shown


MODEL_GAP = "the shipped entailment model reads this restatement as a contradiction"

RESTATED = [
    pytest.param(
        "Either party can end the agreement with three months' written notice.",
        AGREEMENT,
        id="restated-duration",
    ),
    pytest.param(
        "Applications above 95% LTV are rejected.",
        CREDIT,
        id="synonym-declined",
        marks=pytest.mark.xfail(strict=True, reason=MODEL_GAP),
    ),
    pytest.param(
        "The Customer may terminate for convenience with thirty days' written notice.",
        AGREEMENT,
        id="restated-party",
        marks=pytest.mark.xfail(strict=True, reason=MODEL_GAP),
    ),
    pytest.param(
        "Only the Head of Credit may approve exceptions to the policy.",
        CREDIT,
        id="scope",
        marks=pytest.mark.xfail(strict=True, reason=MODEL_GAP),
    ),
]


@pytest.mark.parametrize(("claim", "source"), RESTATED)
def test_a_true_restatement_is_supported(claim: str, source: Source) -> None:
    support = judged(claim, source)
    assert support.verdict == "supported", support
    assert support.passage is not None


def test_a_claim_the_source_does_not_make_is_not_supported() -> None:
    support = judged("The Supplier must insure its liability for fraud.", AGREEMENT)
    assert support.verdict in ("unsupported", "partial"), support


def test_a_claim_with_two_facts_one_unbacked_is_partial() -> None:
    support = judged(
        "The agreement runs for three years, and the Customer pays a setup fee of 500 euros.",
        AGREEMENT,
    )
    assert support.verdict in ("partial", "unsupported"), support
    assert support.verdict != "supported"


@pytest.mark.parametrize("judge", ["model", "lexical"])
def test_the_lending_policy_read_for_meaning(judge: str) -> None:
    policy = read_source_file(LENDING / "credit-policy.md", source_id="policy")
    memo = read_source_file(LENDING / "hartley-memo.txt", source_id="memo")
    answer = verify(
        "Applications above 95% are approved [policy]. "
        "An offer may be issued before the referral to a senior underwriter [policy]. "
        "Self-employed applicants must provide 24 months of certified accounts [policy]. "
        "The applicant supplied a single year of certified accounts [memo].",
        [policy, memo],
        policy=Policy(support_judge=judge),  # type: ignore[arg-type]
    )
    verdicts = [c.verdict for c in answer.claims if c.support]
    assert verdicts == ["contradicted", "contradicted", "supported", "supported"], [
        (c.text, c.support[0].reason) for c in answer.claims if c.support
    ]


def test_a_claim_whose_email_quote_changed_meaning_is_never_supported() -> None:
    """An email's words are kept as written; the claim then says what the model wrote, and
    the source says otherwise."""
    answer = verify(
        'Dana wrote that "applications above 90% LTV are declined outright" [credit].',
        [CREDIT],
    )
    (quote,) = answer.quotes
    assert quote.status == "mismatch" and quote.meaning_changed
    (claim,) = [c for c in answer.claims if c.support]
    assert claim.verdict == "contradicted"
    assert "95%" in claim.support[0].reason


def test_a_claim_whose_quote_was_not_found_is_never_supported() -> None:
    answer = verify(
        'The agreement says "the Customer shall pay all invoices within ten days" and the '
        "Supplier's liability is capped at the fees paid in that year [msa].",
        [AGREEMENT],
    )
    (quote,) = answer.quotes
    assert quote.status == "not_found"
    (claim,) = [c for c in answer.claims if c.support]
    assert claim.verdict in ("unsupported", "contradicted", "partial")
    assert claim.verdict != "supported"


def test_a_claim_whose_document_quote_was_corrected_is_judged_on_the_corrected_words() -> None:
    answer = verify(
        'The agreement says the Supplier may raise fees "by up to 5% a year, but only after the '
        'first anniversary of the start date" [msa].',
        [AGREEMENT],
    )
    (quote,) = answer.quotes
    assert quote.status == "corrected" and quote.meaning_changed
    assert "3%" in answer.text
    (claim,) = [c for c in answer.claims if c.support]
    # The strict default never shows a claim supported whose quote citeproof corrected
    # with another meaning (5% became the source's 3%): the reader must see it.
    assert claim.verdict == "unconfirmed", claim.support
    assert claim.support[0].rule == "quote.meaning_changed"
    head = verify(answer.text, [AGREEMENT], policy=Policy(support_judge="lexical"))
    assert [c.verdict for c in head.claims if c.support] == ["supported"]


CHANGED_FIGURE = (
    'The policy requires that "applications with a loan-to-value ratio above 90% must be '
    'referred to a senior underwriter" [policy].'
)


def test_assert_cited_fails_by_default_on_a_quote_whose_meaning_changed() -> None:
    """Corrected to the policy's 80%, the quote still turned the source's figure round: the
    check a team puts in CI fails without any limit configured."""
    policy = read_source_file(LENDING / "credit-policy.md", source_id="policy")
    with pytest.raises(AssertionError, match=r"(?s)1 quotes changed the meaning.*“80”, not “90”"):
        assert_cited(CHANGED_FIGURE, [policy])
    verified = assert_cited(CHANGED_FIGURE, [policy], max_meaning_changed=1)
    assert verified.quotes[0].status == "corrected"


def test_assert_cited_fails_by_default_on_a_contradicted_claim() -> None:
    with pytest.raises(AssertionError, match="1 contradicted claims"):
        assert_cited("The customer opened the router's case [ticket].", [TICKET])
    assert_cited("The customer opened the router's case [ticket].", [TICKET], max_contradicted=1)


def test_verify_fail_on_fails_on_the_changed_quote_and_the_contradicted_claim(
    tmp_path: Path,
) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text(
        CHANGED_FIGURE
        + " Self-employed applicants must provide three years of certified accounts [policy]."
    )
    source = f"policy={LENDING / 'credit-policy.md'}"
    code, _, err = invoke("verify", str(answer), "--source", source, "--fail-on", "any")
    assert code == 1
    assert "meaning changed" in err and "(contradicted)" in err


DEFAULT = Policy()


@pytest.mark.parametrize(("claim", "source"), MEANING_MOVED)
def test_the_default_judge_contradicts_a_claim_whose_meaning_moved(
    claim: str, source: Source
) -> None:
    support = judged(claim, source, policy=DEFAULT)
    assert support.verdict == "contradicted", support
    assert support.reason.startswith("the passage says “"), support.reason


@pytest.mark.parametrize(("claim", "source"), [pytest.param(*p.values, id=p.id) for p in RESTATED])
def test_the_default_judge_supports_a_true_restatement(claim: str, source: Source) -> None:
    true_claim(f"{claim} [{source.id}]", [AGREEMENT, CREDIT, TICKET])
