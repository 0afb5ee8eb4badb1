"""The answer parser: citation markers, block and inline quotes, claims (SPEC 003.1, 003.8)."""

from __future__ import annotations

import pytest

from citeproof.model import ParsedAnswer, Quote
from citeproof.verifier.parse import parse_answer


def at(answer: str, span: tuple[int, int]) -> str:
    return answer[span[0] : span[1]]


def only_quote(parsed: ParsedAnswer) -> Quote:
    assert len(parsed.quotes) == 1, parsed.quotes
    return parsed.quotes[0]


def cited(quote_or_claim: object) -> list[tuple[str, int | None]]:
    return [(c.label, c.paragraph) for c in quote_or_claim.citations]  # type: ignore[attr-defined]


# --- citation markers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "label", "paragraph"),
    [
        ("<cite:S1>", "S1", None),
        ("<cite:credit-policy#p5>", "credit-policy", 5),
        ("<cite:docs/policy.v7:s1#p12>", "docs/policy.v7:s1", 12),
        ("[1]", "1", None),
        ("[S2]", "S2", None),
        ("[S2, ¶4]", "S2", 4),
        ("[S2 ¶4]", "S2", 4),
        ("[S2 p4]", "S2", 4),
        ("[S2, p. 4]", "S2", 4),
        ("[S2, para 4]", "S2", 4),
        ("[S2, paragraph 4]", "S2", 4),
        ("[Source 2]", "2", None),
        ("[Source 2, ¶3]", "2", 3),
        ("[Document 2]", "2", None),
        ("[Doc 2, p. 3]", "2", 3),
        ("[doc-2]", "doc-2", None),
        ("[email-1]", "email-1", None),
        ("[D1]", "D1", None),
        ("[policy]", "policy", None),
        ("[policy, ¶3]", "policy", 3),
        ("[Policy ¶3]", "Policy", 3),
        ("[credit-policy p. 2]", "credit-policy", 2),
        ("[hartley-memo.txt]", "hartley-memo.txt", None),
    ],
)
def test_every_marker_form_names_its_source_and_paragraph_003_1(
    marker: str, label: str, paragraph: int | None
) -> None:
    answer = f"Offers above 80% LTV go to a senior underwriter {marker}."
    parsed = parse_answer(answer)
    [citation] = parsed.citations
    assert (citation.label, citation.paragraph) == (label, paragraph)
    assert citation.marker == marker
    assert at(answer, citation.marker_span) == marker
    assert parsed.claims[0].citations == (citation,)


def test_multi_id_marker_gives_one_citation_per_id_sharing_the_marker_003_1() -> None:
    answer = "The LTV is now 83% [1, 3]."
    parsed = parse_answer(answer)
    assert [c.label for c in parsed.citations] == ["1", "3"]
    assert {c.marker for c in parsed.citations} == {"[1, 3]"}
    assert {c.marker_span for c in parsed.citations} == {(19, 25)}


def test_paragraph_suffix_applies_to_the_id_before_it_003_1() -> None:
    parsed = parse_answer("Both agree [S1 ¶2, S3 ¶4; S2].")
    assert cited(parsed) == [("S1", 2), ("S3", 4), ("S2", None)]


def test_adjacent_markers_are_separate_markers_tied_together_to_a_quote_003_1() -> None:
    answer = 'The case is "referred for the loan-to-value exception"[1][3].'
    parsed = parse_answer(answer)
    assert [(c.label, c.marker, at(answer, c.marker_span)) for c in parsed.citations] == [
        ("1", "[1]", "[1]"),
        ("3", "[3]", "[3]"),
    ]
    assert cited(only_quote(parsed)) == [("1", None), ("3", None)]


def test_range_marker_expands_to_every_id_in_it_003_1() -> None:
    assert [c.label for c in parse_answer("See [2-4].").citations] == ["2", "3", "4"]
    assert [c.label for c in parse_answer("See [S2-S4].").citations] == ["S2", "S3", "S4"]
    assert [c.label for c in parse_answer("See [S2–4].").citations] == ["S2", "S3", "S4"]
    assert [c.label for c in parse_answer("See [Documents 1-3].").citations] == ["1", "2", "3"]


def test_an_id_that_only_looks_like_a_range_names_one_source_003_1() -> None:
    """ "q3-results" is no range from "q3" to "results": it was no citation at all."""
    parsed = parse_answer("Revenue rose 8% [q3-results]. Costs were flat [fy24-report ¶2].")
    assert [(c.label, c.paragraph) for c in parsed.citations] == [
        ("q3-results", None),
        ("fy24-report", 2),
    ]


