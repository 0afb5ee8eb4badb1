"""The audit payload of one answer: everything the deterministic part of a turn needs to run again.

`audit_payload` gathers the verified answer (the contract's JSON, original and corrected), the
sources' versions and content hashes, the policy, the evidence bundle, the validation, the
request facts, the live-value response, the rule set and the decision. The bundle and the
live-value response each carry the request id. The audit log stores the dict as canonical
JSON under that id, and the sources' full texts (`logged_texts`) once for the whole log, by
their content hash; `payload_with_texts` puts them back; `citeproof.outcome.replay` runs the
whole record again.

Records of ``citeproof/audit-payload/1`` (before texts were kept once) carry each source's
text in the record; every reader here takes both.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from citeproof.canonical import canonical_json
from citeproof.errors import AuditRecordError, InputError
from citeproof.model import VerifiedAnswer
from citeproof.outcome._codec import source_to_json
from citeproof.outcome._evidence import EvidenceBundle
from citeproof.outcome._live import LiveResponse
from citeproof.outcome._rules import Decision
from citeproof.outcome.contract import answer_to_json
from citeproof.outcome.validate import Validation
from citeproof.sources import content_hash as text_hash
from citeproof.values import as_values, values_to_json

AUDIT_SCHEMA = "citeproof/audit-payload/2"
"""The schema of the answer records written now: sources named by their texts' hashes."""

ANSWER_SCHEMAS = frozenset({"citeproof/audit-payload/1", AUDIT_SCHEMA})
"""Every schema of an answer record, old and new: what the log's readers take as an answer."""


class ReadsTexts(Protocol):
    """Where a record's texts are read back: an `AuditStore`."""

    def texts(self, keys: Iterable[str]) -> dict[str, str]: ...


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
    sources = [_without_text(source_to_json(source)) for source in answer.sources]
    payload = {
        "schema": AUDIT_SCHEMA,
        "request_id": request_id,
        "request": dict(request_meta),
        "verified_at": _verified_at(answer),
        "answer": answer_to_json(answer),
        "sources": sources,
        "texts": list(dict.fromkeys(source["content_hash"] for source in sources)),
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


def logged_texts(answer: VerifiedAnswer) -> dict[str, str]:
    """The texts the answer's record names, by content hash: what the log keeps once."""
    return {text_hash(source.text): source.text for source in answer.sources}


def payload_with_texts(
    payload: Mapping[str, Any], log: ReadsTexts | Mapping[str, str]
) -> dict[str, Any]:
    """An answer record as its readers take it: each source with its ``text``, read back by
    its ``content_hash`` from ``log`` (the audit log, or texts by hash such as
    `Outcome.texts`). A source that carries its text, as in records of
    ``citeproof/audit-payload/1``, is left as it is; any other record is returned as given.
    Raises `InputError` naming the source whose text is not there."""
    sources = payload.get("sources")
    if payload.get("schema") not in ANSWER_SCHEMAS or not isinstance(sources, list):
        return dict(payload)
    wanted = [
        item.get("content_hash")
        for item in sources
        if isinstance(item, Mapping) and "text" not in item
    ]
    keys = [key for key in wanted if isinstance(key, str)]
    if isinstance(log, Mapping):
        texts = {key: log[key] for key in keys if key in log}
    else:
        texts = log.texts(keys) if keys else {}
    filled = []
    for position, item in enumerate(sources):
        if isinstance(item, Mapping) and "text" not in item:
            key = item.get("content_hash")
            if key not in texts:
                raise InputError(
                    f"the audit log holds no text {key!r} for source {item.get('id')!r}",
                    where=f"sources[{position}]",
                )
            item = {**item, "text": texts[key]}
        filled.append(item)
    return {**payload, "sources": filled}


def _without_text(source: dict[str, Any]) -> dict[str, Any]:
    del source["text"]
    return source


def _verified_at(answer: VerifiedAnswer) -> str | None:
    """The time verification stamped its corrections with; None when it made none."""
    for quote in answer.quotes:
        for correction in quote.corrections:
            return correction.time
    return None
