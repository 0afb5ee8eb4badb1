"""A claim that names both parties of a clause the other way round, says "must" where the
source says "may", or says a figure grew where the source says it was unchanged keeps the
source's words and turns its meaning: the default judge contradicts each, naming the
source's words. The passive, a "may" for the source's "must", and two prohibitions ("must
not", "may not") say what the source says and stay supported.

Each claim is verified alone (``CLAIM [id]``) against a licence clause or a results note, as a
team's answer would carry it.
"""

from __future__ import annotations

import pytest

from citeproof import Source
from citeproof.model import ClaimSupport
from tests.support_runs import support_of, true_claim

LICENCE = Source(
    id="licence",
    kind="document",
    title="Software licence",
    text=(
        "4. Audit. The Licensor may audit the Licensee's use once a year on 10 days' notice.\n\n"
        "5. Payment. If the Licensee fails to pay any invoice within 30 days, the Licensor may "
        "suspend the licence.\n\n"
        "6. Confidentiality. The Licensee must not disclose the Software to any third party. "
        "The Licensee must keep a record of every installation."
    ),
)
RESULTS = Source(
    id="results",
    kind="document",
    title="Q3 results note",
    text=(
        "Revenue for the third quarter rose 8% to $412 million. Operating margin fell to 14% "
        "from 17% a year earlier. Headcount was unchanged at 2,300."
    ),
)


def judged(claim: str, source: Source) -> ClaimSupport:
    return support_of(f"{claim} [{source.id}]", [LICENCE, RESULTS], answer_id="roles")


@pytest.mark.parametrize(
    ("claim", "source", "says"),
    [
        pytest.param(
            "The Licensee may audit the Licensor's use once a year.",
            LICENCE,
            "Licensor may audit the Licensee's",
            id="parties-swapped",
        ),
        pytest.param(
            "If the Licensor fails to pay an invoice within 30 days, the Licensee may suspend "
            "the licence.",
            LICENCE,
            "Licensee fails to pay any invoice within 30 days the Licensor",
            id="condition-parties-swapped",
        ),
        pytest.param(
            "The Licensor must audit the Licensee's use once a year.",
            LICENCE,
            "may",
            id="must-for-may",
        ),
        pytest.param("Headcount grew to 2,300.", RESULTS, "unchanged", id="grew-for-unchanged"),
        pytest.param("Headcount was stable at 2,300.", RESULTS, None, id="restated-unchanged"),
    ],
)
def test_a_claim_turned_round_in_the_sources_words_is_contradicted(
    claim: str, source: Source, says: str | None
) -> None:
    support = judged(claim, source)
    if says is None:  # a restatement, for contrast: the passage never says otherwise
        # "stable" has no equivalence the lexicon names, and the entailment model reads it
        # at 0.90, under the raise: citeproof could not confirm it, which is no error
        assert support.verdict in ("supported", "unconfirmed"), support
        assert not any(d.instead for d in support.differences), support  # no "says X instead"
        return
    assert support.verdict == "contradicted", support
    assert f"the passage says “{says}”" in support.reason
    assert support.passage is not None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        pytest.param(
            "The Licensee's use may be audited by the Licensor once a year.",
            LICENCE,
            id="passive",
        ),
        pytest.param(
            "The Licensor may suspend the licence if the Licensee fails to pay an invoice "
            "within 30 days.",
            LICENCE,
            id="clauses-reordered",
        ),
        pytest.param(
            "The Licensee may not disclose the Software to any third party.",
            LICENCE,
            id="may-not-for-must-not",
        ),
        pytest.param(
            "The Licensee may keep a record of every installation.", LICENCE, id="may-for-must"
        ),
        pytest.param(
            "Operating margin declined from 17% to 14%.", RESULTS, id="fell-restated-declined"
        ),
    ],
)
def test_a_restatement_in_the_sources_words_stays_supported(claim: str, source: Source) -> None:
    true_claim(f"{claim} [{source.id}]", [LICENCE, RESULTS], answer_id="roles")


LIST = Source(
    id="tenancy",
    kind="document",
    title="Tenancy terms",
    text=(
        "7. Use. The Tenant may use the car park at any time, but may not sublet the Premises, "
        "share them with another business or make them available to any of its customers."
    ),
)


