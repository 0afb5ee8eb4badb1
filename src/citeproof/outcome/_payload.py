"""The audit payload of one answer: everything the deterministic part of a turn needs to run again.

`audit_payload` gathers the verified answer (the contract's JSON, original and corrected), the
sources' full texts and versions, the policy, the evidence bundle, the validation, the request
facts, the live-value response, the rule set and the decision. The bundle and the live-value
response each carry the request id. The audit log stores the dict as canonical JSON under that
id; `citeproof.outcome.replay` runs it again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from citeproof.canonical import canonical_json
from citeproof.errors import AuditRecordError, InputError
from citeproof.model import VerifiedAnswer
from citeproof.outcome._codec import source_to_json
from citeproof.outcome._evidence import EvidenceBundle
from citeproof.outcome._live import LiveResponse
from citeproof.outcome._rules import Decision
from citeproof.outcome.contract import answer_to_json
from citeproof.outcome.validate import Validation
from citeproof.values import as_values, values_to_json

AUDIT_SCHEMA = "citeproof/audit-payload/1"


def request_id_for(
    answer_id: str, facts: Mapping[str, object], *, content: str | None = None
) -> str:
    """A reproducible request id: the same answer id, facts and ``content`` (a digest of the
    answer and its sources) always give the same id, and two different answers never share
    one even when a caller gave them the same answer id."""
    data: dict[str, Any] = {"answer_id": answer_id}
    if content is not None:
        data["content"] = content
    data["facts"] = values_to_json(as_values(facts, where="facts"))
    return "req_" + hashlib.sha256(canonical_json(data)).hexdigest()[:24]


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
        "sources": [source_to_json(source) for source in answer.sources],
        "evidence": {"request_id": request_id, **bundle.to_json()},
        "validation": validation.to_json(),
        "facts": values_to_json(as_values(facts, where="facts")) if facts is not None else None,
        "live": live.to_json() if live is not None else None,
        "rules": decision.rules.to_json() if decision is not None else None,
        "decision": decision.to_json() if decision is not None else None,
    }
    try:  # the one free-form part; the rest is citeproof's own JSON, encoded once on append
        canonical_json(payload["request"])
    except AuditRecordError as error:
        raise InputError(f"is not JSON-serialisable: {error}", field="request_meta") from None
    return payload


def _verified_at(answer: VerifiedAnswer) -> str | None:
    """The time verification stamped its corrections with; None when it made none."""
    for quote in answer.quotes:
        for correction in quote.corrections:
            return correction.time
    return None
