"""Brackets in a quote, as legal writing uses them (003.4, 003.9). A bracketed change of a
letter's case ("[t]he Supplier's ...") is the source's own words with their case marked as
changed: the quote is corrected to the source's case and its meaning is unchanged. Before,
the bracket was read as two characters of text: the meaning was called changed ("the source
says “1”, not “t”") and the correction pulled the clause's number into the quote ("1 The
Supplier's ..."). A bracketed word the source does not have is still a word the quote adds."""

from __future__ import annotations

import pytest

from citeproof import Source, verify

MSA = Source(
    id="MSA",
    kind="document",
    text=(
        "12.1 The Supplier's total liability in any contract year is capped at the fees paid "
        "in that year.\n\n"
        "12.2 Neither party excludes or limits liability for fraud, or for death or personal "
        "injury caused by negligence."
    ),
)


@pytest.mark.parametrize(
    ("written", "source_words"),
    [
        (
            "[t]he Supplier's total liability in any contract year is capped",
            "The Supplier's total liability in any contract year is capped",
        ),
        (
            "[n]either party excludes or limits liability for fraud",
            "Neither party excludes or limits liability for fraud",
        ),
    ],
)
def test_a_bracketed_change_of_case_keeps_the_meaning_003_4(
    written: str, source_words: str
) -> None:
    verified = verify(f'The agreement says that "{written}" [MSA].', [MSA])
    (quote,) = verified.quotes
    assert quote.status == "corrected"
    assert not quote.meaning_changed
    assert verified.text == f'The agreement says that "{source_words}" [MSA].'
    (claim,) = verified.claims
    assert claim.verdict == "supported"


def test_sic_marks_the_sources_own_spelling_and_is_no_word_of_the_quote_003_4() -> None:
    source = Source(
        id="K",
        kind="document",
        text="The Suplier shall deliver the goods within 30 days of the order.",
    )
    for mark in ("[sic]", "(sic)", "[sic!]"):
        verified = verify(f'It says "The Suplier {mark} shall deliver the goods" [K].', [source])
        (quote,) = verified.quotes
        assert (quote.status, quote.meaning_changed) == ("verified", False), quote.note
        assert verified.text == f'It says "The Suplier {mark} shall deliver the goods" [K].'


def test_a_bracketed_word_the_source_lacks_is_still_an_addition_003_4() -> None:
    verified = verify(
        'Liability is "capped at the fees paid in that [contract] year" [MSA].', [MSA]
    )
    (quote,) = verified.quotes
    assert quote.meaning_changed
    assert "adds “contract”" in quote.note
