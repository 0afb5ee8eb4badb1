"""What a rule finds and what a rule is: `Finding`, its `Effect`, and the `Rule` protocol
every rule of `RULES` keeps."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

from citeproof.verifier.support.confirm._reading import Reading

Effect = Literal["unconfirmed", "contradicted"]


@dataclass(frozen=True, slots=True)
class Finding:
    """What one rule found: its id, its effect, the claim's words, the passage's words, and
    a sentence a reader understands."""

    rule: str
    effect: Effect
    claim_words: str
    passage_words: str
    message: str


class Rule(Protocol):
    """One rule: an id, what it checks, an example (claim, passage, what it finds)."""

    id: str
    checks: str
    example: tuple[str, str, str]

    def check(self, reading: Reading) -> Iterable[Finding]: ...
