"""After verification: attach evidence, validate it, then (only then) fetch live values and
decide the rules, and append the whole record to the audit log.

The order is the contract of ADR 2: the evidence bundle is built from the verified answer
before any live value exists, so a live value can change the decision but never the bundle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from citeproof.audit import AppendsRecords
from citeproof.errors import InputError
from citeproof.model import VerifiedAnswer
from citeproof.outcome._evidence import EvidenceBundle, build_evidence
from citeproof.outcome._live import LiveResponse, LiveValues
from citeproof.outcome._payload import audit_payload, logged_texts, request_id_for
from citeproof.outcome._rules import Decision, RuleSet, decide
from citeproof.outcome.validate import Validation, validate
from citeproof.verifier import default_answer_id


@dataclass(frozen=True, slots=True)
class Outcome:
    """What follows a verified answer: its evidence, the validation, the decision if rules ran,
    and the audit record's request id if one was written."""

    request_id: str
    bundle: EvidenceBundle
    validation: Validation
    live: LiveResponse | None
    decision: Decision | None
    payload: dict[str, Any]
    audit_sequence: int | None
    texts: dict[str, str]
    """The sources' texts the payload names by content hash, logged with it once for the
    whole log (`citeproof.outcome.payload_with_texts` puts them back in a payload)."""


def conclude(
    answer: VerifiedAnswer,
    *,
    request: Mapping[str, Any],
    rules: RuleSet | None = None,
    facts: Mapping[str, object] | None = None,
    live_values: LiveValues | None = None,
    log: AppendsRecords | None = None,
) -> Outcome:
    """Evidence → validation → live values → rules → audit, for one verified answer.

    ``request`` is logged as the request metadata (question, user, timings...). The request
    id is reproducible: the same answer and facts always give the same id.
    """
    bundle = build_evidence(answer)
    validation = validate(answer, bundle, mode="flag")
    content = default_answer_id(answer.original, answer.sources)
    request_id = request_id_for(answer.id, facts or {}, content=content)
    live = None
    decision = None
    if rules is not None:
        if rules.live and live_values is None:
            raise InputError(
                f"the rules read live values ({', '.join(sorted(rules.live))}): "
                "give --live FILE or URL",
                field="live",
            )
        live = live_values.fetch(sorted(rules.live), request_id=request_id) if live_values else None
        decision = decide(rules, facts or {}, live)
    payload = audit_payload(
        answer,
        bundle,
        validation,
        facts if rules is not None else None,
        live,
        decision,
        {"request_id": request_id, **request},
    )
    texts = logged_texts(answer)
    sequence = log.append(payload, request_id, texts=texts).sequence if log is not None else None
    return Outcome(request_id, bundle, validation, live, decision, payload, sequence, texts)
