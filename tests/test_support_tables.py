"""A claim read against a table row under its column headings (rule `table.row`), through
`citeproof.verify` as a user calls it: with a Markdown source, and with a real Word file
whose table citeproof reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof import Source, answer_to_json, verify
from citeproof.sources import read_source_file
from citeproof.verifier.support.confirm import another_column, another_row, rows_of
from tests.mailfixtures import docx_bytes

RENTAL = """# Hire agreement

**Hire company:** Tavistock Plant Hire Ltd ("Tavistock", "we")
**Hirer:** Coombe Valley Builders Ltd (the "Hirer")

## 1. Equipment and rates

| Item | Quantity | Weekly rate per item | Minimum hire | Damage waiver |
|---|---|---|---|---|
| 8-tonne tracked excavator | 1 | £620 | 2 weeks | 9% of rate |
| 3-tonne swivel dumper | 2 | £175 | 1 week | 9% of rate |
| Scissor lift, 10 m working height | 1 | £290 | 1 week | 12% of rate |

1.1 Rates exclude VAT, fuel and operators.
"""

FREIGHT = """# Quotation

| Charge | 20ft container | 40ft container | 40ft high cube |
|---|---|---|---|
| Ocean freight Ningbo to Felixstowe | $1,950 | $2,850 | $2,950 |
| Origin charges, Ningbo | $310 | $420 | $420 |

All rates are valid for sailings before 31 March.
"""

WASTE = """# Waste acceptance terms

| Waste | Price per tonne | Minimum charge per load | Conditions |
|---|---|---|---|
| Plasterboard | £165 | £40 | Must be kept separate from other waste |
| Green waste | £48 | £25 | May be mixed with soil |
"""


def _judged(claim: str, text: str) -> dict[str, object]:
    source = Source(id="doc", kind="document", text=text)
    (judged,) = answer_to_json(verify(f"{claim} [doc]", [source]))["claims"]
    support: dict[str, object] = judged["support"][0]
    return support


@pytest.mark.parametrize(
    ("claim", "text", "verdict", "says"),
    [
        (  # the row's first cell, a value, its column named by a rate's period
            "The 8-tonne tracked excavator is hired at £620 a week, with a minimum hire of two "
            "weeks.",
            RENTAL,
            "supported",
            "the table's row “8-tonne tracked excavator” states this under “Weekly rate per "
            "item”, “Minimum hire”",
        ),
        (  # a verb that only states a value; the column named in full
            "Ocean freight from Ningbo to Felixstowe for a 40ft high cube container is quoted "
            "at $2,950.",
            FREIGHT,
            "supported",
            "the table's row “Ocean freight Ningbo to Felixstowe” states this under “40ft high "
            "cube”",
        ),
        (  # the 40ft price said of the 20ft container: the claim names another column
            "Origin charges in Ningbo are $420 for a 20ft container.",
            FREIGHT,
            "",
            "",
        ),
        (  # another row's value
            "The 8-tonne tracked excavator costs £290 a week.",
            RENTAL,
            "",
            "",
        ),
        (  # a value whose column the claim does not name
            "The minimum hire of the 8-tonne tracked excavator is 1 week.",
            RENTAL,
            "",
            "",
        ),
        (  # a bound the row does not say
            "The 8-tonne tracked excavator costs at least £620 a week.",
            RENTAL,
            "",
            "",
        ),
        (  # a denial the row does not say
            "The 8-tonne tracked excavator is not hired at £620 a week.",
            RENTAL,
            "",
            "",
        ),
        (  # "has to" says the row's "Must" in other words
            "Plasterboard costs £165 a tonne and has to be kept separate from other waste.",
            WASTE,
            "supported",
            "the table's row “Plasterboard” states this under “Price per tonne”, “Conditions”",
        ),
        (  # "has to" is no "May"
            "Green waste costs £48 a tonne and has to be mixed with soil.",
            WASTE,
            "",
            "",
        ),
    ],
)
def test_a_table_row_states_a_claim_under_its_headings(
    claim: str, text: str, verdict: str, says: str
) -> None:
    """`supported` with rule `table.row` only where the row and its headings say it all;
    otherwise never `supported`."""
    support = _judged(claim, text)
    if verdict:
        assert (support["verdict"], support["rule"], support["reason"]) == (
            verdict,
            "table.row",
            says,
        )
    else:
        assert support["verdict"] != "supported", support
        assert support["rule"] != "table.row"


def test_a_word_table_row_is_read_under_its_heading_row(tmp_path: Path) -> None:
    """A DOCX table as citeproof reads it (cells joined by " | ", the heading row first)."""
    path = tmp_path / "tariff.docx"
    path.write_bytes(
        docx_bytes(
            ["Business account tariff", "These charges apply from 1 May."],
            [
                ["Service", "Standard account", "Plus account"],
                ["CHAPS payment out", "£25.00", "£20.00"],
                ["International SWIFT payment out", "£22.00", "£15.00"],
            ],
        )
    )
    source = read_source_file(path)
    text = source.text
    start = text.index("CHAPS payment out")
    (row,) = rows_of(text, (start, text.index("\n", start) if "\n" in text[start:] else len(text)))
    assert row.heading == ("Service", "Standard account", "Plus account")
    stated = _judged_source("A CHAPS payment out costs £20.00 on the Plus account.", source)
    assert (stated["verdict"], stated["rule"]) == ("supported", "table.row")
    swapped = _judged_source("A CHAPS payment out costs £20.00 on the Standard account.", source)
    assert swapped["verdict"] != "supported"


def _judged_source(claim: str, source: Source) -> dict[str, object]:
    (judged,) = answer_to_json(verify(f"{claim} [{source.id}]", [source]))["claims"]
    support: dict[str, object] = judged["support"][0]
    return support


def test_a_row_without_a_heading_row_is_no_table_row() -> None:
    text = "Notes\n| a stray line | with a bar |\nMore text."
    start = text.index("| a stray")
    assert rows_of(text, (start, text.index("\n", start))) == []


PRICES = """# Kingsway Print Services: price list 2027

