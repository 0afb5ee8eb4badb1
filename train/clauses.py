"""Clause-shaped pairs: who may do what, on what condition, within which limit.

The public NLI sets hold few sentences shaped like a contract, a credit policy or a support
ticket, and those are where a reversed party, a scoped negation ("not by branch managers",
"neither party excludes") or a reversed condition ("only after the first year") costs a team
most. Each template states one rule and gives claims that restate it (entails), reverse it
(contradicts) and go beyond it (neither). Slots are filled from small lists with a seeded
``random.Random``, so the same seed gives the same pairs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from minimal_edits import CONTRADICTS, ENTAILS, NEITHER, Pair

PARTIES = (
    ("Supplier", "Customer"),
    ("Lender", "Borrower"),
    ("Landlord", "Tenant"),
    ("Licensor", "Licensee"),
    ("Employer", "Employee"),
    ("Seller", "Buyer"),
    ("Contractor", "Client"),
    ("Vendor", "Purchaser"),
    ("Provider", "Subscriber"),
)
ACTIONS = (
    ("terminate this Agreement for convenience", "end the agreement for convenience"),
    ("assign its rights under this Agreement", "transfer its rights under the agreement"),
    ("audit the other party's records", "inspect the other party's records"),
    ("increase the fees", "raise the fees"),
    ("suspend the services", "pause the services"),
    ("renew the term", "extend the term"),
    (
        "subcontract the work",
        "hand the work to a subcontractor",
    ),
    ("disclose the confidential information", "share the confidential information"),
)
DURATIONS = (
    ("ninety (90) days'", "three months'", "thirty days'"),
    ("thirty (30) days'", "one month's", "ten days'"),
    ("twelve (12) months'", "one year's", "six months'"),
    ("sixty (60) days'", "two months'", "ninety days'"),
    ("seven (7) days'", "one week's", "fourteen days'"),
    ("twenty-four (24) hours'", "one day's", "forty-eight hours'"),
)
ROLES = (
    ("the Head of Credit", "branch managers", "approve exceptions to the policy"),
    ("the Chief Risk Officer", "the sales team", "sign off loans above the limit"),
    ("a senior underwriter", "the broker", "approve the application"),
    ("the board", "the chief executive", "approve the dividend"),
    ("the finance director", "team leads", "authorise refunds above 500 euros"),
    ("the data protection officer", "the support desk", "release customer records"),
)
LIABILITIES = (
    "fraud",
    "death or personal injury caused by negligence",
    "wilful misconduct",
    "breach of confidentiality",
    "infringement of intellectual property rights",
)
LIMITS = ("85%", "80%", "90%", "75%", "60%", "95%")
OUTCOMES = (
    ("declined outright", "rejected", "approved"),
    (
        "referred to a senior underwriter",
        "sent to a senior underwriter for review",
        "approved automatically",
    ),
    ("refused", "turned down", "accepted"),
)


def clause_pairs(rng: random.Random, count: int) -> list[Pair]:
    makers = (_notice, _role, _liability, _cap, _limit, _timing, _ticket)
    out: list[Pair] = []
    while len(out) < count:
        out.extend(rng.choice(makers)(rng))
    return out[:count]


def _p(premise: str, hypothesis: str, label: int, kind: str) -> Pair:
    return Pair(premise, hypothesis, label, f"clause:{kind}")


def _notice(rng: random.Random) -> Iterator[Pair]:
    a, b = rng.choice(PARTIES)
    act, act2 = rng.choice(ACTIONS)
    long, same, other = rng.choice(DURATIONS)
    premise = (
        f"The {b} may {act} on {long} written notice to the {a}. "
        f"The {a} may not {act.split(' this')[0]} except for material breach."
    )
    yield _p(premise, f"The {b} can {act2} with {same} written notice.", ENTAILS, "notice")
    yield _p(premise, f"The {a} may {act2} on {same} notice.", CONTRADICTS, "party")
    yield _p(premise, f"The {b} may {act2} on {other} notice.", CONTRADICTS, "figure")
    yield _p(premise, f"Either party may {act2} on {same} notice.", CONTRADICTS, "scope")
    yield _p(premise, f"Only the {b} may {act2} without cause.", ENTAILS, "scope")
    yield _p(premise, f"The {b} must pay a fee to {act2}.", NEITHER, "unstated")


def _role(rng: random.Random) -> Iterator[Pair]:
    who, not_who, act = rng.choice(ROLES)
    premise = f"Only {who} may {act}; this cannot be done by {not_who}."
    if rng.random() < 0.5:
        premise = f"Requests to {act} are decided by {who}, not by {not_who}."
    cap = not_who[:1].upper() + not_who[1:]
    yield _p(premise, f"{cap} can {act}.", CONTRADICTS, "scoped-negation")
    yield _p(premise, f"{cap} cannot {act}.", ENTAILS, "scoped-negation")
    yield _p(premise, f"It is {who} who may {act}.", ENTAILS, "restate")
    yield _p(premise, f"Both {who} and {not_who} may {act}.", CONTRADICTS, "scope")
    yield _p(premise, f"{cap} must report to {who} every month.", NEITHER, "unstated")


def _liability(rng: random.Random) -> Iterator[Pair]:
    thing = rng.choice(LIABILITIES)
    premise = f"Neither party excludes or limits its liability for {thing}."
    yield _p(
        premise,
        f"Liability for {thing} is excluded for both parties.",
        CONTRADICTS,
        "scoped-negation",
    )
    yield _p(premise, f"Liability for {thing} is not limited for either party.", ENTAILS, "restate")
    yield _p(premise, f"Each party remains fully liable for {thing}.", ENTAILS, "restate")
    yield _p(premise, f"One party may cap its liability for {thing}.", CONTRADICTS, "scope")
    yield _p(premise, f"Liability for {thing} must be insured.", NEITHER, "unstated")


def _cap(rng: random.Random) -> Iterator[Pair]:
    a, _b = rng.choice(PARTIES)
    amount = rng.choice(("£1,000,000", "€250,000", "$2 million", "the fees paid in the prior year"))
    premise = f"The {a}'s total liability in any contract year is capped at {amount}."
    yield _p(premise, f"The {a}'s liability is unlimited.", CONTRADICTS, "antonym")
    yield _p(premise, f"The {a}'s liability is limited to {amount} a year.", ENTAILS, "restate")
    yield _p(premise, f"The {a}'s liability has no cap.", CONTRADICTS, "negation")
    yield _p(premise, f"The {a} is liable for indirect losses.", NEITHER, "unstated")


def _limit(rng: random.Random) -> Iterator[Pair]:
    limit = rng.choice(LIMITS)
    done, same, opposite = rng.choice(OUTCOMES)
    premise = f"Applications with a loan-to-value above {limit} are {done}."
    yield _p(premise, f"Applications above {limit} LTV are {same}.", ENTAILS, "synonym")
    yield _p(premise, f"Applications above {limit} LTV are {opposite}.", CONTRADICTS, "antonym")
    yield _p(premise, f"Applications below {limit} LTV are {done}.", CONTRADICTS, "direction")
    yield _p(premise, f"An application at {limit} LTV or less is {opposite}.", NEITHER, "unstated")
    cap = f"The loan-to-value must not exceed {limit}."
    yield _p(cap, f"The loan-to-value may be at most {limit}.", ENTAILS, "comparative")
    yield _p(cap, f"The loan-to-value must be at least {limit}.", CONTRADICTS, "comparative")
    yield _p(cap, f"The loan-to-value may exceed {limit}.", CONTRADICTS, "negation")


def _timing(rng: random.Random) -> Iterator[Pair]:
    a, b = rng.choice(PARTIES)
    pct = rng.choice(("3%", "5%", "2.5%", "4%"))
    premise = (
        f"The {a} may increase the fees by up to {pct} a year, but only after the "
        f"first anniversary of the start date."
    )
    yield _p(premise, f"Fees can rise by up to {pct} in the first year.", CONTRADICTS, "condition")
    yield _p(premise, "Fees cannot rise before the first anniversary.", ENTAILS, "condition")
    yield _p(
        premise,
        f"After the first year, fees may go up by at most {pct} annually.",
        ENTAILS,
        "restate",
    )
    yield _p(premise, f"The {b} may increase the fees by {pct}.", CONTRADICTS, "party")
    yield _p(premise, f"Fees may rise by more than {pct} a year.", CONTRADICTS, "comparative")
    yield _p(premise, f"The {b} must agree to any fee increase.", NEITHER, "unstated")


def _ticket(rng: random.Random) -> Iterator[Pair]:
    thing = rng.choice(
        (
            "the router's case",
            "the ticket",
            "the refund request",
            "the warranty claim",
            "the account",
        )
    )
    who = rng.choice(("Dana", "Priya", "Tom", "the customer", "Marek"))
    premise = f"{who[:1].upper() + who[1:]} wrote: I have not opened {thing} yet and will wait."
    cap = who[:1].upper() + who[1:]
    yield _p(premise, f"{cap} opened {thing}.", CONTRADICTS, "negation")
    yield _p(premise, f"{cap} has not yet opened {thing}.", ENTAILS, "restate")
    yield _p(premise, f"{cap} closed {thing} last week.", NEITHER, "unstated")
