"""``citeproof report --audit DB [--since 30d] [--format term|json|html] [--out FILE]``."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import click

from citeproof.audit import open_store
from citeproof.cli._audit import AUDIT_HELP, checkpoints_option
from citeproof.cli._common import Command, PathType, examples, exit_codes
from citeproof.cli._revalidate import existing_audit
from citeproof.operations import parse_since, render_report_html, render_report_term, report_of_log
from citeproof.render import plural


@click.command(
    "report",
    cls=Command,
    short_help="Coverage, corrections, drift and latency over the audit log.",
    epilog=examples(
        "citeproof report --audit audit.db --since 7d",
        "citeproof report --audit audit.db --format html --out report.html",
    )
    + exit_codes((0, "the report was written"), (1, "an error (the message says)")),
)
@click.option("--audit", "audit", required=True, metavar="DB", help=AUDIT_HELP)
@checkpoints_option
@click.option(
    "--since",
    default="30d",
    show_default=True,
    help="The window: records logged in the last 30d, 12h, 2w... or 'all'.",
)
@click.option(
    "--freshness",
    type=click.IntRange(min=0),
    default=30,
    show_default=True,
    help="Days after which a source version counts as stale evidence.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["term", "json", "html"]),
    default="term",
    show_default=True,
    help="term: a table for a terminal; json: every figure; html: one self-contained page "
    "with charts.",
)
@click.option(
    "--out",
    type=PathType(dir_okay=False, path_type=Path),
    default=None,
    help="Write here instead of standard output.",
)
def report_command(
    audit: str,
    checkpoints: str | None,
    since: str,
    freshness: int,
    fmt: Literal["term", "json", "html"],
    out: Path | None,
) -> None:
    """Coverage, statuses and corrections, version drift, latency per stage and
    re-validation outcomes over a window of the audit log."""
    window = parse_since(since)
    with open_store(existing_audit(audit), checkpoint_dir=checkpoints) as log:
        report = report_of_log(
            log,
            now=datetime.now(UTC),
            since=window,
            freshness=timedelta(days=freshness),
        )
    if fmt == "json":
        text = json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n"
    elif fmt == "html":
        text = render_report_html(report)
    else:
        text = render_report_term(report)
    if out is None:
        click.echo(text, nl=False)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    click.echo(f"wrote {out} ({plural(report.answers, 'answer')})", err=True)
