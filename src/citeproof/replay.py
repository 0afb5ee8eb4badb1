"""The audit payload of one answer, and its replay (issue 4 §4, ADR 2).

`audit_payload` gathers everything the deterministic part of a turn needs to run again: the
verified answer (the contract's JSON, original and corrected), the sources' full texts and
versions, the policy, the evidence bundle, the validation, the request facts, the live-value
response, the rule set and the decision. The bundle and the live-value response each carry
the request id. The audit log stores the dict as canonical JSON under that id.

`replay` re-runs the deterministic part from such a payload: it verifies the original answer
again against the logged sources with the logged policy and time, rebuilds and re-validates
the evidence bundle, and decides the logged rules again on the logged facts and live-value
response (the live service is not called). It says whether the same answer, the same bundle
hash, the same validation and the same decision come out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

import rfc8785

from citeproof.contract import answer_to_json
from citeproof.eligibility import eligibility_from_json
from citeproof.errors import CiteproofError, InputError
from citeproof.evidence import EvidenceBundle, build_evidence, content_hash
from citeproof.live import LiveResponse
from citeproof.model import Policy, Source, VerifiedAnswer
from citeproof.rules import Decision, decide, parse_rules
from citeproof.validate import Validation, validate
from citeproof.values import as_values, values_from_json, values_to_json
from citeproof.verification import verify

AUDIT_SCHEMA = "citeproof/audit-payload/1"

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def request_id_for(answer_id: str, facts: Mapping[str, object]) -> str:
    """A reproducible request id: the same answer id and facts always give the same id."""
    data: dict[str, Any] = {"answer_id": answer_id}
    data["facts"] = values_to_json(as_values(facts, where="facts"))
    return "req_" + hashlib.sha256(rfc8785.dumps(data)).hexdigest()[:24]


def audit_payload(
    answer: VerifiedAnswer,
    bundle: EvidenceBundle,
    validation: Validation,
    facts: Mapping[str, object] | None,
    live: LiveResponse | None,
    decision: Decision | None,
    request_meta: Mapping[str, Any],
) -> dict[str, Any]:
    """The JSON-serialisable audit record of one answer and, when rules ran, its decision.

    ``request_meta`` must hold the ``request_id`` (the one the live values were fetched
    under, when there are any); the rest of it (user, question, timings...) is logged as given
    and must be JSON values. ``facts``, ``live`` and ``decision`` are None for an answer that
    went through no rules. Raises `InputError` when the parts do not belong together.
    """
    request_id = request_meta.get("request_id")
    if not isinstance(request_id, str) or not request_id:
        raise InputError("must hold the request id", where="request_meta", field="request_id")
    if live is not None and live.request_id != request_id:
        raise InputError(
            f"the live values were fetched for request {live.request_id!r}, not {request_id!r}",
            field="live",
        )
    for part, answer_id in (("bundle", bundle.answer_id), ("validation", validation.answer_id)):
        if answer_id != answer.id:
            raise InputError(f"is for answer {answer_id!r}, not {answer.id!r}", field=part)
    payload = {
        "schema": AUDIT_SCHEMA,
        "request_id": request_id,
        "request": dict(request_meta),
        "verified_at": _verified_at(answer),
        "answer": answer_to_json(answer),
        "sources": [_source_json(source) for source in answer.sources],
        "evidence": {"request_id": request_id, **bundle.to_json()},
        "validation": validation.to_json(),
        "facts": values_to_json(as_values(facts, where="facts")) if facts is not None else None,
        "live": live.to_json() if live is not None else None,
        "rules": decision.rules.to_json() if decision is not None else None,
        "decision": decision.to_json() if decision is not None else None,
    }
    try:
        rfc8785.dumps(payload)
    except rfc8785.CanonicalizationError as error:
        raise InputError(f"is not JSON-serialisable: {error}", field="request_meta") from None
    return payload


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What a replay found: each part the same as logged, or the differences."""

    request_id: str
    same_answer: bool
    same_bundle: bool
    same_validation: bool
    same_decision: bool
    logged_bundle_hash: str
    replayed_bundle_hash: str
    logged_outcome: str
    replayed_outcome: str
    differences: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when the replay reproduced the logged answer, bundle and decision exactly."""
        return not self.differences


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Re-run verification, evidence, validation and rules from an `audit_payload` record.

    Raises `InputError` when the record is not an audit payload or is malformed.
    """
    if not isinstance(record, Mapping) or record.get("schema") != AUDIT_SCHEMA:
        raise InputError(f"not an audit payload (schema {AUDIT_SCHEMA!r})", field="schema")
    try:
        return _replay(record)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, CiteproofError):
            raise
        raise InputError(f"malformed audit payload: {error!r}", field="record") from None


