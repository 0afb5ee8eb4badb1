"""An answer names the parties ("Harrowgate", "Tessellate"); the contract names them once and
then says "the Licensee" and "the Licensor". The default judge reads the source's own
definitions, so a claim that gives each party its clause is supported, and one that gives a
party the other's clause is not; a pronoun opening a sentence ("It may buy ...") is the
subject of the sentence before. An exception ("other than ...") is not restated by a
condition of the claim's own ("If any amount is overdue").

Each claim is verified alone (``CLAIM [id]``) through `citeproof.verify`.
"""

from __future__ import annotations

import pytest

from citeproof import Source
from citeproof.verifier.support.lexicon import NO_DEFINITIONS, defined_terms, terms_defined_around
from tests.support_runs import support_of

LICENCE = Source(
    id="licence",
    kind="document",
    title="Software licence agreement",
    text=(
        "# Software Licence Agreement\n\n"
        "**Licensor:** Tessellate Systems Ltd, 14 Canal Wharf, Leeds\n"
        "**Licensee:** Harrowgate Freight Services Ltd, Unit 9, Bradford\n\n"
        "1.1 The Licensor may audit the Licensee's use of the Software no more than once in "
        "any 12-month period, on at least 20 Business Days' written notice.\n\n"
        "1.2 The Licensee must buy support only from the Licensor. It may buy training from "
        "any supplier.\n\n"
        "2.4 If any amount is more than 45 days overdue, the Licensor may suspend access to "
        "the Software on giving 10 Business Days' written notice, other than for amounts the "
        "Licensee disputes in good faith.\n"
    ),
)
NDA = Source(
    id="nda",
    kind="document",
    title="Mutual NDA",
    text=(
        "This Agreement is made between **Orchard Analytics Ltd**, 2 Mill Lane, York (the "
        '"Discloser") and **Brindle Capital LLP**, 40 King Street, Leeds (the "Recipient").\n\n'
        "3.1 The Recipient must return all Confidential Information within 14 days of a "
        "written request from the Discloser.\n"
    ),
)
LIFTS = Source(
    id="lifts",
    kind="document",
    title="Lift maintenance contract",
    text=(
        "# Lift Maintenance Contract\n\n"
        '**Contractor:** Vantage Lift Services Ltd, 6 Foundry Close, Halsey (the "Contractor")\n'
        "**Client:** Carrow House Management Company Ltd, Carrow House, 40 Pennant Street, "
        'Halsey (the "Client")\n'
        '**Building:** Carrow House, 40 Pennant Street, Halsey (the "Building")\n\n'
        "6.1 The Client may end this contract on six months' written notice, given no earlier "
        "than 1 May 2028.\n\n"
        "6.2 The Contractor may end this contract on twelve months' written notice.\n"
    ),
)
BENEFITS = Source(
    id="benefits",
    kind="document",
    title="Employee benefits summary",
    text=(
        "# Employee Benefits Summary 2026\n\n"
        '**Employer:** Ostrander Foods Ltd (the "Company")\n\n'
        "This summary does not form part of your contract of employment, and the Company may "
        "change these benefits by giving at least three months' notice.\n"
    ),
)
SOURCES = [LICENCE, NDA, LIFTS, BENEFITS]


@pytest.mark.parametrize(
    "claim",
    [
        pytest.param(
            "Tessellate may audit Harrowgate's use of the Software no more than once in any "
            "12-month period. [licence]",
            id="heading-definitions",
        ),
        pytest.param(
            "Harrowgate may buy training from any supplier. [licence]", id="pronoun-antecedent"
        ),
        pytest.param(
            "Brindle must return all Confidential Information within 14 days of a written "
            "request from Orchard. [nda]",
            id="parenthesis-definitions",
        ),
        pytest.param(
            "Ostrander can change these benefits by giving at least three months' notice. "
            "[benefits]",
            id="heading-with-parenthesis",
        ),
        pytest.param(
            "Carrow House can end the contract on six months' written notice, given no "
            "earlier than 1 May 2028. [lifts]",
            id="a-name-of-two-definitions",
        ),
    ],
)
def test_a_party_named_for_its_defined_term_is_supported(claim: str) -> None:
    support = support_of(claim, SOURCES)
    assert support.verdict == "supported", support
    assert support.rule == "confirmed"


