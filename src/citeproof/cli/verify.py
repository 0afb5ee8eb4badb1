"""``citeproof verify ANSWER --source FILE...``: check an answer's quotes against its sources."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Literal

import click
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from citeproof.adapters import VENDORS
from citeproof.audit.backends import open_store
from citeproof.audit.store import AuditStore
from citeproof.cli.common import (
    Command,
    OutputFormat,
    conclude_from_options,
    emit,
    exit_codes,
    format_answer,
    format_option,
    outcome_options,
)
from citeproof.cli.vendor import verify_vendor_response
from citeproof.errors import InputError
from citeproof.model import Policy, Source, VerifiedAnswer
from citeproof.outcome.contract import answer_to_json, read_batch_line, read_sources
from citeproof.outcome.recording import conclude
from citeproof.render.safe_text import json_text, safe_console, visible
from citeproof.sources import read_source_file
from citeproof.sources.limits import ReadLimits, bounded_lines, read_bounded
from citeproof.verifier.verification import MAX_ANSWER_CHARS, Verifier, verify


def _split_source_arg(value: str) -> tuple[str | None, Path]:
    """``ID=PATH`` or ``PATH``."""
    if "=" in value and not Path(value).exists():
        source_id, _, path = value.partition("=")
        return source_id or None, Path(path)
    return None, Path(value)


def _read_text(path: Path, what: str, limit: int) -> str:
    """The UTF-8 text of ``path`` ('-': standard input), reading at most ``limit`` bytes."""
    try:
        if str(path) == "-":
            raw = read_bounded(sys.stdin.buffer, limit)
        else:
            with path.open("rb") as handle:
                raw = read_bounded(handle, limit)
    except OSError as error:
        raise InputError(f"cannot read the {what}: {error.strerror}", where=str(path)) from None
    if raw is None:
        raise InputError(f"more than {limit:,} bytes", where=str(path), field=what)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise InputError(
            f"invalid UTF-8 at byte {error.start} (line {line})", where=str(path), field=what
        ) from None


DEFAULTS = Policy()

FailOn = Literal["quote", "claim", "any"]

FAILED_QUOTE = ("mismatch", "not_found", "ineligible")
"""Quote statuses `--fail-on quote` fails on: not in the source as written, or not provided.
A ``corrected`` quote passes (the corrected answer holds the source's words) unless the
correction changed its meaning (F.1)."""

FAILED_CITATION = ("ineligible", "removed", "flagged")
"""Citation statuses that fail a claim: a source not provided, or one kept but flagged."""


@click.command(
    "verify",
    cls=Command,
    epilog=exit_codes(
        (0, "verified; the verdicts are in the output (see --fail-on to act on them)"),
        (
            1,
            "an error stopped it (the message names what and where); with --batch, a line "
            "was rejected; with --fail-on, a quote or claim failed",
        ),
    ),
)
@click.argument("answer_file", required=False, type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--source",
    "source_args",
    multiple=True,
    metavar="[ID=]FILE",
    help="A document source (.txt, .md, .html; .eml becomes an email body). Repeatable.",
)
@click.option(
    "--email",
    "email_args",
    multiple=True,
    metavar="[ID=]FILE",
    help="An email-body source given as a text or .eml file. Repeatable.",
)
@click.option(
    "--sources",
    "sources_file",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="A JSON file with a list of sources (the batch contract's source objects).",
)
@format_option
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write here instead of standard output (required with --batch).",
)
@click.option(
    "--batch",
    "batch",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="Verify every line of a JSON-lines file (see the JSON contract).",
)
@click.option(
    "--ineligible",
    type=click.Choice(["flag", "remove"]),
    default=None,
    help="Citations to sources not provided: keep and flag them, or remove them "
    f"(default: {DEFAULTS.ineligible_citations}).",
)
@click.option(
    "--min-similarity",
    type=float,
    default=None,
    help="Lowest similarity for an approximate match "
    f"(default: the measured {DEFAULTS.min_similarity}).",
)
@click.option(
    "--number-sources",
    is_flag=True,
    default=False,
    help="Give the sources the ids 1..n in the order given, for an answer that cites [1], [2]. "
    "Without it, citations are matched by id, never by position.",
)
@click.option(
    "--fail-on",
    "fail_on",
    type=click.Choice(["quote", "claim", "any"]),
    default=None,
    help="Exit with status 1 when a quote failed (mismatch, not_found, ineligible), a claim "
    "failed (it cites a source not provided, a flagged source, or carries a failed quote), "
    "or either: for CI. The output is written all the same.",
)
@click.option(
    "--from",
    "vendor",
    type=click.Choice(VENDORS),
    default=None,
    metavar="VENDOR",
    help=f"ANSWER_FILE is the JSON response of an LLM API ({', '.join(VENDORS)}): "
    "verify its native citations.",
)
@click.option(
    "--request",
    "request_file",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="With --from: the JSON request that holds the cited documents.",
)
@outcome_options
def verify_command(
    answer_file: Path | None,
    source_args: tuple[str, ...],
    email_args: tuple[str, ...],
    sources_file: Path | None,
    fmt: OutputFormat,
    out: Path | None,
    batch: Path | None,
    ineligible: Literal["flag", "remove"] | None,
    min_similarity: float | None,
    number_sources: bool,
    fail_on: FailOn | None,
    vendor: str | None,
    request_file: Path | None,
    audit: str | None,
    rules_path: Path | None,
    facts_path: Path | None,
    live_spec: str | None,
) -> None:
    """Verify the quotes of ANSWER_FILE ('-' for standard input) against the given sources.

    With --audit, --rules, --facts and --live: attach the evidence, decide the rules on
    today's live values, and append the record to the audit log."""
    policy = _policy(ineligible, min_similarity)
    if batch is not None:
        if vendor is not None:
            raise click.UsageError("--from reads one response file, not --batch")
        if out is None:
            raise click.UsageError("--batch needs --out OUT.jsonl")
        with ExitStack() as stack:
            log = stack.enter_context(open_store(audit)) if audit else None
            status = _run_batch(batch, out, policy, log, fail_on)
            if log is not None:
                log.write_checkpoint()
        sys.exit(status)
    if answer_file is None:
        raise click.UsageError("give an ANSWER_FILE (or --batch IN.jsonl)")
    limits = ReadLimits.from_env()
    if vendor is not None:
        given = (source_args, email_args, sources_file)
        sources = _gather_sources(*given, limits) if any(given) else []
        verified, record = verify_vendor_response(
            vendor, answer_file, request_file, sources, policy
        )
    else:
        if request_file is not None:
            raise click.UsageError("--request goes with --from")
        sources = _gather_sources(source_args, email_args, sources_file, limits)
        if number_sources:
            sources = _numbered(sources)
        # A character is at most four bytes of UTF-8 (and a BOM may come first).
        answer = _read_text(answer_file, "answer", 4 * MAX_ANSWER_CHARS + 3)
        verified = verify(answer, sources, policy=policy)
        record = {"command": "verify", "answer_file": str(answer_file)}
    conclude_from_options(
        verified,
        record,
        audit=audit,
        rules_path=rules_path,
        facts_path=facts_path,
        live_spec=live_spec,
    )
    emit(format_answer(verified, fmt), out, verified)
    failures = failed(verified, fail_on) if fail_on else []
    if failures:
        click.echo(f"failed (--fail-on {fail_on}): {', '.join(failures)}", err=True)
        sys.exit(1)


def _numbered(sources: list[Source]) -> list[Source]:
    """The sources with the ids 1..n in the order given; the old id stays as the title."""
    return [
        replace(source, id=str(number), title=source.title or source.id)
        for number, source in enumerate(sources, start=1)
    ]


def _policy(ineligible: Literal["flag", "remove"] | None, min_similarity: float | None) -> Policy:
    policy = Policy()
    if ineligible is not None:
        policy = replace(policy, ineligible_citations=ineligible)
    if min_similarity is not None:
        policy = replace(policy, min_similarity=min_similarity)
    return policy


def _gather_sources(
    source_args: tuple[str, ...],
    email_args: tuple[str, ...],
    sources_file: Path | None,
    limits: ReadLimits,
) -> list[Source]:
    sources: list[Source] = []
    if sources_file is not None:
        text = _read_text(sources_file, "sources", limits.max_file_bytes)
        sources.extend(read_sources(text, where=str(sources_file), limits=limits))
    for value in source_args:
        source_id, path = _split_source_arg(value)
        sources.append(read_source_file(path, source_id=source_id, limits=limits))
    for value in email_args:
        source_id, path = _split_source_arg(value)
        sources.append(
            read_source_file(path, source_id=source_id, kind="email_body", limits=limits)
        )
    if not sources:
        raise InputError("no sources: give --source FILE, --email FILE or --sources FILE.json")
    return sources


def failed(answer: VerifiedAnswer, fail_on: FailOn) -> list[str]:
    """What fails ``answer`` under ``--fail-on``: ``q2 not_found``, ``claim c3`` ..., in order."""
    failures: list[str] = []
    failed_quotes = {q.id for q in answer.quotes if q.status in FAILED_QUOTE or q.meaning_changed}
    if fail_on in ("quote", "any"):
        failures += [
            f"{q.id} {q.status}" + (" (meaning changed)" if q.meaning_changed else "")
            for q in answer.quotes
            if q.id in failed_quotes
        ]
    if fail_on in ("claim", "any"):
        failures += [
            f"claim {c.id}"
            for c in answer.claims
            if any(cited.status in FAILED_CITATION for cited in c.citations)
            or failed_quotes.intersection(c.quote_ids)
        ]
    return failures


def _run_batch(
    batch: Path, out: Path, policy: Policy, log: AuditStore | None, fail_on: FailOn | None
) -> int:
    """Verify each line; a bad line becomes an error record and never stops the others."""
    errors = safe_console(stderr=True)
    limits = ReadLimits.from_env()
    good = bad = failing = 0
    total = batch.stat().st_size
    progress = Progress(
        TextColumn("verifying"),
        BarColumn(),
        TextColumn("{task.fields[done]} answers"),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
    )
    with batch.open("rb") as lines, out.open("w", encoding="utf-8") as sink, progress:
        task = progress.add_task("batch", total=total, done=0)
        for number, (size, raw) in enumerate(bounded_lines(lines, limits.max_line_bytes), 1):
            progress.update(task, advance=size, done=good + bad)
            if raw is not None and number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 BOM some editors write
            if raw is not None and not raw.strip():
                continue
            where = f"{batch}: line {number}"
            record, problem, verified = _verify_line(raw, number, where, policy, log, limits)
            if problem is not None:
                bad += 1
                errors.print(visible(f"skipped {problem}"))
            else:
                good += 1
            if verified is not None and fail_on and (failures := failed(verified, fail_on)):
                failing += 1
                errors.print(visible(f"failed {where}: {', '.join(failures)}"))
            sink.write(json_text(record) + "\n")
    summary = f"{good} answers verified, {bad} lines rejected"
    if fail_on:
        summary += f", {failing} failed (--fail-on {fail_on})"
    errors.print(visible(f"{summary} -> {out}"))
    return 1 if bad or failing else 0


def _verify_line(
    raw: bytes | None,
    number: int,
    where: str,
    policy: Policy,
    log: AuditStore | None,
    limits: ReadLimits,
) -> tuple[dict[str, object], str | None, VerifiedAnswer | None]:
    """The output record of one batch line (``raw`` None: a line over the size limit), the
    problem that stopped it, if any, and the verified answer when there was none."""
    line_id: str | None = None
    try:
        if raw is None:
            raise InputError(
                f"the line is longer than {limits.max_line_bytes:,} bytes (setting max_line_bytes)",
                where=where,
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(
                f"invalid UTF-8 at byte {error.start} of the line", where=where
            ) from None
        line_id, answer, sources, line_policy = read_batch_line(text, where=where, limits=limits)
        effective = line_policy.to_policy(policy) if line_policy else policy
        # Indexes of sources repeated across lines come from the shared cache.
        verified = Verifier(sources, policy=effective).verify(answer, answer_id=line_id)
        if log is not None:
            request = {"command": "verify --batch", "batch_line": number}
            conclude(verified, request=request, log=log)
        return answer_to_json(verified), None, verified
    except InputError as error:
        message = str(error) if error.where else f"{where}: {error}"
        error_record = {"field": error.field, "message": message}
        return {"id": line_id, "line": number, "error": error_record}, message, None
