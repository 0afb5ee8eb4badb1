"""The confirmation rules (`support_judge="strict"`), one table row per rule id: each rule's
documented example finds what its documentation says, with the rule's id; the claim it
guards, restated truly, is confirmed; and the judge names the rule in every verdict."""

from __future__ import annotations

import pytest

from citeproof import Policy, Source, answer_to_json, verify
from citeproof.verifier.support._fact_rules import FACT_RULES
from citeproof.verifier.support.confirm import RULES, confirm
from citeproof.verifier.support.confirm._parse import parse

BY_ID = {rule.id: rule for rule in RULES}

# For each rule id: a true restatement of its example's passage that every rule confirms.
TRUE = {
    "match.predicate": (
        "The Distributor may sell the Products outside the Territory only in response to "
        "unsolicited orders.",
        "The Distributor may sell the Products outside the Territory only in response to "
        "unsolicited orders.",
    ),
    "match.every_word": (
        "Corvel will ship the pumps to Llanwern.",
        "Corvel will ship the pumps to Llanwern on 5 April.",
    ),
    "match.same_statement": (
        "A public official's entertainment needs the approval of the Compliance team.",
        "Trips above £3,000 need the approval of the Finance Director. Entertaining a public "
        "official requires the approval of the Compliance team.",
    ),
    "match.question": (
        "Tolland Mechanical applies to Newport Council for the road closure.",
        "Who applies for the road closure? Tolland Mechanical applies to Newport Council for "
        "the road closure.",
    ),
    "match.opposite": (
        "If Leverage is below 2.00:1, the Margin is reduced by 0.25% per annum.",
        "If Leverage is below 2.00:1, the Margin is reduced by 0.25% per annum.",
    ),
    "direction.kept": ("Invoices are paid before delivery.", "Invoices are paid before delivery."),
    "modality.kept": ("Founders may not transfer shares.", "No Founder shall transfer any Shares."),
    "polarity.kept": (
        "The Supplier is not liable for indirect loss.",
        "The Supplier is not liable for indirect loss.",
    ),
    "quantity.kept": (
        "The Landlord must give at least 30 days' notice.",
        "The Landlord must give no less than 30 days' notice.",
    ),
    "roles.kept": (
        "The Tenant must pay the Landlord's legal costs.",
        "The Landlord's legal costs must be paid by the Tenant.",
    ),
    "figure.attached": (
        "Facility A carries a Margin of 2.75% per annum.",
        "The Margin is 2.75% per annum for Facility A and 2.25% per annum for Facility B.",
    ),
    "condition.kept": (
        "The Recipient must destroy all Confidential Information, except that it may keep "
        "one archival copy.",
        "The Recipient shall return or destroy all Confidential Information, except that it "
        "may keep one archival copy.",
    ),
    "restriction.kept": (
        "On termination the Supplier must buy back the Distributor's unsold stock that is "
        "less than nine months old.",
        "On termination the Supplier shall buy back the Distributor's unsold stock that is in "
        "its original packaging and less than nine months old.",
    ),
}


# For each rule of the fact layer: the statement its example's passage makes, said truly.
FACT_TRUE = {
    "facts.number": "Facility A carries a Margin of 2.75% per annum.",
    "facts.date": "The lease ends on 31 March 2030.",
    "facts.name": "The loan was approved by Daniel Shah.",
    "facts.comparative": "Revenue fell 12% in the year.",
    "facts.word": "Rent is paid on the first working day of each month.",
    "facts.negation": "The Supplier is not liable for indirect loss.",
    "facts.figure_elsewhere": "The excess for subsidence claims is £1,000.",
    "facts.time_turned": "Fees can rise after the first anniversary.",
    "facts.order_turned": "Applications must be referred to a senior underwriter before an "
    "offer is issued.",
    "facts.range_turned": "The installation was moved from March to April.",
    "facts.time_limited": "Credits must be requested within 30 days after the end of the month.",
    "facts.share_turned": "The agent issued a refund for one of the two charges.",
    "facts.parties_swapped": "The Licensor may audit the Licensee's use of the software.",
    "facts.doer_swapped": "Sarah will lead the migration.",
    "facts.scope_swapped": "Either party may terminate this agreement for convenience on 30 "
    "days' notice.",
    "facts.subject_swapped": "Risk in the Goods passes to the Buyer on delivery.",
}
FACTS_BY_ID = {rule.id: rule for rule in FACT_RULES}


def _judged(claim: str, passage: str) -> dict[str, object]:
    """The default judge's judgement of ``claim`` citing ``passage``, as the JSON says it."""
    source = Source(id="doc", kind="document", text=passage)
    support: dict[str, object] = answer_to_json(verify(f"{claim} [doc]", [source]))["claims"][0][
        "support"
    ][0]
    return support


def test_every_fact_rule_has_a_row() -> None:
    assert set(FACT_TRUE) == set(FACTS_BY_ID), "a fact rule without a row, or a row without one"
    assert len(FACTS_BY_ID) == len(FACT_RULES), "two fact rules share an id"


@pytest.mark.parametrize("rule_id", sorted(FACTS_BY_ID))
def test_each_fact_rule_contradicts_its_documented_example(rule_id: str) -> None:
    claim, passage, says = FACTS_BY_ID[rule_id].example
    support = _judged(claim, passage)
    assert (support["verdict"], support.get("rule"), support["reason"]) == (
        "contradicted",
        rule_id,
        says,
    )


@pytest.mark.parametrize("rule_id", sorted(FACT_TRUE))
def test_the_fact_rules_statement_said_truly_is_not_contradicted(rule_id: str) -> None:
    support = _judged(FACT_TRUE[rule_id], FACTS_BY_ID[rule_id].example[1])
    assert support["verdict"] != "contradicted", support
    assert support.get("rule") != rule_id


def test_every_rule_has_a_row() -> None:
    assert set(TRUE) == set(BY_ID), "a rule without a table row, or a row without a rule"
    assert len(BY_ID) == len(RULES), "two rules share an id"


@pytest.mark.parametrize("rule_id", sorted(BY_ID))
def test_each_rule_finds_its_documented_example(rule_id: str) -> None:
    rule = BY_ID[rule_id]
    claim, passage, says = rule.example
    outcome = confirm(claim, passage)
    assert outcome.outcome != "supported"
    messages = [f.message for f in outcome.findings if f.rule == rule_id]
    assert says in messages, f"{rule_id} found {messages} in {outcome.findings}"


@pytest.mark.parametrize("rule_id", sorted(TRUE))
def test_the_same_statement_said_truly_is_confirmed(rule_id: str) -> None:
    claim, passage = TRUE[rule_id]
    outcome = confirm(claim, passage)
    assert outcome.outcome == "supported", outcome.findings


STRICT = Policy(support_judge="strict")


@pytest.mark.parametrize(
    ("claim", "passage", "rule"),
    [
        (
            "Facility B carries a Margin of 2.75% per annum.",
            "The Margin is 2.75% per annum for Facility A and 2.25% per annum for Facility B.",
            "figure.attached",
        ),
        (
            "If Leverage is below 2.00:1, the Margin for each Facility goes up by 0.25% per annum.",
            "If Leverage is below 2.00:1, the Margin for each Facility is reduced by 0.25% per "
            "annum.",
            "match.opposite",
        ),
        (
            "Within 30 days of a written request, the Recipient must destroy every copy of the "
            "Confidential Information, including copies held in automatic electronic back-ups.",
            "Within 30 days of a written request, the Recipient shall return or destroy all "
            "Confidential Information, except that it may keep one archival copy for compliance "
            "purposes and any copies held in automatic electronic back-ups.",
            "condition.kept",
        ),
        (
            "The contractor starts the pump station refit on 5 April.",
            "The contractor starts the pump station refit on 22 March. Corvel will ship the "
            "pumps to Llanwern on 5 April.",
            "match.same_statement",
        ),
        (
            "Corvel will send an engineer to install the pumps at Llanwern.",
            "The contractor starts the pump station refit on 22 March. Corvel will ship the "
            "pumps to Llanwern on 5 April.",
            "match.predicate",
        ),
    ],
)
def test_the_false_claims_of_the_issue_are_never_supported(
    claim: str, passage: str, rule: str
) -> None:
    """Verified as a user would, `CLAIM [source]`: not supported, and the JSON names the
    rule that decided and the words."""
    answer = verify(
        f"{claim} [doc]", [Source(id="doc", kind="document", text=passage)], policy=STRICT
    )
    (judged,) = answer_to_json(answer)["claims"]
    (support,) = judged["support"]
    assert judged["verdict"] != "supported"
    assert support["rule"] == rule
    assert support["reason"]