@pytest.mark.parametrize(
    ("claim", "says"),
    [
        ("The Tenant may share the Premises with another business.", "may not share"),
        ("The Tenant may make the Premises available to its customers.", "may not make"),
    ],
    ids=["a later verb of the list", "a light verb carrying its word"],
)
def test_a_denied_modal_governs_every_verb_of_its_list(claim: str, says: str) -> None:
    """ "may not sublet ..., share them ... or make them available": the denial and the modal
    are said of every verb of the list, "make" included, though it is a light verb that only
    carries "available"."""
    support = support_of(f"{claim} [tenancy]", [LIST])
    assert support.verdict == "contradicted", support
    assert support.rule == "modality.kept"
    assert f"the passage says “{says}”" in support.reason


def test_the_verb_of_a_list_that_is_allowed_stays_supported() -> None:
    support = support_of("The Tenant may use the car park at any time. [tenancy]", [LIST])
    assert support.verdict == "supported", support


RESELLER = Source(
    id="terms",
    kind="document",
    title="Reseller terms",
    text=(
        "3.1 The Reseller may display the Products in its showrooms, but may not resell them "
        "online, lend them to third parties or make them available to rental companies."
    ),
)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("The Reseller may lend the Products to third parties.", "contradicted"),
        (
            "Under the reseller terms, the Reseller can make the Products available to rental "
            "companies.",
            "contradicted",
        ),
        ("The Reseller may display the Products in its showrooms.", "supported"),
    ],
    ids=["a verb hung from the first of the list", "framed by the document", "the permission"],
)
def test_a_list_after_but_shares_the_modal_of_its_first_denied_verb(
    claim: str, verdict: str
) -> None:
    """ "may display ..., but may not resell them, lend them or make them available": the parse
    hangs "lend" from "display", yet it shares "resell"'s "may not"; "Under the reseller
    terms" only frames the claim (no "under" of a quantity or a direction)."""
    support = support_of(f"{claim} [terms]", [RESELLER])
    assert support.verdict == verdict, support
    if verdict == "contradicted":
        assert support.rule == "modality.kept"


AUDIT = Source(
    id="engagement",
    kind="document",
    title="Engagement letter",
    text=(
        "The Directors must:\n"
        "(a) keep proper accounting records;\n"
        "(b) tell the auditor of any fraud of which they become aware, whether or not it "
        "involves a Director;\n"
        "(c) approve the financial statements before 30 June.\n"
    ),
)


@pytest.mark.parametrize(
    ("claim", "verdict", "says"),
    [
        ("The Directors must tell the auditor of any fraud they become aware of.", "supported", ""),
        (
            "The Directors must not tell the auditor of any fraud they become aware of.",
            "contradicted",
            "must: tell",
        ),
        (
            "The Directors may approve the financial statements before 30 June.",
            "unconfirmed",
            "must: approve",
        ),
    ],
    ids=["the lead-in's obligation", "a prohibition against it", "a permission for it"],
)
def test_an_item_of_a_list_carries_the_modal_its_lead_in_ends_on(
    claim: str, verdict: str, says: str
) -> None:
    """ "The Directors must: (b) tell the auditor ...": the item's verb is under "must", which
    the lead-in leaves standing alone (the parser even splits "(" of "(b)" off the item)."""
    support = support_of(f"{claim} [engagement]", [AUDIT])
    assert support.verdict == verdict, support
    if says:
        assert support.rule == "modality.kept"
        assert f"the passage says “{says}”" in support.reason


SPEECHES = Source(
    id="speeches",
    kind="document",
    title="Results",
    text=(
        "Helena Strand, Chief Executive, said: \"Software continues to lead the group's "
        'growth, and the new sensors are already broadening our range."\n\n'
        'Raj Menon, Chief Financial Officer, said: "Our balance sheet remains strong, and we '
        'remain on track to complete the buyback this year."\n'
    ),
)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("Helena Strand said that software continues to lead the group's growth.", "supported"),
        (
            "Chief Financial Officer Raj Menon said that software continues to lead the "
            "group's growth.",
            "unconfirmed",
        ),
        ("Raj Menon said that the balance sheet remains strong.", "supported"),
    ],
    ids=["the speaker", "another speaker, sharing a title word", "the other's own words"],
)
def test_who_said_it_is_who_the_passage_says_said_it(claim: str, verdict: str) -> None:
    """The claim's "Raj Menon said that ..." frames what it reports; the passage's statement
    of those words has its own speaker, and a claim that names another is not confirmed, even
    where a title word ("Chief") stands in both."""
    support = support_of(f"{claim} [speeches]", [SPEECHES])
    assert support.verdict == verdict, support
    if verdict == "unconfirmed":
        assert support.rule == "roles.kept"
        assert "the passage says “Helena Strand” said this" in support.reason


