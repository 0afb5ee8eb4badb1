"""The source-sentence segmenter: exact sentences for each hard case, and the span contract."""

from __future__ import annotations

import itertools

import pytest

from citeproof.sources import sentence_spans

CASES: list[tuple[str, str, list[str]]] = [
    (
        "era abbreviation before a year",
        "In S.A. 3262, Ar-Pharazôn landed at Umbar. Sauron was taken to Númenor.",
        ["In S.A. 3262, Ar-Pharazôn landed at Umbar.", "Sauron was taken to Númenor."],
    ),
    (
        "Latin abbreviations",
        "Bring proof, e.g. a bill, i.e. something recent. Then apply.",
        ["Bring proof, e.g. a bill, i.e. something recent.", "Then apply."],
    ),
    (
        "titles before names",
        "Dr. Rao met Mr. Shah and Mrs. Osei. They agreed.",
        ["Dr. Rao met Mr. Shah and Mrs. Osei.", "They agreed."],
    ),
    (
        "number abbreviation",
        "See No. 5 in the list. It is short.",
        ["See No. 5 in the list.", "It is short."],
    ),
    (
        "no as a word ends the sentence",
        "The answer was no. Then he left.",
        ["The answer was no.", "Then he left."],
    ),
    (
        "country abbreviation",
        "The U.S. Senate voted. See U.S. law.",
        ["The U.S. Senate voted.", "See U.S. law."],
    ),
    (
        "company suffix before a number, then at a sentence end",
        "Acme S.A. 2024 results were good. It sold Foo Inc. The deal closed.",
        ["Acme S.A. 2024 results were good.", "It sold Foo Inc.", "The deal closed."],
    ),
    (
        "etc. inside and at the end",
        "Apples, pears, etc. are fruit. We ate apples, pears, etc. Then we left.",
        ["Apples, pears, etc. are fruit.", "We ate apples, pears, etc.", "Then we left."],
    ),
    (
        "initials",
        "J. R. R. Tolkien wrote it. M. Osei read it.",
        ["J. R. R. Tolkien wrote it.", "M. Osei read it."],
    ),
    (
        "decimals, money, percentages and versions",
        "It grew 3.5% to $1,234.56 in v2.1.3 of the report. Next year 2.0 is due.",
        ["It grew 3.5% to $1,234.56 in v2.1.3 of the report.", "Next year 2.0 is due."],
    ),
    (
        "section and clause numbers",
        "Section 4.2 says so. See cl. 12.1 and sec. 3 for more. Art. 7 applies.",
        ["Section 4.2 says so.", "See cl. 12.1 and sec. 3 for more.", "Art. 7 applies."],
    ),
    (
        "figures and pages",
        "As fig. 3 shows, see pp. 12-14. Vol. 2 has more.",
        ["As fig. 3 shows, see pp. 12-14.", "Vol. 2 has more."],
    ),
    (
        "a sentence may start with a number",
        "The fee is 2%. 10 applications were declined.",
        ["The fee is 2%.", "10 applications were declined."],
    ),
    (
        "ellipsis before a lowercase word and before a capital",
        "Wait... then it came. We waited... Nothing came. It ended…  Really.",
        ["Wait... then it came.", "We waited...", "Nothing came.", "It ended…", "Really."],
    ),
    (
        "closing quotes and brackets after the stop",
        'He said "no." Then he left. (It rained.) We stayed. She said \u201cyes.\u201d Fine.',
        [
            'He said "no."',
            "Then he left.",
            "(It rained.)",
            "We stayed.",
            "She said \u201cyes.\u201d",
            "Fine.",
        ],
    ),
    (
        "question and exclamation marks",
        "Is it due? Yes! It is due. Why?! Because.",
        ["Is it due?", "Yes!", "It is due.", "Why?!", "Because."],
    ),
    (
        "a question mark before a lowercase word",
        '"Is it due?" she asked. It was.',
        ['"Is it due?" she asked.', "It was."],
    ),
    (
        "opening quote or bracket starts a sentence",
        'It is 83%. "Refer it," he said. [The file] was sent.',
        ["It is 83%.", '"Refer it," he said.', "[The file] was sent."],
    ),
    (
        "blank line between paragraphs",
        "First paragraph without a stop\n\nSecond one.\n \nThird one",
        ["First paragraph without a stop", "Second one.", "Third one"],
    ),
    (
        "a single line break inside a paragraph",
        "The fee is 2% of the\nloan amount. It is due.",
        ["The fee is 2% of the\nloan amount.", "It is due."],
    ),
    (
        "Chinese full stops without spaces",
        "西班牙赢得了2024年欧洲杯。这是第四次夺冠！「冠军」属于西班牙？对。",
        ["西班牙赢得了2024年欧洲杯。", "这是第四次夺冠！", "「冠军」属于西班牙？", "对。"],
    ),
    (
        "Japanese full stop then Latin text",
        "東京は大きい。 Tokyo is big.",
        ["東京は大きい。", "Tokyo is big."],
    ),
    (
        "capitals of other scripts start a sentence",
        "Il a dit oui. Élodie a dit non. Это так. Ωραία.",
        ["Il a dit oui.", "Élodie a dit non.", "Это так.", "Ωραία."],
    ),
    (
        "cases of the existing tests: initial, decimal, month, title, e.g., U.S.",
        "M. Osei paid 2.5 million on 1 Jan. to Dr. Rao, e.g. by cheque. He agreed. See U.S. law.",
        [
            "M. Osei paid 2.5 million on 1 Jan. to Dr. Rao, e.g. by cheque.",
            "He agreed.",
            "See U.S. law.",
        ],
    ),
    (
        "cases of the existing tests: a sentence ending in a year",
        "The first design was not built. The Hartley Bridge opened in 1932.",
        ["The first design was not built.", "The Hartley Bridge opened in 1932."],
    ),
    (
        "no sentence end",
        "  just some words  ",
        ["just some words"],
    ),
    ("blank text", " \n\n\t ", []),
    ("empty text", "", []),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_case_gives_exactly_its_sentences(text: str, expected: list[str]) -> None:
    assert [text[start:end] for start, end in sentence_spans(text)] == expected


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_spans_are_ordered_trimmed_and_cover_every_word(text: str, expected: list[str]) -> None:
    spans = sentence_spans(text)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    assert all(text[s:e] == text[s:e].strip() and e > s for s, e in spans)
    uncovered = list(text)
    for start, end in spans:
        uncovered[start:end] = " " * (end - start)
    assert "".join(uncovered).strip() == ""


def test_line_breaks_end_sentences_when_asked() -> None:
    text = "Requirements:\n- proof of income\n- a valuation. It is due."
    assert [text[s:e] for s, e in sentence_spans(text, line_breaks=True)] == [
        "Requirements:",
        "- proof of income",
        "- a valuation.",
        "It is due.",
    ]
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "Requirements:\n- proof of income\n- a valuation.",
        "It is due.",
    ]


def test_spans_of_a_slice_point_into_the_whole_text() -> None:
    text = "Ignore this. In S.A. 3262, he landed. Sauron came. Ignore that."
    start, end = text.index("In S.A."), text.index(" Ignore that")
    assert [text[s:e] for s, e in sentence_spans(text, start, end)] == [
        "In S.A. 3262, he landed.",
        "Sauron came.",
    ]


def test_a_line_break_inside_wrapped_prose_ends_no_sentence() -> None:
    text = (
        "The landlord is responsible for repairs to the\nroof and structure.\n"
        "The tenant pays rent.\n- a list item\nstarts here"
    )
    assert [text[s:e] for s, e in sentence_spans(text, line_breaks=True)] == [
        "The landlord is responsible for repairs to the\nroof and structure.",
        "The tenant pays rent.",
        "- a list item\nstarts here",
    ]