def test_the_default_judge_is_strict_and_the_head_alone_names_no_rule() -> None:
    source = Source(
        id="doc",
        kind="document",
        text="The Margin is 2.75% per annum for Facility A and 2.25% per annum for Facility B.",
    )
    claim = "Facility A carries a Margin of 2.75% per annum. [doc]"
    default = answer_to_json(verify(claim, [source]))["claims"][0]
    assert default["verdict"] == "supported"
    assert default["support"][0]["rule"] == "confirmed"
    head = answer_to_json(verify(claim, [source], policy=Policy(support_judge="lexical")))
    assert "rule" not in head["claims"][0]["support"][0]


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Dravo Logistics will get in touch with stockists within two working weeks.",
            "Dravo Logistics will contact all affected stockists within 10 working days.",
        ),
        (
            "A payment missed because of an administrative error does not count as an Event of "
            "Default if it is made within three Business Days of the due date.",
            "Failure to pay any amount due is an Event of Default, unless the failure is caused "
            "by an administrative or technical error and payment is made within three Business "
            "Days of its due date.",
        ),
    ],
)
def test_the_true_claims_of_the_issue_are_never_contradicted(claim: str, passage: str) -> None:
    answer = verify(f"{claim} [doc]", [Source(id="doc", kind="document", text=passage)])
    (judged,) = answer_to_json(answer)["claims"]
    assert judged["verdict"] not in ("contradicted", "supported")
    assert judged["support"][0]["rule"], "the rule that held it back is named"


def test_a_denial_that_restates_no_exception_is_still_contradicted() -> None:
    passage = (
        "Failure to pay any amount due is an Event of Default, unless the failure is caused by "
        "an administrative or technical error and payment is made within three Business Days."
    )
    answer = verify(
        "A late payment is not an Event of Default [doc].",
        [Source(id="doc", kind="document", text=passage)],
    )
    assert answer.claims[0].verdict == "contradicted"
    exception = answer_to_json(
        verify(
            "A payment missed because of an administrative error does not count as an Event of "
            "Default if it is made within three Business Days [doc].",
            [Source(id="doc", kind="document", text=passage)],
        )
    )["claims"][0]["support"][0]
    assert exception["rule"] == "polarity.exception"
    assert "unless the failure is caused" in exception["reason"]


def test_a_denial_that_restates_an_other_than_is_for_a_reader() -> None:
    passage = (
        "2.1 The Buyer will buy the plant, vehicles and equipment in the asset register, other "
        "than the two forklift trucks held on hire."
    )
    restated = _judged(
        "The Buyer will not be buying the two forklift trucks held on hire.", passage
    )
    assert (restated["verdict"], restated.get("rule")) == ("unconfirmed", "polarity.exception")
    assert "other than the two forklift trucks" in str(restated["reason"])
    denied = _judged("The Buyer will not buy the plant in the asset register.", passage)
    assert denied["verdict"] == "contradicted"


DEPOSIT = (
    "3.1 On exchange you will pay a deposit of 10% of the price.\n"
    "It must reach us in cleared funds at least 3 working days before exchange."
)
RENTAL = (
    "3.1 The monthly rental for each short-wheelbase van is £412, payable for 48 months.\n\n"
    "3.2 Excess mileage is charged at 9p a mile."
)


@pytest.mark.parametrize(
    ("claim", "passage", "verdict", "rule", "says"),
    [
        (
            "Over the full 48 months, the rentals for one short-wheelbase van add up to £19,776.",
            RENTAL,
            "unconfirmed",
            "facts.worked",
            "works “£19,776” out from the passage's (48 months × £412), and citeproof does not "
            "check sums",
        ),
        (
            "Over the full 48 months, the rentals for one short-wheelbase van add up to £21,000.",
            RENTAL,
            "contradicted",
            "facts.number",
            "the passage says “£412”, not “£21,000”",
        ),
        (
            "The monthly rental for each short-wheelbase van is £420.",
            RENTAL,
            "contradicted",
            "facts.number",
            "the passage says “£412”, not “£420”",
        ),
        (  # a share of a price is no price: the passage does not give the claim's figure
            "The exchange deposit of £64,000 must reach the firm at least three working days "
            "before exchange.",
            DEPOSIT,
            "unconfirmed",
            "facts.other_measure",
            "the passage gives “10%” where the claim gives “£64,000”, a figure of another kind",
        ),
        (  # another share contradicts
            "The exchange deposit of 15% must reach the firm at least three working days "
            "before exchange.",
            DEPOSIT,
            "contradicted",
            "facts.number",
            "the passage says “10%”, not “15%”",
        ),
    ],
)
def test_a_figure_worked_out_or_of_another_kind_is_for_a_reader_not_contradicted(
    claim: str, passage: str, verdict: str, rule: str, says: str
) -> None:
    """A sum of the passage's figures, and a figure set against one of another measure, are
    the reader's to check; another figure of the same measure contradicts."""
    support = _judged(claim, passage)
    assert (support["verdict"], support.get("rule")) == (verdict, rule)
    assert says in str(support["reason"])


@pytest.mark.parametrize(
    ("claim", "passage", "verdict", "rule"),
    [
        (  # a day of the month moved by a number of days: a date the reader can check
            "If the Client provides its stock data on 18 March instead of 13 March, the "
            "Milestone 2 due date moves back five days to 29 April.",
            "- Milestone 2: requirements specification approved by the Client, due by 24 April: "
            "25%;\n\n5.1 The Client will provide its current stock and order data by 13 March.\n"
            "If the data arrives late, each later milestone date moves back by the same number "
            "of days.",
            "unconfirmed",
            "facts.worked",
        ),
        (  # a plain count or years do not move a day of the month: 17 + 2 is no 19th
            "The session ran from January 19 to February 22, 1916.",
            "The session ran from January 17 to February 22, 1916, two years after the vote.",
            "contradicted",
            "facts.number",
        ),
        (  # an ordinal is a position, no operand: "Second" + 20 is no 22
            "The Second Battle of Lincoln was fought on Saturday 22 May 1217.",
            "The Second Battle of Lincoln was fought on Saturday 20 May 1217.",
            "contradicted",
            "facts.number",
        ),
        (  # hours are no count of days divided: 5 ÷ 20 days is no 6 hours
            "He reached the Pole in 20 days and 6 hours.",
            "He reached the Pole in 20 days and 5 hours.",
            "contradicted",
            "facts.number",
        ),
        (  # an ISO date's day is a day of the month too: 13 + five days is no 16th
            "The parts were shipped on 2026-03-16.",
            "The parts were shipped on 2026-03-13; transit takes five days.",
            "contradicted",
            "facts.number",
        ),
        (  # a share of a sum of money is money
            "Performance materiality for the audit is £126,000.",
            "Audit plan.\n\n3.1 We expect to set overall materiality at £180,000 and "
            "performance materiality at 70% of that figure.\n\n3.2 We will report to the audit "
            "committee.",
            "unconfirmed",
            "facts.worked",
        ),
        (  # worked from the claim's own case: a figure the passage does not give
            "A £20,000 arranged overdraft carries an arrangement fee of £300.",
            "An arranged overdraft carries an arrangement fee of 1.5% of the limit.",
            "unconfirmed",
            "facts.worked",
        ),
    ],
)
def test_a_worked_figure_is_a_sum_a_reader_would_write(
    claim: str, passage: str, verdict: str, rule: str
) -> None:
    support = _judged(claim, passage)
    assert (support["verdict"], support.get("rule")) == (verdict, rule), support["reason"]


@pytest.mark.parametrize(
    ("claim", "passage", "verdict", "rule"),
    [
        (  # "free of charge" denies the charge in other words
            "The Client provides the kitchen and the gas at no charge.",
            "1.2 The Client will provide the kitchen and the gas free of charge.",
            "unconfirmed",
            "polarity.reworded",
        ),
        (  # the passage denies nothing: the claim's denial is its own
            "The Client may not assign the licence.",
            "4.1 The Client may assign the licence to a group company.",
            "contradicted",
            "facts.negation",
        ),
        (  # the other way round: the claim sets aside what the passage denies with "not"
            "The materials off site will be valued in Application 8 rather than in this payment.",
            "The materials off site are accepted, but they will be valued in Application 8, "
            "not in this payment.",
            "unconfirmed",
            "polarity.reworded",
        ),
        (  # ... and drops the passage's denial: still contradicted
            "The materials off site will be valued in this payment.",
            "The materials off site are accepted, but they will be valued in Application 8, "
            "not in this payment.",
            "contradicted",
            "facts.negation",
        ),
        (  # the passage denies something else, and the parse reads the flip
            "The Client may not assign the licence.",
            "4.1 The Client may assign the licence to a group company, but not to a competitor.",
            "contradicted",
            "modality.kept",
        ),
    ],
)
def test_a_denial_the_passage_may_say_in_other_words_is_for_a_reader(
    claim: str, passage: str, verdict: str, rule: str
) -> None:
    support = _judged(claim, passage)
    assert (support["verdict"], support.get("rule")) == (verdict, rule), support["reason"]


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (  # its words say the opposite of the quote beside them
            'Valuations older than six months are accepted ("Valuations older than six months '
            'are not accepted") [doc].',
            "contradicted",
        ),
        (
            'Valuations older than six months are not accepted ("Valuations older than six '
            'months are not accepted") [doc].',
            "supported",
        ),
        ('The policy says "Valuations older than six months are not accepted" [doc].', "supported"),
    ],
)
def test_the_words_around_a_verified_quote_are_judged_on_their_own(
    answer: str, verdict: str
) -> None:
    """A verified quote speaks for itself; what the claim says beside it must agree with the
    passage without the quote's words lending it a denial."""
    source = Source(
        id="doc",
        kind="document",
        text="Valuations older than six months are not accepted; a new valuation is ordered at "
        "the applicant's cost.",
    )
    (claim,) = verify(answer, [source]).claims
    assert claim.verdict == verdict, claim.support
    if verdict == "supported":  # each judgement names what decided it
        assert claim.support[0].rule in ("confirmed", "quote.verified"), claim.support