Prices apply to orders placed from 1 January 2027. All prices exclude VAT.

| Product | 250 copies | 500 copies | 1,000 copies |
|---|---|---|---|
| A5 flyers, single-sided | £38 | £52 | £79 |
| Business cards, matt | £29 | £35 | £49 |

Delivery is free on orders over £150; otherwise it costs £8.50 per order.
"""


def test_a_table_read_as_one_sentence_is_read_row_by_row() -> None:
    """A Markdown table has no full stops, so the whole table may be one located sentence:
    each of its rows is read under the heading, and a figure the fact layer read across the
    cells ("the passage says “£29”, not “£49”") is no contradiction where the row states it."""
    start = PRICES.index("| Product")
    rows = rows_of(PRICES, (start, PRICES.index("\n\nDelivery")))
    assert [row.cells[0] for row in rows] == ["A5 flyers, single-sided", "Business cards, matt"]
    support = _judged("1,000 matt business cards are £49.", PRICES)
    assert (support["verdict"], support["rule"], support["reason"]) == (
        "supported",
        "table.row",
        "the table's row “Business cards, matt” states this under “1,000 copies”",
    )
    assert _judged("500 matt business cards are £49.", PRICES)["verdict"] == "contradicted"
    assert _judged("A5 single-sided flyers are £52 for 250 copies.", PRICES)["verdict"] != (
        "supported"
    )


def test_a_figure_under_another_column_than_the_claim_names_is_never_confirmed() -> None:
    """The sentence rules read a table as a run of words; the figure a claim gives must stand
    under the column it names ("£52" is the 500-copy price, not the 250-copy one), whichever
    rule would confirm it."""
    start = PRICES.index("| Product")
    rows = rows_of(PRICES, (start, PRICES.index("\n\nDelivery")))
    assert another_column("A5 single-sided flyers are £52 for 250 copies.", rows) == (
        "the table gives “£52” under “500 copies”, not under the column the claim names"
    )
    assert another_column("A5 single-sided flyers are £52 for 500 copies.", rows) is None
    assert another_column("Matt business cards are £29 for 250 copies.", rows) is None


CUSTOMS = """# Customs charges

| Service | Charge | Notes |
|---|---|---|
| Import declaration, sea or road | £42.00 | per entry, includes up to 5 commodity lines |
| Additional commodity lines | £3.50 | per line above 5 |
| Air freight entry | £55.00 | per entry, includes up to 5 commodity lines |
"""


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("An air freight entry costs £55 and includes up to five commodity lines.", "supported"),
        ("An air freight entry costs £42.", "contradicted"),
        ("An air freight entry costs £55 and includes up to six commodity lines.", "contradicted"),
    ],
)
def test_what_a_row_costs_is_its_charge_and_a_cell_may_say_what_its_figure_is(
    claim: str, verdict: str
) -> None:
    """ "costs" names the "Charge" column (a price noun), and "includes up to 5 commodity
    lines" says what its own 5 is, whatever the column's heading ("Notes")."""
    support = _judged(claim, CUSTOMS)
    assert support["verdict"] == verdict, support
    if verdict == "supported":
        assert support["rule"] == "table.row"


