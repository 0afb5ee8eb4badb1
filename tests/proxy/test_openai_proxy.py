"""The proxy in front of an OpenAI-compatible API, with the real ``openai`` SDK as the client
and the embedded model's server (llama.cpp, on loopback) upstream: Chat Completions and
Responses, streamed and not. A grammar (llama.cpp's own request field, passed on as the
caller sent it) makes the model write one known answer, so its verdicts can be compared
with those `citeproof verify` gives for the same answer and sources."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from citeproof.providers import EmbeddedModel
from tests.proxy.conftest import Proxy, start_proxy
from tests.proxy.verdicts import citeproof_verify, sse_events, verdicts

pytestmark = pytest.mark.model

POLICY = (
    "Valuations older than six months are not accepted.\n\n"
    "A loan-to-value above 80% needs a senior underwriter."
)
SOURCES = [{"id": "policy", "kind": "document", "text": POLICY, "title": "Credit policy"}]
SENTENCES = [
    'The policy says "Valuations older than six months are not accepted." [policy]',
    'It also says "A loan-to-value above 85% needs a senior underwriter." [policy]',
    "The memo agrees [memo].",
]
ANSWER = " ".join(SENTENCES)
QUESTION = [{"role": "user", "content": "What does the credit policy say about valuations?"}]
TOKENS = 400


def extra(**own: Any) -> dict[str, Any]:
    """The request's extra fields: the grammar for the upstream, citeproof's for the proxy."""
    return {"grammar": "root ::= " + json.dumps(ANSWER), "citeproof": {"sources": SOURCES, **own}}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("openai-proxy")


@pytest.fixture(scope="module")
def proxy(embedded: EmbeddedModel, folder: Path) -> Iterator[Proxy]:
    running = start_proxy(embedded.base_url, folder, "--audit", str(folder / "audit.db"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def expected(folder: Path) -> dict[str, Any]:
    """`citeproof verify` on the answer and the sources."""
    (folder / "answer.md").write_text(ANSWER, encoding="utf-8")
    (folder / "sources.json").write_text(json.dumps(SOURCES), encoding="utf-8")
    return citeproof_verify(
        folder, str(folder / "answer.md"), "--sources", str(folder / "sources.json")
    )


def client(proxy: Proxy) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=proxy.url + "/v1", api_key="sk-caller", max_retries=0, timeout=300
    )


def test_expected_verdicts_hold_a_verified_a_corrected_and_an_ineligible_citation(
    expected: dict[str, Any],
) -> None:
    assert [q["status"] for q in expected["quotes"]] == ["verified", "corrected"]
    assert expected["claims"][-1]["citations"][0]["status"] == "ineligible"


def test_a_chat_completion_comes_back_with_the_verdicts_of_verify(
    proxy: Proxy, embedded: EmbeddedModel, expected: dict[str, Any]
) -> None:
    raw = client(proxy).chat.completions.with_raw_response.create(
        model=embedded.name,
        messages=QUESTION,
        max_tokens=TOKENS,
        extra_body=extra(),  # type: ignore[arg-type]
    )
    completion = raw.parse()
    assert completion.choices[0].message.content == ANSWER
    record = raw.http_response.json()["citeproof"]
    assert verdicts(record) == verdicts(expected)
    assert raw.headers["x-citeproof-outcome"] == "fail"  # [memo] is not a source of the request
    assert any("'memo'" in failure for failure in record["failures"])


def test_a_streamed_chat_completion_parses_in_the_sdk_with_a_verdict_per_sentence(
    proxy: Proxy, embedded: EmbeddedModel, expected: dict[str, Any]
) -> None:
    stream = client(proxy).chat.completions.create(
        model=embedded.name,
        messages=QUESTION,
        max_tokens=TOKENS,
        stream=True,
        extra_body=extra(),  # type: ignore[arg-type]
    )
    text = ""
    ours = []
    for chunk in stream:
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
        else:  # citeproof's chunks carry no choices, like a usage chunk
            ours.append((chunk.model_extra or {})["citeproof"])
    assert text == ANSWER
    sentences = [event for event in ours if event["type"] == "citeproof.verdict"]
    assert [s["text"].strip() for s in sentences] == SENTENCES
    assert [s["corrected_text"].strip() for s in sentences] == [
        c["text"] for c in expected["claims"]
    ]
    assert [q["status"] for s in sentences for q in s["quotes"]] == ["verified", "corrected"]
    assert ours[-1]["type"] == "citeproof.record"
    assert verdicts(ours[-1]["record"]) == verdicts(expected)


def test_the_sdks_stream_helper_still_assembles_the_completion(
    proxy: Proxy, embedded: EmbeddedModel
) -> None:
    with client(proxy).chat.completions.stream(
        model=embedded.name,
        messages=QUESTION,
        max_tokens=TOKENS,
        extra_body=extra(),  # type: ignore[arg-type]
    ) as stream:
        final = stream.get_final_completion()
    assert final.choices[0].message.content == ANSWER


def test_a_response_of_the_responses_api_comes_back_with_the_verdicts_of_verify(
    proxy: Proxy, embedded: EmbeddedModel, expected: dict[str, Any]
) -> None:
    raw = client(proxy).responses.with_raw_response.create(
        model=embedded.name,
        input=QUESTION[0]["content"],
        max_output_tokens=TOKENS,
        extra_body=extra(),
    )
    assert raw.parse().output_text == ANSWER
    assert verdicts(raw.http_response.json()["citeproof"]) == verdicts(expected)


def test_a_streamed_response_parses_in_the_sdk_and_ends_with_the_record(
    proxy: Proxy, embedded: EmbeddedModel, expected: dict[str, Any]
) -> None:
    # llama.cpp's Responses stream leaves out output_index and content_index, which the SDK's
    # responses.stream() helper needs (it fails without the proxy too): read the events.
    stream = client(proxy).responses.create(
        model=embedded.name,
        input=QUESTION[0]["content"],
        max_output_tokens=TOKENS,
        stream=True,
        extra_body=extra(),
    )
    kinds = []
    text = ""
    for event in stream:
        kinds.append(event.type)
        if event.type == "response.output_text.delta":
            text += event.delta
    assert text == ANSWER
    assert kinds.count("citeproof.verdict") == len(SENTENCES)
    assert kinds[-2:] == ["citeproof.record", "response.completed"]
    body = {
        "model": embedded.name,
        "input": QUESTION[0]["content"],
        "max_output_tokens": TOKENS,
        "stream": True,
        **extra(),
    }
    with httpx.stream("POST", proxy.url + "/v1/responses", json=body, timeout=300) as answer:
        events = sse_events(answer.read())
    names = [name for name, _, _ in events]
    assert names.count("citeproof.verdict") == len(expected["claims"])
    assert names[-2:] == ["citeproof.record", "response.completed"]
    assert verdicts(json.loads(events[-2][1])["record"]) == verdicts(expected)


@pytest.fixture(scope="module")
def correcting(embedded: EmbeddedModel, folder: Path) -> Iterator[Proxy]:
    """The proxy with ``--on-fail correct``, in front of the same upstream."""
    running = start_proxy(embedded.base_url, folder, "--on-fail", "correct")
    yield running
    running.stop()


def test_correct_replaces_the_text_with_the_corrected_text(
    correcting: Proxy, embedded: EmbeddedModel, expected: dict[str, Any]
) -> None:
    completion = client(correcting).chat.completions.create(
        model=embedded.name,
        messages=QUESTION,
        max_tokens=TOKENS,
        extra_body=extra(),  # type: ignore[arg-type]
    )
    assert completion.choices[0].message.content == expected["text"]
    assert "above 80% needs" in expected["text"]


def test_correct_streams_the_corrected_text_with_a_verdict_after_each_sentence(
    correcting: Proxy, embedded: EmbeddedModel, expected: dict[str, Any]
) -> None:
    stream = client(correcting).chat.completions.create(
        model=embedded.name,
        messages=QUESTION,
        max_tokens=TOKENS,
        stream=True,
        extra_body=extra(),  # type: ignore[arg-type]
    )
    text, seen = "", []
    for chunk in stream:
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
        elif (chunk.model_extra or {})["citeproof"]["type"] == "citeproof.verdict":
            seen.append(((chunk.model_extra or {})["citeproof"], text))
    assert text == expected["text"] and text != ANSWER
    # Each sentence's corrected text was in the stream before its verdict came.
    for verdict, sent in seen:
        assert verdict["corrected_text"].strip() in sent
    assert len(seen) == len(SENTENCES)


def test_a_bad_citeproof_member_is_a_problem_naming_the_field_and_never_goes_upstream(
    proxy: Proxy, embedded: EmbeddedModel
) -> None:
    with pytest.raises(openai.UnprocessableEntityError) as refused:
        client(proxy).chat.completions.create(
            model=embedded.name,
            messages=QUESTION,  # type: ignore[arg-type]
            max_tokens=4,
            extra_body={"citeproof": {"sources": [{"id": "x", "kind": "book", "text": "t"}]}},
        )
    problem = refused.value.response.json()
    assert problem["where"] == "citeproof.sources: sources[0]"
    assert problem["field"] == "kind"