def test_a_verified_quote_frames_no_statement_its_claim_makes_beside_it() -> None:
    """ "advise against all travel" is the source's own words, from the sentence that forbids
    such travel; the claim's words beside it ("With the Managing Director's approval ...
    Travellers may go to a country on the ... list") are a statement of their own, from the
    next sentence, and are read by the rules, not waved through as framing."""
    source = Source(
        id="policy",
        kind="document",
        text="6.2 Travellers must not travel to any country on the Foreign Office's \"advise "
        'against all travel" list. Travel to a country on the "advise against all but '
        "essential travel\" list needs the Managing Director's approval and a written risk "
        "assessment.",
    )
    (claim,) = verify(
        "With the Managing Director's approval and a written risk assessment, Travellers may "
        'go to a country on the Foreign Office\'s "advise against all travel" list [policy].',
        [source],
    ).claims
    assert claim.verdict != "supported", claim.support
    assert claim.support[0].rule == "match.same_statement"


def test_every_judgement_of_the_example_answer_names_its_rule() -> None:
    """No verdict without a rule id: those its verified quotes settle name `quote.verified`."""
    from tests.test_golden import example_answer

    answer = example_answer()
    judged = [s for c in answer.claims for s in c.support]
    assert judged
    for support in judged:
        assert support.rule, support
    rules = {s.rule for s in judged}
    assert {"facts.number", "facts.name", "facts.negation"} <= rules, rules


def test_every_rule_is_documented_with_its_example() -> None:
    from pathlib import Path

    page = (Path(__file__).parents[1] / "docs" / "claim-support.md").read_text(encoding="utf-8")
    for rule in RULES:
        claim, _, finds = rule.example
        assert f"| `{rule.id}` |" in page, f"{rule.id} is not in docs/claim-support.md"
        assert claim in page and finds in page, f"{rule.id}'s example is not documented"
    for rule_id in ("confirmed", "model.raised", "escalated", "quote.meaning_changed",
                    "polarity.exception", "no_passage", "facts.worked", "quote.verified",
                    "facts.applied", "polarity.reworded", "facts.other_measure"):  # fmt: skip
        assert f"`{rule_id}`" in page, f"{rule_id} is not in docs/claim-support.md"
    for fact in FACT_RULES:
        claim, passage, finds = fact.example
        row = f"| `{fact.id}` | {fact.checks} | {claim} | {passage} | {finds} |"
        assert row in page, f"{fact.id} is not in docs/claim-support.md as FACT_RULES says"


@pytest.mark.parametrize(
    ("claim", "verdict", "rule", "says"),
    [
        (
            "A login that has been idle for three months will have been locked.",
            "unconfirmed",
            "facts.applied",
            "applies the passage's “more than 60 days” to “three months”",
        ),
        (
            "A login idle for more than 90 days is locked.",
            "contradicted",
            "facts.number",
            "the passage says “60 days”, not “90 days”",
        ),
    ],
)
def test_a_case_of_a_bound_is_for_a_reader_but_another_bound_contradicts(
    claim: str, verdict: str, rule: str, says: str
) -> None:
    """ "Three months" is a case of "more than 60 days": citeproof does not check cases
    against bounds, so a reader does; "more than 90 days" is another bound."""
    support = _judged(claim, "4.2 Logins idle for more than 60 days are locked automatically.")
    assert (support["verdict"], support.get("rule")) == (verdict, rule)
    assert says in str(support["reason"])


def test_a_denial_of_what_the_passage_does_not_speak_to_is_no_contradiction() -> None:
    """The claim's "cannot hold" has no counterpart in "will not exceed": the passage does
    not speak to holding, so the claim is for a reader, not contradicted; the passage
    stating what the claim denies still contradicts it."""
    passage = "The total retention at any time will not exceed £60,000."
    unread = _judged("The Contractor cannot hold more than £60,000 of retention.", passage)
    assert unread["verdict"] in ("unconfirmed", "unsupported")
    assert unread.get("rule") != "facts.negation"
    denied = _judged(
        "The Lessee is not liable for tyre damage.",
        "The Lessee is liable for tyre damage caused by misuse.",
    )
    assert denied["verdict"] == "contradicted"
    restated = _judged(  # "is not a competitor" denies what "does not compete" does
        "Each contractor does not compete with the Owner.",
        "Each contractor is bound by confidentiality terms and is not a competitor of the Owner.",
    )
    assert restated["verdict"] != "contradicted", restated


@pytest.mark.parametrize(
    ("claim", "passage", "verdict", "says"),
    [
        (  # a cause the passage's condition names, left out
            "Whenever a lorry is off the road for more than 72 hours, the Lessor will supply a "
            "replacement lorry from the fourth day.",
            "If a lorry is off the road for more than 72 hours because of a gearbox fault, the "
            "Lessor will supply a replacement lorry from the fourth day.",
            "unconfirmed",
            "the claim leaves out “because of a gearbox fault” of the passage's condition",
        ),
        (
            "Whenever a lorry is off the road for more than 72 hours because of a gearbox "
            "fault, the Lessor will supply a replacement lorry from the fourth day.",
            "If a lorry is off the road for more than 72 hours because of a gearbox fault, the "
            "Lessor will supply a replacement lorry from the fourth day.",
            "supported",
            "",
        ),
        (  # a deduction is an exception
            "If the fair is called off because of flooding, the Organiser will refund all the "
            "fees paid.",
            "If the fair is called off because of flooding, the Organiser will refund all fees "
            "paid, less its documented costs.",
            "unconfirmed",
            "“less its documented costs”",
        ),
        (
            "Spare parts are charged at the Contractor's list price plus 10%.",
            "Spare parts are charged at the Contractor's list price less 10%.",
            "unconfirmed",
            "“less 10%”",
        ),
        (
            "Spare parts are charged at the Contractor's list price less 10%.",
            "Spare parts are charged at the Contractor's list price less 10%.",
            "supported",
            "",
        ),
        (  # the claim's denial is the statement's own, no restatement of its exception
            "The Agency will not approach any person it has placed with the Client about other "
            "roles for 12 months after the placement starts.",
            "5.2 The Agency will not approach any person it has placed with the Client about "
            "other roles for 12 months after the placement starts, unless that person "
            "approaches the Agency first.",
            "unconfirmed",
            "“unless that person approaches the Agency first”",
        ),
        (  # an exception after a comma is read of the sentence's statement too
            "Neither Shareholder may transfer shares in the first five years after the plant "
            "starts commercial operation.",
            "9.1 Neither Shareholder may transfer shares in the first five years after the "
            "plant starts commercial operation, except to a wholly owned member of its own "
            "group.",
            "unconfirmed",
            "“except to a wholly owned member of its own group”",
        ),
        (  # the next sentence carves an exception out of the statement
            "A Client that books three or more Delegates on the same course date in one "
            "booking gets a 10% discount on the open course fees.",
            "2.3 The Client receives a 10% discount on open course fees when it books 3 or "
            "more Delegates on the same course date in one booking. The discount does not "
            "apply to Health and Safety Leadership, whose fee includes an external "
            "examination.\n\n2.4 Fees are payable 30 days before the course date.",
            "unconfirmed",
            "the passage's exception “The discount does not apply to Health and Safety Leadership",
        ),
        (  # ... kept by the claim
            "A Client that books three or more Delegates on the same course date in one "
            "booking gets a 10% discount on the open course fees, except for Health and "
            "Safety Leadership.",
            "2.3 The Client receives a 10% discount on open course fees when it books 3 or "
            "more Delegates on the same course date in one booking. The discount does not "
            "apply to Health and Safety Leadership, whose fee includes an external "
            "examination.\n\n2.4 Fees are payable 30 days before the course date.",
            "supported",
            "",
        ),
        (  # "This right" points back at the statement before it
            "The Sponsor may end this agreement on 30 days' notice.",
            "7.2 The Sponsor may end this agreement on 30 days' notice. This right does not "
            "apply if the Sponsor has missed any payment under this agreement.",
            "unconfirmed",
            "“This right does not apply if the Sponsor has missed any payment",
        ),
        (  # a sentence of its own that denies the statement before it under a condition
            "If the Practice engages the Locum directly within six months of his last session "
            "booked through Meridale, it must pay a £3,500 introduction fee.",
            '**Agency:** Meridale Locums Ltd ("Meridale", "we", "us").\n'
            "If the Practice engages the Locum directly, other than through us, within 6 "
            "months after the last session booked through us, it must pay an introduction fee "
            "of £3,500. This fee is not payable if the Locum had worked at the Practice in the "
            "12 months before this booking.",
            "unconfirmed",
            "“This fee is not payable if the Locum had worked at the Practice",
        ),
        (  # ... kept by the claim
            "If the Practice engages the Locum directly within six months of his last session "
            "booked through Meridale, it must pay a £3,500 introduction fee, unless the "
            "Locum had worked at the Practice in the 12 months before this booking.",
            '**Agency:** Meridale Locums Ltd ("Meridale", "we", "us").\n'
            "If the Practice engages the Locum directly, other than through us, within 6 "
            "months after the last session booked through us, it must pay an introduction fee "
            "of £3,500. This fee is not payable if the Locum had worked at the Practice in the "
            "12 months before this booking.",
            "supported",
            "",
        ),
        (  # an exception that opens a list the passage does not show
            "Each party waives all claims arising out of the Lease.",
            "Each party waives all claims arising out of the Lease, other than:",
            "unconfirmed",
            "the claim leaves out the passage's condition “other than” and the list it opens",
        ),
        (  # "apart from" restates "other than"
            "Training of Client staff is outside the scope of the SOW, apart from one half-day "
            "handover workshop.",
            "1.2 The following are outside the scope of this SOW:\n(d) training of Client "
            "staff, other than one half-day handover workshop.",
            "supported",
            "",
        ),
    ],
)
def test_a_condition_is_kept_whole(claim: str, passage: str, verdict: str, says: str) -> None:
    support = _judged(claim, passage)
    assert (support["verdict"] == "supported") == (verdict == "supported"), support
    if verdict != "supported":
        assert support.get("rule") == "condition.kept"
        assert says in str(support["reason"])


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        (
            "Tavistock will service all the hired Equipment on Site every 250 engine hours at "
            "no extra cost.",
            "unconfirmed",
        ),
        (
            "Tavistock will service Equipment hired for more than six weeks on Site every 250 "
            "engine hours at no extra cost.",
            "supported",
        ),
    ],
)
def test_a_participle_the_parse_took_for_the_verb_still_restricts(claim: str, verdict: str) -> None:
    """ "Equipment hired for more than 6 weeks will be serviced": the parse makes "hired" the
    sentence's verb and "serviced" its conjunct; the participle still restricts the subject."""
    passage = (
        '**Owner:** Tavistock Plant & Access Ltd, Exeter ("Tavistock", "we")\n\n'
        "5.2 Equipment hired for more than 6 weeks will be serviced on Site by us every 250 "
        "engine hours at no extra cost."
    )
    support = _judged(claim, passage)
    assert support["verdict"] == verdict, support["reason"]
    if verdict != "supported":
        assert support.get("rule") == "restriction.kept"
        assert "6 weeks" in str(support["reason"])


