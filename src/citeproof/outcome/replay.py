"""The replay of a logged answer (ADR 2).

`replay` re-runs the deterministic part from such a payload: it verifies the original answer
again against the logged sources with the logged policy and time, rebuilds and re-validates
the evidence bundle, and decides the logged rules again on the logged facts and live-value
response (the live service is not called). It says whether the same answer, the same bundle
hash, the same validation and the same decision come out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from citeproof.errors import CiteproofError, InputError
from citeproof.model import Source
from citeproof.outcome._codec import source_from_json
from citeproof.outcome._evidence import EvidenceBundle, build_evidence
from citeproof.outcome._live import LiveResponse
from citeproof.outcome._payload import ANSWER_SCHEMAS, AUDIT_SCHEMA
from citeproof.outcome._rules import decide, parse_rules
from citeproof.outcome.contract import answer_to_json
from citeproof.outcome.validate import validate
from citeproof.outcome.verify_again import verify_again
from citeproof.sources import content_hash
from citeproof.values import values_from_json


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

    ``record`` carries its sources' texts: read it with `payload_with_texts`. Raises
    `InputError` when the record is not an audit payload or is malformed.
    """
    if not isinstance(record, Mapping) or record.get("schema") not in ANSWER_SCHEMAS:
        raise InputError(f"not an audit payload (schema {AUDIT_SCHEMA!r})", field="schema")
    for position, source in enumerate(record.get("sources") or ()):
        if isinstance(source, Mapping) and "text" not in source:
            raise InputError(
                "carries no text: the log keeps each source's text once, by its content hash; "
                "read the record with payload_with_texts(payload, log)",
                where=f"sources[{position}]",
            )
    try:
        return _replay(record)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, CiteproofError):
            raise
        raise InputError(f"malformed audit payload: {error!r}", field="record") from None


def _replay(record: Mapping[str, Any]) -> ReplayResult:
    differences: list[str] = []
    sources = [_source(item, n, differences) for n, item in enumerate(record["sources"])]
    answer = verify_again(record, sources)
    logged_answer = record["answer"]
    older = _before_numbering(logged_answer)
    same_answer = _as_logged(answer_to_json(answer), older, logged_answer) == logged_answer
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
    logged_validation = record["validation"]
    if older:  # coverage counted every claim with text then; it follows from answer and bundle
        validation = {k: v for k, v in validation.items() if k != "coverage"}
        logged_validation = {k: v for k, v in logged_validation.items() if k != "coverage"}
    same_validation = validation == logged_validation
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


def _before_numbering(logged: Mapping[str, Any]) -> bool:
    """Whether a logged answer predates the claims' numbers (its claims carry no ``number``)."""
    claims = logged.get("claims") or []
    return bool(claims) and all(
        isinstance(claim, Mapping) and "number" not in claim for claim in claims
    )


def _as_logged(fresh: dict[str, Any], older: bool, logged: Mapping[str, Any]) -> dict[str, Any]:
    """The answer verified again, as a record of its version would hold it: without the
    members added since (each follows from what the record does hold)."""
    quotes = fresh["quotes"]
    if older_locations(logged):
        quotes = [{k: v for k, v in quote.items() if k != "location"} for quote in quotes]
        claims = [
            {**claim, "support": [_passage_unlocated(s) for s in claim["support"]]}
            for claim in fresh["claims"]
        ]
        fresh = {**fresh, "quotes": quotes, "claims": claims}
    if not older:
        return fresh
    claims = [{k: v for k, v in claim.items() if k != "number"} for claim in fresh["claims"]]
    return {**fresh, "claims": claims}


def older_locations(logged: Mapping[str, Any]) -> bool:
    """Whether a logged answer predates locations (its quotes carry no ``location``)."""
    quotes = logged.get("quotes") or []
    return bool(quotes) and all(
        isinstance(quote, Mapping) and "location" not in quote for quote in quotes
    )


def _passage_unlocated(support: dict[str, Any]) -> dict[str, Any]:
    passage = support.get("passage")
    if not isinstance(passage, dict):
        return support
    return {**support, "passage": {k: v for k, v in passage.items() if k != "location"}}


def _source(item: Mapping[str, Any], position: int, differences: list[str]) -> Source:
    source = source_from_json(item, where=f"sources[{position}]")
    if content_hash(source.text) != item.get("content_hash"):
        differences.append(f"sources[{position}]: the logged text does not match its hash")
    return source
