"""Gemini grounding: segments in UTF-8 bytes land on the right words, whatever the text (F.4)."""

from __future__ import annotations

import pytest
from google.genai import types

from citeproof.adapters import from_gemini
from citeproof.errors import AnswerError
from citeproof.model import Source
from tests.adapters.fixtures import load
from tests.adapters.sdk import unknown_fields

NAMES = ["gemini-response-search-emoji-cjk", "gemini-response-rag"]


@pytest.mark.parametrize("name", NAMES)
def test_every_fixture_is_a_valid_response_for_the_sdk_F_4(name: str) -> None:
    response = types.GenerateContentResponse.model_validate(load(name))
    assert unknown_fields(response) == []
    assert response.candidates and response.candidates[0].grounding_metadata


def test_every_segment_over_emoji_and_cjk_lands_on_its_own_text_F_4() -> None:
    raw = load("gemini-response-search-emoji-cjk")
    converted = from_gemini(raw)
    supports = raw["candidates"][0]["groundingMetadata"]["groundingSupports"]
    segments = [s["segment"]["text"] for s in supports for _ in s["groundingChunkIndices"]]
    landed = [converted.output[slice(*c.cited_words.code_points)] for c in converted.citations]
    assert landed == segments
    assert all(c.check is not None and c.check.status == "verbatim" for c in converted.citations)
    # Read as string indices, the same bytes would cut the text in the wrong places.
    first = supports[1]["segment"]
    assert converted.output[first["startIndex"] : first["endIndex"]] != first["text"]


def test_the_first_segment_has_no_start_index_and_starts_the_text_F_4() -> None:
    raw = load("gemini-response-search-emoji-cjk")
    assert (
        "startIndex"
        not in raw["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["segment"]
    )
    first = from_gemini(raw).citations[0]
    assert first.cited_words.code_points[0] == 0 and first.cited_words.utf8[0] == 0


def test_each_marker_follows_its_segment_and_each_sentence_is_a_claim_F_4() -> None:
    page = Source(id="chunk-0", kind="document", text="西班牙以2比1击败英格兰，第四次夺得欧洲杯。")
    converted = from_gemini(load("gemini-response-search-emoji-cjk"), [page])
    assert "击败英格兰。 <cite:chunk-0><cite:chunk-1> 这是" in converted.answer
    assert "创下纪录 🇪🇸。 <cite:chunk-0> Spain's" in converted.answer
    assert converted.answer.endswith("in Berlin 🎉. <cite:chunk-2>")
    claims = converted.verify().claims
    assert [[(c.source, c.status) for c in claim.citations] for claim in claims] == [
        [("chunk-0", "ok"), ("chunk-1", "ineligible")],
        [("chunk-0", "ok")],
        [("chunk-2", "ineligible")],
    ]


def test_confidence_scores_stay_with_their_chunks_F_4() -> None:
    converted = from_gemini(load("gemini-response-search-emoji-cjk"))
    assert [(c.source_id, c.confidence) for c in converted.citations] == [
        ("chunk-0", 0.97),
        ("chunk-1", 0.92),
        ("chunk-0", 0.95),
        ("chunk-2", 0.88),
    ]


def test_rag_chunks_become_sources_and_part_indexes_skip_the_thought_F_4() -> None:
    converted = from_gemini(load("gemini-response-rag"))
    assert "Prüfen der Richtlinie" not in converted.answer
    assert [s.id for s in converted.sources] == ["chunk-0", "chunk-1"]
    assert converted.sources[0].title == "Kreditrichtlinie"
    landed = [converted.output[slice(*c.cited_words.code_points)] for c in converted.citations]
    assert landed == [
        "Für Darlehen über 80 % Beleihungsauslauf ist eine Freigabe durch einen "
        "Senior-Underwriter nötig ✅.",
        "Gutachten dürfen höchstens sechs Monate alt sein.",
        "Die Bearbeitung dauert garantiert nur einen Tag ⏱️.",
    ]
    claims = converted.verify().claims
    assert [[c.source for c in claim.citations] for claim in claims] == [
        ["chunk-0"],
        ["chunk-1"],
        ["chunk-1"],
    ]


def test_sdk_objects_in_snake_case_convert_like_the_rest_json_F_4() -> None:
    raw = load("gemini-response-rag")
    sdk = types.GenerateContentResponse.model_validate(raw)
    snake = sdk.model_dump(mode="json", exclude_none=True)  # grounding_metadata, part_index...
    assert "grounding_metadata" in snake["candidates"][0]
    assert from_gemini(snake).answer == from_gemini(raw).answer == from_gemini(sdk).answer


def test_offsets_counted_in_code_points_by_mistake_are_put_right_by_the_segment_text_F_4() -> None:
    raw = load("gemini-response-search-emoji-cjk")
    segment = raw["candidates"][0]["groundingMetadata"]["groundingSupports"][1]["segment"]
    text = raw["candidates"][0]["content"]["parts"][0]["text"]
    start = text.index(segment["text"])
    segment["startIndex"], segment["endIndex"] = start, start + len(segment["text"])
    citation = from_gemini(raw).citations[2]
    assert citation.check is not None and citation.check.status == "moved"
    assert f"not {start}-{start + len(segment['text'])}" in citation.check.note
    assert from_gemini(raw).output[slice(*citation.cited_words.code_points)] == segment["text"]


def test_a_byte_offset_inside_a_character_without_segment_text_is_refused_F_4_F_5() -> None:
    raw = load("gemini-response-search-emoji-cjk")
    segment = raw["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["segment"]
    del segment["text"]
    segment["endIndex"] = 2  # inside the trophy emoji's four bytes
    with pytest.raises(AnswerError, match=r"parts\[0\].*inside the character '🏆'"):
        from_gemini(raw)


def test_a_chunk_index_that_does_not_exist_is_refused_F_5() -> None:
    raw = load("gemini-response-rag")
    raw["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["groundingChunkIndices"] = [7]
    with pytest.raises(AnswerError, match=r"chunk 7 does not exist \(2 grounding chunks\)"):
        from_gemini(raw)


NUMENOR = (
    "Ar-Pharazôn set sail from Númenor in S.A. 3261. In S.A. 3262, Ar-Pharazôn landed at "
    "Umbar and Sauron was taken to Númenor as a hostage."
)


def test_a_segment_holding_an_abbreviation_before_a_number_stays_one_claim() -> None:
    output = "Ar-Pharazôn set sail from Númenor in S.A. 3261. In S.A. 3262, he landed at Umbar."
    first, second = output.split(" In ")
    second = "In " + second
    response = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": output}]},
                "groundingMetadata": {
                    "groundingChunks": [
                        {"retrievedContext": {"uri": "gs://lore/numenor.txt", "text": NUMENOR}}
                    ],
                    "groundingSupports": [
                        {
                            "segment": {"endIndex": len(first.encode()), "text": first},
                            "groundingChunkIndices": [0],
                        },
                        {
                            "segment": {
                                "startIndex": len(first.encode()) + 1,
                                "endIndex": len(output.encode()),
                                "text": second,
                            },
                            "groundingChunkIndices": [0],
                        },
                    ],
                },
            }
        ]
    }
    converted = from_gemini(response)
    claims = converted.verify().claims
    assert [(claim.text, claim.verdict) for claim in claims] == [
        ("Ar-Pharazôn set sail from Númenor in S.A. 3261. <cite:chunk-0>", "supported"),
        ("In S.A. 3262, he landed at Umbar. <cite:chunk-0>", "supported"),
    ]
