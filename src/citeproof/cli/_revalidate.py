"""``citeproof revalidate --audit DB --store STORE``: do the logged answers still hold?

Exit codes: 0 every answer's evidence holds, 1 any does not, 2 usage errors (click's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from citeproof.audit import open_store
from citeproof.cli._audit import AUDIT_HELP, checkpoints_option
from citeproof.cli._common import Command, PathType, engine_options, examples, exit_codes
from citeproof.errors import AuditStoreError
from citeproof.operations import DEFAULT_CHUNK_SIZE, Engine
from citeproof.operations.revalidate_log import revalidate_log
from citeproof.render import plural
from citeproof.sources import SourceStore


def existing_audit(audit: str) -> str:
    """``audit`` when it names a PostgreSQL URL or an existing file; else `AuditStoreError`
    (a new log is never created by a command that only reads one)."""
    if not audit.startswith(("postgresql://", "postgres://")) and not Path(audit).is_file():
        raise AuditStoreError(f"no audit log at {audit}")
    return audit


@click.command(
    "revalidate",
    cls=Command,
    short_help="Re-verify logged answers against today's sources.",
    epilog=examples("citeproof revalidate --audit audit.db --store mailbox.db")
    + exit_codes(
        (0, "every logged answer's evidence holds against the current sources"),
        (1, "an answer changed, cites a superseded version or a missing source, or an error "
            "(the message says)"),
    ),
)  # fmt: skip
@click.option("--audit", "audit", required=True, metavar="DB", help=AUDIT_HELP)
@click.option(
    "--store",
    "store_path",
    required=True,
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    help="The source store (made by `citeproof ingest`) holding the current versions.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON line per answer, in log order.")
@checkpoints_option
@engine_options("local", "local")
@click.option(
    "--chunk-size",
    type=click.IntRange(min=1),
    default=DEFAULT_CHUNK_SIZE,
    show_default=True,
    help="Answers per worker task and per appended transaction.",
)
def revalidate_command(
    audit: str,
    store_path: Path,
    as_json: bool,
    checkpoints: str | None,
    engine: Engine,
    address: str | None,
    workers: int | None,
    chunk_size: int,
) -> None:
    """Re-verify every logged answer against the current versions of its sources.

    Each answer's outcome (holds, changed, superseded, source_missing) is appended to the log
    as its own record. A run that is stopped continues where it stopped; a second run on an
    unchanged store appends nothing. Exit 0 when every answer holds, 1 otherwise."""
    with (
        open_store(existing_audit(audit), checkpoint_dir=checkpoints) as log,
        SourceStore(store_path) as store,
    ):
        run = revalidate_log(
            log, store, engine=engine, workers=workers, address=address, chunk_size=chunk_size
        )
    if as_json:
        for result in run.results:
            click.echo(json.dumps(result, ensure_ascii=False, sort_keys=True))
    else:
        for result in run.results:
            if result["outcome"] != "holds":
                click.echo(_line(result))
    counts = ", ".join(f"{n} {outcome}" for outcome, n in run.counts().items())
    click.echo(
        f"{plural(len(run.results), 'answer')}: {counts} ({run.appended} re-validated now, "
        f"{run.reused} already logged for store state {run.store_state[:19]})",
        err=True,
    )
    if run.integrity is not None and not run.integrity.ok:
        click.echo(f"audit log: {run.integrity.summary()}", err=True)
    if not run.ok:
        raise SystemExit(1)


def _line(result: dict[str, Any]) -> str:
    """``REQUEST_ID: outcome; quote q1 verified -> not_found; source d-... superseded``."""
    parts = [f"{result['request_id']}: {result['outcome']}"]
    for item in result["quotes"]:
        meaning = " (changes the meaning)" if item["meaning_changed"] else ""
        parts.append(f"quote {item['id']} {item['was']} -> {item['now']}{meaning}")
    parts.extend(f"claim {c['id']} {c['was']} -> {c['now']}" for c in result["claims"])
    parts.extend(
        f"source {s['id']} {s['state']}" for s in result["sources"] if s["state"] != "current"
    )
    return "; ".join(parts)
