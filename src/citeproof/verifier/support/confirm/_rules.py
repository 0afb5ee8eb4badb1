"""The rules that decide whether a claim is confirmed, one named unit each.

Every rule reads the same `Reading` and returns `Finding`s naming its id; `RULES` is the
order they are listed and reported in. A claim is confirmed when no rule finds anything; a
`contradicted` finding outranks an `unconfirmed` one, and among findings of one effect the
first rule in `RULES` gives the reason.

Each family of rules has its module: `_matching` (match.*), `_ways` (direction, modality,
polarity and quantity kept), `_roles` (roles.kept), `_figures` (figure.attached) and
`_conditions` (condition.kept, restriction.kept); `_finding` holds `Finding` and `Rule`,
`_clauses` what several families read of the parse.
"""

from __future__ import annotations

from citeproof.verifier.support.confirm._conditions import ConditionKept, RestrictionKept
from citeproof.verifier.support.confirm._figures import FigureAttached
from citeproof.verifier.support.confirm._finding import Rule
from citeproof.verifier.support.confirm._matching import (
    EveryWordMatched,
    NotAsked,
    OppositeWord,
    PredicateMatched,
    SameStatement,
)
from citeproof.verifier.support.confirm._roles import SameRoles
from citeproof.verifier.support.confirm._ways import (
    SameDirection,
    SameModality,
    SamePolarity,
    SameQuantity,
)

RULES: tuple[Rule, ...] = (
    PredicateMatched(),
    EveryWordMatched(),
    SameStatement(),
    NotAsked(),
    OppositeWord(),
    SameDirection(),
    SameModality(),
    SamePolarity(),
    SameQuantity(),
    SameRoles(),
    FigureAttached(),
    ConditionKept(),
    RestrictionKept(),
)
"""Every rule, in the order their findings are reported."""
