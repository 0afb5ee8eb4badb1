"""Claim support (issue 10): cited claims without quotes are checked too, on real text from
the lending team's documents (a document) and their email (an email body)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from citeproof import Policy, Source, SupportHeadError, verify
from citeproof.errors import PolicyError
from citeproof.model import ClaimSupport, VerifiedAnswer, VerifiedClaim
from citeproof.outcome import answer_to_json, build_evidence
from citeproof.outcome.validate import validate
from citeproof.render import render
from citeproof.verifier.support._learned import load_heads
from citeproof.verifier.support._text import tokenize
from tests.lending import EMAIL, MEMO, POLICY, SOURCES
from tests.support_runs import HEAD

SCHEMA = json.loads(
    (
        Path(__file__).resolve().parents[1]
        / "src"
        / "citeproof"
        / "schema"
        / "verified-answer.schema.json"
    ).read_text()
)


def judged(answer_text: str, *, policy: Policy | None = None) -> VerifiedAnswer:
    return verify(answer_text, SOURCES, answer_id="support", policy=policy)


def only(answer: VerifiedAnswer) -> tuple[VerifiedClaim, ClaimSupport]:
    (claim,) = [c for c in answer.claims if c.support]
    (support,) = claim.support
    return claim, support


def test_a_paraphrase_of_the_cited_document_is_supported_at_its_passage_issue10() -> None:
    answer = judged(
        "Loans with a loan-to-value above 80% have to go to a senior underwriter before "
        "an offer is issued [S1]."
    )
    claim, support = only(answer)
    assert (claim.verdict, support.verdict, support.source) == ("supported", "supported", "S1")
    assert support.passage is not None
    start, end = support.passage.span
    assert POLICY.text[start:end] == support.passage.text
    assert support.passage.text.startswith("Applications with a loan-to-value ratio above 80%")
    assert support.passage.paragraph == 3
    assert 0.0 <= support.score <= 1.0 and support.score >= answer.policy.support_threshold


def test_a_wrong_number_is_contradicted_and_says_what_the_document_says_issue10() -> None:
    claim, support = only(
        judged("Monthly debt payments must not exceed 40% of verified gross monthly income [S1].")
    )
    assert support.verdict == "contradicted"
    number = next(d for d in support.differences if d.kind == "number")
    assert (number.text, number.instead) == ("40%", "45%")
    assert claim.text[number.span[0] : number.span[1]] == "40%"


def test_a_wrong_number_in_an_email_body_is_contradicted_issue10() -> None:
    claim, support = only(judged("The valuation came back at £420,000 [S2]."))
    assert EMAIL.kind == "email_body"
    assert (claim.verdict, support.source) == ("contradicted", "S2")
    assert [(d.text, d.instead) for d in support.differences if d.kind == "number"] == [
        ("£420,000", "£412,000")
    ]


def test_a_quote_from_an_email_with_a_changed_figure_makes_its_claim_contradicted_issue10() -> None:
    """The quote is kept as written (an email body), so its claim still says £420,000: it is
    judged, and the passage gives the figure the email states instead."""
    answer = judged('Dan wrote that "the valuation came back at £420,000" [S2].')
    (quote,) = answer.quotes
    assert (quote.status, quote.meaning_changed) == ("mismatch", True)
    claim, support = only(answer)
    assert claim.citations[0].status == "meaning_changed"
    assert (claim.verdict, support.verdict) == ("contradicted", "contradicted")
    assert [(d.text, d.instead) for d in support.differences if d.kind == "number"] == [
        ("£420,000", "£412,000")
    ]
    assert support.passage is not None and "£412,000" in support.passage.text


def test_a_quote_corrected_to_the_documents_figure_is_judged_on_the_corrected_words_issue10() -> (
    None
):
    """Corrected to the document's 45%, the claim says what the document says: it is judged
    on the corrected words (its citation and the quote still say the meaning changed)."""
    answer = judged('The policy says debt payments "must not exceed 40% of verified gross" [S1].')
    (quote,) = answer.quotes
    assert (quote.status, quote.meaning_changed) == ("corrected", True)
    (claim,) = answer.claims
    assert claim.citations[0].status == "meaning_changed"
    # Never shown as supported by the strict default: citeproof changed what it says.
    assert claim.verdict == "unconfirmed"
    assert [(s.verdict, s.rule) for s in claim.support] == [
        ("unconfirmed", "quote.meaning_changed")
    ]
    assert "45%" in answer.text


def test_the_right_figure_from_an_email_body_is_supported_issue10() -> None:
    claim, support = only(
        judged("Dan reported that the Hartley valuation came in at £412,000 [S2].")
    )
    assert (claim.verdict, support.verdict) == ("supported", "supported")
    assert support.passage is not None and "£412,000" in support.passage.text


def test_a_wrong_name_is_contradicted_with_the_name_the_source_gives_issue10() -> None:
    _, support = only(
        judged("The single year of accounts was approved by M. Patel, senior underwriter [S3].")
    )
    assert MEMO.kind == "attachment"
    assert support.verdict == "contradicted"
    assert [(d.text, d.instead) for d in support.differences if d.kind == "name"] == [
        ("Patel", "Osei")
    ]


def test_a_negated_claim_is_contradicted_issue10() -> None:
    _, support = only(
        judged("Self-employed applicants do not have to provide certified accounts [S1].")
    )
    assert support.verdict == "contradicted"
    assert any(d.kind == "negation" and d.text == "not" for d in support.differences)


def test_a_claim_with_a_clause_the_source_lacks_is_partial_issue10() -> None:
    _, support = only(
        judged(
            "The case is referred for the loan-to-value exception, and the broker was "
            "promised the offer within a week [S3]."
        )
    )
    assert support.verdict == "partial"
    words = " ".join(d.text for d in support.differences if d.kind == "word")
    lengths = [d.text for d in support.differences if d.kind == "number"]
    assert "broker" in words and lengths == ["a week"]  # one week the source never gives


def test_a_claim_the_cited_source_does_not_address_is_unsupported_issue10() -> None:
    claim, support = only(
        judged("The bank's mobile app lets customers log in with a fingerprint [S1].")
    )
    assert (claim.verdict, support.verdict) == ("unsupported", "unsupported")
    assert support.passage is None  # no sentence of S1 shares a word with it
    assert support.score < Policy().support_threshold


def test_a_verified_quote_inside_a_false_claim_does_not_make_it_supported_issue10() -> None:
    answer = judged(
        'The rule that "Applications above 95% are declined" was withdrawn in 2025 [S1].'
    )
    _, support = only(answer)
    (quote,) = answer.quotes
    assert quote.status == "verified"
    assert support.verdict != "supported"
    assert any(d.text == "2025" for d in support.differences)


def test_a_claim_its_verified_quote_covers_is_supported_by_the_quote_issue10() -> None:
    answer = judged('"Applications above 95% are declined." [S1]')
    claim, support = only(answer)
    assert (claim.verdict, support.verdict, support.method) == ("supported", "supported", "quote")


def test_words_that_only_attribute_a_verified_quote_need_no_passage_search_issue10() -> None:
    answer = judged('The policy says that "Applications above 95% are declined." [S1]')
    claim, support = only(answer)
    assert (claim.verdict, support.verdict, support.method) == ("supported", "supported", "quote")
    assert support.differences == ()


@pytest.mark.parametrize("label", ["Source 1 says", "Per document #2,", "S1 notes that"])
def test_naming_the_cited_source_is_not_a_fact_the_source_must_back_issue10(label: str) -> None:
    answer = judged(f'{label} "Applications above 95% are declined." [S1]')
    claim, support = only(answer)
    assert (claim.verdict, support.method, support.differences) == ("supported", "quote", ())


def test_a_bare_number_is_a_fact_even_when_sources_are_numbered_issue10() -> None:
    numbered = [Source("1", "document", "Applications above 95% are declined.")]
    answer = verify("Applications above 1% are declined [1].", numbered)
    (support,) = answer.claims[0].support
    assert support.verdict == "contradicted"
    assert [(d.text, d.instead) for d in support.differences] == [("1%", "95%")]


@pytest.mark.parametrize(
    "framing",
    ["The policy never says that", "Since 2025 the policy says", "The Hartley memo says"],
)
def test_a_negation_a_date_or_a_name_beside_a_verified_quote_is_still_judged_issue10(
    framing: str,
) -> None:
    answer = judged(f'{framing} "Applications above 95% are declined." [S1]')
    _, support = only(answer)
    assert support.method != "quote"
    assert support.differences


def test_uncited_claims_are_listed_when_the_answer_cites_elsewhere_issue10() -> None:
    answer = judged(
        "Applications above 95% are declined [S1]. The applicant provided one year of accounts."
    )
    assert [c.verdict for c in answer.claims] == ["supported", "uncited"]
    assert answer.claim_counts()["uncited"] == 1
    plain = verify("The applicant provided one year of accounts.", SOURCES)
    assert [c.verdict for c in plain.claims] == ["none"]


def test_a_claim_citing_only_a_source_not_provided_is_unsupported_issue10() -> None:
    answer = judged("Base rates rose again this month [rates].")
    (claim,) = answer.claims
    assert (claim.verdict, claim.support) == ("unsupported", ())


def test_support_is_judged_per_cited_source_issue10() -> None:
    answer = judged("The valuation came back at £412,000 [S2][S3].")
    (claim,) = answer.claims
    verdicts = {s.source: s.verdict for s in claim.support}
    assert verdicts["S2"] == "supported" and verdicts["S3"] != "supported"
    assert claim.verdict == "supported"


def test_the_json_record_carries_support_and_validates_against_the_schema_issue10() -> None:
    answer = judged(
        "Monthly debt payments must not exceed 40% of verified gross monthly income [S1]. "
        "The valuation came back at £412,000 [S2]."
    )
    record = answer_to_json(answer)
    jsonschema.validate(record, SCHEMA)
    first, second = record["claims"]
    assert first["verdict"] == "contradicted"
    assert first["support"][0]["differences"][0]["instead"] == "45%"
    assert second["support"][0]["passage"]["source"] == "S2"
    assert record["claim_counts"]["contradicted"] == 1
    assert record["claim_counts"]["supported"] == 1


def test_coverage_counts_a_claim_only_when_it_is_supported_issue10() -> None:
    answer = judged(
        "Monthly debt payments must not exceed 40% of verified gross monthly income [S1, ¶4]. "
        "Applications above 95% are declined [S1, ¶3]."
    )
    bundle = build_evidence(answer)
    validation = validate(answer, bundle, mode="flag")
    assert validation.problems == ()
    assert (validation.coverage.with_evidence, validation.coverage.gaps) == (1, ("c1",))
    item = next(e for e in bundle if e.claim_id == "c1")
    assert (item.support, item.paragraph) == ("contradicted", 4)
    assert item.excerpt.startswith("The applicant's total monthly debt payments")


def test_every_rendering_shows_the_verdict_and_the_difference_issue10() -> None:
    answer = judged(
        "Monthly debt payments must not exceed 40% of verified gross monthly income [S1]."
    )
    markdown = render(answer, "md")
    assert "≠ Contradicted" in markdown and "S1 says “45%”" in markdown
    html = render(answer, "html")
    assert 'class="badge verdict-contradicted tone-bad"' in html
    assert "Residential Credit Policy rev. 7 says “45%”" in html  # by its title, not its id
    terminal = render(answer, "term")
    assert "claim 1 ≠ Contradicted" in terminal and "S1 says “45%”" in terminal


def test_the_lexical_head_judges_without_the_encoder_issue10() -> None:
    answer = judged(
        "Monthly debt payments must not exceed 40% of verified gross monthly income [S1].",
        policy=Policy(support_embeddings="off"),
    )
    _, support = only(answer)
    assert (support.verdict, support.method) == ("contradicted", "features")


def test_an_altered_head_file_is_refused_issue10() -> None:
    raw = b'{"heads": {}}'
    with pytest.raises(SupportHeadError, match="sha256"):
        load_heads(raw=raw)


def test_support_thresholds_out_of_order_are_refused_issue10() -> None:
    with pytest.raises(PolicyError, match="partial_threshold"):
        Policy(support_threshold=0.3, partial_threshold=0.5)
    with pytest.raises(PolicyError, match="support_embeddings"):
        Policy(support_embeddings="maybe")  # type: ignore[arg-type]


def test_an_email_source_given_as_text_is_judged_like_a_document_issue10() -> None:
    email = Source(id="mail", kind="email_body", text="The broker confirmed the rate is fixed.")
    answer = verify("The broker confirmed the rate is not fixed [mail].", [email])
    (claim,) = answer.claims
    assert claim.verdict == "contradicted"
    (support,) = claim.support
    assert support.passage is not None and support.passage.source_id == "mail"


BRIDGE = Source(
    id="S9",
    kind="document",
    text=(
        "The Hartley Bridge opened in 1932.\n\n"
        "Designed by Owen Williams, the Hartley Bridge carries the A43 road over the river "
        "Nene at Thrapston.\n\n"
        "Historic England listed the Hartley Bridge at Grade II for its concrete arches.\n\n"
        "The county council repainted the Hartley Bridge railings green after the floods."
    ),
)
BRIDGE_CLAIM = (
    "The Hartley Bridge over the Nene at Thrapston, designed by Owen Williams and listed at "
    "Grade II by Historic England for its concrete arches, has green railings repainted by "
    "the county council and opened in {year} [S9]."
)


def test_a_claim_drawn_from_four_paragraphs_is_read_with_the_one_stating_its_year_issue10() -> None:
    answer = verify(BRIDGE_CLAIM.format(year=1932), [BRIDGE], policy=HEAD)
    _, support = only(answer)
    assert support.verdict == "supported"
    assert not any(d.text == "1932" for d in support.differences)


def test_a_year_the_source_never_states_still_rules_out_supported_issue10() -> None:
    answer = verify(BRIDGE_CLAIM.format(year=1934), [BRIDGE])
    _, support = only(answer)
    assert support.verdict != "supported"
    assert any(d.text == "1934" for d in support.differences)


def test_two_verified_quotes_each_framed_by_a_few_words_are_supported_issue10() -> None:
    answer = judged(
        'The policy requires that "Self-employed applicants must provide two years of '
        'certified accounts or tax calculations" [S1], and the case file records that "Approval of '
        'the single year of accounts was given by M. Osei, senior underwriter" [S3].'
    )
    (claim,) = [c for c in answer.claims if c.support]
    assert [q.status for q in answer.quotes] == ["verified", "verified"]
    assert {s.source: s.verdict for s in claim.support} == {"S1": "supported", "S3": "supported"}
    assert all(s.method.startswith("quote+") for s in claim.support)


# A message from the public Enron corpus (allen-p, discussion_threads/1), its body as written.
ALLEN = Source(
    id="allen",
    kind="email_body",
    text=(
        "Naomi,\n\n"
        "The two analysts that I have had contact with are Matt Lenhart  and Vishal \nApte.\n"
        "Matt will be represented by Jeff Shankman.\n"
        "Vishal joined our group in October.  He was in the Power Trading Group for \n"
        "the first 9 months.\n"
        "I spoke to Jim Fallon and we agreed that he should be in the excellent \n"
        "category.  I just don't want Vishal \nto go unrepresented since he changed groups "
        "mid year.\n\n"
        "Call me with questions.(x37041)\n\n"
        "Phillip Allen\nWest Gas Trading"
    ),
)


def test_a_claim_that_gives_the_emails_figures_in_another_order_is_supported_issue10() -> None:
    # "9 months" now stands where the email has "October": another kind of figure, not
    # another value for the same one.
    answer = verify(
        "Vishal spent his first 9 months in the Power Trading Group before joining in "
        "October [allen].",
        [ALLEN],
        policy=HEAD,  # the head's reading; the strict judge cannot confirm "spent"
    )
    _, support = only(answer)
    assert support.verdict == "supported"
    assert not any(d.instead for d in support.differences)


def test_a_changed_month_in_the_same_claim_is_still_contradicted_issue10() -> None:
    answer = verify("Vishal joined the group in November [allen].", [ALLEN])
    _, support = only(answer)
    assert support.verdict == "contradicted"
    assert [(d.text, d.instead) for d in support.differences if d.instead] == [
        ("November", "October")
    ]


# Wikipedia, "Crazy Ex-Girlfriend" (CC BY-SA 4.0), as AttributionBench cites it.
SHOW = Source(
    id="page",
    kind="document",
    text=(
        "Title: Crazy Ex-Girlfriend\nSection: Production, Music\n\n"
        "Each episode contains two to four original songs. These are usually sung by Rebecca "
        "or a character with whom she is having a direct interaction, parodying the musical "
        "theater conceit of characters bursting into song at significant moments in the plot."
    ),
)


def test_a_name_the_source_never_gives_is_not_contradicted_by_a_plain_word_issue10() -> None:
    # "Bunch" faced "Title" in the alignment: the page is silent on the surname, it does not
    # name somebody else.
    answer = verify("Rebecca Bunch sings the songs in Crazy Ex-Girlfriend [page].", [SHOW])
    _, support = only(answer)
    assert support.verdict != "contradicted"
    assert [d.text for d in support.differences if d.kind == "name"] == ["Bunch"]
    assert all(d.instead is None for d in support.differences)


def test_words_that_attribute_the_claim_to_the_email_are_not_differences_issue10() -> None:
    answer = verify(
        "In his email, Phillip wrote that Vishal joined the group in October [allen].", [ALLEN]
    )
    _, support = only(answer)
    assert support.verdict == "supported"
    assert support.differences == ()


def test_a_capitalised_attribution_word_is_still_a_name_issue10() -> None:
    answer = verify("Vishal joined the group in the United States in October [allen].", [ALLEN])
    _, support = only(answer)
    assert support.verdict != "supported"
    assert [d.text for d in support.differences if d.kind == "name"] == ["United", "States"]


@pytest.mark.parametrize("embeddings", ["auto", "off"])
def test_a_claim_citing_an_empty_source_is_unsupported_with_no_passage_issue10(
    embeddings: str,
) -> None:
    empty = Source(id="S2", kind="document", text="")
    answer = verify(
        "The valuation came back at 412,000 pounds today [S2].",
        [empty],
        policy=Policy(support_embeddings=embeddings),  # type: ignore[arg-type]
    )
    _, support = only(answer)
    assert support.verdict == "unsupported"
    assert support.passage is None
    assert [d.text for d in support.differences if d.kind == "number"] == ["412,000"]


# A contract's numbers as lawyers write them: spelled out, sometimes with the digits after.
CONTRACT = Source(
    id="msa",
    kind="document",
    text=(
        "1. Term. This Agreement continues for an initial term of thirty-six months.\n\n"
        "2. Termination. The Customer may terminate for convenience on one hundred and twenty "
        "days' notice.\n\n"
        "3. Cap. Aggregate liability shall not exceed two million dollars."
    ),
)


@pytest.mark.parametrize(
    "claim",
    [
        "The initial term is 36 months [msa].",
        "The customer may terminate for convenience on 120 days' notice [msa].",
        "Liability is capped at $2,000,000 [msa].",
        "Liability is capped at $2 million [msa].",
    ],
)
def test_a_number_the_contract_spells_out_backs_the_same_number_in_digits_issue10(
    claim: str,
) -> None:
    _, support = only(verify(claim, [CONTRACT]))
    assert support.verdict == "supported"
    assert not any(d.kind == "number" for d in support.differences)


def test_another_number_is_contradicted_with_the_number_as_the_contract_spells_it_issue10() -> None:
    _, support = only(verify("The customer may terminate on 90 days' notice [msa].", [CONTRACT]))
    assert support.verdict == "contradicted"
    assert [(d.text, d.instead) for d in support.differences if d.instead] == [
        ("90 days", "one hundred and twenty days")
    ]


def test_separate_number_words_are_not_read_as_one_number_issue10() -> None:
    numbers = [t.value for t in tokenize("two and three, five six, ninety-nine") if t.value]
    assert numbers == [2, 3, 5, 6, 99]


# A results note as finance teams write them.
RESULTS = Source(
    id="q3",
    kind="document",
    text=(
        "The base rate rose from 4.25% to 4.5% in the third quarter. Revenue was $1.2bn, up "
        "12% year on year, while operating costs fell 3% to $400m. Customers may draw up to "
        "80% of the facility."
    ),
)


@pytest.mark.parametrize(
    ("claim", "written", "instead"),
    [
        ("The base rate fell to 4.5% [q3].", "fell", "rose"),
        ("Operating costs rose 3% [q3].", "rose", "fell"),
        ("Revenue was down 12% year on year [q3].", "down", "up"),
    ],
)
def test_a_change_in_the_other_direction_is_contradicted_issue10(
    claim: str, written: str, instead: str
) -> None:
    _, support = only(verify(claim, [RESULTS]))
    assert support.verdict == "contradicted"
    assert [(d.text, d.instead) for d in support.differences if d.instead] == [(written, instead)]


@pytest.mark.parametrize(
    "claim",
    [
        "The base rate increased to 4.5% [q3].",
        "Revenue grew 12% year on year [q3].",
        "Operating costs decreased by 3% [q3].",
        "Customers may draw up to 80% of the facility [q3].",
    ],
)
def test_a_change_in_the_same_direction_in_other_words_is_supported_issue10(claim: str) -> None:
    _, support = only(verify(claim, [RESULTS]))
    assert support.verdict == "supported"
    assert not any(d.instead for d in support.differences)


AGREEMENT = Source(
    id="agr", kind="document", text="This Agreement commences on 1 March 2025 for one year."
)


def test_an_iso_date_backs_the_same_date_written_in_words_issue10() -> None:
    _, support = only(verify("The agreement commences on 2025-03-01 [agr].", [AGREEMENT]))
    assert support.verdict == "supported"
    assert support.differences == ()


def test_an_iso_date_with_another_day_is_contradicted_issue10() -> None:
    _, support = only(verify("The agreement commences on 2025-03-02 [agr].", [AGREEMENT]))
    assert support.verdict == "contradicted"
    assert [(d.text, d.instead) for d in support.differences] == [("02", "1")]


# A reply as a counterparty writes it, with the message it answers quoted below.
REPLY = Source(
    id="mail",
    kind="email_body",
    text=(
        "Tom,\n\n"
        "Agreed on the 3-year term, but we cannot accept the 7% uplift. Our ceiling is 4.5% "
        "per year.\n\n"
        "Priya\n\n"
        "> Our proposal: a 3-year renewal starting 1 January 2027 with a 7% annual uplift."
    ),
)


def test_a_claim_that_drops_the_negation_right_before_its_words_is_contradicted_issue10() -> None:
    _, support = only(verify("Priya accepted the 7% uplift [mail].", [REPLY]))
    assert support.verdict == "contradicted"
    assert [(d.kind, d.instead) for d in support.differences] == [("negation", "cannot")]


def test_a_negation_that_ends_the_sentence_before_is_not_read_into_the_claim_issue10() -> None:
    source = Source(
        id="S1",
        kind="document",
        text="The first design was not built. The Hartley Bridge opened in 1932.",
    )
    _, support = only(verify("The Hartley Bridge opened in 1932 [S1].", [source]))
    assert support.verdict == "supported"
    assert support.differences == ()


LIMIT = Source(
    id="S1",
    kind="document",
    text="Total monthly debt payments must not exceed 45% of verified gross monthly income.",
)


@pytest.mark.parametrize(
    "claim",
    [
        "Debt payments can be at most 45% of income [S1].",
        "Debt payments may not be more than 45% of income [S1].",
        "Debt payments can be no more than 45% of income [S1].",
    ],
)
def test_a_limit_written_with_a_negation_backs_the_same_limit_in_other_words_issue10(
    claim: str,
) -> None:
    _, support = only(verify(claim, [LIMIT]))
    assert support.verdict == "supported"
    assert support.differences == ()


@pytest.mark.parametrize(
    ("claim", "written"),
    [
        ("Debt payments must be at least 45% of income [S1].", "least"),
        ("Debt payments may exceed 45% of income [S1].", "exceed"),
    ],
)
def test_the_opposite_limit_is_contradicted_by_the_negated_one_issue10(
    claim: str, written: str
) -> None:
    _, support = only(verify(claim, [LIMIT]))
    assert support.verdict == "contradicted"
    assert [(d.text, d.instead) for d in support.differences] == [(written, "not exceed")]
