"""Re-validating one logged answer against the current versions of its sources.

This is the part that runs on workers: `revalidate_chunk` takes plain JSON values (the logged
answers of a chunk and the current source versions they need) and returns plain JSON values,
so the same function runs in-process, in a local process pool or on a Ray cluster, and gives
the same result everywhere. It reads no database and no clock.

The outcome of one answer, from worst to best:

- ``source_missing``: a source its evidence comes from has no current version in the store
  (deleted, withdrawn from its message, or never ingested there);
- ``changed``: verified again against the current versions, a quote now fails (its status is
  worse than logged: verified → corrected → mismatch → not found, or its words now change the
  source's meaning where they did not) or a claim that had evidence has none now; the quotes
  and claims are named;
- ``superseded``: everything still holds, but a source its evidence comes from has a newer
  version than the one logged (the answer cites a version that is no longer current);
- ``holds``: the logged versions are current and verification gives the same verdicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from citeproof.model import Source
from citeproof.outcome import FOUND, build_evidence, source_from_json, verification_inputs
from citeproof.outcome.validate import validate
from citeproof.outcome.verify_again import verify_again

RevalidationOutcome = Literal["holds", "changed", "superseded", "source_missing"]
OUTCOMES: tuple[RevalidationOutcome, ...] = ("holds", "changed", "superseded", "source_missing")

_RANK = {"verified": 0, "corrected": 1, "mismatch": 2, "not_found": 3, "ineligible": 3}
"""How bad a quote status is; a re-validation that makes it worse means the quote now fails."""


def evidence_source_ids(payload: Mapping[str, Any]) -> list[str]:
    """The ids of the logged sources an answer's evidence comes from, in first-use order."""
    items = payload["evidence"].get("evidence", [])
    return list(dict.fromkeys(str(item["source_id"]) for item in items))


