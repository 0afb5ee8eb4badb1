"""The business-rule engine (ADR 2): deterministic rules over facts and live values.

Rules live in a declarative TOML or JSON file; conditions are CEL expressions (the Common
Expression Language, evaluated by ``cel-python``'s interpreter: no Python ``eval``)::

    schema = "citeproof/rules/1"
    default_outcome = "approve"
    live = ["base_rate"]                    # names that must come from the live-value service

    [values]                                # derived values, computed unless given as facts
    ltv = "loan_amount / valuation"

    [[rules]]
    id = "ltv-refer"
    description = "LTV above 80% is referred to a senior underwriter (policy section 2)"
    condition = "ltv > 0.80"
    outcome = "refer"
    priority = 50

Every number is a `Decimal`: facts, live values and the literals of the expressions
(``0.80`` is exactly 0.80), evaluated in a fixed decimal context (28 significant digits,
round half even), so a decision never depends on binary floating point or the machine.

`decide` evaluates every rule, records for each whether it fired and the exact values it
read (directly or through derived values), and picks the outcome of the fired rule with the
highest priority; ties go to the rule written first; with none fired, ``default_outcome``.
Facts and live values share one namespace: a name may not be both, and a name declared
``live`` may not be given as a fact. A derived value given as a fact (``ltv`` known from the
application) is used as given. Any error (an unknown name, a division by zero, a condition
that is not true/false) raises `RuleError`: no partial decision is ever returned. Rules take
no evidence and cannot reach it.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Context, Decimal, DivisionByZero, InvalidOperation, Overflow
from decimal import localcontext as decimal_context
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

import celpy
import celpy.celtypes as cel
import lark
from celpy.celparser import CELParseError
from celpy.evaluation import CELEvalError, Evaluator, Result

from citeproof.canonical import canonical_json
from citeproof.errors import InputError, RuleError
from citeproof.json_input import load_json
from citeproof.outcome._live import LiveResponse
from citeproof.values import Value, as_values, values_to_json

RULES_SCHEMA = "citeproof/rules/1"
DECIMALS = Context(
    prec=28, rounding=ROUND_HALF_EVEN, traps=[InvalidOperation, DivisionByZero, Overflow]
)
"""The decimal context every rule is evaluated in."""

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: when ``condition`` holds, ``outcome`` applies with ``priority``."""

    id: str
    description: str
    condition: str
    outcome: str
    priority: int
    reads: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DerivedValue:
    """A named value computed from facts and live values (``ltv = loan_amount / valuation``)."""

    name: str
    expression: str
    reads: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A parsed rule file: derived values, rules, the default outcome and the live names."""

    rules: tuple[Rule, ...]
    derived: tuple[DerivedValue, ...]
    default_outcome: str
    live: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The rule file as JSON; `parse_rules` reads it back to the same rule set."""
        return {
            "schema": RULES_SCHEMA,
            "default_outcome": self.default_outcome,
            "live": list(self.live),
            "values": {d.name: d.expression for d in self.derived},
            "rules": [
                {
                    "id": r.id,
                    "description": r.description,
                    "condition": r.condition,
                    "outcome": r.outcome,
                    "priority": r.priority,
                }
                for r in self.rules
            ],
        }

    @property
    def fingerprint(self) -> str:
        """``sha256:`` and the SHA-256 of the RFC 8785 canonical JSON of `to_json`."""
        return "sha256:" + hashlib.sha256(canonical_json(self.to_json())).hexdigest()


