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


def test_a_turn_whose_sources_are_all_excluded_says_none_was_provided_012_3() -> None:
    eligibility = Eligibility((), (Exclusion("S1", "acl", "not in the asker's access list"),), "fp")
    quote = quote_of(f'"{ABSENT}" [S1].', eligibility=eligibility)
    assert quote.note == (
        "cites S1, which was not provided in this turn (not in the asker's access list); the"
        " sources provided are none" + TO_NUMBER
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
    # 32 characters with a context of 8: the word "with" is the last one shown.
    narrower = quote_of(f'"{ABSENT}" <cite:S1#p3>.', policy=Policy(excerpt_context=8))
    assert narrower.excerpt is not None
    assert narrower.excerpt.text == "2. Loan-to-value. Applications with"


def test_a_quote_not_found_names_the_source_its_label_resolved_to_003_4() -> None:
    quote = quote_of(f'"{ABSENT}" [1].')
    assert (quote.status, quote.cited_source) == ("not_found", "S1")


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


# -- found: the note and the corrections say what moved, and why (003.6, 011.1, 011.3) ------

OSEI = "Approval of the single year of accounts was given by M. Osei"


def test_a_quote_found_in_another_source_names_both_and_the_new_place_011_3() -> None:
    quote = quote_of(f'"{OSEI}" [S1 ¶2].')
    assert quote.note == "found in S3, not in the cited S1; corrected"
    (correction,) = quote.corrections
    assert (correction.kind, correction.before, correction.after) == ("source", "S1 ¶2", "S3 ¶3")
    assert correction.reason == "quote is in S3, not in the cited S1"
    assert (correction.score, correction.method) == (1.0, "exact-match")


def test_a_quote_found_in_another_paragraph_names_both_paragraphs_011_3() -> None:
    quote = quote_of(f'"{OSEI}" <cite:S3#p2>.')
    assert quote.note == "found in paragraph 3, not the cited 2; corrected"
    (correction,) = quote.corrections
    assert (correction.kind, correction.before, correction.after) == ("location", "S3 ¶2", "S3 ¶3")
    assert correction.reason == "quote is in paragraph 3 of S3, not paragraph 2"


def test_an_uncited_quote_gets_the_citation_it_lacked_011_3() -> None:
    quote = quote_of(f'"{OSEI}".')
    assert quote.note == "uncited; found in S3; corrected"
    (correction,) = quote.corrections
    assert (correction.kind, correction.before, correction.after) == (
        "source",
        "no citation",
        "S3 ¶3",
    )
    assert correction.reason == "quote is in S3; citation added"


def test_a_misquote_found_elsewhere_is_corrected_in_words_and_source_003_6() -> None:
    written = OSEI.replace("accounts", "account")
    quote = quote_of(f'"{written}" [S1].')
    assert quote.note == (
        "wording differs from S3 (similarity 0.98); found in S3, not in the cited S1; corrected"
    )
    text, source = quote.corrections
    assert (text.kind, text.before, text.after) == ("text", written, OSEI)
    assert text.reason == "quote differs from S3; replaced with the source's exact wording"
    assert (text.score, text.method) == (0.9833, "fuzzy-match")
    assert (source.kind, source.before, source.after) == ("source", "S1", "S3")
    assert (source.score, source.method) == (0.9833, "fuzzy-match")


def test_a_misquote_in_its_cited_source_names_only_the_wording_003_6() -> None:
    written = "Applications with a loan-to-value ratio above 80% must be refered to a senior"
    quote = quote_of(f'"{written}" [S1].')
    assert quote.status == "corrected"
    assert quote.note == "wording differs from S1 (similarity 0.99); corrected"


ELIDED = "Applications with a loan-to-value ratio above {n}%{glue}before {word} offer is issued"


def test_an_elided_misquote_names_only_the_differences_outside_the_elision_f_1() -> None:
    changed = quote_of(f'"{ELIDED.format(n=85, glue=" ... ", word="an")}" [S1]')
    assert changed.note == (
        "wording differs from S1 (similarity 0.99); the meaning changed: the source says “80”,"
        " not “85”; corrected"
    )
    assert [(d.kind, d.before, d.after) for d in changed.differences] == [("number", "85", "80")]
    (correction,) = changed.corrections
    assert correction.reason == (
        "quote differs from S1; replaced with the source's exact wording; the meaning changed"
    )
    word = quote_of(f'"{ELIDED.format(n=80, glue=" ... ", word="any")}" [S1]')
    assert [(d.kind, d.before, d.after) for d in word.differences] == [("word", "any", "an")]


def test_an_email_quote_found_elsewhere_is_kept_and_the_note_says_why_003_7() -> None:
    quote = quote_of(f'"{ELIDED.format(n=80, glue=" ... ", word="any")}" [S2]')
    assert quote.status == "mismatch"
    assert quote.note == (
        "wording differs from S1 (similarity 0.99); found in S1, not in the cited S2; kept as"
        " written because S2 is an email body"
    )


@pytest.mark.parametrize(
    "glue", [" ... ", "…", " … ", " [...] ", "[…]", " . . . ", " (...) ", " ( ... ) ", " (…) "]
)
def test_a_corrected_elided_quote_keeps_its_elision_as_written_003_6(glue: str) -> None:
    quote = quote_of(f'"{ELIDED.format(n=80, glue=glue, word="any")}" [S1]')
    assert quote.status == "corrected"
    assert quote.corrected_text == ELIDED.format(n=80, glue=glue, word="an")


def test_an_elision_the_answer_wrote_unrecognisably_is_corrected_to_a_plain_one_003_6() -> None:
    # "..\u200b." is an ellipsis once the invisible character is dropped, but not as written.
    written = ELIDED.format(n=80, glue=" ..\u200b. ", word="any")
    quote = quote_of(f'"{written}" [S1]')
    assert quote.corrected_text == ELIDED.format(n=80, glue=" ... ", word="an")


def test_an_inline_correction_stays_on_one_line_and_a_block_keeps_its_lines_003_6() -> None:
    text = "The fee is charged when the loan\ncompletes and is never refunded afterwards."
    sheet = Source(id="D1", kind="document", text=text)
    written = "the fee is charged when the loan completes and is never refunded"
    result = verify(f'It says "{written}" [D1].', [sheet], now=NOW)
    assert result.quotes[0].corrected_text == (
        "The fee is charged when the loan completes and is never refunded"
    )
    block = verify(
        "> the fee is charged when the loan\n> completes and is never refunded\n[D1]\n",
        [sheet],
        now=NOW,
    )
    assert block.quotes[0].corrected_text == (
        "The fee is charged when the loan\ncompletes and is never refunded"
    )
    assert (
        block.text
        == "> The fee is charged when the loan\n> completes and is never refunded\n[D1]\n"
    )


def test_a_corrected_block_quote_keeps_its_blank_lines_as_bare_markers_003_6() -> None:
    text = (
        "The fee is charged when the loan completes.\n\nIt is never refunded afterwards by the"
        " lender."
    )
    sheet = Source(id="D2", kind="document", text=text)
    answer = (
        "> The fee is charged when the loan completes.\n>\n"
        "> It is never refunded afterward by the lender.\n[D2]\n"
    )
    result = verify(answer, [sheet], now=NOW)
    (quote,) = result.quotes
    corrected = (
        "> The fee is charged when the loan completes.\n>\n"
        "> It is never refunded afterwards by the lender."
    )
    assert result.text == corrected + "\n[D2]\n"
    assert result.text[slice(*quote.corrected_span)] == corrected


def test_a_cite_marker_shared_by_two_quotes_names_both_sources_in_its_family_003_3() -> None:
    answer = (
        'The policy says "Applications above 95% are declined." and the memo says '
        f'"{OSEI}" <cite:S1>.'
    )
    result = verify(answer, SOURCES, now=NOW)
    assert result.text.endswith(f'"{OSEI}" <cite:S1><cite:S3>.')
    located = answer.replace("<cite:S1>", "<cite:S1#p3>")
    assert verify(located, SOURCES, now=NOW).text.endswith(f'"{OSEI}" <cite:S1#p3><cite:S3#p3>.')


# -- the excerpt shown beside a found quote (003.4) ------------------------------------------


@pytest.mark.parametrize(
    ("answer", "context", "note", "excerpt", "highlighted"),
    [
        (
            '"Applications with a loan-to-value ratio above 80% must be referred to a senior'
            ' underwriter" [S1].',
            10,
            "found word for word in S1, paragraph 3",
            "Loan-to-value. Applications with a loan-to-value ratio above 80% must be referred"
            " to a senior underwriter before an",
            "Applications with a loan-to-value ratio above 80% must be referred to a senior"
            " underwriter",
        ),
        (
            '"Applications above 95% are declned" [S1].',
            5,
            "wording differs from S1 (similarity 0.97); corrected",
            "issued. Applications above 95% are declined.\n\n3.",
            "Applications above 95% are declined",
        ),
        (
            '"This policy applies to every residential mortgage application" [S1].',
            12,
            "found word for word in S1, paragraph 2",
            "7\n\n1. Scope. This policy applies to every residential mortgage application"
            " received on",
            "This policy applies to every residential mortgage application",
        ),
    ],
)
def test_a_found_quote_is_shown_with_whole_words_of_context_around_it_003_4(
    answer: str, context: int, note: str, excerpt: str, highlighted: str
) -> None:
    quote = quote_of(answer, policy=Policy(excerpt_context=context))
    assert quote.note == note
    assert quote.excerpt is not None and quote.excerpt.text == excerpt
    start, end = quote.excerpt.highlight
    assert quote.excerpt.text[start:end] == highlighted
    assert (quote.excerpt.source_id, quote.excerpt.title, quote.excerpt.url) == (
        "S1",
        POLICY.title,
        POLICY.url,
    )
