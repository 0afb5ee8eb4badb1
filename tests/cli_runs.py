"""Running the ``citeproof`` command in-process, and the example answer's sources as options."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from citeproof.cli import main

LENDING = Path(__file__).resolve().parents[1] / "examples" / "lending"
EXAMPLE_SOURCES = [
    "--source",
    f"policy={LENDING / 'credit-policy.md'}",
    "--source",
    f"email={LENDING / 'hartley-valuation.eml'}",
    "--source",
    f"memo={LENDING / 'hartley-memo.txt'}",
]
"""``verify``'s options for the example answer's three sources (examples/lending)."""


def invoke(*args: str) -> tuple[int, str, str]:
    """Run ``citeproof ARGS...``: the exit code, standard output and standard error."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr
