"""Properties of the answer parser on any text: it never fails and its offsets are sound."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citeproof.model import ParsedAnswer
from citeproof.verifier.parse import parse_answer

# Pieces answers are made of, weighted towards the ones that make parsing hard.
PIECES = st.sampled_from(
    [
        "The LTV is 83%",
        "Refer it",
        " ",
        "  ",
        "\n",
        "\n\n",
        "\r\n",
        "> ",
        "   >",
        ">",
        "- ",
        "1. ",
        "# ",
        "---",
        "```",
        "`",
        ".",
        ". ",
        "! ",
        "e.g. ",
        "Dr. ",
        '"',
        "'",
        "“",
        "”",
        "‘",
        "’",
        "«",
        "»",
        "„",
        "‚",
        "「",
        "」",
        "don't",
        "5'10\"",
        '27"',
        "[",
        "]",
        "[S1]",
        "[S2, ¶4]",
        "[1, 3]",
        "[2-4]",
        "[1-99999]",
        "[Source 2]",
        "[...]",
        "[x]",
        "[sic]",
        "[^1]",
        "[^1]: S2 ¶4",
        "[^2]:",
        "[link](http://x)",
        "<cite:S1>",
        "<cite:S1#p2>",
        "<cite:",
        "— ",
        "Source: ",
        "[Contract]",
        "[Contract ¶2, S3]",
        "[Source: Board Minutes]",
        "[Q3 Report, section 3]",
        "[^3]: Source: Contract",
        "¶",
        "#p",
        "\x00",
    ]
)
ANSWERS = st.one_of(st.text(), st.lists(PIECES, max_size=40).map("".join))


def check_offsets(answer: str, parsed: ParsedAnswer) -> None:
    size = len(answer)
    assert parsed.text == answer
    claim_ids = [c.id for c in parsed.claims]
    assert claim_ids == [f"c{n}" for n in range(1, len(claim_ids) + 1)]
    for claim in parsed.claims:
        start, end = claim.span
        assert 0 <= start < end <= size
        assert answer[start:end] == claim.text == claim.text.strip()
    assert [s for s, _ in (c.span for c in parsed.claims)] == sorted(
        s for s, _ in (c.span for c in parsed.claims)
    )
    for citation in parsed.citations:
        start, end = citation.marker_span
        assert 0 <= start < end <= size
        assert answer[start:end] == citation.marker
    for quote in parsed.quotes:
        start, end = quote.span
        assert 0 <= start < end <= size
        assert quote.claim_id in claim_ids
        claim = parsed.claims[claim_ids.index(quote.claim_id)]
        assert quote.id in claim.quote_ids
        assert claim.span[0] <= start and end <= claim.span[1]
        if quote.style == "inline":
            assert answer[start:end] == quote.text
        else:
            assert answer[start] == ">"
            assert quote.text.split("\n") == block_lines(answer[start:end])


def block_lines(block: str) -> list[str]:
    """The lines of a block quote as written, without ``>`` and the one space after it."""
    lines = []
    for line in block.split("\n"):
        content = line.lstrip(" ")[1:]  # up to three spaces, then ">"
        lines.append((content[1:] if content.startswith(" ") else content).rstrip())
    return lines


@settings(deadline=None)
@given(ANSWERS)
def test_parse_never_fails_and_offsets_index_the_answer_003_1(answer: str) -> None:
    check_offsets(answer, parse_answer(answer))


NAMES = st.lists(
    st.one_of(st.sampled_from(["Contract", "Q3 Report", "src", "Note", "1", "¶", ""]), st.text()),
    max_size=4,
)


@settings(deadline=None)
@given(ANSWERS, NAMES)
def test_parse_with_source_names_never_fails_and_cites_no_less_003_1(
    answer: str, names: list[str]
) -> None:
    """Names make more brackets citations, never fewer, and keep every offset sound."""
    named = parse_answer(answer, names)
    check_offsets(answer, named)
    plain = {c.marker_span for c in parse_answer(answer).citations}
    assert plain <= {c.marker_span for c in named.citations}


@settings(deadline=None)
@given(ANSWERS)
def test_quote_ids_are_unique_and_in_order_of_position_003_8(answer: str) -> None:
    quotes = parse_answer(answer).quotes
    assert [q.id for q in quotes] == [f"q{n}" for n in range(1, len(quotes) + 1)]
    starts = [q.span[0] for q in quotes]
    assert starts == sorted(starts)
    assert len(set(starts)) == len(starts)


@settings(deadline=None)
@given(
    st.lists(st.sampled_from(['"to a senior underwriter" [S1]. ', "[S2] ", "\n\n"]), max_size=12)
)
def test_repeated_quote_gives_one_record_per_occurrence_003_8(pieces: list[str]) -> None:
    answer = "".join(pieces)
    occurrences = answer.count('"to a senior underwriter"')
    quotes = parse_answer(answer).quotes
    assert len(quotes) == occurrences
    assert all(q.text == "to a senior underwriter" for q in quotes)
    assert len({q.span for q in quotes}) == occurrences