def _replay(record: Mapping[str, Any]) -> ReplayResult:
    differences: list[str] = []
    logged_answer = record["answer"]
    sources = [_source(item, n, differences) for n, item in enumerate(record["sources"])]
    verified_at = record.get("verified_at")
    logged_eligibility = logged_answer.get("eligibility")
    answer = verify(
        logged_answer["original"],
        sources,
        policy=Policy(**logged_answer["policy"]),
        answer_id=logged_answer["id"],
        now=datetime.fromisoformat(verified_at) if verified_at else _EPOCH,
        eligibility=eligibility_from_json(logged_eligibility) if logged_eligibility else None,
    )
    same_answer = answer_to_json(answer) == logged_answer
    if not same_answer:
        differences.append("verification: the answer verifies differently now")

    bundle = build_evidence(answer)
    logged_evidence = record["evidence"]
    logged_hash = str(logged_evidence.get("bundle_hash"))
    same_bundle = bundle.bundle_hash == logged_hash
    if not same_bundle:
        differences.append(f"evidence: bundle {bundle.bundle_hash} instead of {logged_hash}")
    else:
        EvidenceBundle.from_json({k: v for k, v in logged_evidence.items() if k != "request_id"})

    validation = validate(answer, bundle, mode="flag").to_json()
    same_validation = validation == record["validation"]
    if not same_validation:
        differences.append("validation: the evidence validates differently now")

    logged_decision = record.get("decision") or {"outcome": "none"}
    decision: Mapping[str, Any] = {"outcome": "none"}
    request_ids = [("evidence", logged_evidence.get("request_id"))]
    if record.get("rules") is not None:
        rules = parse_rules(record["rules"], where="record rules")
        live = LiveResponse.from_json(record["live"]) if record.get("live") else None
        facts = values_from_json(record["facts"] or {}, where="record facts")
        decision = decide(rules, facts, live).to_json()
        if live is not None:
            request_ids.append(("live", live.request_id))
    same_decision = decision == logged_decision
    if not same_decision:
        differences.append(
            f"decision: {decision['outcome']} instead of {logged_decision.get('outcome')}"
        )
    for part, request_id in request_ids:
        if request_id != record["request_id"]:
            differences.append(f"{part}: logged under request {request_id!r}")
    return ReplayResult(
        request_id=str(record["request_id"]),
        same_answer=same_answer,
        same_bundle=same_bundle,
        same_validation=same_validation,
        same_decision=same_decision,
        logged_bundle_hash=logged_hash,
        replayed_bundle_hash=bundle.bundle_hash,
        logged_outcome=str(logged_decision.get("outcome")),
        replayed_outcome=str(decision["outcome"]),
        differences=tuple(differences),
    )


def _verified_at(answer: VerifiedAnswer) -> str | None:
    """The time verification stamped its corrections with; None when it made none."""
    for quote in answer.quotes:
        for correction in quote.corrections:
            return correction.time
    return None


def _source_json(source: Source) -> dict[str, Any]:
    data = asdict(source)
    data["paragraphs"] = [list(span) for span in source.paragraphs] if source.paragraphs else None
    data["content_hash"] = content_hash(source.text)
    return data


def _source(item: Mapping[str, Any], position: int, differences: list[str]) -> Source:
    fields = {k: v for k, v in item.items() if k != "content_hash"}
    if fields.get("paragraphs") is not None:
        fields["paragraphs"] = tuple(tuple(span) for span in fields["paragraphs"])
    source = Source(**fields)
    if content_hash(source.text) != item.get("content_hash"):
        differences.append(f"sources[{position}]: the logged text does not match its hash")
    return source