def test_range_marker_expansion_is_capped_at_fifty_ids_003_1() -> None:
    labels = [c.label for c in parse_answer("See [1-100000].").citations]
    assert labels == [str(n) for n in range(1, 51)]


FOOTNOTED = """\
Income must be verified from two years of accounts[^acc]. The LTV is 83%[^2], and the \
valuation was £412,000[^3]. The exception was approved[^4][^5]. The memo agrees[^6].

[^acc]: <cite:S1#p4>
[^2]: [S2 ¶2]
[^3]: S2 ¶2
[^4]: Source 3, paragraph 3
[^5]: Residential Credit Policy rev. 7
"""


def test_footnote_references_take_their_source_from_the_definition_003_1() -> None:
    parsed = parse_answer(FOOTNOTED)
    assert [(c.label, c.paragraph, c.marker) for c in parsed.citations] == [
        ("S1", 4, "[^acc]"),
        ("S2", 2, "[^2]"),
        ("S2", 2, "[^3]"),
        ("3", 3, "[^4]"),
        ("Residential Credit Policy rev. 7", None, "[^5]"),
        ("6", None, "[^6]"),  # no definition: the footnote's own name
    ]
    for citation in parsed.citations:
        assert at(FOOTNOTED, citation.marker_span) == citation.marker


def test_footnote_definition_lines_are_not_claims_003_1() -> None:
    parsed = parse_answer(FOOTNOTED)
    assert [c.text for c in parsed.claims] == [
        "Income must be verified from two years of accounts[^acc].",
        "The LTV is 83%[^2], and the valuation was £412,000[^3].",
        "The exception was approved[^4][^5].",
        "The memo agrees[^6].",
    ]


@pytest.mark.parametrize(
    "not_a_marker",
    [
        "[the credit policy](https://intranet/policies/credit-policy-rev7.pdf)",
        "[S1](https://intranet/s1)",
        "[ ]",
        "[x]",
        "[sic]",
        "[...]",
        "[…]",
        "[citation needed]",
        "[Note]",
        "[Name]",
        "[name]",
        "[redacted]",
        "[emphasis added]",
        "[COVID-19]",
        "[p. 4]",
        "[4-2]",
    ],
)
def test_square_brackets_that_are_not_citations_are_ignored_003_1(not_a_marker: str) -> None:
    parsed = parse_answer(f"The applicant sent {not_a_marker} two years of accounts.")
    assert parsed.citations == ()


def test_checklist_items_are_claims_without_their_box_003_1() -> None:
    parsed = parse_answer("- [x] Valuation received\n- [ ] Senior underwriter sign-off [S1]")
    assert [c.text for c in parsed.claims] == [
        "Valuation received",
        "Senior underwriter sign-off [S1]",
    ]
    assert [c.label for c in parsed.citations] == ["S1"]


def test_markers_in_code_are_not_citations_003_1() -> None:
    answer = "Write `[S9]` or <cite:S1> to cite.\n\n```\nSee [S8].\n```\n"
    assert [c.label for c in parse_answer(answer).citations] == ["S1"]


# --- inline quotes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opening", "closing"),
    [
        ('"', '"'),
        ("“", "”"),
        ("‘", "’"),
        ("'", "'"),
        ("«", "»"),
        ("« ", " »"),
        ("»", "«"),
        ("„", "“"),
        ("„", "”"),
        ("‚", "‘"),
        ("「", "」"),
        ("『", "』"),
    ],
)
def test_inline_quote_in_every_quotation_mark_style_003_1(opening: str, closing: str) -> None:
    words = "must not exceed 45% of verified gross monthly income"
    answer = f"Affordability is capped: debts {opening}{words}{closing} [S1 ¶3]."
    quote = only_quote(parse_answer(answer))
    assert quote.style == "inline"
    assert quote.text == words
    assert at(answer, quote.span) == words
    assert cited(quote) == [("S1", 3)]


@pytest.mark.parametrize(
    "answer",
    [
        "Don't refer it yet; it's the applicant's call.",
        "The underwriters’ notes say it’s fine and the users' guide agrees.",
        'She is 5\'10" tall and uses a 27" monitor and a 12" ruler.',
        "Back in the '90s rates were higher, and in the ‘80s too.",
        "Rock 'n roll",
    ],
)
def test_apostrophes_and_inch_marks_are_not_quotes_003_1(answer: str) -> None:
    assert parse_answer(answer).quotes == ()


