"""Live values and the rule engine (issue 4 §4, SPEC D, ADR 2), on a lending case.

The Hartley case: a £341,960 loan against a £412,000 valuation (LTV 83%), and a second
applicant borrowing £300,000 (LTV 72.8%) whose affordability depends on today's base rate.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from citeproof.errors import LiveValueError, RuleError
from citeproof.outcome import FileLiveValues, HttpLiveValues, LiveValues, load_rules
from citeproof.outcome._live import REQUEST_ID_HEADER, LiveResponse
from citeproof.outcome._rules import Decision, RuleSet, decide, parse_rules

RULES_TOML = """\
schema = "citeproof/rules/1"
default_outcome = "approve"
live = ["base_rate"]

[values]
ltv = "loan_amount / valuation"
stressed_rate = "(base_rate + margin + stress_buffer) / 100"
monthly_interest = "loan_amount * stressed_rate / 12"
affordability = "monthly_interest / monthly_income"

[[rules]]
id = "ltv-decline"
description = "Applications above 95% LTV are declined (credit policy, section 2)"
condition = "ltv > 0.95"
outcome = "reject"
priority = 100

[[rules]]
id = "ltv-refer"
description = "LTV above 80% is referred to a senior underwriter (credit policy, section 2)"
condition = "ltv > 0.80"
outcome = "refer"
priority = 50

