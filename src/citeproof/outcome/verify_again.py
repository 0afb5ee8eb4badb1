"""Verifying a logged answer again: the one way replay, audit sampling and re-validation
re-run verification from an audit record.

An answer is verified again exactly as it was verified then: the logged answer text and id,
with the logged policy, the logged eligibility (an answer from a turn) and the logged time
(the time its corrections carry), against the logged sources or, for re-validation, the
current versions of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from citeproof.model import Source, VerifiedAnswer
from citeproof.outcome._codec import eligibility_from_json, policy_from_json, source_from_json
from citeproof.verifier import verify

_NO_CORRECTIONS = datetime(1970, 1, 1, tzinfo=UTC)
"""The time an answer that made no correction is verified at: no verdict carries it, so any
time gives the same answer; a fixed one keeps the result reproducible."""


def verification_inputs(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of an audit payload `verify_again` reads, but the sources: the answer's id,
    text, policy and eligibility and the verification time, as a JSON object small enough to
    send to a worker with the sources it should be verified against."""
    answer = payload["answer"]
    return {
        "answer": {
            name: answer[name]
            for name in ("id", "original", "policy", "eligibility")
            if name in answer
        },
        "verified_at": payload.get("verified_at"),
    }


def verify_again(
    logged: Mapping[str, Any], sources: Sequence[Source] | None = None
) -> VerifiedAnswer:
    """The answer of ``logged`` verified again as it was verified then, against ``sources``
    (by default the sources logged with it).

    ``logged`` is an audit payload with its sources' texts (`payload_with_texts`) or its
    `verification_inputs`.
    Raises `InputError` (or the model's `SourceError`, `PolicyError`) naming what is malformed,
    and `KeyError` for a part that is missing.
    """
    answer = logged["answer"]
    if sources is None:
        sources = [
            source_from_json(item, where=f"sources[{n}]")
            for n, item in enumerate(logged["sources"])
        ]
    verified_at = logged.get("verified_at")
    eligibility = answer.get("eligibility")
    return verify(
        answer["original"],
        sources,
        policy=policy_from_json(answer["policy"]),
        answer_id=answer["id"],
        now=datetime.fromisoformat(verified_at) if verified_at else _NO_CORRECTIONS,
        eligibility=eligibility_from_json(eligibility) if eligibility else None,
    )
