"""Property tests for meaning-preserving verdicts (F.1), on real QuoteSum passages."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citeproof import Source, verify

# QuoteSum excerpts (Wikipedia, CC BY-SA), each with several numbers.
PASSAGES = [
    "The 5th Oklahoma Legislature met in special session from January 17 to February 22, 1916, "
    "in Oklahoma City, where 44 senators and 109 representatives considered 12 bills.",
    "The Second Battle of Lincoln occurred at Lincoln Castle on Saturday 20 May 1217, during "
    "the First Barons' War, when 406 knights and 317 crossbowmen relieved the castle.",
    "The inaugural competition was held between 14 July and 2 August 2009 in 12 venues across "
    "8 cities, with 24 teams playing 48 matches before 1,250,000 spectators.",
]
SOURCE_TEXT = "\n\n".join(PASSAGES)


@st.composite
def verbatim_quote(draw: st.DrawFn) -> str:
    """A run of at least 8 whole words of one passage."""
    words = draw(st.sampled_from(PASSAGES)).split(" ")
    length = draw(st.integers(min_value=8, max_value=len(words)))
    start = draw(st.integers(min_value=0, max_value=len(words) - length))
    return " ".join(words[start : start + length]).strip(",.")


def located(written: str, kind: str = "document"):  # type: ignore[no-untyped-def]
    source = Source(id="S1", kind=kind, text=SOURCE_TEXT)  # type: ignore[arg-type]
    (quote,) = verify(f"It says “{written}” [S1].", [source]).quotes
    return quote


@settings(max_examples=60, deadline=None)
@given(verbatim_quote(), st.data())
def test_whitespace_quote_mark_or_case_differences_never_change_the_meaning_f_1(
    quote: str, data: st.DataObject
) -> None:
    spaces = [i for i, c in enumerate(quote) if c == " "]
    styled = quote.replace("'", "’")
    if spaces:
        at = data.draw(st.sampled_from(spaces))
        styled = (
            styled[:at]
            + data.draw(st.sampled_from(["  ", "\n", " \u00a0", "\t"]))
            + (styled[at + 1 :])
        )
    starts = [i for i, c in enumerate(styled) if c.isalpha() and (i == 0 or styled[i - 1] == " ")]
    if data.draw(st.booleans()):
        at = data.draw(st.sampled_from(starts))
        styled = styled[:at] + styled[at].swapcase() + styled[at + 1 :]
    result = located(styled)
    assert result.status in ("verified", "corrected")
    assert not result.meaning_changed
    assert {d.kind for d in result.differences} <= {"whitespace", "punctuation", "case"}


@settings(max_examples=60, deadline=None)
@given(verbatim_quote(), st.data(), st.sampled_from(["document", "email_body"]))
def test_any_changed_digit_of_a_long_quote_is_located_and_flagged_f_1(
    quote: str, data: st.DataObject, kind: str
) -> None:
    digits = [i for i, c in enumerate(quote) if c.isdigit()]
    assume(digits)
    at = data.draw(st.sampled_from(digits))
    other = data.draw(st.sampled_from([d for d in "0123456789" if d != quote[at]]))
    changed = quote[:at] + other + quote[at + 1 :]
    result = located(changed, kind)
    assert result.status == ("corrected" if kind == "document" else "mismatch")
    assert result.source_span is not None
    assert SOURCE_TEXT[slice(*result.source_span)] == quote
    assert result.meaning_changed
    assert "number" in {d.kind for d in result.differences}
