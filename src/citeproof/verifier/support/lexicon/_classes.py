"""Word classes by lemma: modality, negation, quantity, direction, conditions, attribution."""

from __future__ import annotations

from typing import Literal

Deontic = Literal["obligation", "permission", "prohibition", "no_obligation", "plain"]

MODALITY: dict[str, Literal["obligation", "permission"]] = {
    "must": "obligation",
    "shall": "obligation",
    "require": "obligation",  # "is required to"
    "oblige": "obligation",
    "obligate": "obligation",
    "need": "obligation",
    "have": "obligation",  # "has to" (only with a `to` infinitive: see the modality rule)
    "may": "permission",
    "can": "permission",
    "could": "permission",
    "might": "permission",
    "entitle": "permission",
    "permit": "permission",
    "allow": "permission",
    "able": "permission",  # "is able to", "was not able to"
}
"""Lemmas that make a clause an obligation or a permission (with a negation: a prohibition,
or no obligation)."""

NEGATORS = frozenset({"not", "n't", "never", "no", "none", "nobody", "nothing", "neither", "nor"})

ANYONE = frozenset(
    {"one", "nobody", "anyone", "anybody", "everyone", "everybody", "someone", "none"}
)
"""Doers that stand for anyone ("no one may", "everyone must"): a claim naming a party is
said of them too."""

QUANTIFIERS: dict[str, str] = {
    "all": "all",
    "every": "all",
    "each": "all",
    "any": "any",
    "either": "any",  # "either party may" = "each party may"
    "both": "all",
    "whole": "all",
    "entire": "all",
    "some": "some",
    "several": "some",
    "certain": "some",
    "one": "some",
    "only": "only",
    "alone": "only",
    "solely": "only",
    "exclusively": "only",
    "sole": "only",
    "least": "at_least",
    "minimum": "at_least",
    "most": "at_most",
    "maximum": "at_most",
    "cap": "at_most",  # "capped at $2 million"
    "up": "at_most",  # "up to"
    "exceed": "more",
    "more": "more",
    "over": "more",
    "fewer": "less",
    "less": "less",
    "under": "less",
}
"""Quantity words by the class a restatement must keep ("each" = "every", "minimum" = "at
least"); see `quantifier_of` for the two-word forms."""

BOUNDS = frozenset(
    {w for w, kind in QUANTIFIERS.items() if kind in ("at_least", "at_most", "more", "less")}
    | {"above", "below", "beyond", "within", "after", "before", "by", "until", "exceeds"}
    | {"exceeding", "than"}
)
"""Words that make a figure a bound ("at least 10 years", "more than 45 days", "after 13:00",
"up to £50"): a rule said of every figure on one side of it, not one figure."""

_DIRECTION_PAIRS = (
    ("increase", "decrease"),
    ("rise", "fall"),
    ("raise", "lower"),
    ("raise", "reduce"),
    ("increase", "reduce"),
    ("up", "down"),
    ("higher", "lower"),
    ("high", "low"),
    ("above", "below"),
    ("over", "under"),
    ("before", "after"),
    ("earlier", "later"),
    ("early", "late"),
    ("prior", "after"),
    ("earliest", "latest"),
    ("first", "last"),
    ("add", "deduct"),
    ("add", "subtract"),
    ("more", "less"),
    ("more", "fewer"),
    ("gain", "loss"),
    ("profit", "loss"),
    ("grow", "shrink"),
    ("expand", "contract"),
    ("exceed", "below"),
    ("maximum", "minimum"),
    ("most", "least"),
    ("upper", "lower"),
    ("surplus", "deficit"),
    ("credit", "debit"),
    ("accept", "reject"),
    ("approve", "reject"),
    ("approve", "decline"),
    ("include", "exclude"),
    ("start", "end"),
    ("begin", "end"),
    ("open", "close"),
    ("win", "lose"),
)
DIRECTIONS: dict[str, frozenset[str]] = {}
for _a, _b in _DIRECTION_PAIRS:
    DIRECTIONS.setdefault(_a, frozenset())
    DIRECTIONS.setdefault(_b, frozenset())
    DIRECTIONS[_a] |= {_b}
    DIRECTIONS[_b] |= {_a}
"""For each lemma that points one way, the lemmas that point the other."""

_SAME_WAY = {
    "increase": "up",
    "rise": "up",
    "raise": "up",
    "grow": "up",
    "gain": "up",
    "climb": "up",
    "higher": "up",
    "up": "up",
    "decrease": "down",
    "fall": "down",
    "reduce": "down",
    "lower": "down",
    "drop": "down",
    "decline": "down",
    "cut": "down",
    "shrink": "down",
    "down": "down",
    "above": "up",
    "over": "up",
    "exceed": "up",
    "more": "up",
    "below": "down",
    "under": "down",
    "less": "down",
    "fewer": "down",
    "before": "before",
    "prior": "before",
    "earlier": "before",
    "after": "after",
    "later": "after",
    "following": "after",
    "afterwards": "after",  # "puts it in funds afterwards" is not "first"
    "afterward": "after",
    "subsequently": "after",
    "thereafter": "after",
    "beforehand": "before",
}


