"""End-to-end verification of quotes against a lending team's sources (SPEC A, B, 012.2)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from citeproof import AnswerError, Policy, Source, SourceError, verify
from tests.lending import EMAIL, MEMO, POLICY, SOURCES, paragraph_of

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

LTV = "Applications with a loan-to-value ratio above 80% must be referred to a senior underwriter"


def run(answer: str, sources: tuple[Source, ...] = SOURCES, **policy: object):  # type: ignore[no-untyped-def]
    return verify(answer, sources, policy=Policy(**policy), now=NOW)  # type: ignore[arg-type]


def test_exact_quote_in_cited_source_is_verified_at_its_span_003_2() -> None:
    answer = f'The policy is explicit: "{LTV}" [S1].'
    result = run(answer)
    (quote,) = result.quotes
    assert quote.status == "verified"
    assert quote.source == "S1"
    start = POLICY.text.index(LTV)
    assert quote.source_span == (start, start + len(LTV))
    assert quote.paragraph == paragraph_of(POLICY, LTV)
    assert quote.score == 1.0
    assert quote.method == "exact"
    assert quote.corrections == ()
    assert result.text == answer


def test_verdict_metadata_travels_with_the_answer_003_4() -> None:
    answer = f'"{LTV}" [S1]. "Applications above 95% are declned" [S1].'
    result = run(answer)
    first, second = result.quotes
    assert (first.status, second.status) == ("verified", "corrected")
    for quote in result.quotes:
        assert quote.source == "S1"
        assert quote.paragraph == paragraph_of(POLICY, "Applications above 95%")
        assert quote.source_span is not None
        assert 0.0 < quote.score <= 1.0
        assert quote.method in ("exact", "fuzzy")
        assert quote.excerpt is not None
        excerpt = quote.excerpt.text
        assert POLICY.text[slice(*quote.source_span)] in excerpt
    assert result.counts() == {
        "verified": 1,
        "corrected": 1,
        "mismatch": 0,
        "not_found": 0,
        "ineligible": 0,
    }


def test_quote_found_in_a_paragraph_other_than_cited_is_relocated_011_1() -> None:
    cited_wrong = paragraph_of(POLICY, "Affordability")
    answer = f'Referral is required: "{LTV}" <cite:S1#p{cited_wrong}>.'
    result = run(answer)
    (quote,) = result.quotes
    right = paragraph_of(POLICY, LTV)
    assert quote.status == "corrected"
    assert quote.paragraph == right
    assert quote.corrected_text == LTV
    (correction,) = quote.corrections
    assert correction.kind == "location"
    assert (correction.before, correction.after) == (f"S1 ¶{cited_wrong}", f"S1 ¶{right}")
    assert f"<cite:S1#p{right}>" in result.text
    assert f"<cite:S1#p{cited_wrong}>" not in result.text
    assert result.original == answer


def test_location_correction_is_rendered_in_the_answer_family_011_4() -> None:
    answer = f'"{LTV}" [S1, ¶5].'
    result = run(answer)
    right = paragraph_of(POLICY, LTV)
    assert result.text == f'"{LTV}" [S1 ¶{right}].'
    (claim,) = result.claims
    (citation,) = claim.citations
    assert citation.status == "corrected"
    assert (citation.source, citation.paragraph) == ("S1", right)
    assert result.text[slice(*citation.answer_span)] == f"[S1 ¶{right}]"


def test_correction_record_holds_everything_an_auditor_needs_011_3() -> None:
    answer = f'"{LTV}" [S1 ¶2].'
    (correction,) = run(answer).quotes[0].corrections
    assert correction.kind == "location"
    assert correction.reason
    assert correction.score == 1.0
    assert correction.method == "exact-match"
    assert correction.time == "2026-11-30T09:00:00+00:00"


def test_misquote_of_a_document_is_corrected_to_its_exact_wording_003_6() -> None:
    written = "must be referred to a senior underwriter before any offer is issued"
    answer = f'The rule: applications above 80% "{written}" [S1].'
    result = run(answer)
    (quote,) = result.quotes
    exact = "must be referred to a senior underwriter before an offer is issued"
    assert quote.status == "corrected"
    assert quote.text == written
    assert quote.corrected_text == exact
    assert POLICY.text[slice(*quote.source_span)] == exact
    (correction,) = quote.corrections
    assert (correction.kind, correction.before, correction.after) == ("text", written, exact)
    assert 0.85 <= correction.score < 1.0
    assert f'"{exact}" [S1]' in result.text
    assert result.text[slice(*quote.corrected_span)] == exact


def test_misquote_of_an_attachment_is_corrected_too_003_6() -> None:
    written = "The applicant is self employed and provided one year of certified account."
    result = run(f'The memo notes: "{written}" [S3]')
    (quote,) = result.quotes
    assert quote.status == "corrected"
    assert quote.corrected_text == (
        "The applicant is self-employed and provided one year of certified accounts."
    )


def test_paraphrased_email_quote_is_kept_as_written_and_flagged_003_7() -> None:
    written = "the valuation came back at £412,000, so the loan-to-value is now at 83%"
    answer = f'Dan reported that "{written}" [S2].'
    result = run(answer)
    (quote,) = result.quotes
    assert quote.status == "mismatch"
    assert quote.source == "S2"
    assert quote.corrected_text == written
    assert quote.corrections == ()
    assert result.text == answer
    assert "email body" in quote.note
    assert EMAIL.text[slice(*quote.source_span)].startswith("the valuation came back at £412,000")


def test_email_citation_at_the_wrong_paragraph_is_left_and_flagged_011_2() -> None:
    fragment = "Can you pick it up tomorrow morning?"
    answer = f'Dan asked "{fragment}" <cite:S2#p1>.'
    result = run(answer)
    (quote,) = result.quotes
    assert quote.status == "mismatch"
    assert quote.paragraph == paragraph_of(EMAIL, fragment)
    assert result.text == answer
    assert result.claims[0].citations[0].status == "flagged"


def test_quote_held_by_another_source_of_the_turn_is_reattributed_003_3() -> None:
    fragment = "Approval of the single year of accounts was given by M. Osei"
    answer = f'The exception was approved: "{fragment}" [S1].'
    result = run(answer)
    (quote,) = result.quotes
    assert quote.status == "corrected"
    assert quote.cited_source == "S1"
    assert quote.source == "S3"
    (correction,) = quote.corrections
    assert correction.kind == "source"
    assert correction.before == "S1"
    assert correction.after == "S3"
    assert result.text == f'The exception was approved: "{fragment}" [S3].'
    assert MEMO.text[slice(*quote.source_span)] == fragment


def test_quote_cited_to_a_document_but_held_by_an_email_is_not_rewritten_003_7() -> None:
    fragment = "the loan-to-value is now 83%"
    answer = f'The file says "{fragment}" [S1].'
    result = run(answer)
    (quote,) = result.quotes
    assert quote.status == "mismatch"
    assert quote.source == "S2"
    assert result.text == answer


def test_a_changed_number_is_never_corrected_into_the_sources_number_003_6() -> None:
    (quote,) = run('"Applications above 90% are declined." [S1]').quotes
    assert quote.status == "not_found"
    assert quote.corrected_text == "Applications above 90% are declined."


def test_a_changed_name_is_corrected_and_flagged_as_a_change_of_meaning_f_1() -> None:
    written = "Approval of the single year of accounts was given by M. Mensah, senior underwriter"
    (quote,) = run(f'"{written}" [S3]').quotes
    assert quote.status == "corrected"
    assert quote.corrected_text == written.replace("Mensah", "Osei")
    assert quote.meaning_changed
    assert [(d.kind, d.before, d.after) for d in quote.differences] == [("name", "Mensah", "Osei")]


def test_quote_in_no_source_is_not_found() -> None:
    answer = 'The policy says "all refinancing requests are fast-tracked within a day" [S1].'
    (quote,) = run(answer).quotes
    assert quote.status == "not_found"
    assert quote.source is None and quote.source_span is None
    assert quote.corrected_text == quote.text


def test_every_occurrence_of_a_repeated_quote_is_its_own_record_003_8() -> None:
    fragment = "Applications above 95% are declined."
    answer = (
        f'The policy says "{fragment}" [S1]. The memo repeats it: "{fragment}" [S3]. '
        f'Again, "{fragment}" [S9].'
    )
    result = run(answer)
    first, second, third = result.quotes
    assert [q.id for q in result.quotes] == ["q1", "q2", "q3"]
    assert len({q.answer_span for q in result.quotes}) == 3
    assert (first.status, first.cited_source) == ("verified", "S1")
    assert (second.status, second.cited_source, second.source) == ("corrected", "S3", "S1")
    assert third.status == "ineligible"
    for quote in result.quotes:
        assert answer[slice(*quote.answer_span)] == fragment


def test_citation_to_a_source_not_provided_is_flagged_by_default_012_2() -> None:
    answer = 'The rate sheet says "the base rate is 4.25%" [S7].'
    result = run(answer)
    (quote,) = result.quotes
    assert quote.status == "ineligible"
    assert "not provided" in quote.note
    assert result.text == answer
    assert result.claims[0].citations[0].status == "ineligible"


def test_citation_to_a_source_not_provided_is_removed_by_policy_012_2() -> None:
    answer = 'The rate sheet says "the base rate is 4.25%" [S7].'
    result = run(answer, ineligible_citations="remove")
    assert result.text == 'The rate sheet says "the base rate is 4.25%".'
    assert result.quotes[0].status == "ineligible"
    assert result.claims[0].citations[0].status == "removed"


def test_corrections_propagate_to_text_spans_and_claims_003_9() -> None:
    misquote = "must not exceed 45% of the verified gross monthly income"
    answer = f'Debt payments "{misquote}" [S1]. And "{LTV}" [S1 ¶4].'
    result = run(answer)
    first, second = result.quotes
    assert first.corrected_text == "must not exceed 45% of verified gross monthly income"
    assert result.text[slice(*first.corrected_span)] == first.corrected_text
    assert result.text[slice(*second.corrected_span)] == LTV
    assert result.original == answer
    assert misquote not in result.text
    assert result.claims[0].text == f'Debt payments "{first.corrected_text}" [S1].'
    assert result.claims[1].text.endswith(f"[S1 ¶{paragraph_of(POLICY, LTV)}].")


def test_block_quote_with_marker_on_the_next_line_is_verified_003_1() -> None:
    answer = (
        "The policy on income:\n\n"
        "> Self-employed applicants must provide two years of certified accounts\n"
        "> or tax calculations\n"
        "[S1]\n"
    )
    (quote,) = run(answer).quotes
    assert quote.style == "block"
    assert quote.status == "verified"
    assert quote.paragraph == paragraph_of(POLICY, "Self-employed applicants")


def test_misquoted_block_quote_is_corrected_inside_its_block_003_6() -> None:
    answer = (
        "> Any exception to sections 2 to 4 must be recorded in the case notes with the name\n"
        "> of the approving manager\n"
        "[S1]\n"
    )
    result = run(answer)
    (quote,) = result.quotes
    assert quote.status == "corrected"
    assert "approving underwriter" in quote.corrected_text
    assert result.text.startswith("> Any exception to sections 2 to 4")
    assert "approving underwriter" in result.text
    assert "approving manager" not in result.text


def test_elided_quote_stays_verified_003_2() -> None:
    answer = (
        '"Applications with a loan-to-value ratio above 80% ... before an offer is issued" [S1]'
    )
    (quote,) = run(answer).quotes
    assert quote.status == "verified"
    assert POLICY.text[slice(*quote.source_span)].endswith("before an offer is issued")


def test_curly_marks_and_line_breaks_in_a_quote_still_verify_003_2() -> None:
    answer = "“Applications above 95%\nare declined.” [S1]"
    (quote,) = run(answer).quotes
    assert quote.status == "verified"


def test_homoglyph_in_a_quote_is_never_verified_003_6() -> None:
    homoglyph = "Аpplications above 95% are declined."  # Cyrillic А
    (quote,) = run(f'"{homoglyph}" [S1]').quotes
    assert quote.status == "corrected"
    assert quote.corrected_text == "Applications above 95% are declined."


def test_numbered_citations_resolve_to_numbered_sources_012_2() -> None:
    sources = (replace(POLICY, id="1"), replace(MEMO, id="2"))
    (quote,) = verify('"Applications above 95% are declined." [1]', sources).quotes
    assert quote.status == "verified"
    assert quote.source == "1"


def test_same_answer_and_sources_get_the_same_id() -> None:
    answer = '"Applications above 95% are declined." [S1]'
    assert verify(answer, SOURCES).id == verify(answer, SOURCES).id
    assert verify(answer, SOURCES).id != verify(answer + " ", SOURCES).id


@pytest.mark.parametrize(
    ("answer", "sources", "error", "words"),
    [
        ("text", (), SourceError, "no sources"),
        (b"bytes", SOURCES, AnswerError, "decode"),
        ("x" * 1_000_001, SOURCES, AnswerError, "limit"),
        ("text", (POLICY, POLICY), SourceError, "duplicate source id"),
    ],
)
def test_bad_input_gets_a_clear_error(
    answer: object, sources: tuple[Source, ...], error: type, words: str
) -> None:
    with pytest.raises(error, match=words):
        verify(answer, sources)  # type: ignore[arg-type]


def test_malformed_source_names_the_field() -> None:
    with pytest.raises(SourceError, match="kind"):
        Source(id="S1", kind="pdf", text="x")  # type: ignore[arg-type]
    with pytest.raises(SourceError, match="paragraph 1 span"):
        Source(id="S1", kind="document", text="short", paragraphs=((0, 99),))


def test_attachment_quote_at_the_wrong_paragraph_is_relocated_011_1() -> None:
    fragment = "The applicant is self-employed and provided one year of certified accounts."
    result = run(f'The memo: "{fragment}" <cite:S3#p3>')
    (quote,) = result.quotes
    right = paragraph_of(MEMO, fragment)
    assert quote.status == "corrected"
    assert [c.kind for c in quote.corrections] == ["location"]
    assert result.text.endswith(f"<cite:S3#p{right}>")


def test_given_paragraphs_are_the_ones_citations_count_011_1() -> None:
    text = "Rates. The base rate is 4.25%. Fees. The arrangement fee is 999 GBP."
    spans = ((0, 30), (31, 68))
    sheet = Source(id="R1", kind="document", text=text, paragraphs=spans)
    result = verify('"The arrangement fee is 999 GBP." <cite:R1#p1>', [sheet], now=NOW)
    (quote,) = result.quotes
    assert quote.status == "corrected"
    assert quote.paragraph == 2
    assert result.text == '"The arrangement fee is 999 GBP." <cite:R1#p2>'


def test_a_marker_shared_by_two_quotes_keeps_one_and_adds_the_others_source_003_3() -> None:
    answer = (
        'The policy says "Applications above 95% are declined." and the memo says '
        '"Approval of the single year of accounts was given by M. Osei" [S1].'
    )
    result = run(answer)
    first, second = result.quotes
    assert (first.status, first.source) == ("verified", "S1")
    assert (second.status, second.source) == ("corrected", "S3")
    assert result.text.endswith('M. Osei" [S1][S3].')
    statuses = [(c.source, c.status) for c in result.claims[0].citations]
    assert statuses == [("S1", "ok"), ("S3", "corrected")]


def test_an_uncited_quote_found_in_a_document_gets_its_citation_003_3() -> None:
    fragment = "Approval of the single year of accounts was given by M. Osei"
    result = run(f'The memo says "{fragment}".')
    (quote,) = result.quotes
    right = paragraph_of(MEMO, fragment)
    assert (quote.status, quote.source) == ("corrected", "S3")
    assert [c.kind for c in quote.corrections] == ["source"]
    assert result.text == f'The memo says "{fragment}" [S3 ¶{right}].'
