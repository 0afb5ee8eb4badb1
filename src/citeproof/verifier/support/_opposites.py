"""Words whose swap turns a claim round: "last" where the passage says "first", "approved"
where it says "declined", "the tenant" where it says "the landlord".

The fact layer (`_facts`) reads a claim word aligned against one of its opposites in the
passage, where the claim does not also use that opposite, as the passage saying something
else: a conflict with ``instead`` set, like another number in a number's place. Each group
below is a set of mutually exclusive words (a party and its counterparty, a verdict and its
reverse, one frequency and the others); each word is matched by its token key (its stem),
so "approves" and "approved" are one word. Kept to words that cannot both hold of the same
thing: "terminate" and "renew", or "must" and "may", are not here.
"""

from __future__ import annotations

from functools import cache

from citeproof.verifier.support._text import Token, tokenize

# What is decided of one thing (a request, a cover, a plan) or said of it (a forecast raised,
# demand weak): wherever a sentence puts it, a sentence that says one of these of the claim's
# subject says the other is not so.
VERDICTS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (
        ("approve", "approved", "accept", "accepted", "grant", "granted", "agree", "agreed"),
        ("decline", "declined", "reject", "rejected", "refuse", "refused", "deny", "denied"),
    ),
    (
        ("allow", "allowed", "permit", "permitted"),
        ("prohibit", "prohibited", "forbid", "forbidden", "ban", "banned"),
    ),
    (
        ("include", "includes", "included", "inclusive", "cover", "covers", "covered"),
        ("exclude", "excludes", "excluded", "exclusive"),
    ),
    (
        ("proceed", "proceeds", "proceeded", "ahead"),
        ("cancel", "cancels", "cancelled", "canceled", "scrapped", "abandoned"),
        ("postpone", "postponed", "deferred"),
    ),
    (("mandatory", "compulsory", "required"), ("optional", "voluntary")),
    (("limited", "capped"), ("unlimited", "uncapped")),
    # and what is said of a forecast, a price, demand
    (
        ("raise", "raised", "raises"),
        ("lowered", "lowers", "cut", "cuts", "reduce", "reduced"),
        ("unchanged",),  # "kept its forecast unchanged" where it was lowered
    ),
    (("strong", "stronger", "robust"), ("weak", "weaker")),
)

GROUPS: tuple[tuple[tuple[str, ...], ...], ...] = (
    # Ordinals and ends
    (("first", "earliest"), ("last", "latest", "final")),
    (("before", "prior", "earlier"), ("after", "later")),
    (("start", "beginning", "commencement"), ("end", "expiry")),
    (("advance",), ("arrears",)),
    (("minimum",), ("maximum",)),
    (("upper",), ("lower",)),
    *VERDICTS,
    (("open", "opened"), ("closed", "shut")),
    (("win", "won"), ("lose", "lost")),
    (("pass", "passed"), ("fail", "failed")),
    (("valid",), ("invalid",)),
    (("legal", "lawful"), ("illegal", "unlawful")),
    (("possible",), ("impossible",)),
    (("internal",), ("external",)),
    (("inside",), ("outside",)),
    (("for",), ("against",)),
    (("present",), ("absent",)),
    (("true",), ("false",)),
    # Terms of a loan, a price, a result
    (
        ("unchanged", "flat", "steady", "stable", "stays", "stayed", "remains", "remained"),
        ("rose", "rise", "risen", "grew", "grow", "grown", "increased", "increase"),
        ("fell", "fall", "fallen", "declined", "decreased", "decrease", "dropped", "cut"),
    ),
    (("secured",), ("unsecured",)),
    (("fixed",), ("variable", "floating")),
    (("gross",), ("net",)),
    (("plus",), ("including", "inclusive")),  # "25 days plus public holidays"
    (("profit", "profits"), ("loss", "losses")),
    (("public",), ("private",)),
    # A party and its counterparty
    (("landlord", "lessor"), ("tenant", "lessee")),
    (("buyer", "purchaser"), ("seller", "vendor")),
    (("lender", "creditor"), ("borrower", "debtor")),
    (("employer",), ("employee",)),
    (("licensor",), ("licensee",)),
    (("supplier", "provider"), ("customer", "client")),
    (("plaintiff", "claimant"), ("defendant", "respondent")),
    (("sender",), ("recipient",)),
    (("payer",), ("payee",)),
    # What one party does and the other
    (("buy", "buys", "bought"), ("sell", "sells", "sold")),
    (("lend", "lends", "lent"), ("borrow", "borrows", "borrowed")),
    # How often
    (("daily",), ("weekly",), ("monthly",), ("quarterly",), ("annually", "annual", "yearly")),
)


