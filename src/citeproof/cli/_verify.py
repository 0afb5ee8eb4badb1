"""``citeproof verify ANSWER --source FILE...``: check an answer's quotes against its sources."""

from __future__ import annotations

import codecs
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Literal

import click

from citeproof.adapters import VENDORS
from citeproof.cli._common import (
    Command,
    OutputFormat,
    PathType,
    ProviderChoice,
    check_outcome_options,
    conclude_from_options,
    emit,
    engine_options,
    examples,
    exit_codes,
    format_answer,
    format_option,
    outcome_options,
)
from citeproof.cli._fail_on import (
    NOTHING_CHECKED,
    batch_line_unchecked,
    fail_on_option,
    failures,
)
from citeproof.errors import InputError
from citeproof.model import SUPPORT_JUDGES, Policy, Source, SupportJudgeName
from citeproof.operations import Engine
from citeproof.providers import get_provider
from citeproof.render import plural, safe_console, visible
from citeproof.sources import (
    MARKDOWN_SUFFIXES,
    ReadLimits,
    bounded_lines,
    check_extent,
    paragraph_locations,
    read_bounded,
    read_file_bounded,
    read_markdown,
    read_source_file,
    read_text,
    readable_path,
)
from citeproof.verifier import MAX_ANSWER_CHARS, verify

if TYPE_CHECKING:
    from citeproof.audit import AuditStore
    from citeproof.operations import BatchLine, BatchSettings, FailOn

# What only some verifications need (a batch, an audit log, a vendor's response, a sources
# JSON file, a progress bar) is imported where it is used: a plain verify starts faster.


def _split_source_arg(value: str) -> tuple[str | None, Path]:
    """``ID=PATH`` or ``PATH``."""
    if "=" in value and not Path(value).exists():
        source_id, _, path = value.partition("=")
        return source_id or None, Path(path)
    return None, Path(value)


def _read_text(path: Path, what: str, limit: int) -> str:
    """The UTF-8 text of ``path`` ('-': standard input; a BOM allowed), reading at most
    ``limit`` bytes; a byte that is not UTF-8 is refused. For the answer and JSON files:
    ``--encoding`` names the sources' encoding, never theirs."""
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
    hint = f"the {what} is read as UTF-8 (--encoding names the sources' encoding only)"
    return _decode(raw, "utf-8", str(path), what, hint)


def _decode(raw: bytes, encoding: str, where: str, what: str, hint: str) -> str:
    """``raw`` in ``encoding`` (UTF-8: a BOM allowed, or UTF-16 with its BOM); a byte the
    encoding does not define is refused with ``hint`` (what to do), never guessed."""
    if encoding == "utf-8" and raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    try:
        return raw.decode("utf-8-sig" if encoding == "utf-8" else encoding)
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        name = {"utf-8": "UTF-8", "utf-16": "UTF-16"}.get(encoding, encoding)
        raise InputError(
            f"invalid {name} at byte {error.start} (line {line}): "
            f"{raw[error.start : error.start + 4]!r}; {hint}",
            where=where,
            field=what,
        ) from None


