"""Write docs/environment.md from citeproof's table of environment variables, or check it.

    python tools/environment_reference.py          # rewrite docs/environment.md
    python tools/environment_reference.py --check  # exit 1 when it differs (make lint)

The table is `citeproof.environment.VARIABLES`, the one place code reads a variable through,
and the read limits `citeproof.sources.ReadLimits` (each ``CITEPROOF_<SETTING>``,
described by its docstring in sources/_limits.py): the page is generated, never edited by hand.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import sys
from pathlib import Path

from generated_page import write_or_check

from citeproof import environment
from citeproof.sources import _limits as limits

REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "environment.md"

HEADER = """# Environment variables

Every variable citeproof reads. Generated from `citeproof.environment` (the one place the code
reads them through) and `citeproof.sources.ReadLimits` by
`tools/environment_reference.py`; `make docs` rewrites it and `make lint` fails when it differs
from the code. Do not edit by hand.
"""


def _cell(text: str) -> str:
    return text.replace("``", "`").replace("|", "\\|").replace("\n", " ")


def _limit_docs() -> dict[str, str]:
    """Each `ReadLimits` field's docstring (the string right after it in the class body)."""
    tree = ast.parse(inspect.getsource(limits.ReadLimits))
    body = tree.body[0].body  # type: ignore[attr-defined]
    found: dict[str, str] = {}
    for statement, following in itertools.pairwise(body):
        named = isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
        if named and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
            found[statement.target.id] = " ".join(str(following.value.value).split())
    return found


def _amount(value: object) -> str:
    if isinstance(value, int) and value >= limits.MB and value % limits.MB == 0:
        return f"{value:,} ({value // limits.MB} MB)"
    return f"{value:,}" if isinstance(value, int) else str(value)


def reference() -> str:
    """The page as Markdown: the variables, then one row per read limit."""
    lines = [HEADER, "| variable | what it does | default | read by |", "|---|---|---|---|"]
    for variable in environment.VARIABLES:
        cells = (f"`{variable.name}`", variable.does, variable.default, variable.read_by)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    lines += [
        "",
        "## Read limits",
        "",
        "Each limit on reading one file (`ReadLimits`) is set by `CITEPROOF_` and its name in",
        "upper case; a file that breaks one is reported with the variable that raises it, and",
        "is not stored.",
        "",
        "| variable | limits | default |",
        "|---|---|---|",
    ]
    docs = _limit_docs()
    defaults = limits.ReadLimits()
    for field in dataclasses.fields(limits.ReadLimits):
        name = environment.READ_LIMIT_PREFIX + field.name.upper()
        cells = (
            f"`{name}`",
            docs.get(field.name, field.name),
            _amount(getattr(defaults, field.name)),
        )
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def run(argv: list[str]) -> int:
    return write_or_check(
        REFERENCE, reference(), argv, source="the code", stale="out of date with the code"
    )


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
