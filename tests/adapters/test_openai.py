"""OpenAI Responses and Chat Completions annotations, as a reader of the response expects (F.4)."""

from __future__ import annotations

import pytest
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from citeproof.adapters import from_openai
from citeproof.errors import AnswerError
from citeproof.model import Source
from tests.adapters.fixtures import load
from tests.adapters.sdk import unknown_fields

RESPONSES = ["file-search", "web-search", "container-file"]
BANK_URL = "https://www.bankofengland.co.uk/monetary-policy/the-interest-rate-bank-rate"


@pytest.mark.parametrize("name", RESPONSES)
def test_every_responses_fixture_is_valid_for_the_sdk_F_4(name: str) -> None:
    response = Response.model_validate(load(f"openai-response-{name}"))
    assert unknown_fields(response) == []
    assert response.output_text


def test_the_chat_completion_fixture_is_valid_for_the_sdk_F_4() -> None:
    completion = ChatCompletion.model_validate(load("openai-chat-completion-web-search"))
    assert unknown_fields(completion) == []
    assert completion.choices[0].message.annotations


def test_each_file_citation_cites_the_sentence_before_it_from_the_search_results_F_4_F_2() -> None:
    converted = from_openai(load("openai-response-file-search"))
    cited = [
        (converted.output[slice(*c.cited_words.code_points)], c.source_id)
        for c in converted.citations
    ]
    assert cited == [
        (
            "Applications above 80% loan-to-value must go to a senior credit underwriter "
            "before an offer is made.",
            "file-2dtbBZdjtDKS8eqWxqbgDi",
        ),
        ("A valuation must be less than six months old.", "file-2dtbBZdjtDKS8eqWxqbgDi"),
        (
            "The standard variable rate is 7.49% from 1 March 2025, and tracker rates are "
            "Bank Rate plus 2%.",
            "file-7HqR3cWmYp2LxT9nVb4KzA",
        ),
    ]
    policy = next(s for s in converted.sources if s.id == "file-2dtbBZdjtDKS8eqWxqbgDi")
    assert policy.title == "credit_policy.pdf"
    assert len(policy.paragraph_spans()) == 2  # one paragraph per retrieved chunk
    verified = converted.verify()
    # Each sentence is a claim cited to the file that holds its passage, ready for claim support.
    assert [[c.source for c in claim.citations] for claim in verified.claims] == [
        ["file-2dtbBZdjtDKS8eqWxqbgDi"],
        ["file-2dtbBZdjtDKS8eqWxqbgDi"],
        ["file-7HqR3cWmYp2LxT9nVb4KzA"],
    ]
    assert all(c.status == "ok" for claim in verified.claims for c in claim.citations)
    assert verified.quotes == ()  # OpenAI gives no quote: nothing is invented


def test_a_url_citation_cites_the_sentence_holding_its_link_F_4() -> None:
    converted = from_openai(load("openai-response-web-search"))
    first = converted.citations[0]
    words = converted.output[slice(*first.cited_words.code_points)]
    assert words.startswith("The Bank of England cut Bank Rate to 4.5% on 6 February 2025 📉")
    assert words.endswith("utm_source=openai))")
    # The emoji makes the three units differ: the span says so.
    assert first.cited_words.utf16[1] == first.cited_words.code_points[1] + 1
    assert first.cited_words.utf8[1] > first.cited_words.utf16[1]


def test_the_callers_copy_of_a_cited_page_is_matched_by_url_without_tracking_F_4() -> None:
    page = Source(
        id="boe",
        kind="document",
        text="Bank Rate was reduced to 4.5% on 6 February 2025.",
        url=BANK_URL,
    )
    converted = from_openai(load("openai-response-web-search"), [page])
    assert [c.source_id for c in converted.citations] == ["boe", "web-2"]
    claims = converted.verify().claims
    assert [(c.source, c.status) for c in claims[0].citations] == [("boe", "ok")]
    assert [(c.source, c.status) for c in claims[1].citations] == [("web-2", "ineligible")]


def test_chat_completions_give_the_same_claims_as_responses_F_4() -> None:
    chat = from_openai(load("openai-chat-completion-web-search"))
    responses = from_openai(load("openai-response-web-search"))
    assert chat.answer == responses.answer
    assert [c.cited_words for c in chat.citations] == [c.cited_words for c in responses.citations]


def test_a_container_file_is_cited_by_its_file_id_F_4() -> None:
    table = Source(
        id="cfile_68a1c0f8d2c48190b3c4d5e6f7a8b9c0",
        kind="attachment",
        text="application,ltv\nA-101,82%\nA-117,85%\nA-123,91%",
    )
    converted = from_openai(load("openai-response-container-file"), [table])
    claim = converted.verify().claims[0]
    assert [(c.source, c.status) for c in claim.citations] == [(table.id, "ok")]


def test_an_index_past_the_text_is_refused_with_its_path_F_5() -> None:
    response = load("openai-response-file-search")
    response["output"][1]["content"][0]["annotations"][0]["index"] = 10_000
    with pytest.raises(AnswerError, match=r"output\[1\]\.content\[0\]\.annotations\[0\]"):
        from_openai(response)