@pytest.mark.parametrize(
    ("claim", "rule", "says"),
    [
        pytest.param(
            "Harrowgate may audit Tessellate's use of the Software no more than once in any "
            "12-month period. [licence]",
            "facts.parties_swapped",
            "Licensor may audit the Licensee's",
            id="parties-swapped",
        ),
        pytest.param(
            "Tessellate may buy training from any supplier. [licence]",
            "facts.doer_swapped",
            "Licensee must buy",
            id="the-other-party",
        ),
        pytest.param(
            "Orchard must return all Confidential Information within 14 days of a written "
            "request from Brindle. [nda]",
            "facts.doer_swapped",
            "Recipient must return",
            id="the-other-party-by-parenthesis",
        ),
        pytest.param(
            "Carrow House can end the contract on twelve months' written notice. [lifts]",
            "facts.doer_swapped",
            "Contractor may end",
            id="the-other-party-of-a-name-of-two-definitions",
        ),
    ],
)
def test_a_party_given_the_others_clause_is_contradicted(claim: str, rule: str, says: str) -> None:
    support = support_of(claim, SOURCES)
    assert support.verdict == "contradicted", support
    assert support.rule == rule
    assert says in support.reason


def test_a_condition_of_the_claims_own_does_not_restate_the_exception() -> None:
    support = support_of(
        "If any amount is more than 45 days overdue, Tessellate may suspend access to the "
        "Software on 10 Business Days' written notice. [licence]",
        SOURCES,
    )
    assert support.verdict == "unconfirmed", support
    assert support.rule == "condition.kept"
    assert support.left_out == ("other than for amounts the Licensee disputes in good faith",)


def test_definitions_are_read_from_headings_and_parentheses() -> None:
    terms = defined_terms(LICENCE.text + "\n\n" + NDA.text)
    assert terms.term_of("harrowgate") == {"licensee"}
    assert terms.term_of("Tessellate") == {"licensor"}
    assert terms.term_of("brindle") == {"recipient"}
    assert terms.term_of("orchard") == {"discloser"}
    assert terms.term_of("ltd") == frozenset()  # a company suffix names no one
    assert terms.same("licensee", "harrowgate")
    assert not terms.same("licensee", "tessellate")


def test_a_name_a_party_trades_under_names_it_too() -> None:
    terms = defined_terms(
        '**Supplier:** Joe Bloggs t/a Bloggs Plumbing, 4 Mill Lane ("the Supplier").\n'
        '**Customer:** Mrs Ann Carr, trading as Carr Lettings (the "Customer").\n'
    )
    assert terms.same("bloggs", "supplier") and terms.same("plumbing", "supplier")
    assert terms.same("lettings", "customer")
    assert not terms.same("plumbing", "customer")


def test_a_trading_name_names_its_party_by_the_words_no_other_party_is_defined_by() -> None:
    """A franchisee trading under the franchisor's name: the words the franchisor is defined
    by ("Little Strikers") still name the franchisor, the franchisee's own ("North Leeds")
    the franchisee."""
    terms = defined_terms(
        '**Franchisor:** Little Strikers Sports Ltd ("Little Strikers", "we").\n\n'
        '**Licensee:** Deepa Marsh, trading as Little Strikers North Leeds ("the Licensee", '
        '"you").\n'
    )
    assert terms.same("strikers", "we") and terms.same("little", "franchisor")
    assert terms.same("leeds", "you") and terms.same("deepa", "licensee")
    assert not terms.same("strikers", "you") and not terms.same("little", "licensee")


def test_a_heading_that_also_gives_the_term_defines_its_name_as_both() -> None:
    terms = defined_terms(BENEFITS.text)
    assert terms.term_of("ostrander") == {"employer", "company"}  # not the label "Employer:"
    assert terms.same("company", "ostrander")
    assert terms.defines(BENEFITS.text.index("Company"))  # where it is defined ...
    assert not terms.defines(BENEFITS.text.rindex("Company"))  # ... not where a clause uses it


def test_mail_headers_and_titles_define_nothing() -> None:
    terms = defined_terms(
        "From: Owen Ashby <owen@tillpoint.example>\nSubject: Outage refund\n\n"
        '# Fellbrook Tools: Returns Policy\n\nCorvane Group plc ("Corvane") reports.\n'
    )
    # Only the parenthesis defines: "Group" of the full name stands for "Corvane".
    assert terms.pairs == {"group": {"corvane"}, "corvane": {"group"}}


TRAINING = Source(
    id="training",
    kind="document",
    title="Terms of booking",
    text=(
        "# Terms of Booking: Training Courses\n\n"
        '**Provider:** Ashcombe Learning Ltd, 58 Queen Square, Bristol ("Ashcombe", "we")\n'
        '**Client:** the organisation named on the booking form (the "Client")\n\n'
        "4.3 An in-house course cancelled by the Client within 21 days of the first course day "
        "is charged in full, unless we can re-use the trainer's days, in which case we will "
        "charge 30%.\n"
    ),
)


