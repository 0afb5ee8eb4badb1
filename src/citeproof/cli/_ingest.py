"""``citeproof ingest PATH... --store FILE.db``: read mail and documents into a source store."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from citeproof.cli._common import Command, PathType, examples, exit_codes
from citeproof.render import markup_safe, plural, safe_console, visible
from citeproof.sources import IngestReport, ReadLimits, SourceStore, find_files, ingest_files


@click.command(
    "ingest",
    cls=Command,
    short_help="Read mail and documents into a source store.",
    epilog=examples(
        "citeproof ingest mailbox/ --store mailbox.db",
        "citeproof ingest policy.pdf memo.docx --store mailbox.db --acl underwriting",
    )
    + exit_codes(
        (0, "every file was ingested (or was unchanged, or is a format citeproof ignores)"),
        (1, "a file failed (the others are ingested all the same), or the store cannot open"),
        (2, "a PATH does not exist (nothing is ingested and no store is made)"),
    ),
)
@click.argument("paths", nargs=-1, required=True, type=PathType(path_type=Path, exists=True))
@click.option(
    "--store",
    "store_path",
    required=True,
    type=PathType(dir_okay=False, path_type=Path),
    help="The SQLite source store to write (created if missing).",
)
@click.option(
    "--acl",
    "acl",
    multiple=True,
    metavar="PRINCIPAL",
    help="Who may read what is ingested (repeat for several); everyone when not given.",
)
@click.option(
    "--trusted",
    "trusted",
    multiple=True,
    type=PathType(file_okay=False, path_type=Path),
    metavar="FOLDER",
    help="A folder of genuine mail whose messages are identified by Message-ID (the same "
    "message saved twice there is one document). Elsewhere a message is identified by its file.",
)
@click.option(
    "--follow-symlinks",
    is_flag=True,
    help="Follow symbolic links inside the folders given (never to anything outside them).",
)
def ingest_command(
    paths: tuple[Path, ...],
    store_path: Path,
    acl: tuple[str, ...],
    trusted: tuple[Path, ...],
    follow_symlinks: bool,
) -> None:
    """Ingest mail (.eml, with attachments) and documents (.pdf, .docx, .html, .md, .txt)
    from PATHS (files or folders) into the store. Unchanged files are left as they are; a
    changed file becomes a new version. Exits with status 1 if any file failed; the others
    are ingested all the same."""
    out = safe_console()
    err = safe_console(stderr=True)
    found = find_files(paths, follow_symlinks=follow_symlinks)
    limits = ReadLimits.from_env()
    with SourceStore(store_path) as store:
        progress = Progress(
            TextColumn("ingesting"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
            console=err,
            transient=True,
        )
        with progress:
            task = progress.add_task("", total=len(found.files))

            def advance(path: Path) -> None:
                progress.update(task, advance=1, description=markup_safe(path.name))

            report = ingest_files(
                store,
                found.files,
                acl=list(acl) or None,
                on_file=advance,
                found=found,
                trusted_roots=trusted,
                limits=limits,
            )
    _summarise(report, store_path, out, err)
    if not report.ok:
        raise SystemExit(1)


def _summarise(report: IngestReport, store_path: Path, out: Console, err: Console) -> None:
    out.print(
        visible(
            f"{plural(len(report.results), 'file')} ingested into {store_path}: "
            f"{plural(report.count('added'), 'source')} added, "
            f"{plural(report.count('new_version'), 'new version')}, "
            f"{report.count('unchanged')} unchanged"
            + (f", {report.count('restored')} restored" if report.count("restored") else "")
            + (f", {report.count('withdrawn')} withdrawn" if report.count("withdrawn") else "")
        )
    )
    if report.ignored:
        ignored = plural(len(report.ignored), "file")
        out.print(visible(f"{ignored} ignored (formats citeproof does not read)"))
    for link in report.not_followed:
        out.print(visible(f"skipped: {link.path}: {link.reason}"))
    for note in report.skipped:
        out.print(visible(f"skipped: {note}"))
    for clash in report.clashes:
        err.print(visible(f"warning: {clash}"))
    for problem in report.problems:
        err.print(visible(f"error: {problem}"))
    for failure in report.failures:
        err.print(visible(f"error: {failure.message}"))
    if report.failures:
        rest = "; the others were ingested" if report.results else ""
        err.print(visible(f"{plural(len(report.failures), 'file')} failed{rest}"))
