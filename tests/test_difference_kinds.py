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