@dataclass(frozen=True, slots=True)
class RuleResult:
    """One evaluated rule: whether it fired and the exact values it read."""

    rule_id: str
    fired: bool
    outcome: str
    priority: int
    inputs: Mapping[str, Value]

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule_id,
            "fired": self.fired,
            "outcome": self.outcome,
            "priority": self.priority,
            "inputs": values_to_json(self.inputs),
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome, the rule that decided it (None: the default) and every rule evaluated."""

    outcome: str
    decided_by: str | None
    results: tuple[RuleResult, ...]
    derived: Mapping[str, Value]
    rules: RuleSet

    @property
    def fired(self) -> tuple[str, ...]:
        """The ids of the rules that fired, in file order."""
        return tuple(r.rule_id for r in self.results if r.fired)

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "decided_by": self.decided_by,
            "fired": list(self.fired),
            "rules_fingerprint": self.rules.fingerprint,
            "derived": values_to_json(self.derived),
            "results": [r.to_json() for r in self.results],
        }


def load_rules(path: str | Path) -> RuleSet:
    """Read a rule file: ``.toml`` or ``.json``."""
    path = Path(path)
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise RuleError(f"{where}: cannot read the file: {error.strerror}") from None
    try:
        if path.suffix.lower() == ".json":
            data = load_json(raw.decode("utf-8"), where=where, what="the rules")
        else:
            data = tomllib.loads(raw.decode("utf-8"))
    except InputError as error:
        raise RuleError(f"{where}: {error.detail}") from None
    except RecursionError:
        raise RuleError(f"{where}: the rules are nested too deeply") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise RuleError(
            f"{where}: not valid {path.suffix.lstrip('.') or 'TOML'}: {error}"
        ) from None
    return parse_rules(data, where=where)


def parse_rules(data: object, *, where: str = "rules") -> RuleSet:
    """Check and compile a rule set given as a mapping (a parsed TOML or JSON file)."""
    if not isinstance(data, Mapping):
        raise RuleError(f"{where}: expected a table of settings")
    unknown = sorted(set(data) - {"schema", "default_outcome", "live", "values", "rules"})
    if unknown:
        raise RuleError(f"{where}: unknown setting {unknown[0]!r}")
    if data.get("schema", RULES_SCHEMA) != RULES_SCHEMA:
        raise RuleError(f"{where}: schema must be {RULES_SCHEMA!r}, not {data.get('schema')!r}")
    default = _text(data.get("default_outcome"), f"{where}: default_outcome")
    live = data.get("live", [])
    if not isinstance(live, list) or not all(isinstance(n, str) and _NAME.match(n) for n in live):
        raise RuleError(f"{where}: live must be a list of names")
    values = data.get("values", {})
    if not isinstance(values, Mapping):
        raise RuleError(f"{where}: values must be a table of name = expression")
    derived = tuple(
        DerivedValue(name, text, _reads(text, f"{where}: values.{name}"))
        for name, text in (
            (_name(n, where), _text(e, f"{where}: values.{n}")) for n, e in values.items()
        )
    )
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, list) or not raw_rules:
        raise RuleError(f"{where}: rules must be a non-empty list of rules")
    rules = tuple(_rule(item, f"{where}: rules[{n}]") for n, item in enumerate(raw_rules))
    ids = [r.id for r in rules]
    duplicate = next((i for i in ids if ids.count(i) > 1), None)
    if duplicate:
        raise RuleError(f"{where}: rule id {duplicate!r} is used twice")
    _check_cycles(derived, where)
    return RuleSet(rules, derived, default, tuple(live))


def _rule(item: object, where: str) -> Rule:
    if not isinstance(item, Mapping):
        raise RuleError(f"{where}: expected a table")
    unknown = sorted(set(item) - {"id", "description", "condition", "outcome", "priority"})
    if unknown:
        raise RuleError(f"{where}: unknown field {unknown[0]!r}")
    rule_id = _text(item.get("id"), f"{where}: id")
    where = f"{where} ({rule_id})"
    priority = item.get("priority", 0)
    if not isinstance(priority, int) or isinstance(priority, bool):
        raise RuleError(f"{where}: priority must be an integer")
    condition = _text(item.get("condition"), f"{where}: condition")
    description = item.get("description", "")
    if not isinstance(description, str):
        raise RuleError(f"{where}: description must be text")
    return Rule(
        id=rule_id,
        description=description,
        condition=condition,
        outcome=_text(item.get("outcome"), f"{where}: outcome"),
        priority=priority,
        reads=_reads(condition, f"{where}: condition"),
    )


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RuleError(f"{where}: must be non-empty text")
    return value


def _name(name: object, where: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise RuleError(f"{where}: {name!r} is not a name (letters, digits, _)")
    return name


# --- CEL with decimal numbers -------------------------------------------------------------


class _DecimalEvaluator(Evaluator):
    """CEL's interpreter with every number literal read as an exact `Decimal`."""

    def literal(self, tree: lark.Tree[Any]) -> Result:
        token = tree.children[0]
        if isinstance(token, lark.Token) and token.type in ("FLOAT_LIT", "INT_LIT"):
            return cast(Result, Decimal(token.value))
        return cast(Result, super().literal(tree))


class _DecimalRunner(celpy.InterpretedRunner):
    def evaluate(self, context: Any) -> cel.Value:
        return _DecimalEvaluator(ast=self.ast, activation=self.new_activation()).evaluate(context)


@cache
def _environment() -> celpy.Environment:
    return celpy.Environment(runner_class=_DecimalRunner)


@lru_cache(maxsize=4096)
def _program(expression: str) -> celpy.Runner:
    return _environment().program(_compile(expression, "expression"))


def _compile(text: str, where: str) -> lark.Tree[Any]:
    try:
        return _environment().compile(text)
    except CELParseError as error:
        raise RuleError(f"{where}: not a valid CEL expression: {error}") from None


