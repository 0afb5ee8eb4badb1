"""A service agreement, an offer letter and a support ticket: verdicts a reader would give.

- "nobody replied" and "was not able to waive the late fee" deny what a claim that drops the
  denial ("Support replied", "The agent waived the late fee") states: contradicted, naming
  the source's words; the claim that keeps the denial stays supported.
- Two of a claim's figures that stand together in the source ("below 99% the credit rises to
  25%") back each other, though another figure ("below 99.9%") stands where the claim's
  words align; the same figure with the wrong partner is still contradicted.
- "half a year" is six months; "lasts" is not "last", the opposite of "first".
- "including public holidays" where the letter says "plus public holidays": contradicted.

Each claim is verified alone (``CLAIM [id]``), as a team's answer would carry it.
"""

from __future__ import annotations

import pytest

from citeproof import Source, verify
from citeproof.model import ClaimSupport
from citeproof.verifier.support._text import tokenize
from tests.support_runs import support_of, true_claim

SLA = Source(
    id="sla",
    kind="document",
    title="Service Level Agreement",
    text=(
        "Service Level Agreement. The Provider guarantees 99.9% monthly uptime for the "
        "production environment. Scheduled maintenance is excluded from the uptime "
        "calculation, provided the Customer is notified at least 48 hours in advance. If "
        "uptime falls below 99.9%, the Customer is entitled to a service credit of 10% of the "
        "monthly fee; below 99% the credit rises to 25%. Service credits are the Customer's "
        "sole remedy for downtime. Credits must be requested within 30 days of the end of "
        "the affected month. The Provider is not responsible for outages caused by the "
        "Customer's own network."
    ),
)
OFFER = Source(
    id="offer-letter",
    kind="email_body",
    title="Your offer",
    text=(
        "Dear Priya, we are pleased to offer you the position of Senior Analyst. The probation "
        "period is six months. You are entitled to 25 days of paid holiday a year, plus public "
        "holidays. Kind regards, Tom Hale"
    ),
)
TICKET = Source(
    id="ticket-8841",
    kind="email_body",
    title="Re: charged twice",
    text=(
        "Customer: My invoice for October was charged twice to my card. I contacted support "
        "on 3 November but nobody replied.\n\nAgent: I can confirm the duplicate charge of "
        "$129. I was not able to waive the late fee, because that needs a supervisor, but I "
        "have escalated it."
    ),
)


ASSIGNMENT = Source(
    id="msa",
    kind="document",
    text=(
        "9.2 The Customer may not assign this agreement without the Provider's prior written "
        "consent, which shall not be unreasonably withheld."
    ),
)


def judged(claim: str, source: Source) -> ClaimSupport:
    return support_of(f"{claim} [{source.id}]", [source], answer_id="denials")


@pytest.mark.parametrize(
    ("claim", "source", "said"),
    [
        pytest.param(
            "Support replied to the customer on 3 November.", TICKET, "nobody", id="nobody"
        ),
        pytest.param(
            "The agent waived the late fee.", TICKET, "not able to waive", id="not-able-to"
        ),
        # "prior written consent" lifts nothing ("prior to" would), and the claim's own
        # "without" is no negation of its own: the clause's "may not assign" stands.
        pytest.param(
            "The Customer may assign the agreement without the Provider's consent.",
            ASSIGNMENT,
            "not",
            id="not-without-reworded",
        ),
        pytest.param(
            "The Customer can assign this agreement without consent.",
            ASSIGNMENT,
            "not",
            id="not-without-can",
        ),
        # "withheld" is "withhold": the clause's "shall not be unreasonably withheld" stands.
        pytest.param(
            "The Provider may withhold consent to assignment for any reason.",
            ASSIGNMENT,
            "not",
            id="withheld-is-withhold",
        ),
    ],
)
def test_a_claim_that_drops_the_sources_denial_is_contradicted(
    claim: str, source: Source, said: str
) -> None:
    support = judged(claim, source)
    assert support.verdict == "contradicted", support
    assert any(d.kind == "negation" and said in (d.instead or "") for d in support.differences)
    assert said in support.reason


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        pytest.param(
            "The agent could not waive the late fee and escalated it.", TICKET, id="keeps-not"
        ),
        pytest.param(
            "Below 99% uptime the Customer gets a 25% service credit.", SLA, id="together"
        ),
        pytest.param("The probation period is half a year.", OFFER, id="half-a-year"),
        pytest.param("The probation lasts six months.", OFFER, id="lasts"),
    ],
)
def test_a_true_restatement_is_supported(claim: str, source: Source) -> None:
    support = judged(claim, source)
    assert support.verdict == "supported", support