JV = Source(
    id="jv",
    kind="document",
    title="Term sheet",
    text=(
        '**Developer:** Wendover Energy Ltd, 3 Ouse Wharf, York ("Wendover")\n'
        '**Landowner:** Thornleigh Farms LLP, Lower Thornleigh Farm, Malton ("Thornleigh")\n\n'
        "9.3 If Wendover agrees to sell all its shares to a third party, Thornleigh may "
        "require the buyer to buy Thornleigh's shares at the same price per share.\n"
    ),
)


FACTORING = Source(
    id="factoring",
    kind="document",
    title="Factoring agreement",
    text=(
        '**Factor:** Calder Trade Finance Ltd, 14 Wellington Row, Leeds ("Calder", "we")\n'
        '**Client:** Pennine Fixings Ltd, Canal Side Works, Huddersfield (the "Client")\n\n'
        "3.2 We collect the debts in our own name, but the Client may continue to answer "
        "routine queries from Debtors.\n"
    ),
)


@pytest.mark.parametrize(
    ("source", "same", "kept", "swapped"),
    [
        pytest.param(  # a parenthesis that defines a party as "we" too
            TRAINING,
            ("ashcombe", "our"),
            "If the Client cancels an in-house course within 21 days of the first course day, "
            "it is charged in full, unless Ashcombe can re-use the trainer's days [training].",
            "If the Client cancels an in-house course within 21 days of the first course day, "
            "it is charged in full, unless the Client can re-use the trainer's days [training].",
            id="we",
        ),
        pytest.param(  # a short name taken from the full one
            JV,
            ("farms", "thornleigh"),
            "If Wendover agrees to sell all its shares to a third party, Thornleigh Farms can "
            "require the buyer to buy its shares at the same price per share [jv].",
            "If Thornleigh Farms agrees to sell all its shares to a third party, Wendover Energy "
            "can require the buyer to buy its shares at the same price per share [jv].",
            id="full-name",
        ),
        pytest.param(  # the defined "we" is the doer the claim must name
            FACTORING,
            ("calder", "we"),
            "Calder Trade Finance collects the debts in its own name [factoring].",
            "Pennine Fixings collects the debts in its own name [factoring].",
            id="we-does-it",
        ),
    ],
)
def test_a_party_is_named_by_every_word_its_definition_gives(
    source: Source, same: tuple[str, str], kept: str, swapped: str
) -> None:
    assert defined_terms(source.text).same(*same)
    assert not defined_terms(source.text).same("client", "we")
    backed = support_of(kept, [source])
    assert backed.verdict == "supported", backed.reason
    turned = support_of(swapped, [source])
    assert turned.verdict != "supported", turned.reason


HOME_CARE = Source(
    id="care",
    kind="document",
    title="Care agreement",
    text=(
        '**Provider:** Willowmere Home Care Ltd, 4 Mill Yard, Harrogate (the "Provider", '
        '"we")\n'
        '**Client:** Mrs Margaret Ainsley, 27 Oakroyd Close, Knaresborough (the "Client", '
        '"you")\n\n'
        "6.2 If we have concerns about your safety, we must tell the council's adult "
        "safeguarding team, even if you ask us not to.\n"
    ),
)


BANK = Source(
    id="tariff",
    kind="document",
    title="Bank tariff",
    text=(
        "# Northgate Commerce Bank: Business Current Account Terms\n\n"
        "5.1 We may change our fees or introduce new fees by giving you at least two months' "
        "notice.\n"
    ),
)

DATA_ROOM = Source(
    id="letter",
    kind="document",
    title="Confidentiality letter",
    text=(
        '**From:** Halloran Family Holdings Ltd (the "Seller"), acting through its adviser '
        'Marchbank Corporate Finance LLP ("Marchbank")\n'
        '**To:** Ostrander Capital Partners LLP, 9 Greyfriars Lane, London ("you")\n\n'
        "You must:\n"
        "(a) keep the Confidential Information secret; and\n"
        "(b) be responsible for any breach of this letter by your Representatives.\n"
    ),
)