def test_a_main_verb_no_match_reads_is_denied_on_both_sides_or_neither() -> None:
    """ "includes" is no content word (nothing needs to match it), but the passage's "does
    not include" denies it."""
    passage = "3.2 The hire charge does not include the cost of the Hirer's fuel or drivers."
    denied = _judged("The hire charge includes the cost of the Hirer's drivers.", passage)
    assert denied["verdict"] != "supported"
    assert denied.get("rule") in ("facts.negation", "polarity.kept")
    assert "not" in str(denied["reason"]) or "denies" in str(denied["reason"])
    kept = _judged("The hire charge does not include the cost of the Hirer's drivers.", passage)
    assert kept["verdict"] == "supported"


def test_a_root_the_parser_took_for_a_noun_is_still_the_claims_verb() -> None:
    """The parser reads "transfers" of "Kyle Renshaw transfers to ..." as a noun: it is still
    the verb the passage denies ("does not transfer"), whatever the fact layer says."""
    passage = (
        "4.3 Mr Kyle Renshaw, who cleans the Round as the Seller's subcontractor, is not an "
        "employee and does not transfer to the Buyer."
    )
    outcome = confirm("Kyle Renshaw transfers to the Buyer as an employee.", passage)
    assert outcome.outcome != "supported"
    assert "polarity.kept" in {f.rule for f in outcome.findings}


@pytest.mark.parametrize(("subject", "found"), [("Any account", True), ("Annual accounts", False)])
def test_a_figure_of_a_relative_clause_is_said_of_its_antecedent(subject: str, found: bool) -> None:
    """ "except Annual accounts, which may have two" gives two of the Annual accounts."""
    passage = (
        "Each account may have one bike out at a time, except Annual accounts, which may have two."
    )
    outcome = confirm(f"{subject} can have two bikes out at once.", passage)
    attached = [f.message for f in outcome.findings if f.rule == "figure.attached"]
    assert bool(attached) is found, outcome.findings
    if found:
        assert attached == ["the passage gives “two” of “Annual accounts”, not of “account”"]


def test_the_reported_clauses_light_verb_carries_its_modal() -> None:
    """ "Gareth said Halden must make its next booking by 30 June": the reported clause's
    "must make" is an obligation the passage's "if it's made by 30 June" does not state."""
    passage = "We'll take 10% off your next booking with us if it's made by 30 June."
    outcome = confirm("Gareth said Halden must make its next booking with us by 30 June.", passage)
    assert "modality.kept" in {f.rule for f in outcome.findings}


@pytest.mark.parametrize(
    ("subject", "found"), [("All members", True), ("All contractor members", False)]
)
def test_all_of_a_subject_the_passage_narrows_is_not_said(subject: str, found: bool) -> None:
    """ "Contractor members receive ..." says nothing of all members; its "each membership
    year" quantifies the years, not the members."""
    passage = "Contractor members receive up to 5 hours of free advice in each membership year."
    claim = f"{subject} get up to 5 hours of free advice in each membership year."
    findings = [f.message for f in confirm(claim, passage).findings if f.rule == "quantity.kept"]
    assert findings == (
        ["the passage says it of “Contractor members”, not of “All”"] if found else []
    )


def test_a_line_that_ends_in_a_full_stop_ends_its_sentence() -> None:
    """A passage is its located sentences one per line: the parser would read a definition
    and the numbered clause after it as one sentence, and lend the clause its party."""
    doc = parse('Mr Dafydd Rowlands (the "Occupier").\n2.1 We will pay you £250.')
    assert [s.text.strip() for s in doc.sents] == [
        'Mr Dafydd Rowlands (the "Occupier").',
        "2.1 We will pay you £250.",
    ]


def test_a_time_said_of_the_subject_is_part_of_the_statement() -> None:
    """ "The limit on the Test Date" says when the limit holds: a time word that describes
    the subject must stand in the statement's sentence, unlike a description that only
    names it."""
    passage = (
        "The leverage limit was 3.00 : 1 for test dates up to and including 30 June 2026, and "
        "is 2.75 : 1 from 30 September 2026.\nTotal Net Debt on the Test Date was £2,100,000."
    )
    support = _judged("The leverage limit on the Test Date was 3.00 : 1.", passage)
    assert (support["verdict"], support["rule"]) == ("unconfirmed", "match.same_statement")
    assert "Date" in str(support["reason"])


