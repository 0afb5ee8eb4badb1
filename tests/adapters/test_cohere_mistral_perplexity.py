"""Cohere, Mistral and Perplexity citations, as a reader of the response expects (F.4)."""

from __future__ import annotations

import pytest
from cohere import V2ChatResponse
from mistralai.client.models import ChatCompletionRequest, ChatCompletionResponse
from perplexity.types import StreamChunk

from citeproof.adapters import from_cohere, from_mistral, from_perplexity
from citeproof.errors import AnswerError
from citeproof.model import Source
from tests.adapters.fixtures import load
from tests.adapters.sdk import dropped_fields, unknown_fields


def claims_and_sources(converted: object) -> list[tuple[str, list[str]]]:
    verified = converted.verify()  # type: ignore[attr-defined]
    return [(claim.text, [c.source for c in claim.citations]) for claim in verified.claims]


# --- Cohere ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["cohere-response-penguins", "cohere-response-tool"])
def test_cohere_fixtures_are_valid_v2_chat_responses_F_4(name: str) -> None:
    response = V2ChatResponse.model_validate(load(name))
    assert unknown_fields(response) == []
    assert response.message.citations


def test_cohere_documented_example_cites_each_sentence_to_its_document_F_4() -> None:
    converted = from_cohere(load("cohere-response-penguins"), load("cohere-request-penguins"))
    assert claims_and_sources(converted) == [
        ("The tallest penguins are the Emperor penguins. <cite:doc:0>", ["doc:0"]),
        ("They only live in Antarctica. <cite:doc:1>", ["doc:1"]),
    ]
    assert [c.check.status for c in converted.citations if c.check] == ["verbatim", "verbatim"]
    assert [s.title for s in converted.sources] == ["Tall penguins", "Penguin habitats"]
    assert converted.sources[1].text == "Emperor penguins only live in Antarctica."


def test_cohere_citation_text_is_answer_text_and_off_offsets_are_put_right_F_4() -> None:
    raw = load("cohere-response-penguins")
    raw["message"]["citations"][1]["start"] += 3  # a client that counted bytes, say
    raw["message"]["citations"][1]["end"] += 3
    converted = from_cohere(raw)
    check = converted.citations[1].check
    assert check is not None and check.status == "moved"
    assert "characters 65-76, not 68-79" in check.note
    assert converted.output[slice(*converted.citations[1].cited_words.code_points)] == (
        "Antarctica."
    )


def test_cohere_tool_output_is_the_source_of_a_tool_citation_F_4() -> None:
    converted = from_cohere(load("cohere-response-tool"))
    (source,) = converted.sources
    assert source.id == "get_branch_hours_4x7k2m9p3q1r:0"
    assert "opening_hours: Montag bis Freitag 9:00 bis 17:00 Uhr" in source.text
    words = [converted.output[slice(*c.cited_words.code_points)] for c in converted.citations]
    assert words == ["werktags um 9:00 Uhr", "um 17:00 Uhr"]
    # Before the second span, ü, ö and ß take one byte more each in UTF-8, the sun and its
    # variation selector two more each; all are one UTF-16 unit.
    second = converted.citations[1].cited_words
    assert second.utf8[0] - second.code_points[0] == 7
    assert second.utf16 == second.code_points


def test_cohere_documents_named_only_in_the_response_take_their_text_from_the_request_F_4() -> None:
    raw = load("cohere-response-penguins")
    for citation in raw["message"]["citations"]:
        citation["sources"][0]["document"] = {"id": citation["sources"][0]["id"]}
    converted = from_cohere(raw, load("cohere-request-penguins"))
    assert [s.text for s in converted.sources] == [
        "Emperor penguins are the tallest.",
        "Emperor penguins only live in Antarctica.",
    ]


# --- Mistral --------------------------------------------------------------------------------


def test_mistral_fixtures_are_valid_for_the_sdk_F_4() -> None:
    for name, model in (
        ("mistral-response-nobel", ChatCompletionResponse),
        ("mistral-request-nobel", ChatCompletionRequest),
    ):
        raw = load(name)
        assert dropped_fields(model.model_validate(raw), raw) == []