@pytest.mark.parametrize(
    ("claim", "source", "claimed", "instead"),
    [
        pytest.param(
            "Below 99% uptime the credit is 10% of the monthly fee.",
            SLA,
            "99%",
            "99.9%",
            id="wrong-partner",
        ),
        pytest.param(
            "Priya gets 25 days of paid holiday including public holidays.",
            OFFER,
            "including",
            "plus",
            id="including-for-plus",
        ),
    ],
)
def test_a_claim_that_turns_the_source_round_is_contradicted(
    claim: str, source: Source, claimed: str, instead: str
) -> None:
    support = judged(claim, source)
    assert support.verdict == "contradicted", support
    assert any(d.text == claimed and d.instead == instead for d in support.differences), support


def test_half_a_year_is_a_length_of_time() -> None:
    (half,) = [t for t in tokenize("lasts half a year") if t.kind == "number"]
    (six,) = [t for t in tokenize("six months") if t.kind == "number"]
    assert half.text == "half a year"
    assert half.key == six.key


def test_without_a_noun_is_no_denial_of_the_claim_after_it() -> None:
    """ "without the Provider's consent, which shall not be unreasonably withheld": the
    "without" denies the consent, not the true restatement that shares "the Provider"."""
    support = judged(
        "The Provider may not unreasonably withhold consent to an assignment.", ASSIGNMENT
    )
    assert support.verdict == "supported", support


def test_minutes_are_a_length_of_time_like_hours_and_days() -> None:
    """ "minutes" stems to "minut": it was read as a word, so "sixty minutes" never backed "one
    hour" and a response time in minutes was a figure "the source does not give"."""
    (sixty,) = tokenize("within sixty minutes")[1:]
    (hour,) = tokenize("within one hour")[1:]
    assert (sixty.text, sixty.key) == ("sixty minutes", hour.key)
    support = judged(
        "The Provider responds to Priority 1 incidents within sixty minutes.", INCIDENTS
    )
    assert support.verdict == "supported", support
    wrong = judged("The Provider responds to Priority 1 incidents within 90 minutes.", INCIDENTS)
    assert wrong.verdict == "contradicted", wrong


INCIDENTS = Source(
    id="sla",
    kind="document",
    text=(
        "4.5 The Provider will respond to Priority 1 incidents within one hour, 24 hours a day, "
        "and to Priority 2 incidents within four business hours."
    ),
)


POLICY = Source(
    id="credit-policy",
    kind="document",
    title="Residential Credit Policy",
    text=(
        "2. Loan-to-value. Applications with a loan-to-value ratio above 80% must be referred "
        "to a senior underwriter before an offer is issued.\n\n3. Affordability. The "
        "applicant's total monthly debt payments must not exceed 45% of verified gross "
        "monthly income."
    ),
)


def test_up_to_a_figure_is_at_most_that_figure() -> None:
    """ "up to 45%" restates "must not exceed 45%"; "up to 80%" turns "above 80%" round."""
    restated = verify(
        "Debt payments can be up to 45% of verified gross monthly income [credit-policy].",
        [POLICY],
    )
    assert restated.claims[0].support[0].verdict == "supported"
    turned = verify(
        "Applications up to 80% must be referred to a senior underwriter [credit-policy].",
        [POLICY],
    )
    (support,) = turned.claims[0].support
    assert support.verdict == "contradicted", support
    assert any(d.text == "up to" and d.instead == "above" for d in support.differences)


MAIL = Source(
    id="install-update",
    kind="email_body",
    title="Installation",
    text=(
        "Hi team, the installation has been moved from March to April because the data centre "
        "is not ready. Prices rose from 3% to 5% between 2020 and 2023. Regards, Ana"
    ),
)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        pytest.param(
            "The installation was moved from April to March.", "contradicted", id="turned"
        ),
        pytest.param("The installation was moved from March to April.", "supported", id="same"),
        pytest.param("Prices rose from 5% to 3%.", "contradicted", id="figures-turned"),
        pytest.param("Prices rose from 3% to 5% between 2023 and 2020.", "supported", id="between"),
    ],
)
def test_from_one_thing_to_another_has_an_order(claim: str, verdict: str) -> None:
    """ "from April to March" turns "from March to April" round; "between" has no order."""
    support = judged(claim, MAIL)
    assert support.verdict == verdict, support
    if verdict == "contradicted":
        assert "from" in support.reason and "not" in support.reason