def answer_task(sequence: int, request_id: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """What a worker needs of one logged answer: the answer, its verification settings, the
    logged verdicts, the logged sources without their texts (the current versions travel once
    per chunk), and the logged texts of the sources its evidence does not use."""
    answer = payload["answer"]
    evidence_ids = evidence_source_ids(payload)
    items = payload["evidence"].get("evidence", [])
    return {
        "sequence": sequence,
        "request_id": request_id,
        "answer_id": answer["id"],
        "logged": verification_inputs(payload),
        "quotes": [
            {
                "id": q["id"],
                "status": q["status"],
                "meaning_changed": bool(q.get("meaning_changed", False)),
            }
            for q in answer["quotes"]
        ],
        "gaps": list(payload["validation"]["coverage"]["gaps"]),
        "evidence_sources": evidence_ids,
        "quote_sources": {
            str(item["quote_id"]): str(item["source_id"]) for item in items if item.get("quote_id")
        },
        "sources": [
            {k: v for k, v in source.items() if k != "text"} for source in payload["sources"]
        ],
        "logged_texts": {
            source["id"]: source["text"]
            for source in payload["sources"]
            if source["id"] not in evidence_ids
        },
    }


class RevalidationFailed(ValueError):
    """An answer could not be verified again; the message names its record. A plain
    `ValueError` subclass with one argument, so it crosses process and Ray boundaries."""


def revalidate_chunk(chunk: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The outcomes of a chunk: ``{"answers": [answer_task...], "current": {logged id:
    current source JSON or None}}``, one outcome per answer, in the order given.

    Raises `RevalidationFailed` naming the first answer that cannot be verified again."""
    current: Mapping[str, Any] = chunk["current"]
    outcomes = []
    for task in chunk["answers"]:
        try:
            outcomes.append(revalidate_answer(task, current))
        except Exception as error:  # anything from a malformed record; named, not swallowed
            raise RevalidationFailed(
                f"audit record {task['sequence']} ({task['request_id']}): cannot verify it "
                f"again: {error}"
            ) from None
    return outcomes


def revalidate_answer(
    task: Mapping[str, Any], current: Mapping[str, Mapping[str, Any] | None]
) -> dict[str, Any]:
    """The outcome of one answer (see the module docstring) as a JSON object.

    ``current`` maps each logged source id to the JSON of its current version in the store
    (as `citeproof.outcome.source_to_json` writes it, with its ``content_hash``), or
    None when it has none.
    """
    evidence_ids = set(task["evidence_sources"])
    states = [_source_state(logged, current.get(logged["id"])) for logged in task["sources"]]
    cited = [state for state in states if state["id"] in evidence_ids]
    missing = {state["id"] for state in cited if state["state"] == "missing"}
    quotes: list[dict[str, Any]] = []
    claims: list[dict[str, Any]] = []
    if missing:
        outcome: RevalidationOutcome = "source_missing"
        quotes = [
            {"id": q["id"], "was": q["status"], "now": "source_missing", "meaning_changed": False}
            for q in task["quotes"]
            if q["status"] in FOUND and task["quote_sources"].get(q["id"]) in missing
        ]
    else:
        quotes, claims = _reverify(task, current)
        if quotes or claims:
            outcome = "changed"
        elif any(state["state"] == "superseded" for state in cited):
            outcome = "superseded"
        else:
            outcome = "holds"
    return {
        "sequence": task["sequence"],
        "request_id": task["request_id"],
        "answer_id": task["answer_id"],
        "outcome": outcome,
        "quotes": quotes,
        "claims": claims,
        "sources": cited,
    }


def _source_state(logged: Mapping[str, Any], now: Mapping[str, Any] | None) -> dict[str, Any]:
    state = "missing" if now is None else "current"
    if now is not None and now["content_hash"] != logged.get("content_hash"):
        state = "superseded"
    return {
        "id": logged["id"],
        "doc_id": logged.get("doc_id"),
        "logged_version": logged.get("version"),
        "current_id": now["id"] if now is not None else None,
        "current_version": now["version"] if now is not None else None,
        "state": state,
    }


def _reverify(
    task: Mapping[str, Any], current: Mapping[str, Mapping[str, Any] | None]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The quotes and claims that fail against the current versions (empty when none do)."""
    sources = [_source(logged, current.get(logged["id"]), task) for logged in task["sources"]]
    answer = verify_again(task["logged"], [s for s in sources if s is not None])
    now = {quote.id: quote for quote in answer.quotes}
    quotes = []
    for logged in task["quotes"]:
        quote = now.get(logged["id"])
        status = quote.status if quote is not None else "not_found"
        meaning_changed = quote is not None and quote.meaning_changed
        # A quote fails when its status got worse, or its words now change the meaning of
        # what the source says (a number, name, negation, date: F.1) where they did not.
        if _RANK[status] > _RANK[logged["status"]] or (
            meaning_changed and not logged["meaning_changed"]
        ):
            quotes.append(
                {
                    "id": logged["id"],
                    "was": logged["status"],
                    "now": status,
                    "meaning_changed": meaning_changed,
                }
            )
    coverage = validate(answer, build_evidence(answer), mode="flag").coverage
    logged_gaps = set(task["gaps"])
    claims = [
        {"id": claim_id, "was": "with_evidence", "now": "no_evidence"}
        for claim_id in coverage.gaps
        if claim_id not in logged_gaps
    ]
    return quotes, claims


def _source(
    logged: Mapping[str, Any], now: Mapping[str, Any] | None, task: Mapping[str, Any]
) -> Source | None:
    """The source to verify against: the current version under the logged id, kind, title,
    doc_id and url (so citations resolve as they did), or the logged source itself when the
    evidence never used it."""
    if now is None:
        text = task["logged_texts"].get(logged["id"])
        return source_from_json({**logged, "text": text}) if text is not None else None
    return replace(
        source_from_json(now, where=f"current version of {logged['id']}"),
        id=logged["id"],
        kind=logged["kind"],
        title=logged.get("title"),
        doc_id=logged.get("doc_id"),
        url=logged.get("url"),
    )
