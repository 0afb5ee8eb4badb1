"""``citeproof audit sample`` and ``citeproof audit review``: manual compliance review.

Register on the audit group: ``audit_group.add_command(sample_command)`` and
``audit_group.add_command(review_command)``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import click

from citeproof.audit import BadRecord, ReadCheck, open_store
from citeproof.canonical import canonical_json
from citeproof.cli._audit import AUDIT_HELP, checkpoints_option
from citeproof.cli._common import Command, PathType, examples, exit_codes
from citeproof.cli._revalidate import existing_audit
from citeproof.errors import CiteproofError
from citeproof.operations import (
    VERDICTS,
    LoggedRecord,
    SampleRow,
    draw_sample,
    logged_records,
    review_payload,
    sample_csv,
)
from citeproof.outcome import payload_with_texts
from citeproof.outcome.verify_again import verify_again
from citeproof.render import plural, render_html


@click.command(
    "sample",
    cls=Command,
    short_help="Draw a reproducible sample of logged answers for review.",
    epilog=examples("citeproof audit sample --audit audit.db --seed 2026-Q1 --out review/")
    + exit_codes((0, "the sample was written"), (1, "an error (the message says)")),
)
@click.option("--audit", "audit", required=True, metavar="DB", help=AUDIT_HELP)
@checkpoints_option
@click.option(
    "--rate",
    type=click.FloatRange(min=0.0, max=1.0, min_open=True),
    default=0.01,
    show_default=True,
    help="Share of the logged answers to draw.",
)
@click.option("--seed", required=True, help="Any text; the same seed draws the same sample.")
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=PathType(file_okay=False, path_type=Path),
    help="Folder for the review pages and sample.csv.",
)
def sample_command(
    audit: str, checkpoints: str | None, rate: float, seed: str, out_dir: Path
) -> None:
    """Draw a reproducible random sample of logged answers: one HTML review page each and a
    CSV sheet (sample.csv) with empty verdict and note columns."""
    check = ReadCheck()
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    with open_store(existing_audit(audit), checkpoint_dir=checkpoints) as log:
        sample = draw_sample(logged_records(log, check=check), rate=rate, seed=seed)
        for record in sample:
            page = f"{record.sequence:08d}-{_file_safe(record.request_id)}.html"
            try:
                answer = verify_again(payload_with_texts(record.payload, log))
            except (KeyError, TypeError, AttributeError, ValueError, RecursionError) as error:
                detail = (  # a text the log lost or changed says which; else the kind
                    str(error)
                    if isinstance(error, CiteproofError)
                    else f"not a well-formed answer: {type(error).__name__}"
                )
                check.bad.append(BadRecord(record.sequence, "unreadable", detail))
                continue
            (out_dir / page).write_text(render_html(answer), encoding="utf-8")
            rows.append(SampleRow(record, page))
    (out_dir / "sample.csv").write_text(sample_csv(rows), encoding="utf-8")
    click.echo(f"{plural(len(rows), 'answer')} sampled -> {out_dir / 'sample.csv'}")
    if not check.ok:
        click.echo(f"audit log: {check.summary()}", err=True)


@click.command(
    "review",
    cls=Command,
    short_help="Append a reviewer's verdict on a logged answer.",
    epilog=examples("citeproof audit review REQUEST_ID --audit audit.db --verdict ok")
    + exit_codes(
        (0, "the verdict was appended"),
        (1, "no answer is logged under REQUEST_ID, or another error (the message says)"),
    ),
)
@click.argument("request_id")
@click.option("--audit", "audit", required=True, metavar="DB", help=AUDIT_HELP)
@checkpoints_option
@click.option(
    "--verdict",
    type=click.Choice(VERDICTS),
    required=True,
    help="ok: the answer and its evidence stand; wrong: they do not.",
)
@click.option("--note", default="", help="Why: what is wrong, or what was checked.")
@click.option("--reviewer", default=None, help="Who reviewed (recorded with the verdict).")
def review_command(
    request_id: str,
    audit: str,
    checkpoints: str | None,
    verdict: str,
    note: str,
    reviewer: str | None,
) -> None:
    """Append a reviewer's verdict on the answer logged under REQUEST_ID as its own record."""
    with open_store(existing_audit(audit), checkpoint_dir=checkpoints, checkpoint_every=1) as log:
        found = log.get(request_id)
        answer = LoggedRecord(
            found.sequence, found.request_id, found.record_hash, found.recorded_at, found.payload
        )
        payload = review_payload(answer, verdict=verdict, note=note, reviewer=reviewer)
        appended = log.append(payload, "review-" + _digest(payload))
    click.echo(f"verdict {verdict} on {request_id} recorded as record {appended.sequence}")


def _file_safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)[:80]


def _digest(payload: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(payload)).hexdigest()[:32]