ROLES = Source(
    id="roles",
    kind="email_body",
    title="Who does what",
    text=(
        "Hi all, the vendor confirmed the servers ship on Monday. Sarah will lead the "
        "migration; Tom will handle testing. Regards, Ana"
    ),
)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        pytest.param("Tom will lead the migration.", "contradicted", id="tom-leads"),
        pytest.param("Sarah will handle testing.", "contradicted", id="sarah-tests"),
        pytest.param("Sarah will lead the migration.", "supported", id="sarah-leads"),
        pytest.param("Tom will handle testing.", "supported", id="tom-tests"),
    ],
)
def test_one_persons_task_given_to_another_is_contradicted(claim: str, verdict: str) -> None:
    support = judged(claim, ROLES)
    assert support.verdict == verdict, support
    if verdict == "contradicted":
        assert "will" in support.reason and "not" in support.reason, support.reason


NOTE = Source(
    id="results-note",
    kind="document",
    title="Results note",
    text=(
        "Revenue rose 8% to $4.2 billion in the third quarter. The company lowered its "
        "full-year forecast because of weak demand in Europe."
    ),
)


@pytest.mark.parametrize(
    ("claim", "instead"),
    [
        pytest.param("Demand in Europe was strong.", "weak", id="strong-for-weak"),
        pytest.param("The company raised its full-year forecast.", "lowered", id="raised"),
        pytest.param(
            "The company kept its full-year forecast unchanged.", "lowered", id="unchanged"
        ),
    ],
)
def test_a_word_the_sentence_says_the_opposite_of_is_contradicted(claim: str, instead: str) -> None:
    """Wherever the sentence puts it: "weak demand in Europe" against "Demand ... was strong"."""
    support = judged(claim, NOTE)
    assert support.verdict == "contradicted", support
    assert any(d.instead == instead for d in support.differences), support


def test_unchanged_where_the_sentence_also_says_unchanged_stays_supported() -> None:
    """The sentence cuts one thing and keeps another: "unchanged" is its own word here."""
    kept = Source(
        id="kept",
        kind="document",
        title="Results note",
        text="The company cut its costs and left its full-year forecast unchanged.",
    )
    support = support_of("The full-year forecast was left unchanged. [kept]", [kept])
    assert support.verdict == "supported", support


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        pytest.param("Operating costs rose.", "contradicted", id="rose-for-flat"),
        pytest.param("Operating costs were unchanged.", "supported", id="unchanged-for-flat"),
    ],
)
def test_flat_costs_neither_rose_nor_fell(claim: str, verdict: str) -> None:
    flat = Source(id="flat", kind="document", title="Results", text="Operating costs were flat.")
    if verdict == "supported":
        true_claim(f"{claim} [flat]", [flat])
    else:
        assert support_of(f"{claim} [flat]", [flat]).verdict == verdict


def test_a_reason_never_says_the_source_lacks_what_another_part_of_it_gives() -> None:
    """The located passage ("Credits must be requested within 30 days ...") does not name
    the Customer, but the agreement does: the reason says "the passage", not "the source"."""
    support = judged(
        "The Customer must request credits within 30 days after the affected month ends.", SLA
    )
    assert "the source does not give “Customer”" not in support.reason, support.reason
    missing = judged("The Customer gets a $500 credit if uptime falls below 99.9%.", SLA)
    assert missing.verdict != "supported"
    assert missing.reason == "the source does not give “$500”", missing.reason


def test_a_name_the_source_never_writes_is_never_supported() -> None:
    """Every other word is the source's; "Dell" is nowhere in it."""
    support = judged("The vendor Dell confirmed the servers ship on Monday.", ROLES)
    assert support.verdict == "partial", support
    assert support.reason == "the source does not give “Dell”"
    named = judged("The vendor confirmed the servers ship on Monday, Ana wrote.", ROLES)
    assert named.verdict == "supported", named  # Ana signs the mail


@pytest.mark.parametrize(
    ("claim", "verdict", "said"),
    [
        pytest.param("Credits can be requested at any time.", "contradicted", "within 30 days"),
        pytest.param(
            "Credits must be requested within 30 days of the end of the affected month.",
            "supported",
            None,
        ),
    ],
)
def test_at_any_time_where_the_source_sets_a_deadline(
    claim: str, verdict: str, said: str | None
) -> None:
    support = judged(claim, SLA)
    assert support.verdict == verdict, support
    if said is not None:
        assert support.reason == f"the passage says “{said}”, not “at any time”"


PLAN = Source(
    id="plan",
    kind="document",
    title="Project plan",
    text="Our budget for the project stays at $250,000. Revenue remained at $5 million.",
)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        pytest.param("The budget for the project was cut.", "contradicted", id="cut-for-stays"),
        pytest.param("Revenue rose to $5 million.", "contradicted", id="rose-for-remained"),
        pytest.param("The budget for the project stays at $250,000.", "supported", id="stays"),
        pytest.param("Revenue remained at $5 million.", "supported", id="remained"),
    ],
)
def test_a_figure_that_stays_is_neither_cut_nor_raised(claim: str, verdict: str) -> None:
    support = judged(claim, PLAN)
    assert support.verdict == verdict, support


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        pytest.param("The agent refunded both charges.", "contradicted", id="both"),
        pytest.param("The agent refunded one of the two charges.", "supported", id="one"),
    ],
)
def test_all_of_a_thing_where_the_source_says_one_of_it(claim: str, verdict: str) -> None:
    refund = Source(
        id="refund",
        kind="email_body",
        title="Re: charged twice",
        text="Agent: I have issued a refund for one of the two charges; it should reach your card.",
    )
    support = judged(claim, refund)
    assert support.verdict == verdict, support
    if verdict == "contradicted":
        assert support.reason == "the passage says “one of the two charges”, not “both charges”"


