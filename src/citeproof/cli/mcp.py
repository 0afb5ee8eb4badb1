"""``citeproof mcp``: the Model Context Protocol server (verify and audit lookup as tools)."""

from __future__ import annotations

import click

from citeproof.cli.common import Command, exit_codes


@click.command(
    "mcp",
    cls=Command,
    epilog=exit_codes(
        (0, "the client closed the connection"),
        (1, "it could not start: the `mcp` extra is not installed (the message says)"),
    ),
)
@click.option(
    "--audit",
    "audit",
    multiple=True,
    metavar="DB",
    help="An audit log the audit tools may read (a SQLite file or a postgresql:// URL; "
    "repeat for several). The tools open no other.",
)
def mcp_command(audit: tuple[str, ...]) -> None:
    """Serve the tools verify, audit_show and audit_verify over MCP on stdin/stdout."""
    from citeproof.errors import MissingExtraError

    try:
        from citeproof.mcp_server import build_server
    except MissingExtraError as error:
        raise click.ClickException(str(error)) from None
    build_server(audit).run("stdio")
