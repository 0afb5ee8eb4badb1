"""``citeproof mcp``: the Model Context Protocol server (verify and audit lookup as tools)."""

from __future__ import annotations

from pathlib import Path

import click

from citeproof.cli._common import Command, PathType, examples, exit_codes


@click.command(
    "mcp",
    cls=Command,
    short_help="Serve verify and the audit log as MCP tools on stdin/stdout.",
    epilog=examples("citeproof mcp --audit audit.db --store mailbox.db")
    + exit_codes(
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
@click.option(
    "--store",
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    metavar="STORE",
    help="A source store (from `citeproof ingest`) that sources_search reads and verify's "
    "stored ids name. The tools open no other.",
)
@click.option(
    "--reader",
    "readers",
    multiple=True,
    metavar="NAME",
    help="A reader whose sources in the store the tools may see (repeat for several); "
    "sources without an access list are seen by all.",
)
def mcp_command(audit: tuple[str, ...], store: Path | None, readers: tuple[str, ...]) -> None:
    """Serve the tools verify, audit_show and audit_verify (and sources_search with a
    store) over MCP on stdin/stdout."""
    from citeproof.errors import MissingExtraError

    try:
        from citeproof.mcp_server import build_server
    except MissingExtraError as error:
        raise click.ClickException(str(error)) from None
    if store is not None:
        _check_store(store)
    build_server(audit, store=store, readers=readers).run("stdio")


def _check_store(path: Path) -> None:
    """Refuse to start on a file that is not a source store, rather than on the first call."""
    from citeproof.sources import is_source_store

    if not is_source_store(path):
        raise click.BadParameter(
            f"{path} is not a citeproof source store (make one with citeproof ingest)",
            param_hint="--store",
        )