def _encoding(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        return codecs.lookup(value).name.replace("_", "-")
    except LookupError:
        raise click.BadParameter(f"unknown encoding {value!r}") from None


DEFAULTS = Policy()


@click.command(
    "verify",
    cls=Command,
    short_help="Check an answer's quotes and claims against its sources.",
    sections=(
        (
            "Judging options",
            ("number_sources", "ineligible", "min_similarity", "support_judge", "judge_provider",
             "escalate_to"),
        ),
        ("LLM API responses", ("vendor", "request_file")),
        ("Batches", ("batch", "engine", "address", "workers")),
        ("Evidence, rules and audit", ("audit", "rules_path", "facts_path", "live_spec")),
    ),
    epilog=examples(
        "citeproof verify answer.md --source policy=policy.pdf --source memo.docx",
        "citeproof verify answer.md --source mail.eml --format html --out page.html",
        "citeproof verify answer.md --source note.txt --encoding cp1252 --fail-on any",
        "citeproof verify response.json --from anthropic --format json",
        "citeproof verify --batch answers.jsonl --out verified.jsonl --fail-on quote",
    )
    + exit_codes(
        (
            0,
            "verified; the verdicts are in the output (see --fail-on to act on them); an "
            "empty answer or source is verified with a warning",
        ),
        (
            1,
            "an error stopped it (the message names what and where): a file that cannot be "
            "read as text; with --batch, a line was rejected; with --fail-on, a quote or "
            "claim failed, or (any, review) nothing could be checked",
        ),
    ),
)  # fmt: skip
@click.argument(
    "answer_file",
    required=False,
    type=PathType(path_type=Path, allow_dash=True, exists=True, dir_okay=False),
)
@click.option(
    "--source",
    "source_args",
    multiple=True,
    metavar="[ID=]FILE",
    help="A source document: .pdf, .docx, .html, .md or .txt (.eml: the email's body). "
    "ID is what the answer cites it by (default: the file name without its suffix). "
    "Repeatable.",
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
    type=PathType(path_type=Path, exists=True, dir_okay=False),
    help="A JSON file with a list of sources (the batch contract's source objects).",
)
@format_option
@click.option(
    "--out",
    "out",
    type=PathType(path_type=Path, dir_okay=False),
    help="Write here instead of standard output (required with --batch).",
)
@fail_on_option
@click.option(
    "--encoding",
    default="utf-8",
    metavar="ENCODING",
    show_default=True,
    callback=_encoding,
    help="The encoding of the .txt and .md sources (e.g. cp1252 for Windows mail exports); "
    "the answer is read as UTF-8. A byte it does not define is refused, never guessed. "
    "Other formats (.eml, .html, .pdf, .docx) name their own.",
)
@click.option(
    "--number-sources",
    is_flag=True,
    default=False,
    help="Give the sources the ids 1..n in the order given, for an answer that cites [1], [2]. "
    "Without it, citations are matched by id, never by position.",
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
    "--support-judge",
    "support_judge",
    type=click.Choice(SUPPORT_JUDGES),
    default=None,
    help="How claim support is judged: strict (default: supported only where the passage "
    "states the claim, read with a parse and WordNet; unconfirmed where it cannot confirm "
    "it), lexical (the word-level head alone), model (the shipped entailment model), "
    "lexical+model (the head, overruled where the model reads a contradiction), or provider "
    "(the LLM of --judge-provider, one call per answer, cached).",
)
@click.option(
    "--judge-provider",
    "judge_provider",
    type=ProviderChoice(),
    default=None,
    help="The provider for --support-judge provider (default: openai when OPENAI_BASE_URL or "
    "OPENAI_API_KEY is set, anthropic when ANTHROPIC_API_KEY is set, else the embedded model).",
)
@click.option(
    "--escalate-to",
    "escalate_to",
    type=ProviderChoice(),
    default=None,
    help="With the strict judge: send the claims it could not confirm (unconfirmed), and only "
    "those, to this provider, one call per answer, cached; its verdict is recorded as the "
    "provider's (method provider, rule escalated).",
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
    type=PathType(path_type=Path, exists=True, dir_okay=False),
    help="With --from: the JSON request that holds the cited documents.",
)
@click.option(
    "--batch",
    "batch",
    type=PathType(path_type=Path, exists=True, dir_okay=False),
    help="Verify every line of a JSON-lines file (see the JSON contract).",
)
@engine_options(
    None,
    "with --batch, a batch of one chunk (16 lines, 4 MB) runs in this process and a longer "
    "one on the local process pool; either way outputs are written and logged in input order",
)
@outcome_options
def verify_command(
    answer_file: Path | None,
    source_args: tuple[str, ...],
    email_args: tuple[str, ...],
    sources_file: Path | None,
    fmt: OutputFormat,
    out: Path | None,
    fail_on: FailOn | None,
    encoding: str,
    number_sources: bool,
    ineligible: Literal["flag", "remove"] | None,
    min_similarity: float | None,
    support_judge: SupportJudgeName | None,
    judge_provider: str | None,
    escalate_to: str | None,
    vendor: str | None,
    request_file: Path | None,
    batch: Path | None,
    engine: Engine | None,
    address: str | None,
    workers: int | None,
    audit: str | None,
    rules_path: Path | None,
    facts_path: Path | None,
    live_spec: str | None,
) -> None:
    """Verify the quotes of ANSWER_FILE ('-' for standard input) against the given sources.

    With --audit, --rules, --facts and --live: attach the evidence, decide the rules on
    today's live values, and append the record to the audit log."""
    check_outcome_options(rules_path, facts_path, live_spec)
    policy = _policy(ineligible, min_similarity)
    if support_judge is not None:
        policy = replace(policy, support_judge=support_judge)
    if judge_provider is not None and support_judge != "provider":
        raise click.UsageError("--judge-provider goes with --support-judge provider")
    if batch is not None and support_judge == "provider":
        raise click.UsageError("--support-judge provider judges one answer, not --batch")
    support_provider = get_provider(judge_provider) if support_judge == "provider" else None
    if escalate_to is not None:
        if policy.support_judge != "strict":
            raise click.UsageError("--escalate-to goes with the strict judge")
        if batch is not None:
            raise click.UsageError("--escalate-to judges one answer, not --batch")
        support_provider = get_provider(escalate_to)
    if batch is not None:
        if vendor is not None:
            raise click.UsageError("--from reads one response file, not --batch")
        if out is None:
            raise click.UsageError("--batch needs --out OUT.jsonl")
        if rules_path is not None:
            raise click.UsageError("--rules decides on one answer, not --batch")
        from citeproof.audit import open_store
        from citeproof.operations import BatchSettings

        settings = BatchSettings(
            str(batch),
            policy,
            ReadLimits.from_env(),
            datetime.now(UTC),
            fail_on,
            audited=audit is not None,
        )
        with ExitStack() as stack:
            log = stack.enter_context(open_store(audit)) if audit else None
            status = _run_batch(batch, out, log, settings, engine, workers, address)
            if log is not None:
                log.write_checkpoint()
        sys.exit(status)
    if engine is not None or address is not None or workers is not None:
        raise click.UsageError("--engine, --address and --workers go with --batch")
    if answer_file is None:
        raise click.UsageError("give an ANSWER_FILE (or --batch IN.jsonl)")
    limits = ReadLimits.from_env()
    if vendor is not None:
        given = (source_args, email_args, sources_file)
        sources = _gather_sources(*given, limits) if any(given) else []
        from citeproof.cli._vendor import verify_vendor_response

        verified, record = verify_vendor_response(
            vendor, answer_file, request_file, sources, policy
        )
    else:
        if request_file is not None:
            raise click.UsageError("--request goes with --from")
        sources = _gather_sources(source_args, email_args, sources_file, limits, encoding)
        if number_sources:
            sources = _numbered(sources)
        # A character is at most four bytes of UTF-8 (and a BOM may come first).
        answer = _read_text(answer_file, "answer", 4 * MAX_ANSWER_CHARS + 3)
        _warn_if_empty(answer, sources, str(answer_file))
        verified = verify(answer, sources, policy=policy, support_provider=support_provider)
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
    if fail_on:
        failed = failures(verified, fail_on)
        if failed:
            click.echo(f"failed (--fail-on {fail_on}): {', '.join(failed)}", err=True)
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


def _warn_if_empty(answer: str, sources: list[Source], where: str) -> None:
    """A warning on standard error for an empty answer or source: it is verified all the
    same (nothing to check is a result), but it is rarely what was meant."""
    warn = safe_console(stderr=True)
    if not answer.strip():
        warn.print(visible(f"warning: {where}: the answer is empty; there is nothing to check"))
    for source in sources:
        if not source.text.strip():
            name = source.title or source.id
            warn.print(visible(f"warning: source {name}: it is empty; nothing can be quoted"))


def _source_file(
    value: str, option: str, kind: Literal["email_body"] | None, limits: ReadLimits, encoding: str
) -> Source:
    source_id, path = _split_source_arg(value)
    if not path.exists() or path.is_dir():
        why = "is a folder" if path.is_dir() else "does not exist"
        raise click.BadParameter(f"{path} {why}", param_hint=f"'{option}'")
    if path.suffix.lower() not in (*MARKDOWN_SUFFIXES, ".txt", ""):
        return read_source_file(path, source_id=source_id, kind=kind, limits=limits)
    # A .txt or .md source: decoded strictly in --encoding, then read as UTF-8.
    hint = (
        "if the file is in another encoding, give it with --encoding (e.g. --encoding cp1252)"
        if encoding == "utf-8"
        else f"the file is not in {encoding}: give its encoding with --encoding"
    )
    raw = read_file_bounded(path, limits, str(path))
    text = _decode(raw, encoding, str(path), "source", hint)
    parts = read_markdown if path.suffix.lower() in MARKDOWN_SUFFIXES else read_text
    document = parts(text.encode("utf-8"), str(path))
    check_extent(document.text, len(document.paragraphs), limits, str(path))
    # Named in the document's own terms, as `read_source_file` names them.
    located = document.locations or paragraph_locations(document.text, document.paragraphs)
    return Source(
        id=source_id or path.stem,
        kind=kind or "document",
        text=document.text,
        title=readable_path(path.name),
        url=path.resolve().as_uri(),
        paragraphs=document.paragraphs or None,
        locations=located if any(located) else None,
    )


def _gather_sources(
    source_args: tuple[str, ...],
    email_args: tuple[str, ...],
    sources_file: Path | None,
    limits: ReadLimits,
    encoding: str = "utf-8",
) -> list[Source]:
    sources: list[Source] = []
    if sources_file is not None:
        from citeproof.outcome import read_sources  # pydantic: only for JSON

        text = _read_text(sources_file, "sources", limits.max_file_bytes)  # JSON: UTF-8
        sources.extend(read_sources(text, where=str(sources_file), limits=limits))
    for value in source_args:
        sources.append(_source_file(value, "--source", None, limits, encoding))
    for value in email_args:
        sources.append(_source_file(value, "--email", "email_body", limits, encoding))
    if not sources:
        raise InputError("no sources: give --source FILE, --email FILE or --sources FILE.json")
    return sources


def _run_batch(
    batch: Path,
    out: Path,
    log: AuditStore | None,
    settings: BatchSettings,
    engine: Engine | None,
    workers: int | None,
    address: str | None,
) -> int:
    """Verify each line on the engine; a bad line becomes an error record and never stops the
    others. Outputs are written and audit records appended here, in input order."""
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from citeproof.operations import BatchLineFailed, verify_lines

    errors = safe_console(stderr=True)
    good = bad = failing = 0
    progress = Progress(
        TextColumn("verifying"),
        BarColumn(),
        TextColumn("{task.fields[done]}/{task.fields[lines]} lines"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
    )
    lines_total = _count_lines(batch)
    with batch.open("rb") as handle, out.open("w", encoding="utf-8") as sink, progress:
        task = progress.add_task("batch", total=batch.stat().st_size, done=0, lines=lines_total)
        lines = _lines(handle, settings.limits.max_line_bytes)
        try:
            for result in verify_lines(
                lines, settings, engine=engine, workers=workers, address=address
            ):
                progress.update(task, advance=result.size, done=good + bad + 1)
                if result.problem is not None:
                    bad += 1
                    errors.print(visible(f"skipped {result.problem}"))
                else:
                    good += 1
                if result.audit is not None and log is not None:
                    payload, request_id, texts = result.audit
                    log.append(payload, request_id, texts=texts)
                failed = list(result.failures)
                unchecked = result.problem is None and not failed
                if unchecked and batch_line_unchecked(result.output, settings.fail_on):
                    failed = [NOTHING_CHECKED]
                if failed:
                    failing += 1
                    where = f"{settings.where}: line {result.number}"
                    errors.print(visible(f"failed {where}: {', '.join(failed)}"))
                sink.write(result.output + "\n")
        except BatchLineFailed as error:
            raise InputError(str(error.args[0])) from None
    summary = f"{plural(good, 'answer')} verified, {plural(bad, 'line')} rejected"
    if settings.fail_on:
        summary += f", {failing} failed (--fail-on {settings.fail_on})"
    errors.print(visible(f"{summary} -> {out}"))
    return 1 if bad or failing else 0


def _count_lines(path: Path) -> int:
    """The non-blank lines of ``path``, counted in 1 MiB reads (for the progress total)."""
    count, pending = 0, False  # pending: the line the last read ended in has content
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            *ended, rest = chunk.split(b"\n")
            for number, line in enumerate(ended):
                count += bool(line.strip()) or (number == 0 and pending)
            pending = bool(rest.strip()) or (not ended and pending)
    return count + pending


def _lines(handle: BinaryIO, limit: int) -> Iterator[BatchLine]:
    """The non-blank lines of the batch file, numbered from 1 (a UTF-8 BOM some editors write
    is dropped from the first)."""
    from citeproof.operations import BatchLine

    for number, (size, raw) in enumerate(bounded_lines(handle, limit), 1):
        if raw is not None and number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if raw is not None and not raw.strip():
            continue
        yield BatchLine(number, size, raw)
