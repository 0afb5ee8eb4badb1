"""``citeproof serve`` (the HTTP service and review app) and ``citeproof token add``."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from citeproof import environment
from citeproof.cli._common import Command, Group, PathType, check_address, examples, exit_codes
from citeproof.cli._workers import run_workers

if TYPE_CHECKING:
    from citeproof.server import ServiceState

DEFAULT_DATA = Path("citeproof-data")

DATABASE_OPTION = click.option(
    "--database",
    metavar="URL",
    envvar=environment.DATABASE_URL.name,
    default=None,
    help="A postgresql:// URL holding all of the service's state, shared by every host "
    f"given it (default: SQLite files in --data; env {environment.DATABASE_URL.name}).",
)


@click.command(
    "serve",
    cls=Command,
    short_help="Run the HTTP API and the reviewers' pages.",
    epilog=examples(
        "citeproof serve --dev",
        "citeproof serve --data /srv/citeproof --workers 4",
        "citeproof serve --data /srv/citeproof --database postgresql://db/citeproof",
    )
    + exit_codes(
        (0, "stopped cleanly (Ctrl-C or SIGTERM)"),
        (
            1,
            "it could not start: the address is in use or not this machine's, a bad --limits "
            "file, an unreadable data folder (the message says)",
        ),
    ),
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8765, show_default=True, help="Port to listen on.")
@click.option(
    "--data",
    type=PathType(file_okay=False, path_type=Path),
    default=DEFAULT_DATA,
    show_default=True,
    help="Folder for the service database, and by default the source store and audit log.",
)
@click.option(
    "--store",
    type=PathType(dir_okay=False, path_type=Path),
    default=None,
    help="The SQLite source store (default: DATA/sources.db).",
)
@click.option(
    "--audit",
    metavar="DB",
    default=None,
    help="The audit log: a SQLite file or a postgresql:// URL (default: DATA/audit.db).",
)
@click.option(
    "--provider",
    default=None,
    help="The model behind POST /v1/ask (default: as for `citeproof ask`).",
)
@click.option(
    "--dev",
    is_flag=True,
    help="No tokens needed (loopback addresses only); requests run as principal 'dev'.",
)
@click.option(
    "--limits",
    "limits_path",
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A JSON object of limits to change (body_bytes, rate_per_minute, deadline_seconds...).",
)
@click.option("--workers", type=int, default=1, show_default=True, help="Worker processes.")
@DATABASE_OPTION
def serve_command(
    host: str,
    port: int,
    data: Path,
    store: Path | None,
    audit: str | None,
    database: str | None,
    provider: str | None,
    dev: bool,
    limits_path: Path | None,
    workers: int,
) -> None:
    """Run the HTTP API (/v1, docs at /docs) and the reviewers' pages (/review)."""
    try:
        import uvicorn

        from citeproof.server import MULTIPROCESS_DIR, Limits, ServiceConfig, is_loopback
    except ImportError as error:
        raise click.ClickException(
            f"the service needs the `server` extra (pip install 'citeproof[server]'): {error}"
        ) from None
    if dev and not is_loopback(host):
        raise click.UsageError(f"--dev is for loopback addresses only, not {host!r}")
    if workers < 1:
        raise click.UsageError("--workers must be 1 or more")
    limits = Limits.from_file(limits_path) if limits_path else Limits()
    config = ServiceConfig(
        data=data.resolve(),
        store=store.resolve() if store else None,
        audit=audit,
        database=_database_url(database),
        host=host,
        dev=dev,
        provider=provider,
        limits=limits,
    )
    from citeproof.server import config_to_env

    config_to_env(config)
    check_address(host, port)
    click.echo(f"citeproof serving on http://{host}:{port}/ (review: /review, API docs: /docs)")
    options: dict[str, Any] = dict(
        factory=True,
        host=host,
        port=port,
        workers=workers,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=10,
        # Header deadline and per-client connection cap (citeproof.server._connections).
        http="citeproof.server._connections:GuardedH11Protocol",
        backlog=limits.accept_backlog,
        limit_concurrency=limits.concurrency,
        # A worker imports citeproof before it answers the supervisor's first ping: give it
        # time on a loaded machine instead of killing and respawning it.
        timeout_worker_healthcheck=120,
        server_header=False,
        log_level="warning",
    )
    app = "citeproof.server._process:app_from_env"
    if workers == 1:
        try:
            uvicorn.run(app, **options)
        except SystemExit as stopped:  # uvicorn's "startup failed" (3): its log says why
            if stopped.code not in (None, 0):
                raise click.ClickException("the service stopped at start (see above)") from None
        return
    # Workers write their metrics to files in one folder, so /metrics adds up all of them.
    metrics_dir = None
    if not os.environ.get(MULTIPROCESS_DIR):
        metrics_dir = tempfile.mkdtemp(prefix="citeproof-metrics-")
        os.environ[MULTIPROCESS_DIR] = metrics_dir
    try:
        run_workers(uvicorn.Config(app, **options), host, port)
    finally:
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)