@cache
def _table(groups: tuple[tuple[tuple[str, ...], ...], ...] = GROUPS) -> dict[str, frozenset[str]]:
    """For each word's key, the keys of the words that exclude it in ``groups``."""
    out: dict[str, set[str]] = {}
    for group in groups:
        keys = [{_key(word) for word in side} for side in group]
        for index, side in enumerate(keys):
            others = set().union(*(k for j, k in enumerate(keys) if j != index))
            for key in side:
                out.setdefault(key, set()).update(others - side)
    return {key: frozenset(value) for key, value in out.items()}


def _key(word: str) -> str:
    (token,) = tokenize(word)
    return token.key


# Words whose stem is a word above but which mean something else: "The probation lasts half
# a year" says nothing of a first or last thing.
_HOMOGRAPHS = frozenset({"lasts", "lasted", "lasting"})


def opposites(word: Token) -> frozenset[str]:
    """The keys of the words that cannot hold where ``word`` holds."""
    if word.text.casefold() in _HOMOGRAPHS:
        return frozenset()
    return _table().get(word.key, frozenset())


# Prefixes that make a word its own negation, with the letter the rest must start with ("ir"
# only before "r": "irrevocable"; "il" only before "l": "illiquid"). "in", "im" and "dis" are
# left out: "inform", "impose" and "discover" are no negations of "form", "pose" and "cover".
_NEGATING_PREFIXES = (("un", ""), ("non", ""), ("ir", "r"), ("il", "l"))
_SHORTEST_REST = 4  # "unit" is no negation of "it"


def negated_by_prefix(word: Token, other: Token, other_text: str | None = None) -> bool:
    """Whether one of two words is the other with a prefix that negates it: "undisputed"
    and "disputes", "unpaid" and "paid", "irrevocable" and "revocable", "non-assignable"
    and "assigned" (compared by key, "-able" aside, so any inflection). ``other_text`` is
    what to read for ``other`` when it is more than its token ("non-assignable", two
    tokens)."""
    return prefix_negates(other_text or other.text, word) or prefix_negates(word.text, other)


def prefix_negates(prefixed: str, word: Token) -> bool:
    """Whether ``prefixed`` (a text: "non-assignable", "unpaid") is ``word`` with a prefix
    that negates it: "cannot be assigned" says what "non-assignable" says."""
    return _root(_unprefixed(prefixed.casefold())) == _root(word.key)


def _root(key: str | None) -> str | None:
    """A key without "-able" ("assignabl" -> "assign"), so "assigned" and "assignable" meet."""
    if key is None:
        return None
    for suffix in ("abl", "ibl"):
        if key.endswith(suffix) and len(key) - len(suffix) >= _SHORTEST_REST:
            return key[: -len(suffix)]
    return key


@cache
def _unprefixed(text: str) -> str | None:
    """The key of ``text`` without a negating prefix, or None when it has none."""
    for prefix, next_letter in _NEGATING_PREFIXES:
        rest = text.removeprefix(prefix).removeprefix("-")
        if rest != text and len(rest) >= _SHORTEST_REST and rest.startswith(next_letter):
            tokens = tokenize(rest)
            return tokens[0].key if len(tokens) == 1 else None
    return None


def verdict_opposites(word: Token) -> frozenset[str]:
    """As `opposites`, for a verdict word only (`VERDICTS`: "approved", "covered",
    "cancelled"); empty for any other word."""
    return _table(VERDICTS).get(word.key, frozenset())
