"""What the proxy checks in an upstream's answer before using it: the one bounded, total parse,
its own headers dropped, the buffer budget, and citations the adapters refuse taken out and
flagged (the hostile upstreams themselves: ``tests/security/test_hostile_streams.py``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from citeproof.adapters import from_anthropic
from citeproof.errors import AnswerError
from citeproof.proxy._budget import BufferBudget, OverBudget
from citeproof.proxy._citations import MAX_INVALID, convert_flagging
from citeproof.proxy._parse import MAX_DEPTH, read_json, too_deep
from citeproof.proxy._sse import EventSplitter
from citeproof.proxy._upstream import answer_headers
from tests.proxy.conftest import fixture_json

REQUEST: dict[str, Any] = fixture_json("anthropic-request.json")
RECORDED: dict[str, Any] = fixture_json("anthropic-messages.json")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "more than 200 levels"),
        ("[" * 100_000 + "]" * 100_000, "more than 200 levels"),
        ("[" * 100_000, "more than 200 levels"),  # unbalanced: measured all the same
        ("[" * 10 + "[]," * 600_000 + "[]" + "]" * 10, "more than 500,000 arrays"),
        ('{"text": "a \\ud800 b"}', "lone surrogate"),
        ('{"text": "\\udc00"}', "lone surrogate"),
    ],
)
def test_json_that_cannot_be_read_gives_a_reason_never_an_exception(
    text: str, problem: str
) -> None:
    value, reason = read_json(text)
    assert value is None and reason is not None and problem in reason


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("[" * MAX_DEPTH + "]" * MAX_DEPTH, None),  # at the limit: read
        ('["[[[[[[", "{{{{"]', ["[[[[[[", "{{{{"]),  # brackets in strings do not nest
        ('{"a": "\\ud83d\\ude00"}', {"a": "😀"}),  # a surrogate pair is text
        ("[DONE]", None),
        ("", None),
    ],
)
def test_json_within_the_bounds_reads_as_json(text: str, value: Any) -> None:
    parsed, reason = read_json(text)
    assert reason is None
    if value is not None:
        assert parsed == value


def test_an_integer_past_64_bits_reads_as_a_number() -> None:
    parsed, reason = read_json('{"n": 100000000000000000000000000000}')
    assert reason is None and parsed["n"] > 2**64


def test_the_nesting_is_measured_without_reading_strings() -> None:
    assert not too_deep('"' + "[" * 1000 + '"', 10)
    assert too_deep("[" * 11 + "]" * 11, 10)
    assert not too_deep("[" * 10 + "]" * 10 + "[]" * 500, 10)


def test_an_unreadable_event_keeps_its_bytes_and_says_why() -> None:
    raw = b"event: content_block_delta\ndata: " + b"[" * 5000 + b"]" * 5000 + b"\n\n"
    splitter = EventSplitter()
    (event,) = splitter.feed(raw)
    assert event.raw == raw and event.name == "content_block_delta"
    assert event.json() is None and event.problem is not None
    assert "levels deep" in event.problem
    assert splitter.pending == 0
    list(splitter.feed(b"data: {"))
    assert splitter.pending == len(b"data: {")


def test_the_upstreams_own_citeproof_headers_are_dropped_in_any_case() -> None:
    passed = answer_headers(
        [
            ("X-Citeproof-Outcome", "pass"),
            ("x-citeproof-request-id", "forged"),
            ("X-CITEPROOF-QUOTES", "verified=9"),
            ("request-id", "req_1"),
            ("content-length", "10"),
        ]
    )
    assert passed == {"request-id": "req_1"}


def test_the_budget_is_shared_and_given_back() -> None:
    budget = BufferBudget(100)
    first, second = budget.hold(), budget.hold()
    first.resize(60)
    with pytest.raises(OverBudget, match="held by other requests") as busy:
        second.resize(50)
    assert busy.value.retry and second.size == 0
    second.resize(40)
    with pytest.raises(OverBudget, match="over the proxy's buffer budget of 100") as large:
        second.resize(101)
    assert not large.value.retry and budget.held == 100
    first.release()
    first.release()  # again: nothing
    assert budget.held == 40
    second.resize(100)
    second.release()
    assert budget.held == 0


def adapter(body: object) -> Any:
    return from_anthropic(body, REQUEST, ())


def test_each_refused_citation_is_taken_out_and_named_where_the_upstream_had_it() -> None:
    response = copy.deepcopy(RECORDED)
    cited = [block for block in response["content"] if block.get("citations")]
    cited[0]["citations"][0]["start_char_index"] = -1
    cited[2]["citations"][0]["start_char_index"] = 10**30  # after its end
    cited[2]["citations"].insert(0, {**cited[2]["citations"][0], "start_char_index": -2})
    before = copy.deepcopy(response)
    converted, invalid = convert_flagging(adapter, response)
    assert response == before  # the upstream's response is left as it came
    assert [c.where for c in invalid] == [
        "content[1].citations[0]",
        "content[5].citations[0]",
        "content[5].citations[1]",  # its index as sent, not after the first was taken out
    ]
    assert "start_char_index" in invalid[0].reason
    assert all(len(c.reason) <= 160 for c in invalid)
    assert "before start_char_index 10000000" in invalid[2].reason
    assert len(converted.citations) == 1  # the one left is still converted and checked


def test_past_the_limit_every_citation_is_left_out_at_once() -> None:
    response = copy.deepcopy(RECORDED)
    block = next(block for block in response["content"] if block.get("citations"))
    bad = {**block["citations"][0], "start_char_index": -1}
    block["citations"] = [bad] * (MAX_INVALID + 5)
    converted, invalid = convert_flagging(adapter, response)
    assert len(invalid) == MAX_INVALID + 1
    assert invalid[-1].where == "every citation"
    assert converted.citations == ()


def test_an_error_that_is_not_a_citations_is_raised() -> None:
    with pytest.raises(AnswerError, match="not a Messages response"):
        convert_flagging(adapter, {"id": "msg_1"})