NURSERY = Source(
    id="fees",
    kind="document",
    title="Parent contract",
    text=(
        "This contract is made between **Little Acorns Nurseries Ltd**, Kendal (the "
        '"Nursery", "we"), and **Ms Harriet Oduya**, Kendal (the "Parent", "you"), for a '
        'place for **Noah Oduya** (the "Child").\n\n'
        "6.3 We may end this contract on one month's notice, or on 7 days' notice if fees "
        "are unpaid 28 days after they were due.\n"
    ),
)

REARING = Source(
    id="rearing",
    kind="document",
    title="Heifer rearing agreement",
    text=(
        "# Contract Heifer Rearing Agreement\n\n"
        '**Owner:** Gareth and Elin Probert, trading in partnership as Cleddau Dairies ("the '
        'Owner"), Pant Farm, Llanfyllin.\n\n'
        '**Rearer:** Oakfold Rearing Ltd ("the Rearer", "we"), Top Fold Farm, Clun.\n\n'
        "## 4. Breeding\n\n"
        "Heifers are served by sexed semen chosen by the Owner. Our own bull may be used only "
        "with the Owner's written consent, for a fee of £25 per heifer.\n"
    ),
)


@pytest.mark.parametrize(
    ("source", "same", "other"),
    [
        pytest.param(
            HOME_CARE, [("ainsley", "your"), ("ainsley", "you")], [("willowmere", "you")], id="you"
        ),
        pytest.param(BANK, [("northgate", "we")], [("bank", "we")], id="a-titles-writer"),
        pytest.param(DATA_ROOM, [("ostrander", "you")], [], id="you-alone"),
        pytest.param(
            NURSERY,
            [("nursery", "we"), ("we", "nursery")],
            [("parent", "we"), ("parent", "child")],
            id="terms-given-together",
        ),
        pytest.param(
            REARING,
            [("oakfold", "we"), ("our", "rearer"), ("cleddau", "owner"), ("probert", "owner")],
            [("cleddau", "we"), ("oakfold", "owner")],
            id="the-inside-the-quotes-and-a-trading-name",
        ),
    ],
)
def test_each_definition_names_its_party(
    source: Source, same: list[tuple[str, str]], other: list[tuple[str, str]]
) -> None:
    """A second-person term (the "Client", "you"), a first-person source's title ("#
    Northgate Commerce Bank: ..." and "We may change our fees": the words a dictionary
    knows name no one), `("you")` alone, the terms one parenthesis gives one party (the
    "Nursery", "we"; also written ("the Rearer", "we")), and a name the party trades under
    ("trading in partnership as Cleddau Dairies"), each name their party, and no other."""
    terms = defined_terms(source.text)
    assert all(terms.same(a, b) for a, b in same)
    assert not any(terms.same(a, b) for a, b in other)


@pytest.mark.parametrize(
    ("claim", "swapped", "source"),
    [
        pytest.param(
            "Willowmere must tell the council's adult safeguarding team about concerns for Mrs "
            "Ainsley's safety, even if she asks it not to.",
            "Mrs Ainsley must tell the council's adult safeguarding team about concerns for "
            "Willowmere's safety.",
            HOME_CARE,
            id="you",
        ),
        pytest.param(
            "Northgate may change its fees by giving at least two months' notice.",
            "The customer may change Northgate's fees by giving at least two months' notice.",
            BANK,
            id="a-titles-writer",
        ),
        pytest.param(
            "Ostrander is responsible for any breach of the letter by its Representatives.",
            "Marchbank is responsible for any breach of the letter by Ostrander's Representatives.",
            DATA_ROOM,
            id="you-alone",
        ),
        pytest.param(
            "The nursery can end the contract on one month's notice.",
            "The parent can end the contract on one month's notice.",
            NURSERY,
            id="terms-given-together",
        ),
        pytest.param(
            "Oakfold's own bull can be used on a heifer only if Cleddau consents in writing, "
            "for £25 per heifer.",
            "Cleddau's own bull may be used only with the Owner's written consent, for a fee "
            "of £25 per heifer.",
            REARING,
            id="whose-it-is",
        ),
    ],
)
def test_a_party_named_as_its_definition_gives_it_is_supported(
    claim: str, swapped: str, source: Source
) -> None:
    """A claim that names the party a definition gives is supported; one that gives its
    clause, or what is its own ("Our own bull"), to the other party is not. A claim whose
    only unmatched word is another party's name ("Marchbank" for the "You" of the list) is
    never raised by the entailment model: who does it is not wording."""
    backed = support_of(f"{claim.removesuffix('.')} [{source.id}].", [source])
    assert backed.verdict == "supported", backed.reason
    other = support_of(f"{swapped.removesuffix('.')} [{source.id}].", [source])
    assert other.verdict != "supported", other.reason
    assert other.rule != "model.raised"


