"""In a mail thread "we" is whoever writes that message: the default judge reads a claim's
"Tillpoint" in the "we" of a message from tillpoint.example (signed "Support Team Lead,
Tillpoint"), and the customer's "we" as the customer, never the other way round. An item of
a list says nothing without the line that introduces it ("The warranty does not cover:"):
the judge reads them as one statement, and a denial the parse finds on both sides is kept.
A sentence that opens with "They" is read with the sentence before it; a figure said of the
claim's subject ("a fee of £250") stands in the row that names it.

Each claim is verified alone (``CLAIM [id]``) through `citeproof.verify`.
"""

from __future__ import annotations

import pytest

from citeproof import Source
from citeproof.verifier.support.lexicon import speakers
from tests.support_runs import support_of

THREAD = Source(
    id="thread",
    kind="email_body",
    title="Outage refund",
    text=(
        "From: Dara Quigley <dara@marlowefinch.example>\n"
        "To: Tillpoint Support <support@tillpoint.example>\n"
        "Subject: Outage refund\n\n"
        "We pay £89 per store per month for Tillpoint Pro. We are asking for compensation "
        "for the lost sales.\n\n"
        "Dara Quigley\n"
        "Operations Manager, Marlowe & Finch Opticians\n\n"
        "From: Owen Ashby <owen.ashby@tillpoint.example>\n"
        "To: Dara Quigley <dara@marlowefinch.example>\n"
        "Subject: RE: Outage refund\n\n"
        "Our monitoring shows the service was unavailable for 4 hours 39 minutes. As a "
        "goodwill gesture we will:\n"
        "1. credit a full month's subscription for the five stores that use TP-Pay;\n"
        "2. apply a 10% service credit to all 14 stores.\n"
        "The subscription credits will be applied to your December invoice. They cannot be "
        "paid as cash.\n\n"
        "Owen Ashby\n"
        "Support Team Lead, Tillpoint\n"
    ),
)
RETURNS = Source(
    id="returns",
    kind="document",
    title="Returns policy",
    text=(
        "2.3 Other brands carry their manufacturer's warranty.\n\n"
        "2.4 The warranty does not cover:\n\n"
        "(a) normal wear and tear, including carbon brushes and blades;\n"
        "(b) damage caused by batteries not made by Fellbrook;\n"
        "(c) tools used in a hire or rental fleet.\n\n"
        "2.5 Tools registered online within 28 days are covered for five years.\n"
    ),
)
SCHEDULE = Source(
    id="hp",
    kind="document",
    title="Hire purchase schedule",
    text=(
        "## Schedule\n\n| Item | Amount |\n|---|---|\n"
        "| Cash price of the machine | £1,054,000 |\n"
        "| Documentation fee (payable with the first instalment) | £350 |\n"
        "| Option to purchase fee (payable with the final instalment) | £250 |\n"
    ),
)
PURCHASING = Source(
    id="purchasing",
    kind="document",
    title="Purchasing policy",
    text=(
        "1.1 This policy applies to all purchases of goods, services and works by the Company "
        "and its subsidiaries.\n\n"
        "1.2 It does not apply to:\n\n"
        "(a) property leases;\n"
        "(b) purchases of energy on the wholesale market, which follow the Energy Trading "
        "Policy.\n"
    ),
)
SOURCES = [THREAD, RETURNS, SCHEDULE, PURCHASING]


@pytest.mark.parametrize(
    "claim",
    [
        pytest.param(
            "Marlowe & Finch pays £89 per store per month for Tillpoint Pro. [thread]",
            id="the-customers-we",
        ),
        pytest.param(
            "Tillpoint will credit a full month's subscription for the five stores that use "
            "TP-Pay. [thread]",
            id="the-vendors-we-in-a-list",
        ),
        pytest.param(
            "The subscription credits cannot be paid out as cash. [thread]", id="they-before"
        ),
        pytest.param(
            "Tools used in a hire or rental fleet are not covered by the warranty. [returns]",
            id="a-list-item-under-its-denial",
        ),
        pytest.param(
            "A documentation fee of £350 is payable with the first instalment. [hp]",
            id="a-table-row",
        ),
        pytest.param(
            "The policy does not apply to purchases of energy on the wholesale market. "
            "[purchasing]",
            id="an-item-under-does-not-apply",
        ),
    ],
)
def test_a_claim_the_message_or_list_states_is_supported(claim: str) -> None:
    support = support_of(claim, SOURCES)
    assert support.verdict == "supported", support
    assert support.rule == "confirmed"


