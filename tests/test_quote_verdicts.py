"""What a verdict tells the person reading it: the note, the excerpt shown beside it, and the
corrections with their reasons (003.4, 003.6, 011.3, 012.2), word for word."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from citeproof import Policy, Source, VerifiedQuote, verify
from citeproof.model import Eligibility, Exclusion
from tests.lending import EMAIL, MEMO, POLICY, SOURCES

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ABSENT = "all refinancing requests are fast-tracked"
TO_NUMBER = (
    "; to cite sources by number, give them those ids (--source 1=FILE) or number them in the"
    " order given (--number-sources)"
)


def quote_of(answer: str, sources: tuple[Source, ...] = SOURCES, **kwargs: object) -> VerifiedQuote:
    (quote,) = verify(answer, sources, now=NOW, **kwargs).quotes  # type: ignore[arg-type]
    return quote


# -- ineligible: the note names the labels, why, and what was provided (012.2) -------------


def test_an_ineligible_quote_names_every_label_and_the_sources_provided_012_2() -> None:
    quote = quote_of(f'"{ABSENT}" [S9] [S7] [S9].')
    assert quote.status == "ineligible"
    assert quote.note == (
        "cites S7, S9, which was not provided in this turn; the sources provided are S1, S2, S3"
        + TO_NUMBER
    )
    assert (quote.cited_source, quote.cited_paragraph) == ("S9", None)
    assert quote.corrections == () and quote.excerpt is None and quote.source is None


def test_an_ineligible_quote_keeps_its_cited_label_and_paragraph_012_2() -> None:
    quote = quote_of(f'"{ABSENT}" <cite:S7#p2>.')
    assert (quote.status, quote.cited_source, quote.cited_paragraph) == ("ineligible", "S7", 2)


def test_numbered_sources_are_named_with_their_numbering_012_2() -> None:
    numbered = (replace(POLICY, id="1"), replace(MEMO, id="2"), replace(EMAIL, id="3"))
    quote = quote_of(f'"{ABSENT}" [4].', numbered)
    assert quote.note == (
        "cites 4, which was not provided in this turn; the sources provided are 1, 2, 3"
        " (numbered in the order given, 1 to 3)"
    )


@pytest.mark.parametrize("ids", [("2", "1"), ("1", "3"), ("0", "1"), ("1", "2", "4")])
def test_sources_not_numbered_one_to_n_get_the_advice_to_number_them_012_2(
    ids: tuple[str, ...],
) -> None:
    sources = tuple(
        replace(source, id=sid) for source, sid in zip((POLICY, MEMO, EMAIL), ids, strict=False)
    )
    quote = quote_of(f'"{ABSENT}" [7].', sources)
    assert quote.note == (
        f"cites 7, which was not provided in this turn; the sources provided are {', '.join(ids)}"
        + TO_NUMBER
    )


def test_a_named_label_gets_no_numbering_advice_012_2() -> None:
    quote = quote_of(f'"{ABSENT}" [rate-sheet].')
    assert quote.note == (
        "cites rate-sheet, which was not provided in this turn; the sources provided are S1, S2, S3"
    )


def test_a_citation_to_an_excluded_source_says_why_012_3() -> None:
    eligibility = Eligibility(
        ("S1",),
        (
            Exclusion("S3", "acl", "not in the asker's access list"),
            Exclusion("S2", "expired", "superseded by revision 8"),
        ),
        "fingerprint",
    )
    quote = quote_of(f'"{ABSENT}" [S3] [S2].', eligibility=eligibility)
    assert quote.note == (
        "cites S2, S3, which was not provided in this turn (not in the asker's access list; "
        "superseded by revision 8); the sources provided are S1" + TO_NUMBER
    )


# -- not found: the note, and the cited paragraph shown for comparison (003.4) -------------


def test_a_quote_not_found_shows_the_cited_paragraph_cut_after_a_whole_word_003_4() -> None:
    quote = quote_of(f'"{ABSENT}" <cite:S1#p3>.', policy=Policy(excerpt_context=10))
    assert quote.status == "not_found"
    assert quote.note == "not found in S1 or any other source provided in this turn"
    assert (quote.cited_source, quote.cited_paragraph) == ("S1", 3)
    assert quote.excerpt is not None
    # Four times the context (40 characters) from the paragraph's start, to the word's end.
    assert quote.excerpt.text == "2. Loan-to-value. Applications with a loan-to-value"
    assert (quote.excerpt.source_id, quote.excerpt.paragraph) == ("S1", 3)
    assert quote.excerpt.title == POLICY.title and quote.excerpt.url == POLICY.url
    assert quote.excerpt.highlight == (0, 0)


@pytest.mark.parametrize("paragraph", [1, 6])
def test_the_first_and_the_last_paragraph_are_shown_whole_when_short_003_4(paragraph: int) -> None:
    quote = quote_of(f'"{ABSENT}" <cite:S1#p{paragraph}>.')
    start, end = POLICY.paragraph_spans()[paragraph - 1]
    assert quote.excerpt is not None
    assert quote.excerpt.text == POLICY.text[start:end]
    assert quote.excerpt.paragraph == paragraph


@pytest.mark.parametrize("marker", ["<cite:S1#p7>", "<cite:S1#p0>", "[S1]"])
def test_no_paragraph_is_shown_for_one_the_source_lacks_or_none_cited_003_4(marker: str) -> None:
    quote = quote_of(f'"{ABSENT}" {marker}.')
    assert quote.status == "not_found" and quote.excerpt is None


def test_an_uncited_quote_not_found_names_no_source_003_4() -> None:
    quote = quote_of(f'It says "{ABSENT}".')
    assert quote.note == "not found in any source provided in this turn"
    assert (quote.cited_source, quote.excerpt) == (None, None)