def test_a_title_of_dictionary_words_or_beside_a_defined_we_names_no_writer() -> None:
    assert defined_terms("# Facility Offer Letter: Term Loan\n\nWe will lend you £5,000.\n") is (
        NO_DEFINITIONS
    )
    assert not defined_terms(
        '# Northgate Bank: Terms\n\n**Lender:** Orrin Finance Ltd ("Orrin", "we")\n\nWe lend.\n'
    ).same("northgate", "we")


PLAN = Source(
    id="plan",
    kind="document",
    title="Funeral plan",
    text=(
        '**Plan Holder:** Mr Desmond Pike, 3 Mill Lane, Ludlow (the "Plan Holder").\n'
        "**Plan date:** 12 January 2026.\n"
        "**Renewal date:** 20 January 2026.\n\n"
        "6.1 The Plan Holder may cancel within 30 days of the Plan date for a full refund.\n"
    ),
)


@pytest.mark.parametrize(
    ("date", "verdict", "rule"),
    [
        ("12 January 2026", "supported", "confirmed"),
        ("20 January 2026", "unconfirmed", "match.same_statement"),
    ],
)
def test_a_term_stands_for_what_its_label_defines(date: str, verdict: str, rule: str) -> None:
    """ "Plan date: 12 January 2026" gives the clause's "the Plan date" its date; another
    label's date, on the line right above the clause, is no heading of it."""
    claim = f"The plan holder may cancel within 30 days of {date} for a full refund [plan]."
    support = support_of(claim, [PLAN])
    assert (support.verdict, support.rule) == (verdict, rule), support.reason


def test_only_a_term_the_statement_uses_lends_it_its_definition() -> None:
    assert terms_defined_around("**Plan date:** 12 January 2026.", 16) == ("Plan date",)
    assert terms_defined_around('Acme heat pump, serial AX-28 (the "Product").', 5) == ("Product",)
    assert terms_defined_around('Acme Ltd (the "Client", "you").', 0) == ("Client",)
    assert terms_defined_around("**Date:** 3 May 2026", 10) == ()


WAYLEAVE = Source(
    id="wayleave",
    kind="document",
    title="Wayleave offer",
    text=(
        '**From:** Pennine Networks plc, Penrith (the "Company", "we").\n'
        '**To:** Mr Geoffrey and Mrs Ruth Atherley, Ravensgill Farm, Alston (the "Owners", '
        '"you").\n'
        '**Copy to:** Mr Dafydd Rowlands (the "Occupier").\n\n'
        "2.1 We will pay you a one-off signing payment of £250 if the signed wayleave reaches "
        "us within 28 days.\n"
    ),
)


@pytest.mark.parametrize(
    ("party", "verdict"),
    [("The Atherleys", "supported"), ("The Occupier", "unconfirmed")],
)
def test_a_family_named_in_the_plural_is_the_party_its_name_defines(
    party: str, verdict: str
) -> None:
    """ "the Atherleys" are Mr and Mrs Atherley, the "you" the letter pays; the Occupier,
    defined on the line above the clause, is not who it pays."""
    claim = (
        f"{party} will get a one-off payment of £250 if the signed wayleave reaches the Company "
        "within 28 days [wayleave]."
    )
    support = support_of(claim, [WAYLEAVE])
    assert support.verdict == verdict, support.reason
    assert support.rule != "model.raised"


def test_a_bold_label_is_no_name_and_a_plural_family_is_its_name() -> None:
    defined = defined_terms(WAYLEAVE.text)
    assert defined.aliases("copy") == frozenset()
    assert "rowlands" in defined.aliases("occupier")
    assert defined.same("atherleys", "owners")
    assert defined.aliases("atherleys") == defined.aliases("atherley")
    family = defined_terms('**Family:** Mr Neil and Mrs Debbie Hargreaves (the "Family").\n')
    assert family.named("Hargreaveses") == "hargreaves"
    assert family.same("hargreaveses", "family")


def test_a_later_parenthesis_of_a_heading_line_defines_the_name_before_it() -> None:
    """The heading's name is the party of the line's first parenthesis only: "the Council"
    is Haverleigh Town Council, not the Association the heading names."""
    defined = defined_terms(
        '**Association:** Ellerby Road Allotment Association (the "Association"), which rents '
        'the site from Haverleigh Town Council (the "Council").\n'
    )
    assert defined.aliases("council") == frozenset({"haverleigh", "town"})
    assert "council" not in defined.aliases("ellerby")
