"""Anthropic Messages citations, verified as a person reading the response would expect (F.4)."""

from __future__ import annotations

import anthropic.types
import pytest

from citeproof.adapters import from_anthropic
from citeproof.errors import AnswerError, SourceError
from citeproof.model import Source
from tests.adapters.fixtures import load
from tests.adapters.sdk import unknown_fields

NAMES = ["plain-text", "policy", "pdf", "blocks"]


@pytest.mark.parametrize("name", NAMES)
def test_every_fixture_is_a_valid_messages_response_for_the_sdk_F_4(name: str) -> None:
    message = anthropic.types.Message.model_validate(load(f"anthropic-response-{name}"))
    assert unknown_fields(message) == []
    assert any(block.type == "text" and block.citations for block in message.content)


def test_the_documented_example_verifies_both_cited_texts_at_their_characters_F_4() -> None:
    converted = from_anthropic(
        load("anthropic-response-plain-text"), load("anthropic-request-plain-text")
    )
    verified = converted.verify()
    assert converted.output == "According to the document, the grass is green and the sky is blue."
    assert [q.status for q in verified.quotes] == ["verified", "verified"]
    assert [q.text for q in verified.quotes] == ["The grass is green.", "The sky is blue."]
    assert [c.check.status for c in converted.citations if c.check] == ["verbatim", "verbatim"]
    # The sentence both citations belong to is one cited claim.
    assert len(verified.claims) == 1
    assert [c.source for c in verified.claims[0].citations] == ["doc-0", "doc-0"]


def test_an_sdk_message_object_converts_like_its_json_F_4() -> None:
    raw = load("anthropic-response-plain-text")
    request = load("anthropic-request-plain-text")
    from_sdk = from_anthropic(anthropic.types.Message.model_validate(raw), request)
    assert from_sdk.answer == from_anthropic(raw, request).answer


def test_a_location_off_by_twelve_characters_is_reported_and_corrected_F_4_011_1() -> None:
    converted = from_anthropic(load("anthropic-response-policy"), load("anthropic-request-policy"))
    moved = converted.citations[2].check
    assert moved is not None and moved.status == "moved"
    assert "off by +12 characters" in moved.note
    quote = converted.verify().quotes[2]
    assert quote.status == "corrected" and quote.paragraph == 3
    assert [c.kind for c in quote.corrections] == ["location"]


def test_a_cited_text_that_is_not_verbatim_is_said_to_differ_F_4() -> None:
    converted = from_anthropic(load("anthropic-response-policy"), load("anthropic-request-policy"))
    check = converted.citations[1].check
    assert check is not None and check.status == "not_verbatim"
    assert "within two working days" in check.note
    quote = converted.verify().quotes[1]
    assert quote.text.endswith("within five working days.")
    assert quote.status != "verified"


def test_pdf_pages_are_checked_and_a_wrong_page_is_named_F_4() -> None:
    converted = from_anthropic(load("anthropic-response-pdf"), load("anthropic-request-pdf"))
    right, wrong = (c.check for c in converted.citations)
    assert right is not None and right.status == "verbatim" and right.stated == "page 2"
    assert wrong is not None and wrong.status == "moved"
    assert "at page 2, not at page 1" in wrong.note
    statuses = [q.status for q in converted.verify().quotes]
    assert statuses == ["verified", "corrected"]


def test_content_blocks_and_search_results_are_checked_by_block_F_4() -> None:
    converted = from_anthropic(load("anthropic-response-blocks"), load("anthropic-request-blocks"))
    checks = {(c.source_id, c.check.stated): c.check.status for c in converted.citations if c.check}
    assert checks[("doc-0", "block 0")] == "verbatim"
    assert checks[("doc-0", "block 1")] == "moved"  # the text is block 2's
    assert checks[("result-0", "block 0")] == "verbatim"
    result = next(s for s in converted.sources if s.id == "result-0")
    assert result.url == "https://intranet.example/rates/2025-03"


def test_a_web_search_citation_without_page_text_is_cited_but_not_quoted_F_4_012_2() -> None:
    converted = from_anthropic(load("anthropic-response-blocks"), load("anthropic-request-blocks"))
    web = converted.citations[-1]
    assert web.source_id == "web-1" and web.check is not None
    assert web.check.status == "not_checked"
    assert "Bank Rate is 4.5%" not in converted.answer  # nothing to check it against
    assert any("web-1" in note and "--source web-1=FILE" in note for note in converted.notes)
    claim = converted.verify().claims[-1]
    assert [(c.source, c.status) for c in claim.citations] == [("web-1", "ineligible")]


def test_the_callers_copy_of_a_page_checks_the_web_citation_F_4() -> None:
    page = Source(
        id="boe",
        kind="document",
        text="Bank Rate is 4.5%. The Monetary Policy Committee voted to reduce Bank Rate "
        "to 4.5% at its meeting ending on 5 February 2025.",
        url="https://www.bankofengland.co.uk/monetary-policy/the-interest-rate-bank-rate",
    )
    converted = from_anthropic(
        load("anthropic-response-blocks"), load("anthropic-request-blocks"), [page]
    )
    assert converted.citations[-1].source_id == "boe"
    assert converted.verify().quotes[-1].status == "verified"


def test_without_the_request_a_document_given_by_title_is_used_F_4() -> None:
    policy = load("anthropic-request-policy")["messages"][0]["content"][0]["source"]["data"]
    given = Source(id="policy", kind="document", text=policy, title="Credit policy")
    converted = from_anthropic(load("anthropic-response-policy"), sources=[given])
    assert {c.source_id for c in converted.citations} == {"policy"}
    assert converted.verify().quotes[0].status == "verified"


def test_without_the_request_or_sources_the_answer_cannot_be_verified_F_4() -> None:
    converted = from_anthropic(load("anthropic-response-policy"))
    with pytest.raises(SourceError, match="carries no source text"):
        converted.verify()


def test_a_malformed_citation_names_its_path_F_5() -> None:
    response = load("anthropic-response-plain-text")
    del response["content"][1]["citations"][0]["document_index"]
    with pytest.raises(AnswerError, match=r"content\[1\]\.citations\[0\].*document_index"):
        from_anthropic(response, load("anthropic-request-plain-text"))


def test_a_response_that_is_not_a_message_is_refused_F_5() -> None:
    with pytest.raises(AnswerError, match="not a Messages response"):
        from_anthropic({"choices": []})