@pytest.mark.parametrize(
    ("claim", "passage", "rule", "says"),
    [
        pytest.param(  # a quantity of the thing the claim quantifies, not of the sentence
            "The auditor reviews every one of the branch's loan files each month.",
            "4.1 Each month the auditor reviews a sample of at least one in five of the "
            "branch's loan files.",
            "quantity.kept",
            "the passage does not say “every”",
            id="quantity-of-what",
        ),
        pytest.param(  # the amount "of" a noun says which noun it is of
            "The Buyer must pay a £40,000 retention payment within 14 days of handover.",
            "2.2 The Buyer must pay a deposit of £40,000 within 14 days of signature, and a "
            "retention payment of £15,000 within 14 days of handover.",
            "figure.attached",
            "the passage gives “£15,000” for “retention”, and “£40,000” for something else",
            id="amount-of-a-noun",
        ),
        pytest.param(  # "afterwards" points the other way from "first"
            "The agent may pay the fee from its own account, provided the client repays it "
            "afterwards.",
            "3.4 The agent may pay the fee from its own account, provided that the client has "
            "put it in funds first.",
            "direction.kept",
            "the passage does not say “afterwards”",
            id="afterwards",
        ),
        pytest.param(  # a noun compounded with the subject's names which fee it is
            "The inspection fee is £950, payable on acceptance.",
            "| Inspection fee | £1,200, payable on acceptance |.\n"
            "| Survey fee | £950, payable on acceptance, not refundable |.",
            "match.same_statement",
            "“inspection” is in another sentence of the passage than the rest of its clause",
            id="compound-subject",
        ),
        pytest.param(  # a phrase the statement is limited to by "only"
            "The Gallery may use images of the Works on merchandise.",
            "6.2 The Gallery may use images of the Works on merchandise only with the Lender's "
            "written consent.",
            "condition.kept",
            "the claim leaves out the passage's condition “only with the Lender's written consent”",
            id="only-with",
        ),
        pytest.param(  # a second verb of the same subject is part of its clause
            "The cancellation bond must be issued by an insurer approved by the Agent and "
            "must be in place by 1 June 2026.",
            "From 1 June 2026 the Promoter may appoint one other agent. 3.3 The cancellation "
            "bond must be issued by an insurer approved by the Agent and must cover at least "
            "the total advances paid.",
            "match.same_statement",
            "“1 June 2026” is in another sentence of the passage than the rest of its clause",
            id="a-verb-sharing-its-subject",
        ),
        pytest.param(  # an amount said of two things is not said of one of them
            "The six grey chairs were priced at £2,068 in total.",
            "You may hold back the price of the six chairs and the two desks, £2,068 in "
            "total, until the replacements are in.",
            "figure.attached",
            "the passage gives “£2,068” for “the two desks” too",
            id="an-amount-of-two-things",
        ),
        pytest.param(  # an adjective of the subject says which one
            "Each pair of beams on the top level is rated at 2,000 kg.",
            "4.1 Each pair of beams on levels 1 to 3 is rated at 2,000 kg. Each pair of beams "
            "on level 4, the top level, is rated at 1,500 kg.",
            "match.same_statement",
            "“top” is in another sentence of the passage than the rest of its clause",
            id="which-one",
        ),
        pytest.param(  # two items the parser read as one sentence are two
            "We will repay the Speaker's taxis up to £50 a day.",
            "3.2 We will repay your reasonable expenses, with receipts, as follows:\n"
            "- taxis up to £40 a day; and\n- meals up to £50 a day.",
            "match.same_statement",
            "“taxis” is in another sentence of the passage than the rest of its clause",
            id="two-lines-two-items",
        ),
        pytest.param(  # a table cell listing values gives each with its own words
            "A trace clip costs £55.",
            "| Package | Weekly fee |\n|---|---|\n"
            "| Extras | £12 a lunge session, £18 a ridden session; clipping £55 full, £35 trace |",
            "figure.attached",
            "the cell gives “55” for other words than “trace”, which stands by another figure",
            id="a-cell-of-several-values",
        ),
        pytest.param(  # an exception closing its sentence, a line before the signature
            "The Associate must give at least 8 weeks' notice of any leave.",
            "4.1 The Associate must give at least 8 weeks' notice of any leave, other than "
            "leave for illness or bereavement.\nSigned: Dr Sofia Kowalczyk",
            "condition.kept",
            "the claim leaves out the passage's condition “other than leave for illness or "
            "bereavement”",
            id="an-exception-before-a-line-break",
        ),
        pytest.param(  # a question says nothing of who does it
            "Gareth Pryce applied to Newport Council for the road closure on Cardiff Road.",
            "And who applies for the road closure on Cardiff Road?\nNewport Council needs at "
            "least 10 working days.\nGareth Pryce",
            "match.question",
            "the passage asks “And who applies for the road closure on Cardiff Road?”",
            id="a-question",
        ),
        pytest.param(  # what a claim reports someone confirmed, asked in the passage
            "Helen confirmed that Ananya's name would still be printed in the July ceremony "
            "booklet.",
            "Will my name still be printed in the July ceremony booklet?\nI have passed your "
            "email to Helen Drysdale, who will confirm your seat by 1 November.",
            "match.question",
            "the passage asks “Will my name still be printed in the July ceremony booklet?”",
            id="a-reported-statement-asked",
        ),
        pytest.param(  # a word the fact layer knows cannot hold where the claim's holds
            "UDAs are paid monthly in advance.",
            "UDAs are paid monthly in arrears at 90% of their value.",
            "match.opposite",
            "the passage says “arrears”, not “advance”",
            id="advance-for-arrears",
        ),
        pytest.param(  # an exception in an item of a list whose lead-in denies
            "The Goods will not include electrical items.",
            "1.2 The Goods will not include:\n- electrical items, unless they have passed a "
            "portable appliance test;\n- opened food.",
            "condition.kept",
            "the claim leaves out the passage's condition “unless they have passed a portable "
            "appliance test”",
            id="an-exception-under-a-denying-lead-in",
        ),
        pytest.param(  # a time bound counted back from an event turns over
            "The Seller must give each customer the letter no earlier than 7 days before the "
            "Completion Date.",
            "4.1 The Seller must give each customer a letter at least 7 days before the "
            "Completion Date.",
            "quantity.kept",
            "the passage does not say “no earlier”",
            id="no-earlier-than-before",
        ),
        pytest.param(  # a clause of time on the other side of its event
            "You may not move to a lower plan until 12 instalments have been paid.",
            "You may not move to a lower plan once 12 instalments have been paid.",
            "match.opposite",
            "the passage says “once”, not “until”",
            id="until-for-once",
        ),
        pytest.param(  # a prefix the parser splits off denies the word
            "The Client gets an exclusive right to use the photographs.",
            "3.1 The Photographer grants the Client a non-exclusive right to use the photographs.",
            "match.opposite",
            "the passage says “non-exclusive”, not “exclusive”",
            id="non-prefix",
        ),
        pytest.param(  # the claim's denial is the passage's own, not its exception's
            "If a pallet is damaged by a step the driver didn't report, the driver has to pay "
            "for the repair.",
            "4.2 If a pallet is damaged by a step that was not reported, the driver must pay "
            "the cost of repair, unless the driver could not reasonably have seen the step.",
            "condition.kept",
            "the claim leaves out the passage's condition “unless the driver could not "
            "reasonably have seen the step”",
            id="denial-of-its-own",
        ),
        pytest.param(  # the subject's word restates no word of the condition
            "Staff on fixed-term contracts can use the gym as long as they are 18 or over and "
            "have finished induction.",
            "2.1 You may use the gym if you are a permanent employee aged 18 or over and have "
            "finished your induction.\nStaff on a fixed-term contract may use the gym only if "
            "the contract runs for at least three months.",
            "condition.kept",
            "the claim leaves out the passage's condition “only if the contract runs for at "
            "least three months”",
            id="condition-of-the-subject-statement",
        ),
        pytest.param(  # a figure counted over each of something
            "A member may bring a guest no more than four times over the whole year.",
            "5.1 Members may bring guests throughout the year, but no more than four times in "
            "any one month.",
            "figure.attached",
            "the passage gives “four” in any one month, which the claim leaves out",
            id="counted-over-each",
        ),
        pytest.param(  # the parties crossed round a verb no match reads
            "The night desk has to contact the host if a guest has not arrived by 22:00.",
            "5.1 The host must tell the night desk if a guest has not arrived by 22:00.",
            "roles.kept",
            "the passage says “The host” does this (“tell”) to “the night desk”, not the other way",
            id="crossed-round-another-verb",
        ),
        pytest.param(  # a phrase the passage denies on its own
            "Charges are invoiced to the haulier once a month.",
            "All charges are invoiced to the supplier once a month, never to the haulier.",
            "polarity.kept",
            "the passage denies “never to the haulier”; the claim does not",
            id="a-denied-phrase",
        ),
        pytest.param(  # a chance of an obligation is none
            "We will have to replace a fourth sheet.",
            "We may need to replace a fourth sheet once the old ones are off.",
            "modality.kept",
            "the passage says “may need to replace”, the claim “will have to replace”",
            id="may-need-to",
        ),
        pytest.param(  # no limit where the passage gives one
            "The agency will replace a lost pass as many times as needed, if the holder gives "
            "the booking number.",
            "4.2 We will replace a lost or stolen pass once, if the holder gives us the booking "
            "number.",
            "quantity.kept",
            "the passage does not say “as many”",
            id="as-many-times-as-needed",
        ),
        pytest.param(  # a sum taken off is a deduction
            "If the client cancels before approving a proof, it gets its deposit back in full.",
            "If you cancel before you have approved a design proof, we will refund your deposit "
            "less £150 for the design work already done.",
            "condition.kept",
            "the claim leaves out the passage's condition “less £150 for the design work "
            "already done”",
            id="less-a-sum",
        ),
        pytest.param(  # a number of them is some of them
            "All 12 chairs arrived with scratched legs.",
            "Three of the 12 chairs arrived with scratched legs, and we will replace any "
            "damaged chair.",
            "quantity.kept",
            "the passage does not say “All”",
            id="all-for-a-number-of-them",
        ),
        pytest.param(  # "any" of a period says which period, not how many
            "Each flat can have as many free mattress collections as it wants in a year.",
            "A free mattress collection is limited to two per flat in any 12 months.",
            "quantity.kept",
            "the passage does not say “as many”",
            id="as-many-against-any-period",
        ),
        pytest.param(  # an "only" that closes its clause limits the phrase before it
            "Staff at the depot may park in the visitor bays after 18:00.",
            "Staff may park in the visitor bays after 18:00 at the head office only.",
            "condition.kept",
            "the claim leaves out the passage's condition “at the head office only”",
            id="a-closing-only",
        ),
        pytest.param(  # the condition's own noun, not a party it names, keeps it
            "The Tenant's subtenants may use the Landlord's loading bay.",
            "The Tenant's subtenants may use the loading bay only with the Landlord's approval.",
            "condition.kept",
            "the claim leaves out the passage's condition “only with the Landlord's approval”",
            id="only-with-a-partys-approval",
        ),
        pytest.param(  # a bound on the noun the claim matches
            "Weekend deliveries are free of charge.",
            "Weekend deliveries between 08:00 and 12:00 are free of charge.",
            "restriction.kept",
            "the claim leaves out the passage's restriction “08:00”",
            id="a-window-on-the-noun",
        ),
        pytest.param(
            "Orders qualify for the 5% trade discount.",
            "Orders of 200 or more units qualify for the 5% trade discount.",
            "restriction.kept",
            "the claim leaves out the passage's restriction “200”",
            id="or-more-on-the-noun",
        ),
        pytest.param(  # a noun the passage denies with "no"
            "The venue charges for its staff setting out the chairs.",
            "The venue's staff set out the chairs at no charge.",
            "polarity.kept",
            "the passage denies “no charge”; the claim does not",
            id="at-no-charge",
        ),
        pytest.param(  # "once" opens a clause of time after its event
            "The tenant must photograph the meter once the engineer has left.",
            "The tenant must photograph the meter before the engineer arrives.",
            "match.opposite",
            "the passage says “before”, not “once”",
            id="once-against-before",
        ),
        pytest.param(  # a "where" that opens a clause is a condition
            "The airline pays for a hotel room of up to £150.",
            "The airline pays for a hotel room, up to £150, where the next flight leaves the "
            "following day.",
            "condition.kept",
            "the claim leaves out the passage's condition “where the next flight leaves the "
            "following day”",
            id="a-condition-where",
        ),
        pytest.param(  # "stay" with no complement is the statement's verb, not a light one
            "If a booking overruns, the interpreter has to stay until it finishes.",
            "If a booking overruns, the interpreter may stay, and the extra time is charged.",
            "modality.kept",
            "the passage says “may stay”, the claim “has to stay”",
            id="a-light-verb-with-no-complement",
        ),
        pytest.param(  # "carry on": a phrasal verb of its own
            "The Lessee may carry on using a truck that fails the check.",
            "The Lessee must stop using a truck that fails the check until the Lessor has "
            "inspected it.",
            "match.predicate",
            "no match in the passage for the claim's verb “carry”",
            id="a-light-verb-with-a-particle",
        ),
        pytest.param(  # a cleft's "that" is its focus
            "It is the Manager that must tell the Council within 21 days of a change of ownership.",
            "The Licence Holder must tell the Council within 21 days of any change of "
            "Manager or of ownership.",
            "roles.kept",
            "the passage says “The Licence Holder” does this (“tell”), not “the Manager”",
            id="a-cleft-sentences-focus",
        ),
        pytest.param(  # a condition that points back: "If you do"
            "During the usage period, the Artist won't voice a competing product in the same "
            "category.",
            "The Artist is free to voice competing products unless you pay an exclusivity fee. "
            "If you do, the Artist will not voice a competing product in the same category "
            "for the usage period.",
            "condition.kept",
            "the claim leaves out the passage's condition “If you do”",
            id="a-condition-that-points-back",
        ),
        pytest.param(  # "only" opening a clause
            "With the Provider's written consent, the Developer can transfer units to another "
            "of its developments.",
            "The Developer may transfer units to another of its developments only before the "
            "allocation is registered, with the Provider's written consent.",
            "condition.kept",
            "the claim leaves out the passage's condition “only before the allocation is "
            "registered”",
            id="only-before-a-clause",
        ),
        pytest.param(  # the excepted case said as the rest
            "Based aircraft get 20% off their touch-and-go landings.",
            "Based aircraft receive 20% off landing fees, except the touch-and-go rate, which "
            "is not reduced further.",
            "condition.kept",
            "the claim says of what the passage excepts (“except the touch-and-go rate, which "
            "is not reduced further”) what the passage says of the rest",
            id="the-excepted-case-as-the-rest",
        ),
        pytest.param(  # whom "is responsible" is said of
            "The Adviser is responsible for the accuracy of each claim, since it prepares them.",
            "The Directors are responsible for the accuracy of each claim, even though the "
            "Adviser prepares it.",
            "roles.kept",
            "the passage says “The Directors” does this (“are responsible”), not “The Adviser”",
            id="whom-an-adjective-is-said-of",
        ),
        pytest.param(  # the quantity of the sentence stating the claim's verb counts
            "To marry here, both partners have to live in the parish.",
            "Applies to: every couple marrying here in 2026.\nAt least one of you must live in "
            "the parish.",
            "quantity.kept",
            "the passage does not say “both”",
            id="the-stating-sentences-quantity",
        ),
        pytest.param(  # a report matched in one message, what it reports in another
            "Gareth told Hannah that Fellside would pay the £12 a day for any day after 24 June.",
            "From: Hannah Breckon <hannah@mailbox.example>\nTo: Gareth Mould "
            "<gareth@fellside.example>\n\nDear Gareth,\n\nMy car went into Fellside on 1 "
            "June, and you told me then that the work would take 8 working days.\n\nHannah "
            "Breckon\n\n----\n\nFrom: Lorna Pike <lorna@fellside.example>\nTo: Hannah "
            "Breckon\n\nDear Hannah,\n\nFellside will pay the £12 a day for any day after "
            "Wednesday 24 June.\n\nLorna Pike\n",
            "match.same_statement",
            "“Fellside would pay the £12 a day for any day after 24 June” is in another "
            "sentence of the passage than the “told” that reports it",
            id="a-report-of-something-else",
        ),
        pytest.param(  # a bound's "up" is no way the passage says the claim's
            "Until 29 May the Client can increase the number of guests by up to 10% free of "
            "charge.",
            "Until 29 May you may reduce the number of guests by up to 10% free of charge.",
            "match.opposite",
            "the passage says “reduce”, not “increase”",
            id="a-way-beside-a-bound",
        ),
        pytest.param(  # a verb the passage denies of what the claim says it of
            "Millrace can change target rates on 30 days' notice, including the rate on money "
            "already lent in a Fixed account.",
            "We may change the target rates for new money on 30 days' notice.\nRates on money "
            "already lent in a Fixed or Income account do not change until the end of its "
            "term.",
            "polarity.kept",
            "the passage denies “change” of “lent Fixed account”; the claim does not",
            id="a-verb-denied-of-its-words",
        ),
    ],
)
def test_what_a_quantity_figure_or_time_is_said_of_is_kept(
    claim: str, passage: str, rule: str, says: str
) -> None:
    """Each was a false claim of a business set run as written that the judge called
    `supported`; the same mistake in other words is never `supported`, and its finding
    names the rule and the words."""
    outcome = confirm(claim, passage)
    assert outcome.outcome != "supported"
    assert says in [f.message for f in outcome.findings if f.rule == rule], outcome.findings
    assert _judged(claim, passage)["verdict"] != "supported"


