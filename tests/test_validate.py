"""The validator: matching, well-formed evidence for every citation (issue 4 §2, SPEC D, E)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from citeproof import VerifiedAnswer, verify
from citeproof.errors import EvidenceError
from citeproof.outcome import build_evidence
from citeproof.outcome._evidence import Evidence, EvidenceBundle
from citeproof.outcome.validate import Validation, validate
from tests.lending import POLICY, SOURCES
from tests.test_golden import example_answer

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ANSWER = (
    'The policy says "Applications above 95% are declined." [S1]. '
    'Dan wrote that "the valuation came back at £412,000" [S2]. '
    "Self-employed applicants need two years of accounts [S1, ¶5]."
)


def lending_answer() -> VerifiedAnswer:
    return verify(ANSWER, SOURCES, answer_id="hartley-1", now=NOW)


def with_item(bundle: EvidenceBundle, index: int, **changes: object) -> EvidenceBundle:
    items = list(bundle.evidence)
    items[index] = replace(items[index], **changes)  # type: ignore[arg-type]
    return EvidenceBundle(bundle.answer_id, tuple(items))


def test_well_formed_evidence_passes_with_full_coverage() -> None:
    answer = lending_answer()
    validation = validate(answer, build_evidence(answer))
    assert validation.ok and validation.problems == ()
    assert (validation.coverage.claims, validation.coverage.with_evidence) == (3, 3)
    assert validation.coverage.ratio == 1.0


def test_coverage_on_the_example_answer_spec_e() -> None:
    answer = example_answer()
    validation = validate(answer, build_evidence(answer), mode="flag")
    coverage = validation.coverage
    # c1 (the question) and c2 ("Yes.") assert nothing: not numbered, not counted. c5 carries
    # no citation: a gap, not an error. c3's quote was corrected with its meaning changed ("any
    # offer is made" is not "an offer is issued", F.1): the strict judge leaves it unconfirmed,
    # never supported; c8 and the paraphrases c10-c13 have evidence, but their sources do not
    # support them.
    gaps = ("c3", "c5", "c8", "c10", "c11", "c12", "c13")
    assert (coverage.claims, coverage.with_evidence, coverage.gaps) == (11, 4, gaps)
    assert coverage.claims == len(answer.numbered_claims())
    assert coverage.ratio == pytest.approx(4 / 11)
    assert validation.to_json()["coverage"]["ratio"] == 0.3636


def test_example_answer_citing_a_source_not_provided_is_rejected_issue4() -> None:
    answer = example_answer()
    with pytest.raises(EvidenceError) as error:
        validate(answer, build_evidence(answer))
    assert (error.value.claim_id, error.value.quote_id, error.value.field) == (
        "c8",
        "q6",
        "evidence",
    )
    assert "rates" in str(error.value)


BAD = [
    pytest.param({"doc_id": ""}, "doc_id", id="empty doc_id"),
    pytest.param({"doc_id": "   "}, "doc_id", id="blank doc_id"),
    pytest.param({"version": None}, "version", id="no version"),
    pytest.param({"version": ""}, "version", id="empty version"),
    pytest.param({"excerpt": "Applications above 90% are declined."}, "excerpt", id="excerpt"),
    pytest.param({"excerpt": ""}, "excerpt", id="empty excerpt"),
    pytest.param({"span": (5000, 5036)}, "span", id="span outside text"),
    pytest.param({"span": (10, 10)}, "span", id="empty span"),
    pytest.param({"confidence": 1.2}, "confidence", id="confidence above 1"),
    pytest.param({"confidence": -0.1}, "confidence", id="confidence below 0"),
    pytest.param({"content_hash": "sha256:" + "0" * 64}, "content_hash", id="unknown version"),
    pytest.param({"source_id": "rates"}, "source_id", id="source not provided"),
    pytest.param({"paragraph": 40}, "paragraph", id="paragraph"),
    pytest.param({"retrieved_at": "yesterday"}, "retrieved_at", id="retrieved_at"),
    pytest.param({"claim_id": "c9"}, "claim_id", id="unknown claim"),
    pytest.param({"quote_id": "q9"}, "quote_id", id="unknown quote"),
]


@pytest.mark.parametrize(("change", "field"), BAD)
def test_malformed_evidence_is_rejected_with_a_precise_error_issue4(
    change: dict[str, object], field: str
) -> None:
    answer = lending_answer()
    bundle = with_item(build_evidence(answer), 0, **change)
    with pytest.raises(EvidenceError) as error:
        validate(answer, bundle)
    assert error.value.field == field
    assert error.value.claim_id == change.get("claim_id", "c1")
    if field not in ("quote_id", "claim_id"):
        assert error.value.quote_id == "q1"
    assert f"field {field!r}" in str(error.value)


@pytest.mark.parametrize(("change", "field"), BAD)
def test_malformed_evidence_is_flagged_in_flag_mode_issue4(
    change: dict[str, object], field: str
) -> None:
    answer = lending_answer()
    bundle = with_item(build_evidence(answer), 0, **change)
    validation = validate(answer, bundle, mode="flag")
    assert not validation.ok
    assert field in {p.field for p in validation.problems}
    assert validation.coverage.with_evidence <= 3


def test_an_excerpt_from_another_version_is_rejected_against_the_cited_version() -> None:
    answer = lending_answer()
    revised = replace(POLICY, text=POLICY.text.replace("95%", "90%"))
    old = verify(ANSWER.replace("95%", "90%"), (revised, *SOURCES[1:]), answer_id="x", now=NOW)
    stale = build_evidence(old).evidence[0]  # the revised version's excerpt, with its hash
    assert stale.span == build_evidence(answer).evidence[0].span
    for changes in ({"content_hash": stale.content_hash}, {"excerpt": stale.excerpt}):
        bundle = with_item(build_evidence(answer), 0, **changes)
        with pytest.raises(EvidenceError) as error:
            validate(answer, bundle)
        assert error.value.field in changes
    bundle = with_item(
        build_evidence(answer), 0, content_hash=stale.content_hash, excerpt=stale.excerpt
    )
    with pytest.raises(EvidenceError, match="not a provided version") as error:
        validate(answer, bundle)
    assert error.value.field == "content_hash"


def test_missing_evidence_for_a_quote_is_rejected_issue4() -> None:
    answer = lending_answer()
    bundle = build_evidence(answer)
    without = EvidenceBundle(answer.id, bundle.evidence[1:])
    with pytest.raises(EvidenceError) as error:
        validate(answer, without)
    assert (error.value.claim_id, error.value.quote_id, error.value.field) == (
        "c1",
        "q1",
        "evidence",
    )
    flagged = validate(answer, without, mode="flag")
    assert flagged.coverage.gaps == ("c1",)


def test_missing_evidence_for_a_citation_without_a_quote_is_rejected_issue4() -> None:
    answer = lending_answer()
    bundle = build_evidence(answer)
    assert bundle.evidence[-1].quote_id is None
    without = EvidenceBundle(answer.id, bundle.evidence[:-1])
    with pytest.raises(EvidenceError) as error:
        validate(answer, without)
    assert (error.value.claim_id, error.value.quote_id, error.value.field) == (
        "c3",
        None,
        "evidence",
    )


def test_a_citation_naming_no_paragraph_and_no_quote_is_missing_evidence() -> None:
    answer = verify("The LTV rules changed recently [S1].", SOURCES, answer_id="a", now=NOW)
    # Without claim support (an answer built by hand), nothing locates the citation.
    answer = replace(answer, claims=tuple(replace(c, support=()) for c in answer.claims))
    validation = validate(answer, build_evidence(answer), mode="flag")
    (problem,) = validation.problems
    assert (problem.claim_id, problem.field) == ("c1", "evidence")
    assert "names no paragraph" in problem.message


def test_a_claim_its_source_does_not_support_is_a_coverage_gap_issue10() -> None:
    answer = verify("Applications above 90% are declined [S1].", SOURCES, answer_id="a", now=NOW)
    validation = validate(answer, build_evidence(answer), mode="flag")
    assert validation.problems == ()
    assert answer.claims[0].verdict != "supported"
    assert (validation.coverage.with_evidence, validation.coverage.gaps) == (0, ("c1",))


def test_evidence_at_the_uncorrected_location_is_rejected_issue4() -> None:
    answer = example_answer()
    bundle = build_evidence(answer)
    index = next(n for n, e in enumerate(bundle) if e.quote_id == "q3")
    item = bundle.evidence[index]
    # q3 was cited as policy ¶2; evidence pointing there is the uncorrected citation.
    start, end = answer.sources[0].paragraph_spans()[1]
    text = answer.sources[0].text[start:end]
    bad = with_item(bundle, index, paragraph=2, span=(start, end), excerpt=text)
    validation = validate(answer, bad, mode="flag")
    assert any(p.quote_id == "q3" and p.field == "span" for p in validation.problems)
    assert item.paragraph == 5


def test_duplicate_evidence_for_a_quote_is_flagged() -> None:
    answer = lending_answer()
    bundle = build_evidence(answer)
    doubled = EvidenceBundle(answer.id, (bundle.evidence[0], *bundle.evidence))
    validation = validate(answer, doubled, mode="flag")
    assert [(p.quote_id, p.field) for p in validation.problems] == [("q1", "quote_id")]


def test_a_bundle_for_another_answer_is_rejected() -> None:
    answer = lending_answer()
    bundle = EvidenceBundle("other", build_evidence(answer).evidence)
    with pytest.raises(EvidenceError) as error:
        validate(answer, bundle)
    assert error.value.field == "answer_id"


def test_reject_mode_attaches_every_problem() -> None:
    answer = lending_answer()
    bundle = with_item(build_evidence(answer), 0, doc_id="", version=None)
    with pytest.raises(EvidenceError) as error:
        validate(answer, bundle)
    assert [p.field for p in error.value.problems] == ["doc_id", "version"]


def test_a_validation_is_a_plain_value() -> None:
    answer = lending_answer()
    validation = validate(answer, build_evidence(answer), mode="flag")
    assert isinstance(validation, Validation)
    assert validation.to_json()["ok"] is True
    assert validation.bundle_hash == build_evidence(answer).bundle_hash


def test_unknown_mode_is_an_error() -> None:
    answer = lending_answer()
    with pytest.raises(ValueError, match="mode"):
        validate(answer, build_evidence(answer), mode="warn")  # type: ignore[arg-type]


def test_evidence_confidence_must_be_a_finite_number() -> None:
    item = build_evidence(lending_answer()).evidence[0]
    with pytest.raises(ValueError, match="finite"):
        replace(item, confidence=float("nan"))
    data = item.to_json() | {"confidence": float("inf")}
    with pytest.raises(EvidenceError) as error:
        Evidence.from_json(data)
    assert error.value.field == "confidence"
