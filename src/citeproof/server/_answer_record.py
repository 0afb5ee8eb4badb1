"""An answer read back from its audit record: the `VerifiedAnswer` the record was written
from, so the review app draws it with the very components of the answer page.

The record's ``answer`` is the JSON contract (`citeproof.outcome.answer_to_json`) and its
``sources`` carry their texts (`citeproof.outcome.payload_with_texts`). Each value is built
from the members its dataclass has (a member a newer record adds is left out, a missing one
takes the field's default); lists become tuples. What the contract leaves out is rebuilt: a
quote difference's ``changes_meaning`` by the verifier's own rule, a citation's
``written_span`` as its ``answer_span``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from typing import Any, TypeVar, get_args

from citeproof.errors import InputError
from citeproof.model import (
    CitedSource,
    ClaimDifference,
    ClaimSupport,
    Correction,
    Difference,
    DifferenceKind,
    Eligibility,
    Excerpt,
    Exclusion,
    SupportPassage,
    VerifiedAnswer,
    VerifiedClaim,
    VerifiedQuote,
)
from citeproof.outcome import policy_from_json, source_from_json
from citeproof.verifier import difference

_T = TypeVar("_T")
Convert = Callable[[Any], Any]
KINDS: tuple[DifferenceKind, ...] = get_args(DifferenceKind)


def _plain(value: Any) -> Any:
    """JSON lists as tuples, all the way down (spans, ids, pairs)."""
    if isinstance(value, list):
        return tuple(_plain(item) for item in value)
    return value


def _build(kind: type[_T], data: Any, where: str, **convert: Convert) -> _T:
    if not isinstance(data, Mapping):
        raise InputError(f"expected a JSON object, got {type(data).__name__}", where=where)
    values: dict[str, Any] = {}
    for field in fields(kind):  # type: ignore[arg-type]
        if field.name in data:
            raw = data[field.name]
            conversion = convert.get(field.name)
            values[field.name] = conversion(raw) if conversion else _plain(raw)
        elif field.default is MISSING and field.default_factory is MISSING:
            raise InputError("is missing", where=where, field=field.name)
    return kind(**values)


def _each(kind: type[_T], where: str, **convert: Convert) -> Callable[[Any], tuple[_T, ...]]:
    def read(items: Any) -> tuple[_T, ...]:
        return tuple(
            _build(kind, item, f"{where}[{n}]", **convert) for n, item in enumerate(items or ())
        )

    return read


def _quote_differences(items: Any) -> tuple[Difference, ...]:
    found = []
    for item in items or ():
        kind = next((k for k in KINDS if isinstance(item, Mapping) and k == item.get("kind")), None)
        if kind is not None:
            found.append(difference(kind, str(item.get("before", "")), str(item.get("after", ""))))
    return tuple(found)


def _excerpt(data: Any) -> Excerpt | None:
    return None if data is None else _build(Excerpt, data, "excerpt")


def _passage(data: Any) -> SupportPassage | None:
    if data is None:
        return None
    moved = {**data, "source_id": data.get("source")} if isinstance(data, Mapping) else data
    return _build(SupportPassage, moved, "passage")


def _citations(items: Any) -> tuple[CitedSource, ...]:
    cited = []
    for n, item in enumerate(items or ()):
        if isinstance(item, Mapping):
            item = {"written_span": item.get("answer_span"), "quote_ids": [], **item}
        cited.append(_build(CitedSource, item, f"citations[{n}]"))
    return tuple(cited)


def answer_from_record(record: Mapping[str, Any]) -> VerifiedAnswer:
    """The verified answer of an audit record with its sources' texts. Raises `InputError`
    (or the model's own errors) naming what is malformed."""
    answer = record.get("answer")
    if not isinstance(answer, Mapping):
        raise InputError("the record holds no answer", field="answer")
    sources = tuple(
        source_from_json(item, where=f"sources[{n}]")
        for n, item in enumerate(record.get("sources") or ())
    )
    return _build(
        VerifiedAnswer,
        {**answer, "sources": sources},
        "answer",
        claims=_each(
            VerifiedClaim,
            "claims",
            citations=_citations,
            support=_each(
                ClaimSupport,
                "support",
                passage=_passage,
                differences=_each(ClaimDifference, "differences"),
            ),
        ),
        quotes=_each(
            VerifiedQuote,
            "quotes",
            corrections=_each(Correction, "corrections"),
            excerpt=_excerpt,
            differences=_quote_differences,
        ),
        sources=lambda given: given,
        policy=policy_from_json,
        eligibility=lambda data: (
            _build(Eligibility, data, "eligibility", excluded=_each(Exclusion, "excluded"))
            if data
            else None
        ),
        normalised_markers=lambda _: (),
    )


NOT_PROVIDED = ("ineligible", "flagged", "removed")
"""Citation states of a source cited but not provided with the answer."""


def index_counts(answer: VerifiedAnswer) -> dict[str, int]:
    """What the answer index keeps of an answer to filter and sort the review queue on:
    quotes per status, claims per verdict (``claim_*``), quotes whose meaning changed and
    citations of sources not provided (``not_provided``; an answer whose quotes alone cite
    them counts those)."""
    cited = sum(1 for c in answer.claims for cite in c.citations if cite.status in NOT_PROVIDED)
    counts = answer.counts()
    return {
        **counts,
        **{f"claim_{v}": n for v, n in answer.claim_counts().items() if v != "none"},
        "meaning_changed": sum(1 for q in answer.quotes if q.meaning_changed),
        "not_provided": cited or counts["ineligible"],
    }