def test_mistral_reference_chunks_cite_the_sentence_before_them_F_4() -> None:
    converted = from_mistral(load("mistral-response-nobel"), load("mistral-request-nobel"))
    claims = claims_and_sources(converted)
    assert [sources for _, sources in claims] == [["ref-0"], ["ref-0"]]
    assert claims[0][0].endswith("Hiroshima and Nagasaki <cite:ref-0>.")
    (reference,) = converted.sources  # only the cited reference becomes a source
    assert reference.url == "https://en.wikipedia.org/wiki/2024_Nobel_Peace_Prize"
    assert len(reference.paragraph_spans()) == 2  # its two snippets


def test_mistral_without_the_request_names_the_reference_to_give_F_4() -> None:
    converted = from_mistral(load("mistral-response-nobel"))
    assert any("--source ref-0=FILE" in note for note in converted.notes)
    given = Source(id="ref-0", kind="document", text="Nihon Hidankyo won the 2024 prize.")
    claims = claims_and_sources(from_mistral(load("mistral-response-nobel"), sources=[given]))
    assert [sources for _, sources in claims] == [["ref-0"], ["ref-0"]]


def test_a_mistral_tool_result_that_is_not_json_gives_no_references_F_5() -> None:
    request = load("mistral-request-nobel")
    request["messages"][-1]["content"] = "sunny, 21 degrees"
    converted = from_mistral(load("mistral-response-nobel"), request)
    assert converted.sources == ()
    assert any("ref-0" in note for note in converted.notes)


# --- Perplexity -----------------------------------------------------------------------------


def test_the_perplexity_fixture_is_valid_for_the_sdk_F_4() -> None:
    raw = load("perplexity-response-rates")
    chunk = StreamChunk.model_validate(raw)
    assert unknown_fields(chunk) == [] and dropped_fields(chunk, raw) == []


def test_perplexity_numbered_markers_become_citations_of_their_search_results_F_4() -> None:
    converted = from_perplexity(load("perplexity-response-rates"))
    assert "[1]" not in converted.answer and "[2]" not in converted.answer
    assert claims_and_sources(converted) == [
        (
            "The Bank of England cut Bank Rate to 4.5% on 6 February 2025. "
            "<cite:result-1> <cite:result-2>",
            ["result-1", "result-2"],
        ),
        ("The Monetary Policy Committee voted 7–2 for the cut. <cite:result-1>", ["result-1"]),
        ("UK CPI inflation rose to 3.0% in January 2025. <cite:result-3>", ["result-3"]),
    ]
    assert converted.sources[2].title == "Consumer price inflation, UK: January 2025"


def test_a_perplexity_marker_past_the_results_is_left_as_written_F_4() -> None:
    raw = load("perplexity-response-rates")
    raw["choices"][0]["message"]["content"] += " Rates may fall again.[9]"
    converted = from_perplexity(raw)
    assert converted.answer.endswith("Rates may fall again.[9]")
    assert claims_and_sources(converted)[-1][1] == ["9"]


def test_a_response_without_choices_is_refused_F_5() -> None:
    with pytest.raises(AnswerError, match="no choices"):
        from_perplexity({"choices": []})
    with pytest.raises(AnswerError, match="not a v2 chat response"):
        from_cohere({"text": "v1 shape"})


def test_a_perplexity_marker_cites_its_whole_sentence_past_an_abbreviation() -> None:
    raw = load("perplexity-response-rates")
    raw["choices"][0]["message"]["content"] += " In S.A. 3262, Ar-Pharazôn landed at Umbar.[2]"
    converted = from_perplexity(raw)
    last = converted.citations[-1]
    assert converted.output[slice(*last.cited_words.code_points)] == (
        "In S.A. 3262, Ar-Pharazôn landed at Umbar."
    )
    assert claims_and_sources(converted)[-1] == (
        "In S.A. 3262, Ar-Pharazôn landed at Umbar. <cite:result-2>",
        ["result-2"],
    )
