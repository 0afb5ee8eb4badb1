"""The ``citeproof`` command line: the group and its commands, one module per command group."""

from __future__ import annotations

import click

from citeproof.cli.ask import ask_command
from citeproof.cli.audit import audit_group
from citeproof.cli.ingest import ingest_command
from citeproof.cli.verify import verify_command


@click.group()
@click.version_option(package_name="citeproof")
def main() -> None:
    """citeproof: check every quote of an LLM answer against the sources it was given."""


main.add_command(verify_command)
main.add_command(ingest_command)
main.add_command(ask_command)
main.add_command(audit_group)


if __name__ == "__main__":  # pragma: no cover
    main()
