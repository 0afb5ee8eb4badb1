"""The ``citeproof`` command line: the group and its commands, one module per command group.

Each command's module (and what it needs: pydantic, rich, the audit log, the service...) is
imported only when that command runs, or when ``citeproof --help`` lists them all; so
``citeproof --version`` and ``citeproof verify`` pay only for what they use.
"""

from __future__ import annotations

import click

import citeproof
from citeproof.cli.group import Group, exit_codes

COMMANDS = {
    "verify": "citeproof.cli.verify:verify_command",
    "ingest": "citeproof.cli.ingest:ingest_command",
    "ask": "citeproof.cli.ask:ask_command",
    "audit": "citeproof.cli.audit:audit_group",
    "serve": "citeproof.cli.serve:serve_command",
    "token": "citeproof.cli.serve:token_group",
    "revalidate": "citeproof.cli.revalidate:revalidate_command",
    "report": "citeproof.cli.report:report_command",
    "guardrail": "citeproof.cli.guardrail:guardrail_command",
    "mcp": "citeproof.cli.mcp:mcp_command",
    "proxy": "citeproof.cli.proxy:proxy_command",
}
"""Every command of ``citeproof``: its name and where it is defined (``module:attribute``)."""


@click.group(
    cls=Group,
    lazy=COMMANDS,
    epilog=exit_codes(
        (0, "success; the verdicts are in the output"),
        (1, "an error (the message names what and where), or a check that did not hold "
            "(see each command's --help)"),
    ),
)  # fmt: skip
@click.version_option(citeproof.__version__)
def main() -> None:
    """citeproof: check every quote of an LLM answer against the sources it was given."""


if __name__ == "__main__":  # pragma: no cover
    main()
