"""ADR 2 end to end: live values change decisions, never evidence; the audit payload replays.

One turn: verify the answer → build the evidence bundle → validate it → fetch today's base rate
(after the evidence is attached) under a reproducible request id → decide the rules → build
the audit payload → replay it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import rfc8785

from citeproof import VerifiedAnswer, verify
from citeproof.errors import InputError
from citeproof.outcome import (
    FileLiveValues,
    HttpLiveValues,
    LiveValues,
    build_evidence,
    payload_with_texts,
)
from citeproof.outcome._evidence import EvidenceBundle
from citeproof.outcome._payload import audit_payload, logged_texts, request_id_for
from citeproof.outcome._rules import RuleSet, decide, parse_rules
from citeproof.outcome.replay import replay
from citeproof.outcome.validate import validate
from tests.lending import SOURCES
from tests.test_golden import example_answer
from tests.test_live_rules import OKAFOR, RULES_TOML, RatesService

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ANSWER = (
    'The credit policy says "Applications with a loan-to-value ratio above 80% must be referred '
    'to a senior underwriter before any offer is made" [S1, ¶3]. Dan wrote that "the valuation '
    'came back at £412,000" [S2]. Affordability is tested on verified income [S1, ¶4].'
)


def rules() -> RuleSet:
    import tomllib

    return parse_rules(tomllib.loads(RULES_TOML))


def lending_answer() -> VerifiedAnswer:
    return verify(ANSWER, SOURCES, answer_id="okafor-2026-0413", now=NOW)


@pytest.fixture
def service() -> Iterator[RatesService]:
    rates = RatesService()
    yield rates
    rates.close()


def clock() -> datetime:
    return NOW


def turn(answer: VerifiedAnswer, provider: LiveValues) -> dict[str, Any]:
    """One turn after generation, in pipeline order; returns the audit payload as it is read
    back from the log, with its sources' texts."""
    bundle = build_evidence(answer)
    validation = validate(answer, bundle, mode="flag")
    request_id = request_id_for(answer.id, OKAFOR)
    ruleset = rules()
    live = provider.fetch(ruleset.live, request_id=request_id)  # after evidence is attached
    decision = decide(ruleset, OKAFOR, live)
    meta = {"request_id": request_id, "user": "priya@lender.example", "question": "refer?"}
    payload = audit_payload(answer, bundle, validation, OKAFOR, live, decision, meta)
    return payload_with_texts(payload, logged_texts(answer))


def write_rate(path: Path, rate: str) -> Path:
    path.write_text('{"values": {"base_rate": ' + rate + "}}", encoding="utf-8")
    return path


def test_changing_the_live_rate_changes_the_decision_not_the_bundle_adr2(tmp_path: Path) -> None:
    rates = tmp_path / "rates.json"
    answer = lending_answer()
    before = turn(answer, FileLiveValues(write_rate(rates, "4.25"), clock=clock))
    after = turn(answer, FileLiveValues(write_rate(rates, "4.75"), clock=clock))
    assert (before["decision"]["outcome"], after["decision"]["outcome"]) == ("approve", "refer")
    bundle_before = EvidenceBundle.from_json(_bundle(before))
    bundle_after = EvidenceBundle.from_json(_bundle(after))
    assert bundle_before.canonical_json() == bundle_after.canonical_json()  # byte-identical
    assert before["evidence"] == after["evidence"]
    assert before["evidence"]["bundle_hash"] == after["evidence"]["bundle_hash"]
    assert "4.25" not in json.dumps(before["evidence"])


def test_changing_the_live_rate_over_http_leaves_the_bundle_byte_identical_adr2(
    service: RatesService,
) -> None:
    answer = lending_answer()
    provider = HttpLiveValues(service.url, timeout=2.0, clock=clock)
    before = turn(answer, provider)
    service.base_rate = "4.75"
    after = turn(answer, provider)
    assert (before["decision"]["outcome"], after["decision"]["outcome"]) == ("approve", "refer")
    assert rfc8785.dumps(before["evidence"]) == rfc8785.dumps(after["evidence"])
    assert [seen["request_id"] for seen in service.seen] == [before["request_id"]] * 2


def test_audit_payload_holds_bundle_and_live_response_with_one_reproducible_id_adr2(
    service: RatesService,
) -> None:
    answer = lending_answer()
    payload = turn(answer, HttpLiveValues(service.url, timeout=2.0, clock=clock))
    request_id = payload["request_id"]
    assert request_id == request_id_for(answer.id, OKAFOR)  # reproducible
    assert request_id == request_id_for(lending_answer().id, dict(OKAFOR))
    assert request_id != request_id_for(answer.id, {**OKAFOR, "loan_amount": Decimal(1)})
    assert payload["evidence"]["request_id"] == request_id
    assert payload["live"]["request_id"] == request_id
    assert service.seen[0]["request_id"] == request_id  # the id sent as X-Request-ID
    assert payload["evidence"]["bundle_hash"] == build_evidence(answer).bundle_hash
    assert payload["live"]["values"] == {"base_rate": {"decimal": "4.25"}}
    assert json.loads(payload["live"]["raw"])["values"]["base_rate"] == 4.25
    rfc8785.dumps(payload)  # canonical JSON, as the audit log stores it