def test_a_part_said_of_a_part_and_parties_the_right_way_round_are_not_held_back() -> None:
    """The readings above find only what they are for: "Three of the 12 chairs" is said of
    three, and a verb no match reads between the passage's own doer and object crosses
    nothing."""
    passage = "Three of the 12 chairs arrived with scratched legs."
    assert confirm("Three of the 12 chairs arrived with scratched legs.", passage).outcome == (
        "supported"
    )
    outcome = confirm(
        "The host has to contact the night desk if a guest has not arrived by 22:00.",
        "5.1 The host must tell the night desk if a guest has not arrived by 22:00.",
    )
    assert [f.rule for f in outcome.findings] == ["match.every_word"], outcome.findings


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Staff may park in the visitor bays after 18:00, but only at the head office.",
            "Staff may park in the visitor bays after 18:00 at the head office only.",
        ),
        (
            "The Tenant's subtenants may use the loading bay with the Landlord's approval.",
            "The Tenant's subtenants may use the loading bay only with the Landlord's approval.",
        ),
        (
            "Orders of at least 200 units qualify for the 5% trade discount.",
            "Orders of 200 or more units qualify for the 5% trade discount.",
        ),
        ("At least 3 staff must be on duty.", "No fewer than 3 staff must be on duty."),
        (  # an exception kept by a denial of the claim's own
            "Based aircraft get 20% off landing fees, but the touch-and-go rate is not reduced.",
            "Based aircraft receive 20% off landing fees, except the touch-and-go rate, which "
            "is not reduced further.",
        ),
        (  # "is liable" said of the same party
            "The Landlord is liable for repairs that the Tenant reports.",
            "The Landlord is liable for repairs, and the Tenant reports them.",
        ),
        (  # "only before" kept in the claim's words
            "The Developer may transfer units to another development before the allocation "
            "is registered, but only then.",
            "The Developer may transfer units to another development only before the "
            "allocation is registered.",
        ),
        (  # a condition of the claim's own for the one that points back
            "If the client pays the exclusivity fee, the Artist will not voice a competing "
            "product for the usage period.",
            "The client pays an exclusivity fee on some bookings. If it does, the Artist will "
            "not voice a competing product for the usage period.",
        ),
        (  # a thing's own amount restricts nothing
            "The Contractor must hold employer's liability insurance of at least £10,000,000.",
            "The Contractor must hold public liability insurance of at least £5,000,000 and "
            "employer's liability insurance of at least £10,000,000.",
        ),
        (
            "Ledgerwell can agree instalment plans lasting up to a year without asking the Client.",
            "Ledgerwell may agree instalment plans of up to 12 months without asking the Client.",
        ),
        (
            "A free mattress collection is limited to two per flat in any 12 months.",
            "A free mattress collection is limited to two per flat in any 12 months.",
        ),
        (
            "The venue's staff set out the chairs without charge.",
            "The venue's staff set out the chairs at no charge.",
        ),
        (
            "The deposit is returned after the keys have been handed back.",
            "The deposit is returned once the keys have been handed back.",
        ),
        (
            "Late fees are waived if the bank caused the delay.",
            "Late fees are waived where the delay was caused by the bank.",
        ),
        (  # a bound beside the same way
            "Until 29 May the Client can reduce the number of guests by up to 10% free of charge.",
            "Until 29 May the Client may reduce the number of guests by up to 10% free of charge.",
        ),
        (  # a question reported asked is its own report
            "The customer asked whether someone would come back a few weeks after fitting to "
            "check the worktop seams.",
            "We will fit the under-cabinet lights the customer asked about at no charge. And "
            "will someone come back to check the worktop seams a few weeks after fitting, like "
            "your brochure says?",
        ),
        (  # the denial kept
            "Rates on money already lent in a Fixed account do not change until the end of its "
            "term.",
            "We may change the target rates for new money on 30 days' notice.\nRates on money "
            "already lent in a Fixed or Income account do not change until the end of its "
            "term.",
        ),
        (  # the statement said of what the passage says it of
            "Target rates for new money can change on 30 days' notice.",
            "We may change the target rates for new money on 30 days' notice.\nRates on money "
            "already lent in a Fixed or Income account do not change until the end of its "
            "term.",
        ),
    ],
)
def test_a_limit_the_claim_keeps_in_its_own_words_is_confirmed(claim: str, passage: str) -> None:
    """The readings of a closing "only", a bound on a noun and "any 12 months" hold back
    only a claim that leaves the limit out."""
    outcome = confirm(claim, passage)
    assert outcome.outcome == "supported", outcome.findings


