"""The ``citeproof`` command line: the group and its commands, one module per command group."""

from __future__ import annotations

import click

from citeproof.cli.ask import ask_command
from citeproof.cli.audit import audit_group
from citeproof.cli.common import Group, exit_codes
from citeproof.cli.ingest import ingest_command
from citeproof.cli.verify import verify_command


@click.group(
    cls=Group,
    epilog=exit_codes(
        (0, "success; the verdicts are in the output"),
        (1, "an error (the message names what and where), or a check that did not hold "
            "(see each command's --help)"),
    ),
)  # fmt: skip
@click.version_option(package_name="citeproof")
def main() -> None:
    """citeproof: check every quote of an LLM answer against the sources it was given."""


main.add_command(verify_command)
main.add_command(ingest_command)
main.add_command(ask_command)
main.add_command(audit_group)


if __name__ == "__main__":  # pragma: no cover
    main()
