"""The JSON contract, version 1: what a batch line holds going in and coming out.

Input is validated with pydantic at this edge; inside, citeproof works on plain frozen values.
Offsets in the output are Python ``str`` indices (code points); every span also comes as
``*_utf16`` for browser clients, whose strings count UTF-16 code units.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import asdict, fields
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from citeproof.errors import InputError
from citeproof.model import (
    ClaimSupport,
    Policy,
    Source,
    Span,
    SupportJudgeName,
    VerifiedAnswer,
    expect_instance,
)
from citeproof.outcome._codec import eligibility_to_json, policy_to_json
from citeproof.sources import DEFAULT_LIMITS, ReadLimits, paragraph_locations

SCHEMA_VERSION = "1"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceIn(_Strict):
    id: str = Field(min_length=1)
    kind: Literal["document", "attachment", "email_body"]
    text: str
    title: str | None = None
    doc_id: str | None = None
    version: str | None = None
    url: str | None = None
    paragraphs: list[tuple[int, int]] | None = None
    locations: list[str | None] | None = None

    def to_source(self) -> Source:
        return Source(**self.model_dump())  # the same field names; Source checks the spans


class PolicyIn(_Strict):
    min_similarity: float | None = None
    ineligible_citations: Literal["flag", "remove"] | None = None
    max_ellipsis_gap: int | None = None
    excerpt_context: int | None = None
    support_threshold: float | None = None
    partial_threshold: float | None = None
    support_embeddings: Literal["auto", "off"] | None = None
    support_judge: SupportJudgeName | None = None

    def to_policy(self, base: Policy) -> Policy:
        changes = {k: v for k, v in self.model_dump().items() if v is not None}
        return Policy(**{**asdict(base), **changes})


class BatchLine(_Strict):
    id: str = Field(min_length=1)
    answer: str
    sources: list[SourceIn] = Field(min_length=1)
    policy: PolicyIn | None = None


def read_batch_line(
    raw: str, *, where: str, limits: ReadLimits = DEFAULT_LIMITS
) -> tuple[str, str, list[Source], PolicyIn | None]:
    """One input line → (id, answer, sources, policy), or an `InputError` naming the field
    (a source longer than ``limits.max_source_chars`` too)."""
    try:
        line = BatchLine.model_validate_json(raw)
    except ValidationError as error:
        raise _input_error(error, where) from None
    sources = [s.to_source() for s in line.sources]
    _check_sizes(sources, limits, where)
    return line.id, line.answer, [located(s) for s in sources], line.policy


def read_sources(raw: str, *, where: str, limits: ReadLimits = DEFAULT_LIMITS) -> list[Source]:
    """A sources file: a JSON list of source objects (or ``{"sources": [...]}``); each source
    at most ``limits.max_source_chars`` long."""
    try:
        data = json.loads(raw)
    except RecursionError:
        raise InputError("not valid JSON: nested too deeply", where=where) from None
    except json.JSONDecodeError as error:
        raise InputError(
            f"not valid JSON ({error.msg} at line {error.lineno})", where=where
        ) from None
    return sources_from_json(data, where=where, limits=limits)


def sources_from_json(
    data: Any, *, where: str, limits: ReadLimits = DEFAULT_LIMITS
) -> list[Source]:
    """`read_sources` of JSON already parsed: a list of source objects (or ``{"sources":
    [...]}``), each checked as the contract says."""
    if isinstance(data, dict) and "sources" in data:
        data = data["sources"]
    if not isinstance(data, list):
        raise InputError("expected a JSON list of sources", where=where)
    sources = []
    for position, item in enumerate(data):
        try:
            sources.append(SourceIn.model_validate(item).to_source())
        except ValidationError as error:
            raise _input_error(error, f"{where}: sources[{position}]") from None
    _check_sizes(sources, limits, where)
    return [located(s) for s in sources]


def located(source: Source) -> Source:
    """``source`` with each paragraph named in the document's own terms (its clause and
    section numbers, the heading it is under: `paragraph_locations`), as a file given to
    ``verify --source`` is, when the sender gave no ``locations`` of its own. Email bodies
    keep their paragraph counts."""
    if source.locations is not None or source.is_email:
        return source
    found = paragraph_locations(source.text, source.paragraph_spans())
    return dataclasses.replace(source, locations=found) if any(found) else source


def read_policy(raw: Any, *, where: str, base: Policy) -> Policy:
    """A contract ``policy`` object (any of `PolicyIn`'s settings) over ``base``, or an
    `InputError` naming the setting."""
    try:
        return PolicyIn.model_validate(raw).to_policy(base)
    except ValidationError as error:
        raise _input_error(error, where) from None


def _check_sizes(sources: list[Source], limits: ReadLimits, where: str) -> None:
    for position, source in enumerate(sources):
        if len(source.text) > limits.max_source_chars:
            raise InputError(
                f"the source is {len(source.text):,} characters; the limit is "
                f"{limits.max_source_chars:,} (setting max_source_chars)",
                where=where,
                field=f"sources.{position}.text",
            )


def _input_error(error: ValidationError, where: str) -> InputError:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or None
    message = first["msg"]
    if first["type"] == "json_invalid":
        message = f"not valid JSON: {first.get('ctx', {}).get('error', message)}"
    return InputError(message, where=where, field=field)


def _utf16(text: str, span: Span) -> list[int]:
    def units(end: int) -> int:
        return len(text[:end].encode("utf-16-le", "surrogatepass")) // 2

    return [units(span[0]), units(span[1])]


def answer_to_json(answer: VerifiedAnswer) -> dict[str, Any]:
    """The output record of one verified answer (schema ``verified-answer.schema.json``).

    Raises `InputError` when ``answer`` is not a `VerifiedAnswer`."""
    expect_instance(answer, VerifiedAnswer, "answer")
    quotes = []
    for q in answer.quotes:
        quotes.append(
            {
                "id": q.id,
                "text": q.text,
                "style": q.style,
                "answer_span": list(q.answer_span),
                "answer_span_utf16": _utf16(answer.original, q.answer_span),
                "claim_id": q.claim_id,
                "cited_source": q.cited_source,
                "cited_paragraph": q.cited_paragraph,
                "status": q.status,
                "source": q.source,
                "paragraph": q.paragraph,
                "location": _location(answer, q.source, q.paragraph),
                "source_span": list(q.source_span) if q.source_span else None,
                "score": q.score,
                "method": q.method,
                "corrected_text": q.corrected_text,
                "corrected_span": list(q.corrected_span),
                "corrected_span_utf16": _utf16(answer.text, q.corrected_span),
                "corrections": [asdict(c) for c in q.corrections],
                "excerpt": _excerpt(q.excerpt),
                "note": q.note,
                "differences": [
                    {"kind": d.kind, "before": d.before, "after": d.after} for d in q.differences
                ],
                "meaning_changed": q.meaning_changed,
            }
        )
    claims = [
        {
            "id": c.id,
            "number": c.number,
            "text": c.text,
            "span": list(c.span),
            "original_span": list(c.original_span),
            "citations": [
                {
                    "source": cs.source,
                    "paragraph": cs.paragraph,
                    "marker": cs.marker,
                    "answer_span": list(cs.answer_span),
                    "status": cs.status,
                }
                for cs in c.citations
            ],
            "quote_ids": list(c.quote_ids),
            "verdict": c.verdict,
            "support": [support_to_json(s, answer) for s in c.support],
        }
        for c in answer.claims
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        "id": answer.id,
        "text": answer.text,
        "original": answer.original,
        "counts": answer.counts(),
        "claim_counts": _claim_counts(answer),
        "claims": claims,
        "quotes": quotes,
        "sources": [
            {
                "id": s.id,
                "kind": s.kind,
                "title": s.title,
                "doc_id": s.doc_id,
                "version": s.version,
                "url": s.url,
            }
            for s in answer.sources
        ],
        "policy": policy_to_json(answer.policy),
        **({"eligibility": eligibility_to_json(answer.eligibility)} if answer.eligibility else {}),
    }


def _location(answer: VerifiedAnswer, source_id: str | None, paragraph: int | None) -> str | None:
    """Paragraph ``paragraph`` of ``source_id`` in the document's own terms (`Source.location`)."""
    source = next((s for s in answer.sources if s.id == source_id), None)
    return source.location(paragraph) if source is not None else None


def support_to_json(support: ClaimSupport, answer: VerifiedAnswer | None = None) -> dict[str, Any]:
    """One claim-support judgement as the contract's ``support`` object; with ``answer``, its
    passage's ``location`` in the source's own terms."""
    passage = support.passage
    return {
        "source": support.source,
        "verdict": support.verdict,
        "score": support.score,
        "passage": None
        if passage is None
        else {
            "source": passage.source_id,
            "paragraph": passage.paragraph,
            "span": list(passage.span),
            "text": passage.text,
            **(
                {"location": _location(answer, passage.source_id, passage.paragraph)}
                if answer is not None
                else {}
            ),
        },
        "differences": [
            {"kind": d.kind, "text": d.text, "span": list(d.span), "instead": d.instead}
            for d in support.differences
        ],
        "method": support.method,
        "reason": support.reason,
        # The confirmation rules' (support_judge="strict"), only where they ran.
        **({"rule": support.rule} if support.rule else {}),
        **({"unmatched": list(support.unmatched)} if support.unmatched else {}),
        **({"left_out": list(support.left_out)} if support.left_out else {}),
    }


def _excerpt(excerpt: Any) -> dict[str, Any] | None:
    if excerpt is None:
        return None
    # Field by field: `asdict` deep-copies every value, and here they are strings and ints.
    data = {field.name: getattr(excerpt, field.name) for field in fields(excerpt)}
    data["highlight"] = list(excerpt.highlight)
    return data


def _claim_counts(answer: VerifiedAnswer) -> dict[str, int]:
    """Claims per verdict; ``unconfirmed`` only where a claim is (only the strict judge says
    it), so an answer verified without it reads as it always has."""
    counts = answer.claim_counts()
    if not counts["unconfirmed"]:
        del counts["unconfirmed"]
    return counts
