"""Is a claim confirmed by its passage? Every rule of `RULES` reads one `Reading`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from citeproof.model import Span
from citeproof.verifier.support.confirm._conditions import ConditionKept, carve_outs
from citeproof.verifier.support.confirm._denials import (
    denial_kept,
    denial_said_elsewhere,
    denied_in_other_words,
    denies_in_other_words,
    exception_restated,
)
from citeproof.verifier.support.confirm._finding import Finding
from citeproof.verifier.support.confirm._matching import EveryWordMatched
from citeproof.verifier.support.confirm._reading import Reading, read
from citeproof.verifier.support.confirm._rules import RULES

Outcome = Literal["supported", "unconfirmed", "contradicted"]


@dataclass(frozen=True, slots=True)
class Confirmation:
    """The outcome and every finding behind it (none: confirmed), in `RULES` order."""

    outcome: Outcome
    findings: tuple[Finding, ...]

    @property
    def deciding(self) -> Finding | None:
        """The finding that decided the outcome: the first contradiction, else the first."""
        against = [f for f in self.findings if f.effect == "contradicted"]
        ranked = against or list(self.findings)
        return ranked[0] if ranked else None

    @property
    def unmatched(self) -> tuple[str, ...]:
        """The claim's words no equivalence matched (`EveryWordMatched`'s findings)."""
        return tuple(
            w for f in self.findings if f.rule == EveryWordMatched.id for w in f.claim_words.split()
        )

    @property
    def left_out(self) -> tuple[str, ...]:
        """The passage's conditions the claim leaves out (`ConditionKept`'s findings)."""
        return tuple(f.passage_words for f in self.findings if f.rule == ConditionKept.id)


def confirm(
    claim: str,
    passage: str,
    quoted: Sequence[Span] = (),
    source: str = "",
    lines: Sequence[tuple[int, int]] = (),
) -> Confirmation:
    """Read ``claim`` against ``passage`` (``quoted``: spans of the claim inside its verified
    quotes; ``source``: the whole cited source, where a name that attributes the claim must
    stand; ``lines``: the span in ``source`` of each line of ``passage``) with every rule."""
    return _confirmed(read(claim, passage, quoted, source, lines))


def _confirmed(reading: Reading) -> Confirmation:
    found = {(f.rule, f.message): f for rule in RULES for f in rule.check(reading)}
    findings = tuple(found.values())
    if any(f.effect == "contradicted" for f in findings):
        return Confirmation("contradicted", findings)
    return Confirmation("unconfirmed" if findings else "supported", findings)


def restated_exception(claim: str, passage: str) -> str | None:
    """The words of the passage's exception a denying claim restates, or None (see
    `_denials.exception_restated`)."""
    return exception_restated(read(claim, passage))


@dataclass(frozen=True, slots=True)
class Denial:
    """How the parse reads a denial the fact layer found on one side only, with the rules'
    confirmation of the same reading: ``kept``, the passage denies each verb the claim
    denies (`_denials.denial_kept`); ``elsewhere``, each denial the parse places is of
    something the other side does not speak to (`_denials.denial_said_elsewhere`);
    ``reworded``, the word by which the passage's statement the claim's denial is matched to
    denies too, or "" (`_denials.denied_in_other_words`: "free" of "free of charge" for "at no
    charge"); ``claim_reworded``, the same the other way round: the claim's word that denies
    what the passage denies with "not" (`_denials.denies_in_other_words`: "rather" of "rather
    than in this payment" for "not in this payment"); ``carved``, the passage denies in a
    sentence that carves an exception out of the statement before it, and the claim keeps
    that exception (`_conditions.carve_outs`: "..., except for Health and Safety Leadership" for
    "The discount does not apply to Health and Safety Leadership")."""

    kept: bool
    elsewhere: bool
    reworded: str
    claim_reworded: str
    carved: bool
    confirmation: Confirmation


def read_denial(
    claim: str,
    passage: str,
    quoted: Sequence[Span] = (),
    source: str = "",
    lines: Sequence[tuple[int, int]] = (),
) -> Denial:
    """Read ``claim`` against ``passage`` once (the arguments as `confirm`'s) for its denials
    and with every rule."""
    reading = read(claim, passage, quoted, source, lines)
    return Denial(
        denial_kept(reading),
        denial_said_elsewhere(reading),
        denied_in_other_words(reading),
        denies_in_other_words(reading),
        any(kept for _, kept in carve_outs(reading)),
        _confirmed(reading),
    )