def test_replay_reproduces_the_decision_and_the_bundle_hash_issue4(tmp_path: Path) -> None:
    provider = FileLiveValues(write_rate(tmp_path / "rates.json", "4.75"), clock=clock)
    payload = turn(lending_answer(), provider)
    logged = json.loads(rfc8785.dumps(payload))  # as read back from the audit log
    write_rate(tmp_path / "rates.json", "9.99")  # replay never calls the live service
    result = replay(logged)
    assert result.ok, result.differences
    assert (result.same_answer, result.same_bundle, result.same_decision) == (True, True, True)
    assert result.replayed_bundle_hash == payload["evidence"]["bundle_hash"]
    assert result.replayed_outcome == result.logged_outcome == "refer"
    assert result.request_id == payload["request_id"]


def test_replay_of_the_example_answer_with_corrections_issue4(tmp_path: Path) -> None:
    provider = FileLiveValues(write_rate(tmp_path / "rates.json", "4.25"), clock=clock)
    payload = turn(example_answer(), provider)
    assert payload["verified_at"] == "2026-11-30T09:00:00+00:00"
    assert payload["validation"]["ok"] is False  # q6 cites `rates`, flagged
    result = replay(json.loads(json.dumps(payload)))
    assert result.ok, result.differences


def test_replay_detects_a_changed_decision_issue4(tmp_path: Path) -> None:
    provider = FileLiveValues(write_rate(tmp_path / "rates.json", "4.25"), clock=clock)
    payload = turn(lending_answer(), provider)
    edited = copy.deepcopy(payload)
    edited["decision"]["outcome"] = "refer"
    result = replay(edited)
    assert not result.ok and not result.same_decision
    assert result.same_bundle
    assert result.differences == ("decision: approve instead of refer",)


def test_replay_detects_an_edited_live_value_issue4(tmp_path: Path) -> None:
    provider = FileLiveValues(write_rate(tmp_path / "rates.json", "4.25"), clock=clock)
    edited = copy.deepcopy(turn(lending_answer(), provider))
    edited["live"]["values"]["base_rate"] = {"decimal": "4.75"}
    result = replay(edited)
    assert not result.same_decision and result.replayed_outcome == "refer"


def test_replay_detects_an_edited_source_issue4(tmp_path: Path) -> None:
    provider = FileLiveValues(write_rate(tmp_path / "rates.json", "4.25"), clock=clock)
    edited = copy.deepcopy(turn(lending_answer(), provider))
    edited["sources"][0]["text"] = edited["sources"][0]["text"].replace("80%", "85%")
    result = replay(edited)
    assert not result.ok
    assert not result.same_bundle
    assert any("does not match its hash" in d for d in result.differences)


def test_replay_detects_an_edited_bundle_issue4(tmp_path: Path) -> None:
    provider = FileLiveValues(write_rate(tmp_path / "rates.json", "4.25"), clock=clock)
    edited = copy.deepcopy(turn(lending_answer(), provider))
    edited["evidence"]["bundle_hash"] = "sha256:" + "0" * 64
    result = replay(edited)
    assert not result.same_bundle and result.same_decision


def test_audit_payload_refuses_parts_of_different_requests(tmp_path: Path) -> None:
    answer = lending_answer()
    bundle = build_evidence(answer)
    validation = validate(answer, bundle)
    provider = FileLiveValues(write_rate(tmp_path / "rates.json", "4.25"), clock=clock)
    live = provider.fetch(["base_rate"], request_id="req-other")
    decision = decide(rules(), OKAFOR, live)
    with pytest.raises(InputError, match="req-other"):
        audit_payload(answer, bundle, validation, OKAFOR, live, decision, {"request_id": "r1"})
    with pytest.raises(InputError, match="request_id"):
        audit_payload(answer, bundle, validation, OKAFOR, live, decision, {})
    with pytest.raises(InputError, match="not JSON-serialisable"):
        meta = {"request_id": "req-other", "started": object()}
        audit_payload(answer, bundle, validation, OKAFOR, live, decision, meta)


def test_replay_rejects_what_is_not_an_audit_payload() -> None:
    with pytest.raises(InputError, match="not an audit payload"):
        replay({"schema": "something/else"})
    with pytest.raises(InputError, match="malformed audit payload"):
        replay({"schema": "citeproof/audit-payload/1", "answer": {}})


def _bundle(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload["evidence"].items() if k != "request_id"}
