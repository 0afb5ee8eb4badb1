"""``citeproof.store``: the proxy retrieves the sources from its ``--store`` as ``ask`` does,
sends the upstream citeproof's prompt (the rules, the eligible sources fenced and numbered,
the question), and verifies the answer against those sources with that eligibility."""

from __future__ import annotations

import json
from pathlib import Path

import openai
import pytest

from citeproof.sources import SourceStore
from tests.cli_runs import invoke
from tests.proxy.conftest import Replay, start_proxy

POLICY = (
    "# Credit policy\n\n"
    "Applications with a loan-to-value ratio above 80% must be referred to a senior "
    "underwriter before an offer is issued.\n\n"
    "Valuations older than six months are not accepted."
)
OTHERS = {
    "holidays.md": "# Holidays\n\nStaff take 25 days of leave a year, booked a month ahead.",
    "parking.md": "# Parking\n\nThe car park closes at 8 pm; visitors park on level 2.",
    "security.md": "# Security\n\nBadges are worn at all times inside the building.",
}
QUESTION = "When must an application be referred to a senior underwriter?"


def completion(content: str) -> bytes:
    body = {
        "id": "chatcmpl-store",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    return json.dumps(body).encode()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("store-proxy")
    (folder / "docs").mkdir()
    (folder / "docs" / "credit-policy.md").write_text(POLICY, encoding="utf-8")
    for name, text in OTHERS.items():
        (folder / "docs" / name).write_text(text, encoding="utf-8")
    code, _, err = invoke("ingest", str(folder / "docs"), "--store", str(folder / "s.db"))
    assert code == 0, err
    with SourceStore(folder / "s.db") as opened:
        (record,) = [r for r in opened.current() if r.source.title == "Credit policy"]
    return folder / "s.db", record.id


def test_a_store_query_sends_citeproofs_prompt_and_verifies_against_the_retrieved_sources(
    store: tuple[Path, str], tmp_path: Path
) -> None:
    path, source_id = store
    answer = (
        f'The policy says "Applications with a loan-to-value ratio above 80% must be referred '
        f'to a senior underwriter before an offer is issued." <cite:{source_id}#p2> '
        "The memo agrees <cite:memo>."
    )
    upstream = Replay(completion(answer), b"").start()
    proxy = start_proxy(upstream.url, tmp_path, "--store", str(path))
    try:
        client = openai.OpenAI(base_url=proxy.url + "/v1", api_key="sk-caller", max_retries=0)
        raw = client.chat.completions.with_raw_response.create(
            model="m",
            messages=[
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": QUESTION},
            ],
            extra_body={"citeproof": {"store": {"limit": 4}}},
        )
    finally:
        proxy.stop()
        upstream.stop()
    sent = upstream.received[-1].body
    assert "citeproof" not in sent
    rules, own, question = sent["messages"]
    assert rules["role"] == "system" and "<cite:ID#pN>" in rules["content"]
    assert own == {"role": "system", "content": "Be brief."}
    assert f'<source id="{source_id}"' in question["content"]
    assert "[p2] Applications with a loan-to-value ratio above 80%" in question["content"]
    assert question["content"].endswith(f"Question: {QUESTION}")
    record = raw.http_response.json()["citeproof"]
    assert record["eligibility"]["eligible"] == [source_id]
    assert [q["status"] for q in record["quotes"]] == ["verified"]
    assert [c["citations"][0]["status"] for c in record["claims"]] == ["ok", "ineligible"]


def test_a_store_query_without_a_store_is_refused_naming_the_field(tmp_path: Path) -> None:
    upstream = Replay(completion("x"), b"").start()
    proxy = start_proxy(upstream.url, tmp_path)
    try:
        client = openai.OpenAI(base_url=proxy.url + "/v1", api_key="k", max_retries=0)
        with pytest.raises(openai.UnprocessableEntityError) as refused:
            client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": QUESTION}],
                extra_body={"citeproof": {"store": {}}},
            )
    finally:
        proxy.stop()
        upstream.stop()
    assert refused.value.response.json()["field"] == "citeproof.store"
    assert upstream.received == []
