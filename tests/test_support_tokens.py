"""Claim support reads a source one sentence at a time, each with spans into the whole text:
`tokenize(text, first, last)` must read exactly what `tokenize(text[first:last])` reads, so
a claim judged against a prepared source gets the verdict it gets against the sentence alone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citeproof.verifier.support._text import Token, tokenize

WORDS = [
    "The", "Supplier", "said", "Said", "over", "under", "80%", "up", "3%", "not", "approved",
    "May", "may", "ACME", "I", "2025-03-01", "-", "twenty", "five", "three", "months", "(90)",
    "days", "no", "more", "than", "£1,200", "5th", "\n", "\n\n", ".", '"', "- ", "Fees", "k",
    "22:00", "10", "pm", "p.m.", "1.30", "58p", "and", "a", "half", "9%", "to", ":", ",",
    "week", "week's", "within", "of", "quarter", "two", "thirds", "the", "an", "hour",
]  # fmt: skip


def shifted(tokens: list[Token], by: int) -> list[Token]:
    return [t._replace(span=(t.span[0] + by, t.span[1] + by)) for t in tokens]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), max_size=30),
    st.integers(min_value=0, max_value=400),
    st.integers(min_value=0, max_value=400),
)
def test_a_window_reads_as_the_same_text_cut_out(words: list[str], a: int, b: int) -> None:
    text = " ".join(words)
    first, last = sorted((min(a, len(text)), min(b, len(text))))
    assert tokenize(text, first, last) == shifted(tokenize(text[first:last]), first)


def test_a_date_right_after_a_hyphen_opens_a_window_as_a_date() -> None:
    text = "ref-2025-03-01 was signed"
    first = text.index("2025")
    read = tokenize(text, first)
    assert [(t.text, t.kind) for t in read[:3]] == [
        ("01", "number"),
        ("03", "date"),
        ("2025", "date"),
    ]
    assert read == shifted(tokenize(text[first:]), first)


def test_place_decides_names_attributions_and_comparatives_in_a_window() -> None:
    text = "Notes. Said the Supplier: fees rise over 80% and the Buyer said over there"
    first = text.index("Said")
    kinds = {t.text: t.kind for t in tokenize(text, first)}
    assert kinds["Said"] == "stop"  # an attribution word opening the sentence
    assert kinds["Supplier"] == "name"
    assert kinds["said"] == "stop"
    over = [t.kind for t in tokenize(text, first) if t.text == "over"]
    assert over == ["comparative", "stop"]  # "over 80%" compares; "over there" does not


def test_a_table_cell_capitalises_its_first_word_by_position() -> None:
    """ "| Vehicle | Payload |": a cell opens with a capital as a bullet does, so its first
    word is no name to set against a claim's ("the passage says “Vehicle”, not “Dunmore”");
    a name inside a cell stays one."""
    kinds = {t.text: t.kind for t in tokenize("| Vehicle | Day rate | Paid to Dunmore |")}
    assert kinds["Vehicle"] == "word"
    assert kinds["Day"] == "word"
    assert kinds["Dunmore"] == "name"


def test_times_of_day_pence_halves_and_ranges_read_as_the_figures_they_are() -> None:
    def keys(text: str) -> list[str]:
        return [t.key for t in tokenize(text) if t.kind == "number"]

    assert keys("between 10 pm and 4 am") == keys("between 22:00 and 04:00") == ["#22h", "#4h"]
    assert keys("at 5.30 p.m.") == keys("at 17:30") == ["#17.5h"]
    assert keys("by midday") == keys("by noon") == keys("by 12:00") == ["#12h"]
    assert keys("58p a box") == keys("£0.58 a box") == ["#0.58£"]
    assert keys("over two and a half hours") == keys("over 2.5 hours")
    assert keys("one and a half times") == ["#1.5"]
    assert keys("growth of 7-9%") == keys("growth of 7% to 9%") == ["#7%", "#9%"]
    # Not times: a ratio, an amount per month, a number and the word "a".
    assert keys("Leverage below 2.00:1") == ["#2", "#1"]
    assert keys("£500 pm") == ["#500£"]
    assert keys("page 4 a map") == ["#4"]
    # One unit of time said with "a"; a rate or a frequency is none.
    assert keys("within a week") == keys("within 7 days") == ["#7d"]
    assert keys("a week after the period ends") == keys("7 days after the period ends")
    assert keys("a month's notice") == keys("30 days' notice") == ["#30d"]
    assert keys("£80 a week") == keys("£80 a week before VAT") == ["#80£"]
    assert keys("twice a year") == ["#2"]
    # A fraction of something is the percentage it is.
    assert keys("half of the fee") == keys("half the fee") == keys("50% of the fee")
    assert keys("capped at a quarter of the charge") == keys("capped at 25%") == ["#25%"]
    assert keys("two thirds of the shares") == ["#66.7%"]
    assert keys("on the third of June") == ["#3th"]


def test_no_before_a_number_is_the_number_sign_not_a_denial() -> None:
    kinds = {
        (t.text, t.span[0]): t.kind
        for t in tokenize("Suddenly (No. 20 Pop, no.4 AC). No fee is due; no 5% fee either.")
    }
    assert kinds[("No", 10)] == "stop"
    assert kinds[("no", 22)] == "stop"
    assert kinds[("No", 32)] == "negation"
    assert kinds[("no", 47)] == "negation"