def test_a_denied_phrase_and_a_chance_said_as_the_passage_says_them_are_confirmed() -> None:
    """The readings above hold back only a claim that leaves the denial or the chance out."""
    passage = "All charges are invoiced to the supplier once a month, never to the haulier."
    denied = confirm("Charges are never invoiced to the haulier.", passage)
    assert not any("never to the haulier" in f.message for f in denied.findings)
    assert confirm("Charges are invoiced to the supplier once a month.", passage).outcome == (
        "supported"
    )
    sheet = "We may need to replace a fourth sheet once the old ones are off."
    assert confirm("We might have to replace a fourth sheet.", sheet).outcome == "supported"


PAYROLL = """From: Gareth Lowe <gareth.lowe@redfernfoods.example>
To: Rebecca Shaw <rebecca.shaw@paycentric.example>
Date: Fri, 27 Mar 2026 16:40:00 +0000
Subject: Late payroll run

Rebecca,

We have told staff that Redfern will repay bank overdraft charges caused by today's delay, \
up to £30 each, on evidence.

Gareth Lowe
Finance Director, Redfern Foods Ltd
"""


def test_a_party_a_mail_thread_names_is_never_left_to_the_model() -> None:
    """ "Paycentric" is the reader of Redfern's message (paycentric.example): who repays is
    for the rules, and the entailment model may not read it as wording (it scored 0.75)."""
    source = Source(id="mail", kind="email_body", text=PAYROLL)
    claim = "Paycentric will repay overdraft charges directly to Redfern's staff, up to £30 each."
    (judged,) = answer_to_json(verify(f"{claim} [mail]", [source]))["claims"]
    assert judged["support"][0]["verdict"] == "unconfirmed", judged["support"][0]
    assert "“Paycentric”" in judged["support"][0]["reason"]


AWAY_DAY = """From: Dana Reeve <dana@brockhurstmanor.example>
To: Sam Ortiz <sam@ortizgroup.example>
Date: Tue, 3 Mar 2026 10:12:00 +0000
Subject: Your away day on 20 March

Dear Sam,

The boat trip is run by Lakeside Boats, not by us, and they have told me that their £120 \
booking fee can't be refunded.

Dana Reeve
Events Coordinator, Brockhurst Manor
"""


@pytest.mark.parametrize(
    ("whose", "verdict"),
    [("Brockhurst Manor's", "unconfirmed"), ("Lakeside Boats'", "supported")],
)
def test_what_the_writer_calls_another_partys_is_not_the_writers(whose: str, verdict: str) -> None:
    """In Brockhurst Manor's own message "their £120 booking fee" is someone else's: the
    writer is "us", never "their"."""
    claim = f"The £120 boat trip booking fee that can't be refunded is {whose} own charge."
    source = Source(id="mail", kind="email_body", text=AWAY_DAY)
    (judged,) = answer_to_json(verify(f"{claim} [mail]", [source]))["claims"]
    support = judged["support"][0]
    assert support["verdict"] == verdict, support
    if verdict == "unconfirmed":
        assert support["rule"] == "roles.kept"
        assert "“their fee”" in support["reason"]


DRYER = """From: Anna Pryce <anna@pryceandsons.example>
To: Tom Hale <tom@halefarmservices.example>
Date: Mon, 10 Aug 2026 08:10:00 +0000
Subject: Dryer fault

Tom, can you check whether the fan motor is still under warranty?

Anna Pryce

From: Tom Hale <tom@halefarmservices.example>
To: Anna Pryce <anna@pryceandsons.example>
Date: Mon, 10 Aug 2026 11:30:00 +0000
Subject: RE: Dryer fault

Anna,

I can confirm that the fan motor is under our 2-year parts warranty until 3 May 2027.

Tom Hale
"""


@pytest.mark.parametrize(
    ("who", "verdict"), [("Anna Pryce", "unconfirmed"), ("Tom Hale", "supported")]
)
def test_a_messages_i_is_its_writer_when_the_claim_says_who_said_it(who: str, verdict: str) -> None:
    """ "I can confirm" in Tom Hale's message is Tom Hale's word, not Anna Pryce's, whose
    signature stands in the message before it."""
    claim = (
        f"{who} confirmed that the fan motor is under the 2-year parts warranty until 3 May 2027."
    )
    source = Source(id="mail", kind="email_body", text=DRYER)
    (judged,) = answer_to_json(verify(f"{claim} [mail]", [source]))["claims"]
    support = judged["support"][0]
    assert support["verdict"] == verdict, support
    if verdict == "unconfirmed":
        assert support["rule"] == "roles.kept"
        assert "“I” said this, not “Anna Pryce”" in support["reason"]


AWARD = """# Party Wall Award

**Building Owner:** Saltmarsh Bakery Ltd, owner of 4 Mill Street (the "Building Owner").

**Adjoining Owner:** Penrose Estates Ltd, owner of 6 Mill Street (the "Adjoining Owner"), which \
is let to Corran Florists Ltd (the "tenant").

**Surveyors:** Ruth Dale MRICS, for the Building Owner, and Omar Haddad MRICS, for the \
Adjoining Owner.

## 5. Protection

5.1 The Building Owner must keep the shared gutter clear while the work goes on.

5.2 The Building Owner must sheet over the chimney work at the end of each working day until \
the flue is rebuilt.
"""


@pytest.mark.parametrize(
    ("who", "verdict"), [("Penrose Estates", "unconfirmed"), ("Saltmarsh Bakery", "supported")]
)
def test_a_defined_term_is_read_whole(who: str, verdict: str) -> None:
    """Penrose Estates is the "Adjoining Owner": the "Owner" of "The Building Owner" is not
    its term, though both terms end in it."""
    claim = f"{who} must sheet over the chimney work at the end of each working day."
    source = Source(id="award", kind="document", text=AWARD)
    (judged,) = answer_to_json(verify(f"{claim} [award]", [source]))["claims"]
    support = judged["support"][0]
    assert support["verdict"] == verdict, support
    if verdict == "unconfirmed":
        assert "“Penrose Estates”" in support["reason"]


EXTRAS = (
    "| Package | Weekly fee |\n|---|---|\n"
    "| Extras | £12 a lunge session, £18 a ridden session; clipping £55 full, £35 trace |"
)


