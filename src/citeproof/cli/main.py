"""The ``citeproof`` command line: the group and its commands, one module per command group."""

from __future__ import annotations

import click

from citeproof.cli.ask import ask_command
from citeproof.cli.audit import audit_group
from citeproof.cli.common import Group, exit_codes
from citeproof.cli.guardrail import guardrail_command
from citeproof.cli.ingest import ingest_command
from citeproof.cli.mcp import mcp_command
from citeproof.cli.proxy import proxy_command
from citeproof.cli.report import report_command
from citeproof.cli.revalidate import revalidate_command
from citeproof.cli.sample import review_command, sample_command
from citeproof.cli.serve import serve_command, token_group
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
main.add_command(serve_command)
main.add_command(token_group)
main.add_command(revalidate_command)
main.add_command(report_command)
main.add_command(guardrail_command)
main.add_command(mcp_command)
main.add_command(proxy_command)
audit_group.add_command(sample_command)
audit_group.add_command(review_command)


if __name__ == "__main__":  # pragma: no cover
    main()
