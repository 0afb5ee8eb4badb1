"""Claims that mix up what a clause says with what the next one says (020): one thing's
term given to another the passage names ("Title passes on delivery" where risk does), a
right given to the party the next sentence names, a word against its own negation
("disputes" / "undisputed", "assigned" / "non-assignable"), a bound turned round without a
number ("more than CPI" / "no more than the rate of CPI"), no limit where the clause sets
how often ("at any time" / "once a year"), and a figure the passage says of something else
("accepted a 5% discount" where 5% was asked and 3% accepted). Each is `contradicted` with
the clause's words; the same terms said of the right thing stay `supported`. Before, the
default judge called every turned claim below `supported`."""

from __future__ import annotations

import pytest

from citeproof import Source
from tests.support_runs import support_of, true_claim

SUPPLY = Source(
    id="msa",
    kind="document",
    text=(
        "4. Delivery. The Supplier shall deliver the Goods to the Buyer's warehouse in Leeds "
        "within 14 days of each purchase order. Risk in the Goods passes to the Buyer on "
        "delivery; title passes only when the Buyer has paid in full.\n\n"
        "5. Price. Prices are fixed for the first twelve months. After that the Supplier may "
        "increase prices once a year by no more than the rate of CPI, on 60 days' written "
        "notice.\n\n"
        "8. Termination. The Buyer may terminate for convenience on 90 days' notice. The "
        "Supplier may terminate only if the Buyer fails to pay an undisputed invoice within 30 "
        "days of a reminder."
    ),
)
LEASE = Source(
    id="lease",
    kind="document",
    text=(
        "5. Rent and deposit. The Tenant shall pay rent of £1,450 per month in advance. The "
        "deposit of £2,000 is held by the Agent in an approved scheme.\n\n"
        "7. Assignment. The tenancy is non-assignable."
    ),
)
RENEWAL = Source(
    id="mail",
    kind="email_body",
    text=(
        "Orion agreed to a three-year renewal at £84,000 a year. They asked for a 5% discount; "
        "we offered 3%, which they accepted."
    ),
)
INSURANCE = Source(
    id="policy",
    kind="document",
    text="3.3 Excess. You must pay the first £250 of every claim, or £1,000 for subsidence claims.",
)
RESULTS = Source(
    id="results",
    kind="document",
    text=(
        "Net debt rose to £22m; the revolving facility of £40m is undrawn apart from £7m used "
        "for the Leeds acquisition. The base rate rose from 4.25% to 4.5% in the quarter."
    ),
)
EXPENSES = Source(
    id="policy",
    kind="email_body",
    text=(
        "Interest on late repayments of advances accrues daily; advances are repaid monthly "
        "through payroll."
    ),
)


@pytest.mark.parametrize(
    ("claim", "source", "says"),
    [
        (
            "Title passes to the Buyer on delivery [msa].",
            SUPPLY,
            "the passage says “Risk in the Goods passes”, not “Title passes”",
        ),
        (
            "Risk passes to the Buyer only when it has paid in full [msa].",
            SUPPLY,
            "the passage says “title passes”, not “Risk passes”",
        ),
        (
            "The rent is held by the Agent in an approved scheme [lease].",
            LEASE,
            "the passage says “deposit of £2,000 is held”, not “rent is held”",
        ),
        (
            "Interest is repaid monthly through payroll [policy].",
            EXPENSES,
            "the passage says “advances are repaid”, not “Interest is repaid”",
        ),
        (
            "The Supplier may terminate for convenience on 90 days' notice [msa].",
            SUPPLY,
            "the passage says “Buyer may terminate”, not “Supplier may terminate”",
        ),
        (
            "The Supplier may terminate if the Buyer disputes an invoice [msa].",
            SUPPLY,
            "the passage says “undisputed”, not “disputes”",
        ),
        (
            "The tenancy can be assigned [lease].",
            LEASE,
            "the passage says “non-assignable”, not “assigned”",
        ),
        (
            "Prices may rise by more than CPI after the first year [msa].",
            SUPPLY,
            "the passage says “no more”, not “more”",
        ),
        (
            "The Supplier may increase prices at any time on 60 days' notice [msa].",
            SUPPLY,
            "the passage says “once a year”, not “at any time”",
        ),
        ("Orion accepted a 5% discount [mail].", RENEWAL, "the passage says “3%”, not “5%”"),
        (
            "The excess for subsidence claims is £250 [policy].",
            INSURANCE,
            "the passage says “£1,000”, not “£250”",
        ),
    ],
)
def test_a_term_of_another_clause_is_contradicted_020(
    claim: str, source: Source, says: str
) -> None:
    support = support_of(claim, [source])
    assert support.verdict == "contradicted"
    assert support.reason == says


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Risk passes to the Buyer on delivery [msa].", SUPPLY),
        ("Title passes only when the Buyer has paid in full [msa].", SUPPLY),
        ("The deposit is held by the Agent in an approved scheme [lease].", LEASE),
        ("Advances are repaid monthly through payroll [policy].", EXPENSES),
        ("The Buyer may terminate for convenience on 90 days' notice [msa].", SUPPLY),
        (
            "The Supplier may terminate only if the Buyer fails to pay an undisputed invoice "
            "within 30 days of a reminder [msa].",
            SUPPLY,
        ),
        (
            "After the first twelve months the Supplier may increase prices once a year by no "
            "more than CPI [msa].",
            SUPPLY,
        ),
        ("The Supplier may increase prices once a year on 60 days' written notice [msa].", SUPPLY),
        ("Orion accepted a 3% discount [mail].", RENEWAL),
        ("Orion asked for a 5% discount [mail].", RENEWAL),
        ("The excess for subsidence claims is £1,000 [policy].", INSURANCE),
        ("You pay the first £250 of every claim [policy].", INSURANCE),
        ("£7m of the £40m facility has been drawn for the Leeds acquisition [results].", RESULTS),
        ("The base rate increased to 4.5% [results].", RESULTS),
    ],
)
def test_the_same_terms_of_the_right_thing_are_supported_020(claim: str, source: Source) -> None:
    true_claim(claim, [source])


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        pytest.param(
            "Staff must uninstall TikTok from their work phones [memo].",
            "Staff must remove TikTok from their work phones by Friday, and phones with the "
            "official apps installed stay enrolled.",
            id="installed-said-of-something-else",
        ),
        pytest.param(
            "Wilt Chamberlain scored the most points in a game [memo].",
            "Thirty players have scored 60 or more points in a game; Wilt Chamberlain has done "
            "it 32 times.",
            id="a-superlative-is-no-bound",
        ),
    ],
)
def test_words_about_other_things_are_not_turned_round_020(claim: str, text: str) -> None:
    """ "installed" is said of the apps, not of TikTok; "the most points" is no bound the
    other way from "60 or more points" (the default called it `contradicted` before)."""
    support = support_of(claim, [Source(id="memo", kind="document", text=text)])
    assert support.verdict != "contradicted", support.reason
