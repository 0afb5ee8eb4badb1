"""``citeproof db``: where the service's stores stand (``status``), bringing them to the
latest schema (``migrate``), and copying a SQLite data folder into PostgreSQL (``copy``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from citeproof.cli._common import Group, PathType, examples, exit_codes
from citeproof.cli._serve import DATABASE_OPTION, DEFAULT_DATA, _database_url

if TYPE_CHECKING:
    from citeproof.database import SchemaStatus
    from citeproof.server import ServiceConfig

_URL = "postgresql://db/citeproof"

_DATA_OPTION = click.option(
    "--data",
    type=PathType(file_okay=False, path_type=Path),
    default=DEFAULT_DATA,
    show_default=True,
    help="The service's data folder (as given to `citeproof serve`): its SQLite stores, "
    "unless --database names a PostgreSQL database.",
)


@click.group(
    "db",
    cls=Group,
    short_help="The service's databases: status, migrations, copy to PostgreSQL.",
    epilog=examples(
        "citeproof db status --data /srv/citeproof",
        f"citeproof db migrate --database {_URL}",
        f"citeproof db copy --data /srv/citeproof --database {_URL}",
    )
    + exit_codes((0, "done"), (1, "a database cannot be opened or was refused (the message says)")),
)
def db_group() -> None:
    """The service's databases: the service's own (tokens, answers, batches), the source store
    and the audit log, in SQLite files in --data or all in one PostgreSQL (--database)."""


def _config(data: Path, database: str | None) -> ServiceConfig:
    from citeproof.server import ServiceConfig

    return ServiceConfig(data=data.resolve(), database=_database_url(database))


def _show(where: str, found: list[SchemaStatus]) -> None:
    click.echo(f"database: {where}")
    for status in found:
        state = "up to date" if status.current else "pending: " + "; ".join(status.names)
        click.echo(f"{status.component:<8} version {status.version} of {status.latest}  {state}")


def _where(config: ServiceConfig) -> str:
    from citeproof.database import shown_url

    return shown_url(config.database) if config.database else str(config.data)


@db_group.command(
    "status",
    short_help="Each store's schema version and the steps still to apply.",
    epilog=examples(
        "citeproof db status --data /srv/citeproof", f"citeproof db status --database {_URL}"
    )
    + exit_codes((0, "the versions are printed"), (1, "a database cannot be opened")),
)
@_DATA_OPTION
@DATABASE_OPTION
def status_command(data: Path, database: str | None) -> None:
    """Print each store's schema version (0: none yet), the latest this citeproof knows, and
    the steps `citeproof db migrate` would apply. Reads only: nothing is created."""
    from citeproof.server import schema_report

    config = _config(data, database)
    _show(_where(config), schema_report(config))


@db_group.command(
    "migrate",
    short_help="Bring every store to its latest schema (each step once).",
    epilog=examples(
        "citeproof db migrate --data /srv/citeproof", f"citeproof db migrate --database {_URL}"
    )
    + exit_codes(
        (0, "every store is at its latest schema"), (1, "a step failed (nothing of it applied)")
    ),
)
@_DATA_OPTION
@DATABASE_OPTION
def migrate_command(data: Path, database: str | None) -> None:
    """Apply the schema steps each store still lacks, under the database's migration lock:
    each step once, whichever host or process runs first (`citeproof serve` does the same
    when it starts); a step that fails leaves that store's schema as it was."""
    from citeproof.server import migrate_all, schema_report

    config = _config(data, database)
    before = {status.component: status.version for status in schema_report(config)}
    after = migrate_all(config)
    _show(_where(config), after)
    applied = sum(status.version - before.get(status.component, 0) for status in after)
    click.echo(f"{applied} step{'s' if applied != 1 else ''} applied", err=True)


@db_group.command(
    "copy",
    short_help="Copy a data folder's SQLite stores into an empty PostgreSQL.",
    epilog=examples(f"citeproof db copy --data /srv/citeproof --database {_URL}")
    + exit_codes(
        (0, "everything was copied; the counts are printed"),
        (1, "the database holds data already, or a store cannot be read (nothing is lost)"),
    ),
)
@click.option(
    "--data",
    type=PathType(exists=True, file_okay=False, path_type=Path),
    required=True,
    help="The data folder whose SQLite stores (service.db, sources.db, audit.db) to copy.",
)
@DATABASE_OPTION
@click.option(
    "--checkpoints",
    type=PathType(file_okay=False, path_type=Path),
    default=None,
    help="Where to copy the audit log's signed checkpoints and signing key (default: "
    "DATA/audit-checkpoints, where `serve --data DATA --database URL` keeps them).",
)
def copy_command(data: Path, database: str | None, checkpoints: Path | None) -> None:
    """Copy the tokens, the deployment key, every source version with its access list (its
    passages indexed anew for PostgreSQL), the answer index, batches with their lines and
    results, idempotency keys and the audit log's records as they are (their hash chain and
    signed checkpoints hold for the copy) into the PostgreSQL database --database names.

    The database must hold no service data: a copy never writes over what is stored there
    (use a new database, or a new schema). The SQLite files are only read."""
    from citeproof.server import copy_data

    url = _database_url(database)
    if url is None:
        raise click.UsageError("--database (or CITEPROOF_DATABASE_URL) is needed: where to copy")
    folder = data.resolve()
    report = copy_data(folder, url, (checkpoints or folder / "audit-checkpoints").resolve())
    for table, count in report.service.items():
        click.echo(f"{table:<12} {count}")
    click.echo(f"{'sources':<12} {report.sources} (passages {report.passages})")
    click.echo(f"{'audit':<12} {report.audit.records} records, {report.audit.texts} texts")
    click.echo(f"{'checkpoints':<12} {report.checkpoints} files to {report.checkpoint_dir}")
    from citeproof.database import shown_url

    click.echo(f"copied {folder} into {shown_url(url)}", err=True)