@click.group(
    "token",
    cls=Group,
    short_help="Bearer tokens for the service: one per principal.",
    epilog=examples("citeproof token add alice --data /srv/citeproof")
    + exit_codes((0, "done"), (1, "the data folder or the name was refused")),
)
def token_group() -> None:
    """Bearer tokens for the service: one per principal."""


@token_group.command(
    "add",
    short_help="Make a bearer token for principal NAME and print it.",
    epilog=examples("citeproof token add alice --data /srv/citeproof")
    + exit_codes(
        (0, "the token is printed"),
        (1, "NAME has a token already (use --replace), or the data folder cannot be written"),
    ),
)
@click.argument("name")
@click.option(
    "--data",
    type=PathType(file_okay=False, path_type=Path),
    default=DEFAULT_DATA,
    show_default=True,
    help="The service's data folder (as given to `citeproof serve`).",
)
@click.option("--replace", is_flag=True, help="Issue a new token for NAME; the old one stops.")
@DATABASE_OPTION
def token_add_command(name: str, data: Path, replace: bool, database: str | None) -> None:
    """Make a bearer token for principal NAME and print it (once: only its hash is kept).
    NAME is the user the source store's access lists name, and the audit records name.
    With --database the token is kept there, for every host of that database."""
    from citeproof.server import ServiceState

    url = _database_url(database)
    state = ServiceState(url or data / "service.db")
    secret = state.add_token(name, replace=replace)
    click.echo(secret)
    click.echo(f"token for {name!r} saved (hashed) in {state.where}", err=True)


def _database_url(database: str | None) -> str | None:
    """``--database`` checked: a PostgreSQL URL (SQLite lives in --data), or None."""
    from citeproof.database import is_database_url

    if database is not None and not is_database_url(database):
        raise click.BadParameter(
            "expected a postgresql:// URL (SQLite files live in --data)", param_hint="--database"
        )
    return database


_DATA_OPTION = click.option(
    "--data",
    type=PathType(file_okay=False, path_type=Path),
    default=DEFAULT_DATA,
    show_default=True,
    help="The service's data folder (as given to `citeproof serve`).",
)


def _existing_state(data: Path, database: str | None = None) -> ServiceState:
    from citeproof.errors import InputError
    from citeproof.server import ServiceState

    if database:
        return ServiceState(_database_url(database) or database)
    path = data / "service.db"
    if not path.is_file():
        raise InputError(f"no service data in {data} (start `citeproof serve --data {data}`)")
    return ServiceState(path)


@token_group.command(
    "list",
    short_help="List the principals that have a token, and when each was made.",
    epilog=examples("citeproof token list --data /srv/citeproof")
    + exit_codes((0, "the list is printed"), (1, "the data folder holds no service data")),
)
@_DATA_OPTION
@DATABASE_OPTION
def token_list_command(data: Path, database: str | None) -> None:
    """List the principals that have a token, one a line, with the time each was made. Tokens
    themselves are never shown: only their hashes are kept."""
    state = _existing_state(data, database)
    tokens = state.tokens()
    for name, created_at in tokens:
        click.echo(f"{name}\t{created_at}")
    if not tokens:
        click.echo(f"no tokens in {state.where}", err=True)


@token_group.command(
    "revoke",
    short_help="Stop principal NAME's token at once.",
    epilog=examples("citeproof token revoke alice --data /srv/citeproof")
    + exit_codes((0, "the token was revoked"), (1, "NAME has no token, or there is no data")),
)
@click.argument("name")
@_DATA_OPTION
@DATABASE_OPTION
def token_revoke_command(name: str, data: Path, database: str | None) -> None:
    """Stop principal NAME's token at once: the API and the review app refuse it from the next
    request (a reviewer signed in with it is signed out). `citeproof token add NAME` issues a
    new one."""
    from citeproof.errors import InputError

    if not _existing_state(data, database).revoke_token(name):
        raise InputError(f"{name!r} has no token", field="name")
    click.echo(f"token for {name!r} revoked", err=True)