@pytest.mark.parametrize(
    ("claim", "beside_another"),
    [
        ("A trace clip costs £35.", False),  # "clipping" leads "£35 trace" too
        ("A full clip costs £55.", False),
        ("A ridden session costs £18.", False),
        ("A trace clip costs £55.", True),
        ("A lunge session costs £18.", True),
    ],
)
def test_a_figure_in_a_cell_of_several_keeps_its_own_words(
    claim: str, beside_another: bool
) -> None:
    """A row read as a sentence: each figure of a cell listing several is said of the words
    of its own piece, and of the words leading a piece it follows."""
    findings = [f for f in confirm(claim, EXTRAS).findings if f.rule == "figure.attached"]
    assert bool(findings) is beside_another, findings


@pytest.mark.parametrize(
    ("claim", "passage", "outcome"),
    [
        (
            "The Operator can call off the event only if the Venue cannot be used because of fire.",
            "4.1 The Operator may cancel the event only if the Venue cannot be used because of "
            "fire.",
            "supported",
        ),
        (
            "The Operator may cancel the event only if the Venue cannot be used because of fire.",
            "4.1 The Operator may call off the event only if the Venue cannot be used because "
            "of fire.",
            "supported",
        ),
        (
            "The Operator can call off the event only if the Venue cannot be used because of fire.",
            "4.1 The Operator may postpone the event only if the Venue cannot be used because "
            "of fire.",
            "unconfirmed",
        ),
    ],
    ids=["the claim's phrasal verb", "the passage's", "another verb"],
)
def test_a_verb_with_its_particle_is_read_as_the_phrasal_verb(
    claim: str, passage: str, outcome: str
) -> None:
    """ "call off" is WordNet's phrasal verb for "cancel", which "call" alone is not."""
    confirmation = confirm(claim, passage)
    assert confirmation.outcome == outcome, confirmation.findings
    if outcome == "unconfirmed":
        assert "call" in confirmation.unmatched


@pytest.mark.parametrize(
    ("claim", "passage", "outcome", "says"),
    [
        pytest.param(
            "The Employer pays 6% of basic salary into the pension as long as the Employee "
            "contributes no less than 4%.",
            "3.3 The Employer will pay 6% of basic salary into the pension, provided that the "
            "Employee contributes at least 4%.",
            "supported",
            "",
            id="no-less-than-is-at-least",
        ),
        pytest.param(
            "Survey files may be kept for up to six years after the engagement ends.",
            "4.4 Survey files may be kept for no longer than six years after the engagement ends.",
            "supported",
            "",
            id="up-to-is-no-longer-than",
        ),
        pytest.param(
            "Survey files may be kept for at least six years after the engagement ends.",
            "4.4 Survey files may be kept for no longer than six years after the engagement ends.",
            "unconfirmed",
            "the passage does not say “at least”",
            id="at-least-is-not-no-longer-than",
        ),
        pytest.param(
            "The Tenant may end the Lease on the Break Date, but only if it gives six months' "
            "notice.",
            "1.2 The Tenant may end the Lease on the Break Date, provided that it gives six "
            "months' notice.",
            "supported",
            "",
            id="only-if-is-provided-that",
        ),
        pytest.param(
            "The Tenant may end the Lease on the Break Date, but only if it gives six months' "
            "notice.",
            "1.2 The Tenant may end the Lease on the Break Date if it gives six months' notice.",
            "unconfirmed",
            "the passage does not say “only”",
            id="only-if-is-not-if",
        ),
        pytest.param(
            "Revenue was £412.6 million, 8% more than in Q2 2024.",
            "Revenue of £412.6 million, up 8% from £382.0 million in Q2 2024.",
            "supported",
            "",
            id="a-difference-says-which-way",
        ),
        pytest.param(
            "Revenue was £412.6 million, 8% less than in Q2 2024.",
            "Revenue of £412.6 million, up 8% from £382.0 million in Q2 2024.",
            "contradicted",
            "the passage says “up”, not “less”",
            id="the-other-way",
        ),
        pytest.param(
            "The quotation stays valid until 11 March 2026.",
            "This quotation is valid for 30 days, until 11 March 2026.",
            "supported",
            "",
            id="stays-for-is",
        ),
        pytest.param(
            "The quotation stays valid until 12 March 2026.",
            "This quotation is valid for 30 days, until 11 March 2026.",
            "unconfirmed",
            "no match in the passage for “12”",
            id="stays-another-date",
        ),
        pytest.param(
            "The Provider must pay the credit within 30 days.",
            "The Provider will pay the credit within 30 days.",
            "supported",
            "",
            id="must-for-will",
        ),
        pytest.param(
            "The Provider must pay the credit within 30 days.",
            "The Provider will not pay the credit within 30 days.",
            "unconfirmed",
            "the passage says “will not pay”, the claim “must pay”",
            id="must-for-will-not",
        ),
        pytest.param(
            "The Provider must pay the credit within 30 days.",
            "The Provider may pay the credit within 30 days.",
            "unconfirmed",
            "the passage says “may pay”, the claim “must pay”",
            id="must-for-may",
        ),
    ],
)
def test_bounds_conditions_and_differences_in_other_words(
    claim: str, passage: str, outcome: str, says: str
) -> None:
    """A bound, a condition that must hold, the way a figure moved, an adjective carried by
    "stay" and what a contract says will be done, each said in other words than the
    passage's ("no less than" for "at least", "only if" for "provided that", "8% more than"
    for "up 8%", "stays valid" for "is valid", "must pay" for "will pay"), are the same
    statement; a bound of the other side, a bare "if", the other way, another date, "will
    not pay" and "may pay" are not."""
    confirmation = confirm(claim, passage)
    assert confirmation.outcome == outcome, confirmation.findings
    if says:
        assert says in [f.message for f in confirmation.findings], confirmation.findings


@pytest.mark.parametrize(
    ("claim", "verdict", "rule"),
    [
        ("A claim can be made from 120 days up to 180 days after the due date.", "supported", ""),
        ("A claim can be made up to 190 days after the due date.", "contradicted", "facts.number"),
        (
            "A claim can be made at least 180 days after the due date.",
            "contradicted",
            "facts.comparative",
        ),
    ],
)
def test_no_later_than_is_a_bound_not_a_denial(claim: str, verdict: str, rule: str) -> None:
    """ "no later than 180 days" is at most 180 days: the fact layer reads "no" with the
    comparative of time as one bound, never as a denial the claim leaves out."""
    passage = (
        "4.3 A claim may be made no earlier than 120 days and no later than 180 days after the "
        "due date."
    )
    support = _judged(claim, passage)
    assert support["verdict"] == verdict, support
    if rule:
        assert support["rule"] == rule


@pytest.mark.parametrize(
    ("opener", "outcome"),
    [("If", "supported"), ("Only if", "unconfirmed"), ("Unless", "unconfirmed")],
)
def test_a_condition_that_is_enough_holds_in_each_alternative(opener: str, outcome: str) -> None:
    """ "If the Licensor sells the Car Park or needs it for redevelopment, it may end this
    licence": selling alone is enough. For a condition the statement needs ("only if") or an
    exception ("unless"), the alternative left out changes the statement."""
    passage = (
        f"5.2 {opener} the Licensor sells the Car Park or needs it for redevelopment, it may "
        "end this licence at any time on three months' notice."
    )
    claim = (
        f"{opener} the Licensor sells the Car Park, it may end this licence at any time on "
        "three months' notice."
    )
    confirmation = confirm(claim, passage)
    assert confirmation.outcome == outcome, confirmation.findings
    if outcome == "unconfirmed":
        assert "condition.kept" in [f.rule for f in confirmation.findings]


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        pytest.param(
            "Capital expenditure of £812,400 was £37,600 below the £850,000 limit.",
            "| Capital expenditure | not more than £850,000 | £812,400 | Yes |",
            id="below-a-bound",
        ),
        pytest.param(
            "Leverage fell from 2.64 : 1 to 2.31 : 1.",
            "| Leverage | not more than 2.50 : 1 | 2.31 : 1 | 2.64 : 1 | Yes |",
            id="fell-beside-a-bound",
        ),
    ],
)
def test_a_bound_turns_no_direction_round(claim: str, passage: str) -> None:
    """The "more" of "not more than £850,000" bounds a figure; it says no way a figure moved,
    so the claim's "below" is not turned round (`match.opposite`)."""
    confirmation = confirm(claim, passage)
    assert "match.opposite" not in [f.rule for f in confirmation.findings], confirmation
    assert _judged(claim, passage)["verdict"] != "contradicted"


@pytest.mark.parametrize(
    ("claim", "passage", "outcome"),
    [
        ("The Licensor may end the licence straight away.", "immediately", "supported"),
        ("The Licensor may end the licence immediately.", "right away", "supported"),
        ("The Licensor may end the licence straight away.", "in advance", "unconfirmed"),
    ],
)
def test_an_adverb_of_two_words_is_read_as_one(claim: str, passage: str, outcome: str) -> None:
    """ "straight away" (WordNet's "straightaway") and "right away" are "immediately"."""
    confirmation = confirm(claim, f"The Licensor may end the licence {passage}.")
    assert confirmation.outcome == outcome, confirmation.findings
