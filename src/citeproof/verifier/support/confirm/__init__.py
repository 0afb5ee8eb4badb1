"""Confirmation: the claim judge's promise that `supported` means the passage states it.

A claim is confirmed against its passage when every content word is matched by a named
equivalence (`_reading`) and no rule of `RULES` finds a difference in roles, modality,
polarity, quantity, direction, figure attachment or a dropped condition (`_rules`).
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.verifier.support.confirm._confirm import (
        Confirmation,
        Denial,
        Outcome,
        confirm,
        read_denial,
        restated_exception,
    )
    from citeproof.verifier.support.confirm._finding import Finding, Rule
    from citeproof.verifier.support.confirm._rules import RULES
    from citeproof.verifier.support.confirm._table import (
        TABLE_ROW,
        Row,
        RowStatement,
        another_column,
        another_row,
        misread,
        rows_of,
        table_row,
    )


_WHERE = {
    "Confirmation": "citeproof.verifier.support.confirm._confirm",
    "Denial": "citeproof.verifier.support.confirm._confirm",
    "Finding": "citeproof.verifier.support.confirm._finding",
    "Outcome": "citeproof.verifier.support.confirm._confirm",
    "RULES": "citeproof.verifier.support.confirm._rules",
    "Row": "citeproof.verifier.support.confirm._table",
    "RowStatement": "citeproof.verifier.support.confirm._table",
    "Rule": "citeproof.verifier.support.confirm._finding",
    "TABLE_ROW": "citeproof.verifier.support.confirm._table",
    "another_column": "citeproof.verifier.support.confirm._table",
    "another_row": "citeproof.verifier.support.confirm._table",
    "confirm": "citeproof.verifier.support.confirm._confirm",
    "misread": "citeproof.verifier.support.confirm._table",
    "read_denial": "citeproof.verifier.support.confirm._confirm",
    "restated_exception": "citeproof.verifier.support.confirm._confirm",
    "rows_of": "citeproof.verifier.support.confirm._table",
    "table_row": "citeproof.verifier.support.confirm._table",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "RULES",
    "TABLE_ROW",
    "Confirmation",
    "Denial",
    "Finding",
    "Outcome",
    "Row",
    "RowStatement",
    "Rule",
    "another_column",
    "another_row",
    "confirm",
    "misread",
    "read_denial",
    "restated_exception",
    "rows_of",
    "table_row",
]