def test_inch_marks_do_not_disturb_a_real_quote_003_1() -> None:
    answer = 'A 27" monitor was bought; the memo says "one year of certified accounts" [S3].'
    quote = only_quote(parse_answer(answer))
    assert quote.text == "one year of certified accounts"
    assert cited(quote) == [("S3", None)]


def test_straight_single_quotes_count_when_clearly_a_quote_003_1() -> None:
    answer = "Dan wrote 'pick it up tomorrow morning' [S2], and he didn't mean Friday."
    quote = only_quote(parse_answer(answer))
    assert at(answer, quote.span) == "pick it up tomorrow morning"


def test_nested_quote_is_part_of_the_outer_quote_003_1() -> None:
    answer = 'Dan reported: "He said ‘yes’ to it" [S2].'
    quote = only_quote(parse_answer(answer))
    assert quote.text == "He said ‘yes’ to it"
    assert at(answer, quote.span) == quote.text


@pytest.mark.parametrize(
    "answer",
    [
        'The memo says "one year of certified accounts [S3].',
        "The memo says “one year of certified accounts [S3].",
        "The memo says one year of certified accounts” [S3].",
        '"',
        "«",
        '"" and “” and “   ” hold no words.',
    ],
)
def test_unbalanced_or_empty_quotation_marks_give_no_quote_003_1(answer: str) -> None:
    assert parse_answer(answer).quotes == ()


def test_unbalanced_mark_does_not_swallow_the_next_quote_003_1() -> None:
    answer = 'He said "yes and left. The memo says "one year of accounts" [S3].'
    quote = only_quote(parse_answer(answer))
    assert quote.text == "one year of accounts"


def test_quote_does_not_cross_a_blank_line_003_1() -> None:
    assert parse_answer('The memo says "one year\n\nof accounts" [S3].').quotes == ()
    wrapped = 'The memo says "one year\nof accounts" [S3].'
    assert only_quote(parse_answer(wrapped)).text == "one year\nof accounts"


def test_quote_longer_than_two_thousand_characters_is_not_a_quote_003_1() -> None:
    assert parse_answer(f'He wrote "{"a" * 2001}" [S2].').quotes == ()
    assert len(parse_answer(f'He wrote "{"a" * 2000}" [S2].').quotes) == 1


def test_ellipsis_in_brackets_inside_a_quote_is_not_a_citation_003_1() -> None:
    answer = 'The policy says "Applications [...] above 95% are declined" [S1 ¶2].'
    parsed = parse_answer(answer)
    quote = only_quote(parsed)
    assert quote.text == "Applications [...] above 95% are declined"
    assert [c.marker for c in parsed.citations] == ["[S1 ¶2]"]


def test_quotes_in_code_are_ignored_003_1() -> None:
    answer = (
        'Set `status = "approved"` first.\n\n```python\nnote = "declined"\n```\n\n'
        'Then "refer it" [S2].'
    )
    assert [q.text for q in parse_answer(answer).quotes] == ["refer it"]


# --- tying quotes to citations ----------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        'The LTV is "now 83%" [S2].',
        'The LTV is "now 83%"[S2].',
        'The LTV is "now 83%," as Dan noted in [S2].',
        'According to [S2], the LTV is "now 83%".',
    ],
)
def test_inline_quote_is_tied_to_the_marker_in_its_sentence_003_1(answer: str) -> None:
    assert cited(only_quote(parse_answer(answer))) == [("S2", None)]


def test_several_quotes_before_one_marker_all_take_it_003_1() -> None:
    answer = 'Dan says the LTV is "now 83%" and that we must "refer it" [S2 ¶2].'
    quotes = parse_answer(answer).quotes
    assert [cited(q) for q in quotes] == [[("S2", 2)], [("S2", 2)]]


def test_each_quote_takes_the_first_marker_after_it_003_1() -> None:
    answer = 'The policy says "above 80%" [S1] but Dan says "now 83%" [S2].'
    assert [cited(q) for q in parse_answer(answer).quotes] == [[("S1", None)], [("S2", None)]]


def test_quote_without_a_marker_in_its_sentence_has_no_citation_003_1() -> None:
    answer = 'Dan says "now 83%". The policy applies [S1].'
    quote = parse_answer(answer).quotes[0]
    assert quote.citations == ()


# --- per-occurrence tracking ------------------------------------------------------------------