RENEWAL = Source(
    id="email",
    kind="email_body",
    text=(
        "Fabrikam's procurement lead, Omar Haddad, called this afternoon. They will renew for "
        "two years if we hold the per-seat price at $42; they rejected the $45 we proposed. "
        "Omar also asked us to drop the implementation fee, which I declined."
    ),
)


def test_what_was_decided_of_the_claims_figure_is_read_in_its_own_clause() -> None:
    """The clause holding the claim's figure says what was decided of it, though another
    clause holds more of the claim's words ("per-seat price")."""
    turned = judged("Fabrikam accepted the $45 per-seat price.", RENEWAL)
    assert turned.verdict == "contradicted", turned
    assert turned.reason == "the passage says “rejected”, not “accepted”"
    assert judged("Fabrikam rejected the proposed $45 price.", RENEWAL).verdict == "supported"


HOLD = Source(
    id="email",
    kind="email_body",
    text=(
        "Legal has not yet reviewed their redlines, so nobody should send the contract before "
        "Friday. I will circulate the final numbers on Thursday once finance signs off."
    ),
)


def test_a_claims_not_is_backed_by_nobody_before_the_same_verb() -> None:
    """ "nobody should send" denies the sending as "should not send" does: a true restatement,
    where the claim's "not" had no counterpart in the alignment and was called unbacked."""
    assert judged("The team should not send the contract before Friday.", HOLD).verdict == (
        "supported"
    )
    dropped = judged("The contract can be sent before Friday.", HOLD)
    assert dropped.verdict == "contradicted", dropped


def test_agreed_where_the_writer_declined_is_contradicted() -> None:
    turned = judged("Karen agreed to drop the implementation fee.", RENEWAL)
    assert turned.verdict == "contradicted", turned
    assert turned.reason == "the passage says “declined”, not “agreed”"
    asked = judged("Omar asked us to drop the implementation fee.", RENEWAL)
    assert asked.verdict == "supported", asked


FACILITY = Source(
    id="memo",
    kind="document",
    text=(
        "The committee approved the £2.4m facility for Harlow Foods. No dividends may be paid "
        "while any amount is outstanding. The committee cut the term from seven years to five."
    ),
)


def test_no_subject_before_a_verb_backs_the_claims_not() -> None:
    """ "No dividends may be paid" denies the paying as "may not pay dividends" does."""
    true_claim(
        "Harlow Foods may not pay dividends while any amount is outstanding. [memo]",
        [FACILITY],
        answer_id="denials",
    )
    dropped = judged("Dividends may be paid while amounts are outstanding.", FACILITY)
    assert dropped.verdict == "contradicted", dropped


def test_a_bare_figure_after_to_keeps_the_length_before_it() -> None:
    """ "from seven years to five" says five years: the true "The facility term is five
    years" was contradicted by "seven years", and "extended the term to seven years" was
    supported."""
    (_, five) = [t for t in tokenize("cut the term from seven years to five") if t.unit]
    (years,) = [t for t in tokenize("five years") if t.unit]
    assert (five.text, five.key) == ("five", years.key)
    assert judged("The facility term is five years.", FACILITY).verdict == "supported"
    assert judged("The committee extended the term to seven years.", FACILITY).verdict != (
        "supported"
    )


HOLIDAYS = Source(
    id="fees",
    kind="document",
    title="Club fees",
    text=(
        "The late fee does not apply on public holidays. On those days members pay the "
        "standard rate."
    ),
)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        (
            "On public holidays the late fee doesn't apply, and members pay the standard rate.",
            "supported",
        ),
        (
            "On public holidays the late fee applies, and members pay the standard rate.",
            "unconfirmed",
        ),
    ],
)
def test_a_light_verb_is_denied_where_its_own_clause_is_said(claim: str, verdict: str) -> None:
    """ "doesn't apply" is read against the "apply" of the sentence that holds the words of its
    own clause ("late fee", "public holidays"), not the one that holds most of the claim's."""
    support = support_of(f"{claim.removesuffix('.')} [fees].", [HOLIDAYS])
    assert support.verdict == verdict, support.reason
