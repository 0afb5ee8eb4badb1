"""One row of the fact layer's rule tables (tests/test_support_facts*.py): a claim, its
passage, and what `check_facts` reports for it: the differences a reader sees under "Where it
differs" and the figures the judge weighs."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from citeproof.verifier.support._fact_rules import FACT_RULES
from citeproof.verifier.support._facts import SourceKeys, check_facts
from citeproof.verifier.support._text import tokenize

Shown = tuple[str, str, tuple[int, int], str | None]


@dataclass(frozen=True)
class Case:
    rule: str
    claim: str
    passage: str
    differences: list[Shown]
    figures: dict[str, Any]
    source: str | None = None  # the whole cited source, when it holds more than the passage
    judged: tuple[bool, ...] | None = None  # False: backed another way (a verified quote)
    lead: str | None = None  # the passage's best sentence, when the passage holds more


def examined(case: Case) -> tuple[list[Shown], dict[str, Any]]:
    """The differences (kind, claim text, span, what the passage says instead) and the
    figures the fact layer reports for ``case``."""
    claim, passage = tokenize(case.claim), tokenize(case.passage)
    # Numbers and dates weigh more, as the source's idf weights make them (locate.py).
    weights = {t.key: 1.0 + 0.5 * (t.kind in ("number", "date")) for t in claim}
    source = SourceKeys.of({t.key for t in tokenize(case.source)}) if case.source else None
    judged = list(case.judged) if case.judged else [True] * len(claim)
    lead = tokenize(case.lead) if case.lead else ()
    check = check_facts(case.claim, claim, passage, weights, judged, source, lead)
    shown = [(d.kind, d.text, d.span, d.instead) for d in check.differences]
    for kind, text, (start, end), _ in shown:  # each difference points at its claim words
        assert case.claim[start:end] == text or (kind == "negation" and text == "")
    # Every finding names a rule of FACT_RULES; a word the passage is silent on names none.
    ids = {rule.id for rule in FACT_RULES}
    assert len(check.rules) == len(check.differences)
    for d, rule in zip(check.differences, check.rules, strict=True):
        finding = d.instead is not None or d.kind == "negation"
        assert (rule in ids) if finding else rule == "", (d, rule)
    figures = asdict(check)
    del figures["differences"], figures["rules"]
    return shown, figures
