"""The fact layer's rules, one id each: what `_facts.check_facts` found a claim's passage to
say instead of the claim (another figure, date, name or word in its place, a denial on one
side only, two things or two parties the other way round).

Each finding of the fact layer names one of these ids (`FactCheck.rules`), and a
`contradicted` verdict it decides carries it as its `rule`. `FACT_RULES` lists them in the
order docs/claim-support.md documents them, each with an example a table test keyed by its
id checks (tests/test_support_rules.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FactRule:
    """One rule of the fact layer: its id, what it checks, and an example: a claim, the
    passage it cites, and the reason a reader is given."""

    id: str
    checks: str
    example: tuple[str, str, str]


NUMBER = "facts.number"
DATE = "facts.date"
NAME = "facts.name"
COMPARATIVE = "facts.comparative"
WORD = "facts.word"
NEGATION = "facts.negation"
FIGURE_ELSEWHERE = "facts.figure_elsewhere"
TIME_TURNED = "facts.time_turned"
ORDER_TURNED = "facts.order_turned"
RANGE_TURNED = "facts.range_turned"
TIME_LIMITED = "facts.time_limited"
SHARE_TURNED = "facts.share_turned"
PARTIES_SWAPPED = "facts.parties_swapped"
DOER_SWAPPED = "facts.doer_swapped"
SCOPE_SWAPPED = "facts.scope_swapped"
SUBJECT_SWAPPED = "facts.subject_swapped"

FACT_RULES: tuple[FactRule, ...] = (
    FactRule(
        NUMBER,
        "A number of the claim (an amount, a percentage, a count, a length of time) stands "
        "in the passage as another number, where the claim's words around it align.",
        (
            "Facility A carries a Margin of 2.95% per annum.",
            "Facility A carries a Margin of 2.75% per annum.",
            "the passage says “2.75%”, not “2.95%”",
        ),
    ),
    FactRule(
        DATE,
        "A date or year of the claim stands in the passage as another.",
        (
            "The lease ends on 31 March 2031.",
            "The lease ends on 31 March 2030.",
            "the passage says “2030”, not “2031”",
        ),
    ),
    FactRule(
        NAME,
        "A name of the claim stands in the passage as another name.",
        (
            "The loan was approved by Priya Shah.",
            "The loan was approved by Daniel Shah.",
            "the passage says “Daniel”, not “Priya”",
        ),
    ),
    FactRule(
        COMPARATIVE,
        "A comparative or change (above / below, more / less, rose / fell) points the other "
        "way in the passage, about the same thing.",
        (
            "Revenue rose 12% in the year.",
            "Revenue fell 12% in the year.",
            "the passage says “fell”, not “rose”",
        ),
    ),
    FactRule(
        WORD,
        "A word of the claim stands in the passage as a word that excludes it: the other "
        "of a pair (first / last, approved / declined, tenant / landlord, annually / "
        "quarterly: `_opposites.py`), or its own negation (undisputed, non-assignable).",
        (
            "Rent is paid on the last working day of each month.",
            "Rent is paid on the first working day of each month.",
            "the passage says “first”, not “last”",
        ),
    ),
    FactRule(
        NEGATION,
        "A denial on one side only: the claim denies what the passage states, or the "
        "passage denies what the claim states (“not”, “never”, “no”, “cannot”).",
        (
            "The Supplier is liable for indirect loss.",
            "The Supplier is not liable for indirect loss.",
            "the passage says “not”, which the claim leaves out",
        ),
    ),
    FactRule(
        FIGURE_ELSEWHERE,
        "A figure of the claim the passage states of something else, where a word the "
        "claim says of the figure stands in the passage beside another figure of the same "
        "unit.",
        (
            "The excess for subsidence claims is £250.",
            "The excess is the first £250 of every claim, or £1,000 for subsidence claims.",
            "the passage says “£1,000”, not “£250”",
        ),
    ),
    FactRule(
        TIME_TURNED,
        "The claim puts in, within or before a point of time what the passage puts after it.",
        (
            "Fees can rise in the first year.",
            "Fees can rise only after the first anniversary.",
            "the passage says “after the first anniversary”, not “in the first year”",
        ),
    ),
    FactRule(
        ORDER_TURNED,
        "The claim puts two things the other way round from the passage around “before”, "
        "“after” or “then”.",
        (
            "An offer may be issued before the referral to a senior underwriter.",
            "Applications must be referred to a senior underwriter before an offer is issued.",
            "the passage says “be referred to a senior underwriter before an offer is "
            "issued”, not “An offer may be issued before the referral to a senior "
            "underwriter”",
        ),
    ),
    FactRule(
        RANGE_TURNED,
        "The claim's “from A to B” where the passage says “from B to A”.",
        (
            "The installation was moved from April to March.",
            "The installation was moved from March to April.",
            "the passage says “from March to April”, not “from April to March”",
        ),
    ),
    FactRule(
        TIME_LIMITED,
        "The claim's “at any time” where the passage sets a limit of time or of how often.",
        (
            "Credits can be requested at any time after the end of the month.",
            "Credits must be requested within 30 days after the end of the month.",
            "the passage says “within 30 days”, not “at any time”",
        ),
    ),
    FactRule(
        SHARE_TURNED,
        "The claim's “both” or “all” where the passage says one or some of them.",
        (
            "The agent refunded both charges.",
            "The agent issued a refund for one of the two charges.",
            "the passage says “one of the two charges”, not “both charges”",
        ),
    ),
    FactRule(
        PARTIES_SWAPPED,
        "The claim names a party and its counterparty the other way round from the "
        "passage (not across a passive “by”).",
        (
            "The Licensee may audit the Licensor's use of the software.",
            "The Licensor may audit the Licensee's use of the software.",
            "the passage says “Licensor may audit the Licensee's”, not “Licensee may audit "
            "the Licensor's”",
        ),
    ),
    FactRule(
        DOER_SWAPPED,
        "The claim gives a named person's act to another person the passage names.",
        (
            "Tom will lead the migration.",
            "Sarah will lead the migration; Tom will handle testing.",
            "the passage says “Sarah will lead”, not “Tom will lead”",
        ),
    ),
    FactRule(
        SCOPE_SWAPPED,
        "Who may do a thing, widened or narrowed: either party for one, or one party alone "
        "for either.",
        (
            "Only the Customer may terminate this agreement for convenience on 30 days' notice.",
            "Either party may terminate this agreement for convenience on 30 days' notice.",
            "the passage says “Either party may terminate”, not “Only the Customer may terminate”",
        ),
    ),
    FactRule(
        SUBJECT_SWAPPED,
        "The passage's best clause says the rest of the claim of another thing than the "
        "claim's subject, and says something else of the claim's subject elsewhere.",
        (
            "Title passes to the Buyer on delivery.",
            "Risk in the Goods passes to the Buyer on delivery; title passes only when the "
            "Buyer has paid in full.",
            "the passage says “Risk in the Goods passes”, not “Title passes”",
        ),
    ),
)
"""Every rule of the fact layer, in the order docs/claim-support.md lists them."""