def direction_of(lemma: str) -> str | None:
    """The way ``lemma`` points ("up": more, above, over, rise; "down"; "before"; "after"),
    or None."""
    return _SAME_WAY.get(lemma)


TIME_OPENERS = {"until": "before", "till": "before", "once": "after"}
"""Words that open a clause of time, and the side of its event they speak of: "may not move
until 12 instalments have been paid" (before them) against "once 12 instalments have been
paid" (after them)."""


BOUND_BY_TIME = {
    "later": "at_most",
    "long": "at_most",
    "longer": "at_most",
    "early": "at_least",
    "earlier": "at_least",
    "soon": "at_least",
    "sooner": "at_least",
}
"""The comparatives of time that bound after "no" or "not": "no later than 180 days" is at
most 180 days, "no earlier than 120 days" at least 120."""

OR_BEYOND: dict[str, str] = {
    "more": "at_least", "over": "at_least", "above": "at_least",
    "less": "at_most", "fewer": "at_most", "under": "at_most", "below": "at_most",
}  # fmt: skip
"""The word after a figure's "or" or "and" that bounds the figure: "200 or more" is at least
200, "18 or under" at most 18."""


def quantifier_of(lemma: str, before: str = "") -> str | None:
    """The class of a quantity word, reading the word ``before`` it ("at least", "no more",
    "not exceed", "up to", "as often as")."""
    if lemma == "least" and before == "at":
        return "at_least"
    if lemma == "most" and before == "at":
        return "at_most"
    if lemma in ("more", "exceed") and before in ("no", "not", "not be", "no more"):
        return "at_most"
    if lemma in ("less", "fewer") and before in ("no", "not", "not be"):
        return "at_least"
    if lemma in BOUND_BY_TIME and before in ("no", "not", "not be"):
        return BOUND_BY_TIME[lemma]  # "no later than 180 days", "no earlier than 120 days"
    if lemma in ("many", "often") and before == "as":
        return "all"  # "as many times as needed", "as often as it likes": no limit
    if lemma in ("up", "most", "least", "over", "under"):
        return None  # only in the two-word forms above: "up the chain", "most of"
    return QUANTIFIERS.get(lemma)


DENYING = frozenset({"without", "only", "free", "fixed", "outside", "cannot"})
"""Words that deny in their meaning, beside `NEGATORS`: "free of charge" (no charge), "fixed
for the first year" (not changed), "only the Client may" (no one else), "outside the cover",
"without notice". A passage that says one of them may deny what a claim denies with "not"
in other words. An exception ("unless", "except") is no denial of the statement it carves
from: a claim that restates it is `polarity.exception`'s."""

SETTING_ASIDE = frozenset({"rather", "instead"})
"""Words by which a claim sets aside what a passage denies with "not": "valued in Application
8 rather than in this payment" for "valued in Application 8, not in this payment"."""

CONDITIONS = frozenset({"unless", "except", "excepting", "provided", "providing", "if", "save"})
"""Words that open a condition or an exception a restatement may not drop ("unless", "except
that", "provided that", "if"); the two-word openers are `CONDITION_PAIRS`."""

CONDITION_PAIRS = frozenset(
    {
        ("subject", "to"),
        ("other", "than"),
        ("apart", "from"),
        ("only", "if"),
        ("as", "long"),
        ("so", "long"),
    }
)
"""Two-word openers of a condition: "subject to", "other than", "apart from", "only if", "as
long (as)"."""

NECESSARY_CONDITIONS = frozenset({"provided", "providing", "subject", "long", "only"})
"""The openers of a condition that must hold for the statement to hold ("provided that",
"subject to", "as long as", "only if"), which a claim may restate as "only if"; a bare "if"
says only that the condition is enough."""

CARVING_OUT = frozenset({"apply"})
"""Verbs that, denied in a sentence of its own right after a statement, carve an exception out
of it: "The discount does not apply to Health and Safety Leadership"."""

CARVED_IF = frozenset({"if", "where", "when"})
"""The openers of a condition under which a sentence of its own, pointing back, denies the
statement before it: "This fee is not payable if ..."."""

CONDITION_WORDS = frozenset({"excluding", "notwithstanding"})
"""One-word openers that are not conjunctions ("excluding", "notwithstanding")."""

THIRD_PERSON = frozenset({"he", "she", "they", "it"})
"""The pronouns that stand for someone or something named before ("It may buy ...", "They
cannot be paid ...")."""