[[rules]]
id = "affordability"
description = "Stressed interest above 45% of monthly income is referred (section 3)"
condition = "affordability > 0.45"
outcome = "refer"
priority = 40
"""

HARTLEY = {
    "loan_amount": Decimal("341960"),
    "valuation": Decimal("412000"),
    "margin": Decimal("1.50"),
    "stress_buffer": Decimal("3.00"),
    "monthly_income": Decimal("9500"),
}
OKAFOR = {
    "loan_amount": Decimal("300000"),
    "valuation": Decimal("412000"),
    "margin": Decimal("1.50"),
    "stress_buffer": Decimal("3.00"),
    "monthly_income": Decimal("4900"),
}
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def clock() -> datetime:
    return NOW


@pytest.fixture
def rules(tmp_path: Path) -> RuleSet:
    path = tmp_path / "lending-rules.toml"
    path.write_text(RULES_TOML, encoding="utf-8")
    return load_rules(path)


def rates_file(tmp_path: Path, base_rate: str) -> Path:
    path = tmp_path / "rates.json"
    path.write_text(
        '{"values": {"base_rate": ' + base_rate + ', "currency": "GBP"}, "as_of": "2026-11-30"}',
        encoding="utf-8",
    )
    return path


# --- a tiny rates service on 127.0.0.1 ------------------------------------------------------


class RatesService:
    """A local HTTP rates service in a thread; records the request ids it was sent."""

    def __init__(self) -> None:
        self.base_rate = "4.25"
        self.status = 200
        self.body: str | None = None
        self.echo: str | None = None
        self.seen: list[dict[str, Any]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                query = parse_qs(urlparse(self.path).query)
                service.seen.append(
                    {"request_id": self.headers.get(REQUEST_ID_HEADER), "query": query}
                )
                body = service.body or json.dumps(
                    {"values": {"base_rate": float(service.base_rate)}, "as_of": "2026-11-30"}
                ).replace(str(float(service.base_rate)), service.base_rate)
                data = body.encode()
                self.send_response(service.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                echo = service.echo or self.headers.get(REQUEST_ID_HEADER)
                if echo:
                    self.send_header(REQUEST_ID_HEADER, echo)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/rates"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@pytest.fixture
def service() -> Iterator[RatesService]:
    rates = RatesService()
    yield rates
    rates.close()


# --- live values ----------------------------------------------------------------------------


def test_file_provider_reads_todays_rate_as_an_exact_decimal_adr2(tmp_path: Path) -> None:
    provider: LiveValues = FileLiveValues(rates_file(tmp_path, "4.25"), clock=clock)
    response = provider.fetch(["base_rate"], request_id="req-1")
    assert response.values == {"base_rate": Decimal("4.25")}
    assert response.request_id == "req-1"
    assert response.fetched_at == "2026-11-30T09:00:00+00:00"
    assert response.source.startswith("file://") and response.source.endswith("rates.json")
    assert '"as_of": "2026-11-30"' in response.raw  # the payload exactly as read


def test_http_provider_sends_and_records_the_request_id_adr2(service: RatesService) -> None:
    provider: LiveValues = HttpLiveValues(service.url, timeout=2.0, clock=clock)
    response = provider.fetch(["base_rate"], request_id="req-hartley-1")
    assert response.values == {"base_rate": Decimal("4.25")}
    assert response.request_id == "req-hartley-1"
    assert service.seen == [
        {"request_id": "req-hartley-1", "query": {"names": ["base_rate"]}},
    ]
    assert response.source == service.url
    assert json.loads(response.raw)["as_of"] == "2026-11-30"


def test_http_provider_verifies_tls_by_default_and_passes_it_to_httpx(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    provider = HttpLiveValues("https://rates.example/today")
    assert provider.verify is True
    seen: dict[str, Any] = {}
    real = httpx.Client

    def spy(**kwargs: Any) -> httpx.Client:
        seen.update(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(httpx, "Client", spy)
    provider.client().close()
    assert seen["verify"] is True
    assert seen["timeout"] == httpx.Timeout(5.0)
    HttpLiveValues("https://rates.example/today", verify=False).client().close()
    assert seen["verify"] is False


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (503, '{"error": "maintenance"}', "HTTP 503"),
        (404, "not here", "HTTP 404"),
        (200, "<html>rates</html>", "not valid JSON"),
        (200, '{"base_rate": 4.25}', 'expected a JSON object {"values"'),
        (200, '{"values": {"swap_rate": 4.1}}', "no value for 'base_rate'"),
        (200, '{"values": {"base_rate": null}}', "base_rate"),
    ],
)
def test_http_provider_errors_are_clear_adr2(
    service: RatesService, status: int, body: str, message: str
) -> None:
    service.status, service.body = status, body
    with pytest.raises(LiveValueError, match=message):
        HttpLiveValues(service.url, timeout=2.0).fetch(["base_rate"], request_id="r1")


def test_http_provider_rejects_an_answer_to_another_request(service: RatesService) -> None:
    service.echo = "someone-else"
    with pytest.raises(LiveValueError, match="someone-else"):
        HttpLiveValues(service.url, timeout=2.0).fetch(["base_rate"], request_id="r1")


def test_http_provider_times_out_clearly() -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    provider = HttpLiveValues(
        "https://rates.example/today", timeout=0.5, transport=httpx.MockTransport(slow)
    )
    with pytest.raises(LiveValueError, match=r"no answer within 0.5 s"):
        provider.fetch(["base_rate"], request_id="r1")


def test_unreachable_service_is_a_live_value_error() -> None:
    provider = HttpLiveValues("http://127.0.0.1:9/rates", timeout=1.0)
    with pytest.raises(LiveValueError, match="request failed"):
        provider.fetch(["base_rate"], request_id="r1")


def test_file_provider_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(LiveValueError, match="cannot read"):
        FileLiveValues(tmp_path / "missing.json").fetch(["base_rate"], request_id="r1")
    with pytest.raises(LiveValueError, match="no value for 'swap_rate'"):
        FileLiveValues(rates_file(tmp_path, "4.25")).fetch(["swap_rate"], request_id="r1")


@pytest.mark.parametrize("request_id", ["", "two words", "x\r\nX-Evil: 1", "é"])
def test_request_ids_are_checked_before_sending(tmp_path: Path, request_id: str) -> None:
    with pytest.raises(ValueError, match="request_id"):
        FileLiveValues(rates_file(tmp_path, "4.25")).fetch(["base_rate"], request_id=request_id)


def test_live_response_json_round_trips_exactly(tmp_path: Path) -> None:
    response = FileLiveValues(rates_file(tmp_path, "4.250"), clock=clock).fetch(
        ["base_rate", "currency"], request_id="r1"
    )
    data = json.loads(json.dumps(response.to_json()))
    assert data["values"] == {"base_rate": {"decimal": "4.250"}, "currency": "GBP"}
    assert LiveResponse.from_json(data) == response


# --- rules ------------------------------------------------------------------------------------


def test_ltv_above_80_percent_is_referred_with_ltv_computed_from_facts_adr2(
    rules: RuleSet,
) -> None:
    decision = decide(rules, HARTLEY, {"base_rate": Decimal("4.25")})
    assert decision.outcome == "refer"
    assert decision.decided_by == "ltv-refer"
    assert decision.derived["ltv"] == Decimal("0.83")  # exact: 341960 / 412000
    ltv_refer = next(r for r in decision.results if r.rule_id == "ltv-refer")
    assert ltv_refer.fired
    assert dict(ltv_refer.inputs) == {
        "loan_amount": Decimal("341960"),
        "ltv": Decimal("0.83"),
        "valuation": Decimal("412000"),
    }


def test_ltv_given_as_a_fact_is_used_as_given_adr2(rules: RuleSet) -> None:
    facts = {**OKAFOR, "ltv": Decimal("0.81")}
    decision = decide(rules, facts, {"base_rate": Decimal("4.25")})
    assert decision.decided_by == "ltv-refer"
    assert "ltv" not in decision.derived
    assert dict(decision.results[1].inputs) == {"ltv": Decimal("0.81")}


def test_every_rule_is_evaluated_and_recorded_with_its_inputs(rules: RuleSet) -> None:
    decision = decide(rules, OKAFOR, {"base_rate": Decimal("4.25")})
    assert [r.rule_id for r in decision.results] == ["ltv-decline", "ltv-refer", "affordability"]
    assert decision.fired == ()
    assert (decision.outcome, decision.decided_by) == ("approve", None)
    affordability = decision.results[2].inputs
    assert affordability["base_rate"] == Decimal("4.25")
    assert affordability["stressed_rate"] == Decimal("0.0875")
    assert affordability["monthly_interest"] == Decimal("2187.5")
    assert set(affordability) == {
        "affordability",
        "base_rate",
        "loan_amount",
        "margin",
        "monthly_income",
        "monthly_interest",
        "stress_buffer",
        "stressed_rate",
    }


def test_changing_todays_rate_changes_the_decision_adr2(rules: RuleSet) -> None:
    low = decide(rules, OKAFOR, {"base_rate": Decimal("4.25")})
    high = decide(rules, OKAFOR, {"base_rate": Decimal("4.75")})
    assert (low.outcome, high.outcome) == ("approve", "refer")
    assert high.decided_by == "affordability"


def test_highest_priority_wins_and_ties_go_to_the_rule_written_first(rules: RuleSet) -> None:
    facts = {**HARTLEY, "valuation": Decimal("350000"), "monthly_income": Decimal("6000")}
    decision = decide(rules, facts, {"base_rate": 6})
    assert decision.fired == ("ltv-decline", "ltv-refer", "affordability")
    assert decision.outcome == "reject"
    tie = parse_rules(
        {
            "default_outcome": "approve",
            "rules": [
                {"id": "a", "condition": "x > 1", "outcome": "refer", "priority": 1},
                {"id": "b", "condition": "x > 1", "outcome": "reject", "priority": 1},
            ],
        }
    )
    assert decide(tie, {"x": 2}, None).decided_by == "a"


def test_decimal_arithmetic_is_exact(rules: RuleSet) -> None:
    exact = parse_rules(
        {
            "default_outcome": "no",
            "rules": [{"id": "r", "condition": "a + b == 0.3", "outcome": "yes"}],
        }
    )
    assert decide(exact, {"a": 0.1, "b": 0.2}, None).outcome == "yes"  # floats via their repr
    boundary = decide(rules, {**HARTLEY, "ltv": Decimal("0.80")}, {"base_rate": Decimal(4)})
    assert "ltv-refer" not in boundary.fired  # exactly 80% is not above 80%


def test_json_rule_files_work_too(tmp_path: Path, rules: RuleSet) -> None:
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules.to_json()), encoding="utf-8")
    assert load_rules(path) == rules
    assert parse_rules(rules.to_json()).fingerprint == rules.fingerprint


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"default_outcome": ""}, "default_outcome"),
        ({"rules": []}, "non-empty list"),
        ({"rules": [{"id": "r", "condition": "ltv >", "outcome": "refer"}]}, "not a valid CEL"),
        ({"rules": [{"id": "r", "condition": "x", "outcome": ""}]}, "outcome"),
        ({"rules": [{"id": "r", "condition": "x", "outcome": "o", "priority": "1"}]}, "priority"),
        ({"rules": [{"id": "r", "condition": "x", "outcome": "o", "when": "x"}]}, "'when'"),
        ({"values": {"a": "b + 1", "b": "a + 1"}}, "depend on themselves: a -> b -> a"),
        ({"values": {"bad name": "1"}}, "is not a name"),
        ({"schema": "citeproof/rules/9"}, "schema"),
        ({"extra": 1}, "unknown setting 'extra'"),
    ],
)
def test_malformed_rule_files_are_rejected_clearly(
    rules: RuleSet, change: dict[str, object], message: str
) -> None:
    with pytest.raises(RuleError, match=message):
        parse_rules({**rules.to_json(), **change})


def test_duplicate_rule_ids_are_rejected(rules: RuleSet) -> None:
    data = rules.to_json()
    data["rules"].append(dict(data["rules"][0]))
    with pytest.raises(RuleError, match="'ltv-decline' is used twice"):
        parse_rules(data)


def test_a_toml_syntax_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text("default_outcome = ", encoding="utf-8")
    with pytest.raises(RuleError, match=r"rules\.toml"):
        load_rules(path)


@pytest.mark.parametrize(
    ("facts", "live", "message"),
    [
        ({"valuation": Decimal(1)}, {"base_rate": 4}, "reads 'loan_amount'"),
        ({**HARTLEY, "valuation": Decimal(0)}, {"base_rate": 4}, "cannot be evaluated"),
        ({**HARTLEY, "base_rate": 4}, {"base_rate": 4}, "both as a fact and as a live value"),
        ({**HARTLEY, "base_rate": 4}, {}, "must come from the live-value service"),
        ({**HARTLEY, "loan_amount": "a lot"}, {"base_rate": 4}, "cannot be evaluated"),
        ({**HARTLEY, "loan_amount": [1]}, {"base_rate": 4}, "loan_amount"),
    ],
)
def test_rule_errors_fail_closed_with_a_clear_message(
    rules: RuleSet, facts: dict[str, object], live: dict[str, Any], message: str
) -> None:
    with pytest.raises(RuleError, match=message):
        decide(rules, facts, live)


def test_a_condition_must_give_true_or_false() -> None:
    ruleset = parse_rules(
        {"default_outcome": "a", "rules": [{"id": "r", "condition": "x + 1", "outcome": "b"}]}
    )
    with pytest.raises(RuleError, match="not true or false"):
        decide(ruleset, {"x": 1}, None)


def test_rules_take_no_evidence_adr2() -> None:
    import inspect

    assert list(inspect.signature(decide).parameters) == ["rules", "facts", "live"]


def test_decision_json_records_fired_rules_inputs_and_fingerprint(rules: RuleSet) -> None:
    decision: Decision = decide(rules, HARTLEY, {"base_rate": Decimal("4.25")})
    data = decision.to_json()
    assert data["outcome"] == "refer" and data["fired"] == ["ltv-refer"]
    assert data["rules_fingerprint"] == rules.fingerprint
    assert data["results"][1]["inputs"]["ltv"] == {"decimal": "0.83"}
    json.dumps(data)  # plain JSON


def test_end_to_end_file_and_http_rates_decide_the_same_adr2(
    tmp_path: Path, rules: RuleSet, service: RatesService
) -> None:
    from_file = FileLiveValues(rates_file(tmp_path, "4.75")).fetch(rules.live, request_id="r1")
    service.base_rate = "4.75"
    over_http = HttpLiveValues(service.url, timeout=2.0).fetch(rules.live, request_id="r1")
    assert from_file.values == over_http.values
    assert decide(rules, OKAFOR, from_file).outcome == "refer"
    assert decide(rules, OKAFOR, over_http).outcome == "refer"
