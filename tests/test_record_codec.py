"""The audit record's codec: every field of every value an audit record holds is written and
read back the same, through the canonical JSON bytes the log stores.

Each sample below sets every field to something other than its default, so a field added to
one of these dataclasses fails here until the sample sets it too, and then shows that the
record carries it (a plain JSON field needs no edit in the codec; any other needs one line in
``citeproof.outcome._codec._CONVERSIONS``, or importing the codec fails naming the field).
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from decimal import Decimal
from typing import Any

import pytest

from citeproof.canonical import canonical_json
from citeproof.errors import InputError
from citeproof.model import Eligibility, Exclusion, Policy, Source
from citeproof.outcome import _codec as codec
from citeproof.outcome._evidence import Evidence, content_hash
from citeproof.outcome._live import LiveResponse

TEXT = "Dear Ms Okafor,\n\nYour offer of 300,000 pounds stands until 30 November.\n"
SOURCE = Source(
    id="letter-7",
    kind="email_body",
    text=TEXT,
    title="Offer letter",
    doc_id="msg:offer-7",
    version="v2",
    url="https://lender.example/letters/7",
    paragraphs=((0, 15), (17, 71)),
    retrieved_at="2026-11-01T08:30:00Z",
    locations=(None, "§2 Offer"),
)
POLICY = Policy(
    min_similarity=1.0,  # integral: the log writes it as 1
    ineligible_citations="remove",
    max_ellipsis_gap=500,
    excerpt_context=40,
    support_threshold=0.5,
    partial_threshold=0.25,
    support_embeddings="off",
    support_judge="model",
)
EXCLUSION = Exclusion("memo-2", "not_permitted", "not permitted for user 'priya'")
ELIGIBILITY = Eligibility(
    eligible=("letter-7", "policy-1"),
    excluded=(EXCLUSION, Exclusion("old-1", "superseded", "a newer version exists")),
    fingerprint="elig_0123456789abcdef",
)
SAMPLES: dict[type, Any] = {
    Source: SOURCE,
    Policy: POLICY,
    Exclusion: EXCLUSION,
    Eligibility: ELIGIBILITY,
}
READ = {
    Source: codec.source_from_json,
    Policy: codec.policy_from_json,
    Eligibility: codec.eligibility_from_json,
}
WRITE = {
    Source: codec.source_to_json,
    Policy: codec.policy_to_json,
    Eligibility: codec.eligibility_to_json,
}


def as_logged(data: dict[str, Any]) -> Any:
    """``data`` as a log reads it back: its canonical JSON bytes, parsed."""
    return json.loads(canonical_json(data))


def non_default_fields(value: Any) -> list[str]:
    """The fields of ``value`` left at their default (a sample must set every one)."""
    left = []
    for field in fields(value):
        default = field.default if field.default_factory is MISSING else field.default_factory()
        if default is not MISSING and getattr(value, field.name) == default:
            left.append(field.name)
    return left


def test_there_is_a_sample_of_every_record_type_with_every_field_set() -> None:
    assert set(SAMPLES) == set(codec.RECORD_TYPES)
    for kind, sample in SAMPLES.items():
        assert non_default_fields(sample) == [], f"set every field of the {kind.__name__} sample"


@pytest.mark.parametrize("kind", [Source, Policy, Eligibility], ids=lambda k: k.__name__)
def test_every_field_round_trips_through_the_logged_bytes(kind: type) -> None:
    sample = SAMPLES[kind]
    written = WRITE[kind](sample)
    assert [name for name in written if name != "content_hash"] == [
        field.name for field in fields(sample)
    ]
    again = READ[kind](as_logged(written))
    assert again == sample
    for field in fields(sample):
        assert type(getattr(again, field.name)) is type(getattr(sample, field.name)), field.name


def test_a_source_is_logged_with_the_hash_of_its_text() -> None:
    assert codec.source_to_json(SOURCE)["content_hash"] == content_hash(TEXT)
    assert codec.source_to_json(SOURCE, content_hash="sha256:given")["content_hash"] == (
        "sha256:given"
    )
    assert codec.source_to_json(Source(id="s", kind="document", text="x"))["paragraphs"] is None


def test_a_record_from_before_a_field_existed_reads_with_its_default() -> None:
    older = {k: v for k, v in codec.policy_to_json(POLICY).items() if k != "support_judge"}
    assert codec.policy_from_json(older).support_judge == Policy().support_judge
    bare = {"id": "s1", "kind": "document", "text": "Plain text."}
    assert codec.source_from_json(bare) == Source(id="s1", kind="document", text="Plain text.")


def test_a_member_the_record_type_does_not_have_is_refused_by_name() -> None:
    data = {**codec.source_to_json(SOURCE), "colour": "red"}
    with pytest.raises(InputError) as caught:
        codec.source_from_json(data, where="sources[3]")
    assert "not a field of Source: 'colour'" in str(caught.value)
    assert "sources[3]" in str(caught.value)
    with pytest.raises(InputError, match="text"):
        codec.source_from_json({"id": "s1", "kind": "document"}, where="sources[0]")
    with pytest.raises(InputError, match="expected a JSON object"):
        codec.eligibility_from_json(["e1"])  # type: ignore[arg-type]
    written = codec.eligibility_to_json(ELIGIBILITY)
    with pytest.raises(InputError, match="list of source ids"):
        codec.eligibility_from_json({**written, "eligible": "letter-7"})


def test_the_records_other_values_round_trip_every_field() -> None:
    evidence = Evidence(
        doc_id="msg:offer-7",
        version="v2",
        url="https://lender.example/letters/7",
        excerpt="Your offer of 300,000 pounds",
        retrieved_at="2026-11-01T08:30:00Z",
        confidence=0.75,
        source_id="letter-7",
        paragraph=2,
        span=(17, 45),
        content_hash=content_hash(TEXT),
        claim_id="c1",
        quote_id="q1",
        support="supported",
    )
    assert non_default_fields(evidence) == []
    assert Evidence.from_json(as_logged(evidence.to_json())) == evidence
    live = LiveResponse(
        values={"base_rate": Decimal("4.25")},
        source="https://rates.example/today",
        fetched_at="2026-11-02T09:00:00+00:00",
        raw='{"base_rate": 4.25}',
        request_id="req_1",
    )
    again = LiveResponse.from_json(as_logged(live.to_json()))
    assert {f.name: getattr(again, f.name) for f in fields(live)} == {
        f.name: getattr(live, f.name) for f in fields(live)
    }