EXCEPTIONS = frozenset(
    {"unless", "except", "excepting", "save", "excluding", "other", "apart", "less", "minus"}
)
"""The openers of `CONDITIONS`, `CONDITION_PAIRS` and `CONDITION_WORDS` that carve an
exception out of a statement ("unless", "except", "other than", "apart from", "excluding";
"less" and
"minus" a deduction: "all fees paid, less its costs"), where the others make it conditional
("if", "provided that", "subject to")."""

DOCUMENTS = frozenset(
    {
        "agreement", "contract", "terms", "term", "policy", "lease", "licence", "license",
        "clause", "section", "schedule", "deed", "rule", "plan", "notice", "letter", "email",
        "memo", "minutes", "report", "statement", "document", "tariff", "handbook", "manual",
    }
)  # fmt: skip
"""Nouns that name a document: "under the reseller terms", "per the contract" frame a claim,
they are not what it says."""

FRAMING_PREPOSITIONS = frozenset({"under", "per", "in"})
"""Prepositions that frame a claim with a document ("Under the lease, ...")."""

ATTRIBUTION = frozenset(
    {
        "say",
        "state",
        "note",
        "write",
        "mention",
        "confirm",
        "report",
        "explain",
        "record",
        "specify",
        "provide",
        "stipulate",
        "set",
        "according",
        "indicate",
        "show",
    }
)
"""Verbs (and "according to") that only attribute what follows to a source: "the lease
states that ..." asks the source for what follows, not for the word "states"."""

ASKING = frozenset({"ask", "wonder", "query", "enquire", "inquire"})
"""Verbs that report a question: what they report is the question itself ("Ruth asked
whether someone would come back" is her "will someone come back ...?")."""

OBJECT_CONTROL = frozenset(
    {
        "advise", "allow", "ask", "authorise", "authorize", "cause", "compel", "direct",
        "enable", "encourage", "entitle", "expect", "force", "instruct", "invite", "oblige",
        "order", "permit", "persuade", "remind", "request", "require", "tell", "want", "warn",
    }
)  # fmt: skip
"""Verbs whose object does what follows ("asked Payroll to approve": Payroll approves); after
any other verb its subject does ("Carers may use your money to buy": the carers buy)."""

LIGHT_VERBS = frozenset(
    {
        "be",
        "have",
        "get",
        "carry",
        "bear",
        "make",
        "do",
        "hold",
        "apply",
        "come",  # "came to £14,424"
        "reach",  # "reached £168.2 million"
        "stand",
        "remain",
        "stay",  # "stays valid until 11 March"
        "relate",  # "£720 relates to the gift box line"
        "occur",
        "happen",
        "take",  # "takes a backup", "take place"
        "last",  # "an outage lasting five minutes"
        "serve",  # "serves notice"
        "put",  # "the valuation put the loan-to-value at 83%"
    }
)
"""Verbs that carry little of their own: "Facility B carries a Margin of 2.75%" says what
"the Margin for Facility B is 2.75%" says; their objects and figures must still match."""

PER_PERIOD: dict[str, str] = {
    "hourly": "hour",
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "quarterly": "quarter",
    "yearly": "year",
    "annual": "year",
    "annually": "year",
}
"""A rate's adjective and the period it is per: "£620 a week" is the "weekly rate", "£95 per
bay per month" the "monthly fee"."""
RATE_WORDS = frozenset({"a", "an", "per", "each", "every"})
"""Words that make the period after them a rate's: "a week", "per month"."""

PRICE_NOUNS = frozenset({"price", "fee", "charge", "cost", "rate", "tariff"})
"""Nouns that name what a thing costs: "the Fixed Desk plan costs £345 a month" says what the
row's "Monthly fee" does."""

TIME_WORDS = frozenset({"date", "day", "week", "month", "quarter", "year", "period", "time"})
"""Nouns that say when: "the limit on the Test Date" says when the limit holds, not only
which limit it is."""

STATING_VERBS = frozenset({"cost", "charge", "price", "quote", "total", "amount"})
"""Verbs that only state a value of what they are said of: "The excavator costs £620 a week"
says what a table's row "8-tonne tracked excavator" gives under "Weekly rate": a row has no
verb, so these need none in it (`confirm._table`); the value must still match."""

DISCOURSE = frozenset(
    {
        "instead",
        "rather",
        "normally",
        "usually",
        "generally",
        "also",
        "then",
        "now",
        "already",
        "respectively",
        "otherwise",
        "addition",  # "in addition to"
        "long",  # "as long as": a condition, read by the condition rule
        "time",  # "one time", "at any time": quantity words carry it
        "currently",
        "together",
    }
)
"""Words that order or connect what a claim says, with nothing of their own to back."""
