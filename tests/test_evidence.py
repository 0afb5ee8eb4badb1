"""The citation manager: evidence objects and bundles (issue 4 §1, SPEC D, ADR 1)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import jsonschema
import pytest
import rfc8785

from citeproof import Source, verify
from citeproof.errors import EvidenceError
from citeproof.outcome import build_evidence
from citeproof.outcome._evidence import UNCHECKED_CITATION_CONFIDENCE, Evidence, EvidenceBundle
from citeproof.outcome._live import LiveResponse
from citeproof.sources import content_hash
from tests.lending import POLICY, SOURCES
from tests.test_golden import example_answer

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[1] / "src/citeproof/schema/evidence.schema.json").read_text(
        encoding="utf-8"
    )
)
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_one_evidence_object_per_found_quote_in_answer_order_adr1() -> None:
    answer = example_answer()
    bundle = build_evidence(answer)
    found = [q.id for q in answer.quotes if q.status in ("verified", "corrected", "mismatch")]
    assert [e.quote_id for e in bundle if e.quote_id is not None] == found
    # The paraphrased claims' citations carry the passage claim support located (issue 10).
    assert all(e.support is not None for e in bundle if e.quote_id is None)
    assert "q6" not in found  # cites `rates`, which was not provided: no evidence


def test_evidence_has_the_fixed_schema_and_validates_against_the_json_schema_adr1() -> None:
    bundle = build_evidence(example_answer())
    data = bundle.to_json()
    jsonschema.validate(data, SCHEMA)
    first = data["evidence"][0]
    assert list(first)[:6] == ["doc_id", "version", "url", "excerpt", "retrieved_at", "confidence"]
    assert set(first) == set(SCHEMA["$defs"]["evidence"]["required"])


def test_excerpt_is_the_sources_exact_text_at_the_span_of_that_version_adr1() -> None:
    answer = example_answer()
    texts = {s.id: s.text for s in answer.sources}
    for item in build_evidence(answer):
        start, end = item.span
        assert texts[item.source_id][start:end] == item.excerpt
        assert (
            item.content_hash
            == "sha256:" + hashlib.sha256(texts[item.source_id].encode()).hexdigest()
        )


def test_corrections_flow_into_the_evidence_never_the_uncorrected_location_issue4() -> None:
    answer = example_answer()
    by_quote = {e.quote_id: e for e in build_evidence(answer)}
    # q3 was cited as policy ¶2; it is in paragraph 5.
    assert (by_quote["q3"].source_id, by_quote["q3"].paragraph) == ("policy", 5)
    # q4 was cited as policy; it is in the memo.
    assert by_quote["q4"].source_id == "memo"
    # q1's wording was corrected: the excerpt is the policy's exact wording, not the answer's.
    assert by_quote["q1"].excerpt.startswith("Applications with a loan-to-value ratio")
    assert by_quote["q1"].excerpt.endswith("before an offer is issued")


def test_confidence_is_deterministic_from_verification_adr1() -> None:
    answer = example_answer()
    scores = {q.id: q.score for q in answer.quotes}
    supports = {(c.id, s.source): s.score for c in answer.claims for s in c.support}
    for item in build_evidence(answer):
        if item.quote_id is None:
            assert item.confidence == supports[(item.claim_id, item.source_id)]
        else:
            assert item.confidence == scores[item.quote_id]
    by_quote = {e.quote_id: e for e in build_evidence(answer)}
    assert by_quote["q5"].confidence == 1.0  # verified word for word
    assert by_quote["q1"].confidence == pytest.approx(0.9397)  # fuzzy, corrected


def test_excerpt_is_the_matched_passage_about_300_bytes_per_citation_adr1() -> None:
    bundle = build_evidence(example_answer())
    sizes = [len(rfc8785.dumps(item.to_json())) for item in bundle]
    per_citation = sum(sizes) / len(sizes)
    # Measured: 397 bytes per citation on the example; the fixed six ADR 1 fields alone: 224.
    assert 250 <= per_citation <= 450
    assert all(len(item.excerpt) < 200 for item in bundle)


def test_bundle_hash_is_sha256_of_rfc8785_canonical_json_of_the_list_adr1() -> None:
    bundle = build_evidence(example_answer())
    canonical = rfc8785.dumps([item.to_json() for item in bundle])
    assert bundle.canonical_json() == canonical
    assert bundle.bundle_hash == "sha256:" + hashlib.sha256(canonical).hexdigest()


def test_same_answer_gives_a_byte_identical_bundle_adr1() -> None:
    assert build_evidence(example_answer()).canonical_json() == (
        build_evidence(example_answer()).canonical_json()
    )


def test_the_content_hash_is_of_each_texts_own_bytes_as_texts_come_and_go() -> None:
    # Each text is made afresh and dropped on the next turn, so ids are reused: a hash
    # remembered for an earlier text must never be given for a later one.
    for n in range(600):
        text = f"clause {n}: fees are capped. " * (n % 7 + 1)
        expected = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
        assert content_hash(text) == expected
        assert content_hash(text) == expected  # the same object again


def test_a_changed_source_version_changes_the_content_hash_and_bundle_hash_adr1() -> None:
    answer = 'The policy says "Applications above 95% are declined." [S1]'
    before = build_evidence(verify(answer, SOURCES, now=NOW))
    revised = replace(POLICY, text=POLICY.text + "\n\n6. Review. Reviewed yearly.")
    after = build_evidence(verify(answer, (revised, *SOURCES[1:]), answer_id="x", now=NOW))
    assert before.evidence[0].content_hash != after.evidence[0].content_hash
    assert before.evidence[0].excerpt == after.evidence[0].excerpt
    assert before.bundle_hash != after.bundle_hash


def test_evidence_carries_doc_id_version_url_and_retrieved_at_of_the_source_adr1() -> None:
    policy = replace(POLICY, retrieved_at="2026-11-29T08:00:00+00:00")
    answer = verify(
        'Loans "above 95% are declined" [S1].', (policy, *SOURCES[1:]), answer_id="a", now=NOW
    )
    (item,) = build_evidence(answer)
    assert (item.doc_id, item.version, item.url) == (
        "credit-policy",
        "7",
        "file:///policies/credit-policy-rev7.pdf",
    )
    assert item.retrieved_at == "2026-11-29T08:00:00+00:00"


def test_a_source_without_version_gets_a_content_addressed_version_adr1() -> None:
    by_quote = {e.quote_id: e for e in build_evidence(example_answer())}
    memo = by_quote["q4"]
    assert memo.doc_id == "memo"
    assert memo.version == memo.content_hash[: len("sha256:") + 12]


def test_a_citation_without_a_quote_gets_the_passage_claim_support_located_issue10() -> None:
    answer = verify(
        "LTV above 80% goes to a senior underwriter [S1, ¶3]. Nothing else [S2].",
        SOURCES,
        answer_id="paraphrase",
        now=NOW,
    )
    (item,) = build_evidence(answer)
    (support,) = answer.claims[0].support
    assert support.passage is not None
    assert item.quote_id is None
    assert (item.source_id, item.paragraph, item.span) == ("S1", 3, support.passage.span)
    assert item.excerpt.startswith("Applications with a loan-to-value ratio above 80%")
    assert (item.confidence, item.support) == (support.score, support.verdict)
    # "Nothing else" shares no word with S2: no passage located, so no evidence for it.
    assert [s.passage for s in answer.claims[1].support] == [None]


def test_a_claim_without_support_gets_its_cited_paragraph_as_evidence_issue4() -> None:
    answer = verify(
        "LTV above 80% goes to a senior underwriter [S1, ¶3].", SOURCES, answer_id="p", now=NOW
    )
    # An answer built without claim support (by hand, or by an older version).
    answer = replace(answer, claims=tuple(replace(c, support=()) for c in answer.claims))
    (item,) = build_evidence(answer)
    start, end = POLICY.paragraph_spans()[2]
    assert (item.source_id, item.paragraph, item.span) == ("S1", 3, (start, end))
    assert item.excerpt.startswith("2. Loan-to-value.")
    assert (item.confidence, item.support) == (UNCHECKED_CITATION_CONFIDENCE, None)


def test_a_long_cited_paragraph_is_cut_at_a_word_boundary() -> None:
    long = Source("long", "document", "Intro.\n\n" + " ".join(["word"] * 200))
    answer = verify("Words everywhere [long, ¶2].", [long], answer_id="long", now=NOW)
    answer = replace(answer, claims=tuple(replace(c, support=()) for c in answer.claims))
    (item,) = build_evidence(answer)
    assert len(item.excerpt) <= 240
    assert long.text[item.span[0] : item.span[1]] == item.excerpt
    assert item.excerpt.endswith("word")


def test_evidence_is_immutable_adr1() -> None:
    item = build_evidence(example_answer()).evidence[0]
    with pytest.raises(AttributeError):
        item.excerpt = "changed"  # type: ignore[misc]
    bundle = build_evidence(example_answer())
    with pytest.raises(AttributeError):
        bundle.bundle_hash = "sha256:" + "0" * 64  # type: ignore[misc]


def test_the_bundle_cannot_hold_live_values_adr2() -> None:
    live = LiveResponse({"base_rate": Decimal("4.25")}, "file:///rates.json", "t", "{}", "r1")
    with pytest.raises(EvidenceError, match="Evidence objects only"):
        EvidenceBundle("a", (live,))  # type: ignore[arg-type]
    item = build_evidence(example_answer()).evidence[0]
    with pytest.raises(EvidenceError, match="confidence"):
        replace(item, confidence=Decimal("4.25"))  # type: ignore[arg-type]
    with pytest.raises(EvidenceError, match="excerpt"):
        replace(item, excerpt={"base_rate": "4.25"})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        replace(item, live=live)  # type: ignore[call-arg]


def test_bundle_json_round_trips_and_a_tampered_bundle_is_rejected_adr1() -> None:
    bundle = build_evidence(example_answer())
    data = json.loads(json.dumps(bundle.to_json()))
    assert EvidenceBundle.from_json(data) == bundle
    data["evidence"][0]["excerpt"] = "Applications are never referred."
    with pytest.raises(EvidenceError, match="bundle_hash"):
        EvidenceBundle.from_json(data)


def test_reading_malformed_evidence_names_the_field() -> None:
    data = build_evidence(example_answer()).evidence[0].to_json()
    del data["version"]
    with pytest.raises(EvidenceError) as missing:
        Evidence.from_json(data)
    assert (missing.value.field, missing.value.claim_id, missing.value.quote_id) == (
        "version",
        "c3",
        "q1",
    )
    data["version"] = 7
    with pytest.raises(EvidenceError) as mistyped:
        Evidence.from_json(data)
    assert mistyped.value.field == "version"


def test_content_hash_names_one_version_of_a_text() -> None:
    assert content_hash("a") == "sha256:" + hashlib.sha256(b"a").hexdigest()
    assert content_hash("a") != content_hash("a ")
