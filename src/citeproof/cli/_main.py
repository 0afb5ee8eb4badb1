"""The ``citeproof`` command line: the group and its commands, one module per command group.

Each command's module (and what it needs: pydantic, rich, the audit log, the service...) is
imported only when that command runs, or when ``citeproof --help`` lists them all; so
``citeproof --version`` and ``citeproof verify`` pay only for what they use.
"""

from __future__ import annotations

import click

import citeproof
from citeproof.cli._group import Group, examples, exit_codes

COMMANDS = {
    "verify": "citeproof.cli._verify:verify_command",
    "ingest": "citeproof.cli._ingest:ingest_command",
    "ask": "citeproof.cli._ask:ask_command",
    "audit": "citeproof.cli._audit:audit_group",
    "serve": "citeproof.cli._serve:serve_command",
    "token": "citeproof.cli._serve:token_group",
    "db": "citeproof.cli._db:db_group",
    "revalidate": "citeproof.cli._revalidate:revalidate_command",
    "report": "citeproof.cli._report:report_command",
    "guardrail": "citeproof.cli._guardrail:guardrail_command",
    "mcp": "citeproof.cli._mcp:mcp_command",
    "proxy": "citeproof.cli._proxy:proxy_command",
}
"""Every command of ``citeproof``: its name and where it is defined (``module:attribute``)."""


@click.group(
    cls=Group,
    lazy=COMMANDS,
    epilog=examples(
        "citeproof verify answer.md --source policy.pdf --source memo.docx",
        "citeproof ingest mailbox/ --store mailbox.db",
        'citeproof ask "Who approves a loan above 80% LTV?" --store mailbox.db',
        "citeproof COMMAND --help",
    )
    + exit_codes(
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