@pytest.mark.parametrize(
    ("claim", "verdict", "rule", "says"),
    [
        pytest.param(
            "Tillpoint pays £89 per store per month for Tillpoint Pro. [thread]",
            "unconfirmed",
            "roles.kept",
            "the passage says “We” does this (“pay”), not “Tillpoint”",
            id="the-vendor-for-the-customers-we",
        ),
        pytest.param(
            "Marlowe & Finch will credit a full month's subscription for the five stores that "
            "use TP-Pay. [thread]",
            "unconfirmed",
            "match.same_statement",
            "“Marlowe Finch” is in another sentence",
            id="the-customer-for-the-vendors-we",
        ),
        pytest.param(
            "The subscription credits can be paid out as cash. [thread]",
            "contradicted",
            "modality.kept",
            "can not be paid",
            id="they-cannot",
        ),
        pytest.param(
            "Tools used in a hire or rental fleet are covered by the warranty. [returns]",
            "contradicted",
            "facts.negation",
            "not cover",
            id="a-list-item-denied",
        ),
        pytest.param(
            "A documentation fee of £250 is payable with the first instalment. [hp]",
            "unconfirmed",
            "match.same_statement",
            "“250” is in another sentence of the passage",
            id="the-figure-of-another-row",
        ),
        pytest.param(
            "The policy applies to purchases of energy on the wholesale market. [purchasing]",
            "unconfirmed",
            "polarity.kept",
            "the passage denies “apply”; the claim does not",
            id="an-item-under-does-not-apply-said-to-apply",
        ),
    ],
)
def test_a_claim_the_message_or_list_does_not_state_is_not_supported(
    claim: str, verdict: str, rule: str, says: str
) -> None:
    support = support_of(claim, SOURCES)
    assert support.verdict == verdict, support
    assert support.rule == rule
    assert says in support.reason


def test_each_message_names_its_writer_and_readers() -> None:
    first, second = speakers(THREAD.text).messages
    assert {"dara", "quigley", "marlowe", "finch", "marlowefinch"} <= first.writer
    assert first.named("you") == {"tillpoint", "support"}
    assert {"owen", "ashby", "tillpoint"} <= second.writer
    assert "marlowe" in second.named("your")  # the signature names the customer's firm
    assert "dara" not in second.writer
    assert speakers(RETURNS.text).messages == ()


def test_a_firm_written_as_one_word_in_its_address_is_its_writer() -> None:
    (message,) = speakers(
        "From: Daniel Mercer <daniel@corvanefreight.example>\n"
        "To: Nadia Petrov <nadia@ashgrovecycles.example>\n\n"
        "We will pass this on to you at cost.\n"
    ).messages
    assert message.stands_for("we", "corvane")  # corvanefreight.example
    assert message.stands_for("you", "ashgrove")
    assert not message.stands_for("we", "ashgrove")
    assert not message.stands_for("we", "cor")  # four letters at least
    assert not message.stands_for("it", "corvane")


LETTER = Source(
    id="letter",
    kind="document",
    title="Engagement letter",
    text=(
        "# Valuation Engagement Letter\n\n"
        "**From:** Ormsby Tate LLP, Chartered Surveyors, 14 Mill Lane, Garton GT1 4AB (the "
        '"Valuer")\n'
        "**To:** The Trustees, Kelsall Family Trust, 2 Abbey Row, Garton GT2 9CD (the "
        '"Client")\n\n'
        "Dear Trustees,\n\n"
        "3.1 We will deliver our report within 15 working days of the inspection.\n\n"
        "3.2 You must give us access to the property on 48 hours' notice.\n"
    ),
)


def test_a_letterhead_names_the_we_and_the_you_of_a_letter() -> None:
    """A letter's bold ``From:`` and ``To:`` lines name its writer and its readers: the
    party, not the street it is in, and the terms it is defined by."""
    (message,) = speakers(LETTER.text).messages
    assert {"ormsby", "tate", "valuer"} <= message.writer
    assert {"kelsall", "trustees", "client"} <= message.readers
    assert "mill" not in message.writer and "abbey" not in message.readers
    said = support_of(
        "Ormsby Tate will deliver its report within 15 working days of the inspection. [letter]",
        [LETTER],
    )
    assert said.verdict == "supported", said
    swapped = support_of(
        "Kelsall Family Trust will deliver its report within 15 working days of the "
        "inspection. [letter]",
        [LETTER],
    )
    assert swapped.verdict != "supported", swapped


BOOKING = Source(
    id="booking",
    kind="email_body",
    title="Minibus booking",
    text=(
        "From: Joanna Pirie <fixtures@ashworthvalehc.example>\n"
        "To: Dean Marsh <bookings@coldharbourminibus.example>\n"
        "Subject: Minibus booking\n\n"
        "We'll take both minibuses. Our treasurer, Rob Kinnear, will pay the deposit of "
        "£213.75 by bank transfer today.\n\n"
        "Joanna Pirie\n"
    ),
)


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Rob Kinnear will pay the £213.75 deposit by bank transfer.", True),
        ("Joanna Pirie paid the £213.75 deposit by bank transfer.", False),
    ],
)
def test_whose_the_doer_is_is_not_who_does_it(claim: str, supported: bool) -> None:
    """ "Our treasurer" is the writer's treasurer: the writer, whom "Our" stands for, is not
    who pays."""
    support = support_of(f"{claim} [booking]", [BOOKING])
    assert (support.verdict == "supported") is supported, support
    if not supported:
        assert support.rule == "roles.kept"
        assert "the passage says “Our treasurer , Rob Kinnear ,” does this" in support.reason


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Joanna Pirie said Rob Kinnear would pay the £213.75 deposit by bank transfer.", True),
        ("Joanna Pirie said she would pay the £213.75 deposit by bank transfer.", False),
    ],
)
def test_a_pronoun_of_a_reported_clause_is_its_speaker(claim: str, supported: bool) -> None:
    """ "she" of "Joanna Pirie said she would pay" is Joanna Pirie, and the message says her
    treasurer will pay."""
    support = support_of(f"{claim} [booking]", [BOOKING])
    assert (support.verdict == "supported") is supported, support
    if not supported:
        assert support.rule == "roles.kept"
        assert "not “Joanna Pirie”" in support.reason
