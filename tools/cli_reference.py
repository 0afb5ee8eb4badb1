"""Write docs/cli.md from the CLI's own --help, or check that it is up to date.

    python tools/cli_reference.py          # rewrite docs/cli.md
    python tools/cli_reference.py --check  # exit 1 when docs/cli.md differs (make lint)

The reference is generated, never edited by hand, so it cannot drift from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from generated_page import write_or_check

from citeproof.cli import main

REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
WIDTH = 100

HEADER = """# CLI reference

Generated from `citeproof --help` by `tools/cli_reference.py`; `make docs` rewrites it and
`make lint` fails when it differs from the code. Do not edit by hand.
"""


def _commands(
    command: click.Command, path: list[str], parent: click.Context | None
) -> list[tuple[list[str], str]]:
    context = click.Context(
        command, info_name=path[-1], parent=parent, terminal_width=WIDTH, max_content_width=WIDTH
    )
    found = [(path, command.get_help(context))]
    if isinstance(command, click.Group):
        for name in sorted(command.list_commands(context)):
            sub = command.get_command(context, name)
            if sub is not None and not sub.hidden:
                found += _commands(sub, [*path, name], context)
    return found


def reference() -> str:
    """The whole reference as Markdown: one section per command, its help as printed."""
    parts = [HEADER]
    for path, text in _commands(main, ["citeproof"], None):
        parts.append(f"\n## `{' '.join(path)}`\n\n```text\n{text.rstrip()}\n```\n")
    return "".join(parts)


def run(argv: list[str]) -> int:
    return write_or_check(
        REFERENCE, reference(), argv, source="citeproof --help", stale="out of date with the CLI"
    )


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
