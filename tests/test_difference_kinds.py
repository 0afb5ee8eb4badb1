"""Which kind each difference of a quote is, and so whether it changes the meaning (F.1): a
typo is told from another word, a number or a name, case by case."""

from __future__ import annotations

import pytest

from citeproof.verifier._differences import compare


def named(written: str, source: str) -> list[tuple[str, str, str, bool]]:
    return [
        (d.kind, d.before, d.after, d.changes_meaning) for d in compare(written, source).differences
    ]


@pytest.mark.parametrize(
    ("written", "source", "expected"),
    [
        # A digit on either side is never a typo: "MP3" is not "MPs" misspelt.
        ("the MP3 files", "the MPs files", ("number", "MP3", "MPs", True)),
        ("the MPs files", "the MP3 files", ("number", "MPs", "MP3", True)),
        # A three-letter word is long enough for a typo.
        ("teh policy", "the policy", ("spelling", "teh", "the", False)),
        # One number word for another is a number, however close their letters.
        ("fifty applicants", "fifth applicants", ("number", "fifty", "fifth", True)),
        # ...but a number word misspelt, on either side, is a typo.
        ("fiftey applicants", "fifty applicants", ("spelling", "fiftey", "fifty", False)),
        ("fifty applicants", "fiftey applicants", ("spelling", "fifty", "fiftey", False)),
        # A two-letter word is too short to be misspelt: "UK" / "US" are other names, even
        # where a sentence starts.
        ("UK lenders must refer", "US lenders must refer", ("name", "UK", "US", True)),
    ],
)
def test_a_typo_is_told_from_another_number_or_name_f_1(
    written: str, source: str, expected: tuple[str, str, str, bool]
) -> None:
    assert named(written, source) == [expected]


@pytest.mark.parametrize(
    ("written", "source", "expected"),
    [
        # A capitalised word where a sentence starts is not taken for a name...
        ("Regular activity helps", "Daily activity helps", [("word", "Regular", "Daily", True)]),
        ("approved. Osei signed", "approved. Mensah signed", [("word", "Osei", "Mensah", True)]),
        (
            "sent to the UK. Osei signed",
            "sent to the UK. Mensah signed",
            [("word", "Osei", "Mensah", True)],
        ),
        # ...but after a comma or an abbreviation's full stop it is one.
        ("approved, Osei signed", "approved, Mensah signed", [("name", "Osei", "Mensah", True)]),
        (
            "signed by Dr. Okafor today",
            "signed by Dr. Mensah today",
            [("name", "Okafor", "Mensah", True)],
        ),
        (
            "signed by M. Osei today",
            "signed by M. Mensah today",
            [("name", "Osei", "Mensah", True)],
        ),
        # Day and month names are dates, where a sentence starts too.
        ("met on Monday morning", "met on Tuesday morning", [("date", "Monday", "Tuesday", True)]),
        ("June 17 to February 22", "July 17 to February 22", [("date", "June", "July", True)]),
        # "march" in lower case is no month.
        (
            "the soldiers march forward",
            "the soldiers marched forward",
            [("word", "march", "marched", True)],
        ),
        # "may" in lower case is the modal, not the month.
        (
            "applications may be referred",
            "applications must be referred",
            [("modal", "may", "must", True)],
        ),
        # Any word ending in n't negates.
        ("you oughtn't to refer", "you ought to refer", [("negation", "oughtn't", "ought", True)]),
        # A small word that carries meaning, added or dropped alone, changes it...
        (
            "applications must be referred",
            "applications must only be referred",
            [("stance", "", "only", True)],
        ),
        (
            "applications must only be referred",
            "applications must be referred",
            [("stance", "only", "", True)],
        ),
        # ...one that does not carry it alone does not.
        ("applications for review", "applications review", [("word", "for", "", False)]),
        (
            "heart health better sleep",
            "heart health and better sleep",
            [("word", "", "and", False)],
        ),
        (
            "improved lung health",
            "improved heart and lung health",
            [("word", "", "heart and", True)],
        ),
        # A one-letter content word is a content word.
        ("see appendix b for details", "see appendix c for details", [("word", "b", "c", True)]),
    ],
)
def test_each_difference_has_the_kind_its_words_make_it_f_1(
    written: str, source: str, expected: list[tuple[str, str, str, bool]]
) -> None:
    assert named(written, source) == expected


@pytest.mark.parametrize(
    ("written", "source", "expected"),
    [
        (
            "according to the re  view",
            "according to the review",
            [("whitespace", "re view", "review", False)],
        ),
        (
            "the database was moved",
            "the data base was moved",
            [("whitespace", "database", "data base", False)],
        ),
        (
            "the old data base was moved to a new data base today",
            "the old database was moved to a new database today",
            [("whitespace", "data base", "database", False)] * 2,
        ),
        (
            "heart health,; and better",
            "heart health and better",
            [("punctuation", ", ;", "", False)],
        ),
        (
            "heart health better",
            "heart health, and; better",
            [("punctuation", "", ", ;", False), ("word", "", "and", False)],
        ),
        # A word whose case alone changed, inside a stretch that changed more.
        (
            "heart health, Better lung sleep",
            "heart health better; heart sleep",
            [
                ("punctuation", ",", ";", False),
                ("case", "Better", "better", False),
                ("word", "lung", "heart", True),
            ],
        ),
        # Case differences next to each other read as one.
        (
            "the second battle of lincoln",
            "The Second Battle of Lincoln",
            [("case", "the second battle lincoln", "The Second Battle Lincoln", False)],
        ),
        (
            "the Second battle, of Lincoln",
            "The second battle of Lincoln",
            [("case", "the Second", "The second", False), ("punctuation", ",", "", False)],
        ),
    ],
)
def test_cosmetic_differences_are_named_with_the_words_they_touch_f_1(
    written: str, source: str, expected: list[tuple[str, str, str, bool]]
) -> None:
    assert named(written, source) == expected
