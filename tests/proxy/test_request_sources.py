"""What the proxy reads from a vendor request: the sources it carries (only they are
eligible), citeproof's own member (removed before the request goes upstream), and errors that
name the field."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from citeproof import InputError, Policy, SourceError
from citeproof.proxy._apis import CHAT, MESSAGES, RESPONSES
from citeproof.proxy._request_sources import read_request
from citeproof.proxy._upstream import forwarded_headers, upstream_base
from tests.proxy.conftest import fixture_json

NOTE = "Valuations older than six months are not accepted."


def data_url(text: str, media: str = "text/plain") -> str:
    return f"data:{media};base64," + base64.b64encode(text.encode()).decode()


def test_chat_tool_results_and_inline_files_are_the_sources() -> None:
    body: dict[str, Any] = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "Cite your sources."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What does the note say?"},
                    {"type": "file", "file": {"filename": "note.txt", "file_data": data_url(NOTE)}},
                    {"type": "file", "file": {"file_id": "file-abc123"}},
                ],
            },
            {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function"}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "Rates rose to 5.25%."},
        ],
        "citeproof": {"policy": {"min_similarity": 0.9}},
    }
    request = read_request(CHAT, body, Policy())
    assert [(s.id, s.text) for s in request.sources] == [
        ("note.txt", NOTE),
        ("call_1", "Rates rose to 5.25%."),
    ]
    assert request.notes == (
        "file-abc123: the request gives the file by id only; give its text in "
        "citeproof.sources to check what cites it",
    )
    assert request.policy.min_similarity == 0.9
    assert "citeproof" not in request.forward
    assert request.forward["messages"] == body["messages"]


def test_responses_function_outputs_and_input_files_are_the_sources() -> None:
    body = {
        "model": "m",
        "input": [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Summarise."},
                    {"type": "input_file", "filename": "n.md", "file_data": data_url(NOTE)},
                ],
            },
            {"type": "function_call_output", "call_id": "call_9", "output": "Found: 3 loans."},
        ],
        "stream": True,
    }
    request = read_request(RESPONSES, body, Policy())
    assert [s.id for s in request.sources] == ["n.md", "call_9"]
    assert request.stream


def test_anthropic_documents_are_numbered_as_its_citations_count_them() -> None:
    request = read_request(MESSAGES, fixture_json("anthropic-request.json"), Policy())
    assert [(s.id, s.title) for s in request.sources] == [("doc-0", "Credit policy")]


def test_explicit_sources_win_over_a_carried_source_with_the_same_id() -> None:
    body = {
        "messages": [{"role": "tool", "tool_call_id": "call_1", "content": "old"}],
        "citeproof": {"sources": [{"id": "call_1", "kind": "document", "text": "new"}]},
    }
    (source,) = read_request(CHAT, body, Policy()).sources
    assert source.text == "new"


@pytest.mark.parametrize(
    ("own", "error", "match"),
    [
        ({"retrieve": "x"}, InputError, "unknown member 'retrieve'"),
        ({"store": {"limit": 0}}, InputError, "greater than or equal to 1"),
        ([], InputError, "expected a JSON object"),
        ({"sources": [{"id": "a", "text": "t"}]}, InputError, "Field required"),
        ({"policy": {"min_similarity": "high"}}, InputError, "valid number"),
    ],
)
def test_a_bad_citeproof_member_is_refused_naming_the_field(
    own: object, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        read_request(CHAT, {"messages": [], "citeproof": own}, Policy())


def test_a_file_that_does_not_decode_is_refused_naming_where() -> None:
    part = {"type": "file", "file": {"filename": "x.txt", "file_data": "not base64!"}}
    body = {"messages": [{"role": "user", "content": [part]}]}
    with pytest.raises(SourceError, match=r"request\.messages\[0\]\.content\[0\]\.file"):
        read_request(CHAT, body, Policy())


def test_the_upstream_is_one_origin_and_connection_headers_stay_behind() -> None:
    assert upstream_base("https://api.openai.com/v1/") == "https://api.openai.com"
    assert upstream_base("https://api.anthropic.com") == "https://api.anthropic.com"
    with pytest.raises(InputError, match="http"):
        upstream_base("file:///etc/passwd")
    headers = forwarded_headers(
        [
            ("Authorization", "Bearer k"),
            ("Host", "proxy"),
            ("Content-Length", "9"),
            ("x-api-key", "k"),
        ]
    )
    assert headers == {"Authorization": "Bearer k", "x-api-key": "k"}