SCAFFOLD = Source(
    id="scaffold",
    kind="document",
    title="Scaffolding hire contract",
    text=(
        "This contract is made between:\n\n"
        '- **Harrowgate Access Ltd**, Keighley (the "Contractor", "we"); and\n'
        '- **Pemberton & Vane Roofing Ltd**, Skipton (the "Hirer", "you").\n\n'
        "3.1 We will apply to North Craven Council for the scaffold licence and pay the "
        "licence fee, which we recharge to you at cost.\n\n"
        "Signed for Pemberton & Vane Roofing Ltd: Rhian Vane, Director\n"
    ),
)


LETTING = Source(
    id="letting",
    kind="document",
    title="Landlord terms of business",
    text=(
        '**Agent:** Kingsbridge Lettings Ltd, 6 Fore Street, Totnes TQ9 5DX (the "Agent", '
        '"we").\n\n**Landlord:** Dr Samuel Okafor and Mrs Ruth Okafor, 2 Weir Cottages, '
        'Dartington TQ9 6EB (together the "Landlord", "you").\n\n'
        "3.2 Under Full Management we will register the deposit with the Tenancy Deposit "
        "Scheme within 30 days of receiving it.\n"
    ),
)


@pytest.mark.parametrize(
    ("claim", "source", "says", "rule"),
    [
        pytest.param(
            "Harrowgate Access will apply to North Craven Council for the scaffold licence.",
            SCAFFOLD,
            None,
            "confirmed",
            id="a-light-verb-the-contractor",
        ),
        pytest.param(
            "Pemberton & Vane will apply to North Craven Council for the scaffold licence.",
            SCAFFOLD,
            "the passage says “We” does this (“apply”)",
            "roles.kept",
            id="a-light-verb-the-hirer",
        ),
        pytest.param(
            "Kingsbridge Lettings must register the deposit with the Tenancy Deposit Scheme.",
            LETTING,
            None,
            "confirmed",
            id="two-subjects-the-agent",
        ),
        pytest.param(
            "Dr and Mrs Okafor must register the deposit with the Tenancy Deposit Scheme.",
            LETTING,
            "“Dr Mrs Okafor” is in another sentence of the passage",
            "match.same_statement",
            id="two-subjects-the-landlord",
        ),
    ],
)
def test_the_doer_is_the_passages_own(
    claim: str, source: Source, says: str | None, rule: str
) -> None:
    """ "apply" carries little of its own, so no match reads it; the passage's "We" (the
    Contractor) still does it, and a claim naming the Hirer, whose name stands in the
    signature line, is not confirmed. The Landlord's heading line is a sentence of its own,
    not a second subject of clause 3.2's "register" (`_parse`): the Landlord is not who the
    clause says registers. A contract's "will register" undertakes what "must register"
    says."""
    support = support_of(f"{claim} [{source.id}]", [source])
    assert (support.verdict == "supported") is (says is None), support
    assert support.rule == rule
    if says is not None:
        assert says in support.reason


LOANS = Source(
    id="loans",
    kind="document",
    title="Season ticket loans",
    text=(
        "2.1 You may apply if you have passed your probation period. Your line manager must "
        "approve the application before it goes to Payroll."
    ),
)


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("The line manager has to approve the application before it goes to Payroll.", "supported"),
        (
            "Payroll has to approve the application before it goes to the line manager.",
            "unconfirmed",
        ),
        ("Payroll is required to approve the application.", "unconfirmed"),
    ],
)
def test_the_doer_of_has_to_is_the_subject_of_has(claim: str, verdict: str) -> None:
    """ "Payroll has to approve" says Payroll approves: the verb after "has to" or "is required
    to" has the governing verb's subject for its doer."""
    support = support_of(f"{claim.removesuffix('.')} [loans].", [LOANS])
    assert support.verdict == verdict, support.reason
    if verdict != "supported":
        assert support.rule in ("roles.kept", "facts.parties_swapped", "facts.doer_swapped")