PLANS = """# Funeral plans

| Plan | Price paid in one sum | Monthly instalments | What the plan includes |
|---|---|---|---|
| Simple | £3,450 | £148.75 over 24 months; £66.50 over 60 months | Direct cremation |
| Traditional | £4,650 | £199.50 over 24 months; £88.25 over 60 months | Hearse, one \
limousine, a crematorium service of up to 40 minutes, an oak veneer coffin and the cremation \
fee |
| Premier | £6,200 | £265 over 24 months; £116 over 60 months | As Traditional, plus a second \
limousine, a solid oak coffin, an obituary notice and £400 towards a wake |
"""


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("The Premier plan includes £400 towards a wake.", True),
        ("Like the Premier plan, the Traditional plan includes £400 towards a wake.", False),
    ],
)
def test_a_row_is_stated_of_what_the_claim_is_about_not_what_it_is_compared_with(
    claim: str, supported: bool
) -> None:
    """ "Like the Premier plan" compares the Traditional plan with the Premier row: the row
    states nothing of the Traditional plan, whose name stands in the Premier row's cell."""
    support = _judged(claim, PLANS)
    assert (support["verdict"] == "supported") is supported, support


VET = """# Price list

| Treatment | Price | Includes |
|---|---|---|
| Annual booster vaccination | £58 dog, £54 cat | Health check with the vet |
| Microchipping | £22 | Registration on a national database |
"""


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("An annual booster vaccination for a cat costs £54.", "supported"),
        ("An annual booster vaccination for a dog costs £58.", "supported"),
        ("An annual booster vaccination for a cat costs £58.", "unconfirmed"),
    ],
)
def test_a_cell_of_several_values_gives_each_with_its_own_words(claim: str, verdict: str) -> None:
    """ "£58 dog, £54 cat": each price stands by its animal, and the row states the cat's
    price only as £54."""
    support = _judged(claim, VET)
    assert support["verdict"] == verdict, support
    if verdict == "supported":
        assert support["rule"] == "table.row"


HAULAGE = """# Rate card

| Vehicle | Payload | Day rate | Extra hour | Part-load minimum |
|---|---|---|---|---|
| 18 t curtainsider | 9 t | £330 | £28 | £160 |
| 26 t rigid with tail lift | 14 t | £395 | £32 | £190 |

Rates exclude VAT and tolls.
"""


def test_a_figure_of_another_row_than_the_claim_names_is_never_confirmed() -> None:
    """ "£160" is the curtainsider's part-load minimum: said of the rigid, whose row the
    claim names by its first cell's words, it is another row's figure, whichever rule or
    model would confirm the claim."""
    start = HAULAGE.index("| Vehicle")
    rows = rows_of(HAULAGE, (start, HAULAGE.index("\n\nRates")))
    claim = "The part-load minimum for the 26-tonne rigid with a tail lift is £160."
    assert another_row(claim, rows) == (
        "the table gives “£160” in the row “18 t curtainsider”, not in the row “26 t rigid "
        "with tail lift” the claim names"
    )
    assert another_row(claim.replace("£160", "£190"), rows) is None
    assert another_row("The curtainsider's part-load minimum is £160.", rows) is None
    assert _judged(claim, HAULAGE)["verdict"] != "supported"


CARDS = """# Fuel cards

| Card | Monthly fee per card | Daily limit per card |
|---|---|---|
| Standard | £1.50 | £250 |
| Plus | £2.75 | £400 |
"""


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("The Plus card has a monthly fee of £2.75 and a daily limit of £400.", True),
        ("The Plus card has to be paid for at £2.75 a month.", False),
        ("The Plus card has a daily limit of £250.", False),
    ],
)
def test_has_with_an_object_says_what_a_cell_holds(claim: str, supported: bool) -> None:
    """ "has a daily limit of £400" says what the row's cell holds; "has to" is an
    obligation the row does not state."""
    support = _judged(claim, CARDS)
    assert (support["verdict"] == "supported") is supported, support
    if supported:
        assert support["rule"] == "table.row"