def test_duplicate_quotes_are_tracked_per_occurrence_003_8() -> None:
    answer = (
        'The policy requires referral "to a senior underwriter" [S1 ¶2]. '
        'Dan agrees it must go "to a senior underwriter" [S2].\n\n'
        'Once more: "to a senior underwriter" [S1 ¶2].'
    )
    quotes = parse_answer(answer).quotes
    assert [q.id for q in quotes] == ["q1", "q2", "q3"]
    assert {q.text for q in quotes} == {"to a senior underwriter"}
    assert len({q.span for q in quotes}) == 3
    for quote in quotes:
        assert at(answer, quote.span) == quote.text
    assert [cited(q) for q in quotes] == [[("S1", 2)], [("S2", None)], [("S1", 2)]]
    assert [q.claim_id for q in quotes] == ["c1", "c2", "c3"]


# --- block quotes -----------------------------------------------------------------------------

BLOCK_WITH_TRAILING_MARKER = """\
The policy is explicit:

> Self-employed applicants must provide two years of certified accounts
> or tax calculations. — [S1, ¶4]

So one year is not enough.
"""


def test_block_quote_with_marker_at_end_of_last_line_003_1() -> None:
    answer = BLOCK_WITH_TRAILING_MARKER
    quote = only_quote(parse_answer(answer))
    assert quote.style == "block"
    assert quote.text == (
        "Self-employed applicants must provide two years of certified accounts\n"
        "or tax calculations."
    )
    assert at(answer, quote.span) == (
        "> Self-employed applicants must provide two years of certified accounts\n"
        "> or tax calculations."
    )
    assert cited(quote) == [("S1", 4)]


@pytest.mark.parametrize("attribution", ["[S1 ¶5]", "— [S1 ¶5]", "-- [S1 ¶5]", "Source: [S1 ¶5]"])
def test_block_quote_with_marker_on_next_line_003_1(attribution: str) -> None:
    answer = (
        "Exceptions need a record:\n"
        "> Any exception to sections 2 to 4 must be recorded in the case notes\n"
        f"{attribution}\n"
        "That was done for Hartley."
    )
    parsed = parse_answer(answer)
    quote = only_quote(parsed)
    assert quote.text == "Any exception to sections 2 to 4 must be recorded in the case notes"
    assert at(answer, quote.span) == f"> {quote.text}"
    assert cited(quote) == [("S1", 5)]
    [claim] = [c for c in parsed.claims if c.id == quote.claim_id]
    assert claim.text == f"> {quote.text}\n{attribution}"
    assert claim.quote_ids == (quote.id,)
    assert [c.text for c in parsed.claims] == [
        "Exceptions need a record:",
        claim.text,
        "That was done for Hartley.",
    ]


def test_block_quote_keeps_inner_quotation_marks_as_one_quote_003_1() -> None:
    answer = '> The valuation came back at "£412,000".\n> So the LTV is 83%. [S2]'
    quote = only_quote(parse_answer(answer))
    assert quote.text == 'The valuation came back at "£412,000".\nSo the LTV is 83%.'


def test_block_quote_without_marker_has_no_citation_003_1() -> None:
    assert only_quote(parse_answer("> Applications above 95% are declined.")).citations == ()


def test_block_quote_with_marker_only_inside_takes_that_marker_003_1() -> None:
    answer = "> Applications above 95% are declined [S1 ¶2] unless approved."
    assert cited(only_quote(parse_answer(answer))) == [("S1", 2)]


def test_block_quote_offsets_survive_windows_line_breaks_003_1() -> None:
    answer = "Policy:\r\n> Applications above 95%\r\n> are declined. [S1]\r\nDone."
    quote = only_quote(parse_answer(answer))
    assert quote.text == "Applications above 95%\nare declined."
    assert at(answer, quote.span) == "> Applications above 95%\r\n> are declined."


# --- claims -----------------------------------------------------------------------------------

LENDING_ANSWER = """\
# Hartley application

The valuation came back at £412,000, so the LTV is now 83% [S2 ¶2]. Under the policy, e.g. \
section 2, it "must be referred to a senior underwriter" [S1 ¶2]! Approval was given by \
Dr. M. Osei on 12 March 2026 [S3]. Is the file complete? Yes.

- Income: "one year of certified accounts" [S3 ¶2]
- Exceptions must be recorded [S1 ¶5]. Dan will record it,
  as he confirmed by email.
2. Offer: pending.
"""