def _reads(text: str, where: str) -> tuple[str, ...]:
    """The names an expression reads, in order of first use."""
    tree = _compile(text, where)
    tokens = [
        node.children[0]
        for node in tree.iter_subtrees()
        if node.data == "ident" and isinstance(node.children[0], lark.Token)
    ]
    tokens.sort(key=lambda token: token.start_pos or 0)
    names = list(dict.fromkeys(str(token.value) for token in tokens))
    return tuple(names)


def _check_cycles(derived: Sequence[DerivedValue], where: str) -> None:
    graph = {d.name: d.reads for d in derived}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise RuleError(f"{where}: derived values depend on themselves: {cycle}")
        if name in done or name not in graph:
            return
        for read in graph[name]:
            visit(read, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def _to_cel(value: Value) -> Any:
    if isinstance(value, bool):
        return cel.BoolType(value)
    if isinstance(value, str):
        return cel.StringType(value)
    return value


def _from_cel(value: object, where: str) -> Value:
    if isinstance(value, cel.BoolType | bool):
        return bool(value)
    if isinstance(value, cel.StringType | str):
        return str(value)
    if isinstance(value, Decimal):
        return value
    raise RuleError(f"{where}: gave {value!r}, not a number, text or true/false")


# --- deciding ------------------------------------------------------------------------------


def decide(
    rules: RuleSet, facts: Mapping[str, object], live: LiveResponse | Mapping[str, object] | None
) -> Decision:
    """Evaluate every rule over ``facts`` and ``live`` values and decide the outcome.

    ``facts`` are the request's values (numbers, text, true/false; floats go through their
    shortest repr); ``live`` a `LiveResponse` or plain values. Raises `RuleError`.
    """
    try:
        given = as_values(facts, where="facts")
        current = as_values(dict(live.values if isinstance(live, LiveResponse) else live or {}))
    except InputError as error:
        raise RuleError(str(error)) from None
    both = sorted(set(given) & set(current))
    if both:
        raise RuleError(f"{both[0]!r} is given both as a fact and as a live value")
    declared_as_facts = [name for name in rules.live if name in given]
    if declared_as_facts:
        raise RuleError(
            f"{declared_as_facts[0]!r} must come from the live-value service, not the facts"
        )
    scope = _Scope(rules, {**given, **current})
    with decimal_context(DECIMALS):
        results = tuple(scope.evaluate(rule) for rule in rules.rules)
    fired = [r for r in results if r.fired]
    winner = max(fired, key=lambda r: r.priority, default=None)  # max keeps the first of ties
    return Decision(
        outcome=winner.outcome if winner else rules.default_outcome,
        decided_by=winner.rule_id if winner else None,
        results=results,
        derived=MappingProxyType(dict(scope.derived)),
        rules=rules,
    )


class _Scope:
    """Names available to the rules: given values, and derived values computed on demand."""

    def __init__(self, rules: RuleSet, given: dict[str, Value]):
        self.given = given
        self.formulas = {d.name: d for d in rules.derived if d.name not in given}
        self.derived: dict[str, Value] = {}

    def evaluate(self, rule: Rule) -> RuleResult:
        where = f"rule {rule.id!r}"
        inputs = self.inputs(rule.reads, where)
        result = _run(rule.condition, {n: inputs[n] for n in rule.reads}, where)
        if not isinstance(result, bool):
            raise RuleError(f"{where}: the condition gave {result!r}, not true or false")
        return RuleResult(rule.id, result, rule.outcome, rule.priority, MappingProxyType(inputs))

    def inputs(self, names: Sequence[str], where: str) -> dict[str, Value]:
        """The values of ``names`` and, for derived ones, of everything they read."""
        values: dict[str, Value] = {}
        for name in names:
            formula = self.formulas.get(name)
            if formula is not None:
                values |= self.inputs(formula.reads, f"value {name!r}")
            values[name] = self.value(name, where)
        return dict(sorted(values.items()))

    def value(self, name: str, where: str) -> Value:
        if name in self.given:
            return self.given[name]
        if name in self.derived:
            return self.derived[name]
        formula = self.formulas.get(name)
        if formula is None:
            raise RuleError(
                f"{where}: reads {name!r}, which is neither a fact, a live value nor a "
                "derived value"
            )
        here = f"value {name!r}"
        reads = {read: self.value(read, here) for read in formula.reads}
        self.derived[name] = _run(formula.expression, reads, here)
        return self.derived[name]


def _run(expression: str, values: Mapping[str, Value], where: str) -> Value:
    try:
        result = _program(expression).evaluate({name: _to_cel(v) for name, v in values.items()})
    except CELEvalError as error:
        raise RuleError(f"{where}: {expression!r} cannot be evaluated: {error.args[0]}") from None
    except ArithmeticError as error:
        raise RuleError(f"{where}: {expression!r}: {type(error).__name__}") from None
    return _from_cel(result, where)
