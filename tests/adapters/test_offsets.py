"""One offset model: every span in code points, UTF-16 units and UTF-8 bytes (F.4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeproof.adapters import TextOffsets, span_of
from citeproof.adapters._offsets import UNITS
from citeproof.adapters.convert import convert
from citeproof.errors import AnswerError
from tests.adapters.fixtures import load

# Texts where the three units differ, and what one character of each costs.
CASES = [
    ("ascii", "The rate is 4.5%.", "4.5%", (4, 4, 4)),
    ("emoji", "Rates 📈 rose: 🎉 4.5% now", "4.5%", (4, 4, 4)),
    ("emoji itself", "Rates 📈 rose", "📈", (1, 2, 4)),
    ("cjk", "利率为百分之四点五。", "百分之四点五", (6, 6, 18)),
    ("combining marks", "Cafe\u0301 prices rose", "Cafe\u0301", (5, 5, 6)),
    ("astral cjk", "𠀋 is an extension-B character", "𠀋", (1, 2, 4)),
    ("flag and family", "🇬🇧 and 👨‍👩‍👧 are sequences", "👨‍👩‍👧", (5, 8, 18)),
    ("mixed", "Zürich 🏦: 年利率 4.5% (𝟒.𝟓)", "(𝟒.𝟓)", (5, 7, 11)),
]


@pytest.mark.parametrize(("name", "text", "part", "lengths"), CASES, ids=[c[0] for c in CASES])
def test_a_span_is_the_same_text_in_every_unit_F_4(
    name: str, text: str, part: str, lengths: tuple[int, int, int]
) -> None:
    start = text.index(part)
    span = span_of(text, start, start + len(part))
    assert text[slice(*span.code_points)] == part
    encoded16 = text.encode("utf-16-le")
    assert encoded16[span.utf16[0] * 2 : span.utf16[1] * 2].decode("utf-16-le") == part
    assert text.encode("utf-8")[slice(*span.utf8)].decode("utf-8") == part
    widths = tuple(end - begin for begin, end in (span.code_points, span.utf16, span.utf8))
    assert widths == lengths


@pytest.mark.parametrize("unit", UNITS)
def test_a_span_given_in_any_unit_converts_back_to_the_same_text_F_4(unit: str) -> None:
    text = "Zürich 🏦: 年利率 4.5% (𝟒.𝟓)"
    offsets = TextOffsets(text)
    start = text.index("年")
    original = offsets.span(start, start + 3)
    again = offsets.span(*original.in_unit(unit), unit)  # type: ignore[arg-type]
    assert again == original


def test_a_utf8_offset_inside_an_emoji_is_refused_with_the_character_named_F_4() -> None:
    offsets = TextOffsets("Rates 📈 rose", where="candidates[0].content.parts[0]")
    with pytest.raises(AnswerError, match=r"inside the character '📈'.*parts\[0\]|parts\[0\].*📈"):
        offsets.to_index(8, "utf8")


def test_a_utf16_offset_between_the_halves_of_a_surrogate_pair_is_refused_F_4() -> None:
    with pytest.raises(AnswerError, match="falls inside"):
        TextOffsets("a😀b").to_index(2, "utf16")


def test_an_offset_past_the_end_is_refused_with_the_length_F_4() -> None:
    with pytest.raises(AnswerError, match=r"outside the text \(9 UTF-8 bytes\)"):
        TextOffsets("利率为").to_index(10, "utf8")


def test_a_lone_surrogate_from_json_counts_as_one_utf16_unit_and_three_bytes_F_4() -> None:
    text = "a\ud83db"  # JSON "\ud83d" with no partner: a broken emoji
    span = span_of(text, 0, 3)
    assert span.utf16 == (0, 3) and span.utf8 == (0, 5)


@given(st.text(max_size=40), st.data())
def test_every_boundary_agrees_with_the_encoders_F_4(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    span = span_of(text, start, end)
    prefix = text[:start]
    assert span.utf8[0] == len(prefix.encode("utf-8", "surrogatepass"))
    assert span.utf16[0] == len(prefix.encode("utf-16-le", "surrogatepass")) // 2
    assert span.utf8[1] - span.utf8[0] == len(text[start:end].encode("utf-8", "surrogatepass"))


# Every fixture of every vendor: each cited span says the same words in all three units.
VENDOR_FIXTURES = [
    ("anthropic", "anthropic-response-plain-text", "anthropic-request-plain-text"),
    ("anthropic", "anthropic-response-blocks", "anthropic-request-blocks"),
    ("openai", "openai-response-web-search", None),
    ("openai", "openai-chat-completion-web-search", None),
    ("gemini", "gemini-response-search-emoji-cjk", None),
    ("gemini", "gemini-response-rag", None),
    ("cohere", "cohere-response-tool", None),
    ("mistral", "mistral-response-nobel", "mistral-request-nobel"),
    ("perplexity", "perplexity-response-rates", None),
]


@pytest.mark.parametrize(
    ("vendor", "response", "request_name"), VENDOR_FIXTURES, ids=[f[1] for f in VENDOR_FIXTURES]
)
def test_every_cited_span_of_every_format_agrees_in_the_three_units_F_4(
    vendor: str, response: str, request_name: str | None
) -> None:
    request = load(request_name) if request_name else None
    converted = convert(vendor, load(response), request)
    output = converted.output
    assert converted.citations
    for citation in converted.citations:
        words = output[slice(*citation.cited_words.code_points)]
        assert words.strip(), citation
        utf8 = output.encode("utf-8")[slice(*citation.cited_words.utf8)].decode("utf-8")
        utf16 = output.encode("utf-16-le")[
            citation.cited_words.utf16[0] * 2 : citation.cited_words.utf16[1] * 2
        ].decode("utf-16-le")
        assert utf8 == utf16 == words