def test_claims_are_sentences_and_list_items_with_their_citations_003_1() -> None:
    parsed = parse_answer(LENDING_ANSWER)
    assert [c.text for c in parsed.claims] == [
        "The valuation came back at £412,000, so the LTV is now 83% [S2 ¶2].",
        'Under the policy, e.g. section 2, it "must be referred to a senior underwriter" [S1 ¶2]!',
        "Approval was given by Dr. M. Osei on 12 March 2026 [S3].",
        "Is the file complete?",
        "Yes.",
        'Income: "one year of certified accounts" [S3 ¶2]',
        "Exceptions must be recorded [S1 ¶5].",
        "Dan will record it,\n  as he confirmed by email.",
        "Offer: pending.",
    ]
    assert [c.id for c in parsed.claims] == [f"c{n}" for n in range(1, 10)]
    for claim in parsed.claims:
        assert at(LENDING_ANSWER, claim.span) == claim.text
    assert [cited(c) for c in parsed.claims][:3] == [[("S2", 2)], [("S1", 2)], [("S3", None)]]


def test_quotes_name_their_claim_and_claims_list_their_quotes_003_1() -> None:
    parsed = parse_answer(LENDING_ANSWER)
    assert [(q.id, q.claim_id) for q in parsed.quotes] == [("q1", "c2"), ("q2", "c6")]
    assert [c.quote_ids for c in parsed.claims if c.quote_ids] == [("q1",), ("q2",)]


def test_sentence_does_not_end_inside_a_quote_or_a_marker_003_1() -> None:
    answer = 'Dan wrote "It is 83%. Refer it." and cited [S2, p. 2]. Next we wait.'
    parsed = parse_answer(answer)
    assert [c.text for c in parsed.claims] == [
        'Dan wrote "It is 83%. Refer it." and cited [S2, p. 2].',
        "Next we wait.",
    ]


def test_marker_after_the_full_stop_belongs_to_the_sentence_before_003_1() -> None:
    parsed = parse_answer("The LTV is 83%. [S2] The policy caps it at 80%.[S1] Refer it.")
    assert [(c.text, [x.label for x in c.citations]) for c in parsed.claims] == [
        ("The LTV is 83%. [S2]", ["S2"]),
        ("The policy caps it at 80%.[S1]", ["S1"]),
        ("Refer it.", []),
    ]


def test_headings_rules_and_blank_text_are_not_claims_003_1() -> None:
    parsed = parse_answer("## Summary [S1]\n\n---\n\n   \n\nRefer it.\n")
    assert [c.text for c in parsed.claims] == ["Refer it."]
    # The heading's marker is still a citation of the answer.
    assert [c.label for c in parsed.citations] == ["S1"]


def test_answer_citations_list_every_citation_in_order_003_1() -> None:
    parsed = parse_answer(LENDING_ANSWER)
    assert [c.marker for c in parsed.citations] == [
        "[S2 ¶2]",
        "[S1 ¶2]",
        "[S3]",
        "[S3 ¶2]",
        "[S1 ¶5]",
    ]
    from_claims = [c for claim in parsed.claims for c in claim.citations]
    assert list(parsed.citations) == from_claims


def test_empty_answer_has_nothing_003_1() -> None:
    assert parse_answer("") == ParsedAnswer("", (), (), ())


def test_five_megabyte_answer_parses_003_1() -> None:
    paragraph = (
        'The LTV is "now 83%" [S2 ¶2], above the policy\'s 80% cap [S1, p. 2]. Dan said '
        "“refer it to a senior underwriter”[S2].\n\n"
        "> Any exception to sections 2 to 4 must be recorded.\n— [S1 ¶5]\n\n"
        "- Income: 'one year of certified accounts' [^1]\n\n[^1]: S3 ¶2\n\n"
    )
    answer = paragraph * (5_000_000 // len(paragraph) + 1)
    parsed = parse_answer(answer)
    assert len(parsed.quotes) == 4 * (5_000_000 // len(paragraph) + 1)


def test_chinese_sentences_end_at_the_full_width_stop_without_a_space_003_1() -> None:
    answer = "西班牙赢得了2024年欧洲杯。[1]这是第四次夺冠！ 「冠军」属于西班牙？[2]"
    claims = parse_answer(answer).claims
    assert [c.text for c in claims] == [
        "西班牙赢得了2024年欧洲杯。[1]",
        "这是第四次夺冠！",
        "「冠军」属于西班牙？[2]",
    ]
    assert [cited(c) for c in claims] == [[("1", None)], [], [("2", None)]]


def test_answer_sentences_end_by_the_source_segmenters_abbreviations_003_1() -> None:
    parsed = parse_answer("In S.A. 3262, he landed [S1]. See No. 5 [S1]. He said no. Then he left.")
    assert [c.text for c in parsed.claims] == [
        "In S.A. 3262, he landed [S1].",
        "See No. 5 [S1].",
        "He said no.",
        "Then he left.",
    ]
