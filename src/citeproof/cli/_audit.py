"""``citeproof audit ...``: verify a log, show a record, prove inclusion and consistency.

Registered by `citeproof.cli._main`; ``sample`` and ``review`` come from
`citeproof.cli._sample`. Exit codes: 0 success, 1 a damaged log, a
failed proof, a missing record or any other error, 2 usage errors (click's).
"""

from __future__ import annotations

import json
from typing import Any

import click

from citeproof.audit import (
    AuditRecord,
    AuditStore,
    consistency_proof,
    inclusion_proof,
    load_public_key,
    open_existing_store,
    verify_log,
    verify_proof,
)
from citeproof.cli._common import Group, PathType, examples, exit_codes
from citeproof.errors import AuditError
from citeproof.render import json_text, plural, visible

AUDIT_HELP = "Audit log: a SQLite file path or a postgresql:// URL."
CHECKPOINTS_HELP = "Checkpoint folder (default: <db>.checkpoints next to a SQLite file)."


def _open(audit: str, checkpoints: str | None) -> AuditStore:
    return open_existing_store(audit, checkpoint_dir=checkpoints)


def _print_json(data: Any) -> None:
    click.echo(json_text(data, indent=2))


audit_option = click.option("--audit", "audit", required=True, metavar="DB", help=AUDIT_HELP)
checkpoints_option = click.option(
    "--checkpoints", type=PathType(file_okay=False), default=None, help=CHECKPOINTS_HELP
)


AN_ERROR = (1, "an error stopped it: no such log or record, an unreadable log (the message says)")


@click.group(
    "audit",
    cls=Group,
    lazy={  # in a module of their own, which reads this one's options
        "sample": "citeproof.cli._sample:sample_command",
        "review": "citeproof.cli._sample:review_command",
    },
    short_help="Check the audit log, prove and replay what it holds.",
    epilog=examples(
        "citeproof audit verify --audit audit.db",
        "citeproof audit show REQUEST_ID --audit audit.db",
    )
    + exit_codes(
        (0, "the command did what it says"),
        (1, "a damaged log (verify), a proof that fails (check-proof), a replay that differs "
            "(replay), or an error (the message says)"),
    ),
)  # fmt: skip
def audit_group() -> None:
    """Check the tamper-evident audit log and prove what it holds."""


@audit_group.command(
    "verify",
    short_help="Re-hash every record and check the signed checkpoints.",
    epilog=examples("citeproof audit verify --audit audit.db")
    + exit_codes(
        (0, "every record re-hashes and every checkpoint checks: the log is intact"),
        (1, "the log is damaged (the first bad record or checkpoint is named), or an error"),
    ),
)
@audit_option
@checkpoints_option
@click.option(
    "--public-key",
    type=PathType(dir_okay=False, exists=True),
    default=None,
    help="Pinned Ed25519 public key (PEM) to check checkpoints with (default: signing.pub).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def verify_command(
    audit: str, checkpoints: str | None, public_key: str | None, as_json: bool
) -> None:
    """Re-hash every record; exit 0 if the log is intact, 1 with the first bad record."""
    with _open(audit, checkpoints) as store:
        key = load_public_key(public_key) if public_key else None
        report = verify_log(store, public_key=key)
    if as_json:
        _print_json(report.to_json())
    elif report.problem is None:
        click.echo(
            f"ok: {plural(report.records, 'record')}, root {report.root_hash}, "
            f"{plural(report.checkpoints, 'signed checkpoint')}, "
            f"{plural(report.texts, 'source text')}"
        )
        if report.checkpoints == 0:
            click.echo("warning: no checkpoints, a truncated tail cannot be detected", err=True)
    else:
        problem = report.problem
        where = f"record {problem.index}" if problem.index is not None else "checkpoint"
        if problem.checkpoint is not None and problem.index is None:
            where = f"checkpoint {problem.checkpoint}"
        if problem.kind in ("text_mismatch", "texts_unreadable"):
            where = "a source text"
        click.echo(visible(f"FAILED at {where}: {problem.kind}: {problem.detail}"))
    if not report.ok:
        raise SystemExit(1)


sequence_option = click.option(
    "--sequence",
    type=click.IntRange(min=0),
    default=None,
    help="The record's sequence number, when several records share the request id.",
)


@audit_group.command(
    "show",
    short_help="Print the record logged under REQUEST_ID as JSON.",
    epilog=examples("citeproof audit show REQUEST_ID --audit audit.db --texts")
    + exit_codes((0, "the record was printed"), AN_ERROR),
)
@click.argument("request_id")
@audit_option
@checkpoints_option
@sequence_option
@click.option(
    "--texts",
    is_flag=True,
    help="Put each source's full text back in the record printed (the log keeps each text "
    "once, named in the record by its content hash).",
)
def show_command(
    request_id: str, audit: str, checkpoints: str | None, sequence: int | None, texts: bool
) -> None:
    """Print the record logged under REQUEST_ID as JSON; when several records share it, a
    JSON list of them all (oldest first), and their sequences on standard error."""
    from citeproof.outcome import payload_with_texts

    def shown(record: AuditRecord) -> dict[str, Any]:
        data = record.to_json()
        if texts:
            data["payload"] = payload_with_texts(data["payload"], store)
        return data

    with _open(audit, checkpoints) as store:
        records = store.find(request_id, sequence)
        for record in records:
            if not record.intact:
                click.echo(
                    f"record {record.sequence} does not hash to its stored hash: its content "
                    "was altered (see `citeproof audit verify`)",
                    err=True,
                )
        if len(records) == 1:
            _print_json(shown(records[0]))
            return
        sequences = ", ".join(str(record.sequence) for record in records)
        click.echo(
            visible(f"{len(records)} records have request id {request_id}: sequences {sequences}"),
            err=True,
        )
        _print_json([shown(record) for record in records])


@audit_group.command(
    "proof",
    short_help="Print an inclusion proof for REQUEST_ID, checkable offline.",
    epilog=examples("citeproof audit proof REQUEST_ID --audit audit.db > proof.json")
    + exit_codes((0, "the proof was printed"), AN_ERROR),
)
@click.argument("request_id")
@audit_option
@checkpoints_option
@click.option(
    "--checkpoint",
    "tree_size",
    type=click.IntRange(min=1),
    default=None,
    help="Tree size of the checkpoint to prove against (default: the latest).",
)
@sequence_option
def proof_command(
    request_id: str,
    audit: str,
    checkpoints: str | None,
    tree_size: int | None,
    sequence: int | None,
) -> None:
    """Print an inclusion proof (JSON) for REQUEST_ID, checkable offline."""
    with _open(audit, checkpoints) as store:
        proof = inclusion_proof(store, request_id, tree_size=tree_size, sequence=sequence)
        _print_json(proof.to_json())


@audit_group.command(
    "consistency",
    short_help="Print a consistency proof between two checkpoints.",
    epilog=examples("citeproof audit consistency --audit audit.db --from 10 > proof.json")
    + exit_codes((0, "the proof was printed"), AN_ERROR),
)
@audit_option
@checkpoints_option
@click.option(
    "--from",
    "old_size",
    type=click.IntRange(min=1),
    required=True,
    help="Tree size of the older checkpoint.",
)
@click.option(
    "--to",
    "new_size",
    type=click.IntRange(min=1),
    default=None,
    help="Tree size of the newer checkpoint (default: the latest).",
)
def consistency_command(
    audit: str, checkpoints: str | None, old_size: int, new_size: int | None
) -> None:
    """Print a consistency proof (JSON) between checkpoints --from N and --to M (the latest)."""
    with _open(audit, checkpoints) as store:
        proof = consistency_proof(store, old_size, new_size)
        _print_json(proof.to_json())


@audit_group.command(
    "checkpoint",
    short_help="Sign and write a checkpoint of the log as it is now.",
    epilog=examples("citeproof audit checkpoint --audit audit.db")
    + exit_codes((0, "the checkpoint was written and printed"), AN_ERROR),
)
@audit_option
@checkpoints_option
def checkpoint_command(audit: str, checkpoints: str | None) -> None:
    """Sign and write a checkpoint of the log as it is now; print it."""
    with _open(audit, checkpoints) as store:
        checkpoint = store.write_checkpoint()
        _print_json(checkpoint.to_json())
        click.echo(f"written to {store.checkpoints.file_for(checkpoint.tree_size)}", err=True)


@audit_group.command(
    "check-proof",
    short_help="Check an inclusion or consistency proof offline.",
    epilog=examples("citeproof audit check-proof proof.json --public-key signing.pub")
    + exit_codes(
        (0, "the proof holds"), (1, "the proof is malformed or does not hold: FAILED and why")
    ),
)
@click.argument("proof_file", type=click.File("r"))
@click.option(
    "--public-key",
    type=PathType(dir_okay=False, exists=True),
    required=True,
    help="The log's Ed25519 public key (signing.pub).",
)
def check_proof_command(proof_file: Any, public_key: str) -> None:
    """Check an inclusion or consistency proof offline; exit 0 if it holds, 1 if not."""
    try:
        verify_proof(json.load(proof_file), load_public_key(public_key))
    except (AuditError, ValueError) as exc:
        click.echo(f"FAILED: {exc}")
        raise SystemExit(1) from exc
    click.echo("ok: the proof holds")


@audit_group.command(
    "replay",
    short_help="Re-run a logged request and compare what comes out.",
    epilog=examples("citeproof audit replay REQUEST_ID --audit audit.db")
    + exit_codes(
        (0, "the same answer, evidence bundle and decision came out"),
        (1, "the replay differs (each difference is listed), or an error"),
    ),
)
@click.argument("request_id")
@audit_option
@checkpoints_option
@sequence_option
def replay_command(
    request_id: str, audit: str, checkpoints: str | None, sequence: int | None
) -> None:
    """Re-run the deterministic part of REQUEST_ID (verification, evidence, rules) from the
    logged inputs; exit 0 when the same answer, bundle and decision come out, else 1."""
    from citeproof.outcome import payload_with_texts
    from citeproof.outcome.replay import replay

    with _open(audit, checkpoints) as store:
        record = store.one(request_id, sequence)
        result = replay(payload_with_texts(record.payload, store))
    click.echo(f"request {result.request_id}")
    click.echo(f"  evidence bundle: logged {result.logged_bundle_hash}")
    click.echo(f"                   replay {result.replayed_bundle_hash}")
    click.echo(f"  decision: logged {result.logged_outcome}, replay {result.replayed_outcome}")
    for difference in result.differences:
        click.echo(f"  DIFFERS {difference}")
    click.echo("same result" if result.ok else "replay differs")
    if not result.ok:
        raise SystemExit(1)
