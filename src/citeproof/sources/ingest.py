"""Ingest many paths into a store: walk folders, read each file, keep going past failures."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from citeproof.errors import CiteproofError
from citeproof.sources.build import is_supported
from citeproof.sources.store import ChangeStatus, IngestResult, SourceStore


@dataclass(frozen=True, slots=True)
class FileFailure:
    """A file that could not be ingested, and why (the message names the file)."""

    path: Path
    message: str


@dataclass(frozen=True, slots=True)
class IngestReport:
    """Everything one ingest run did.

    ``ignored`` are files found in folders in formats citeproof does not read.
    ``ok`` is false when a file failed or a supported attachment could not be read.
    """

    results: tuple[IngestResult, ...]
    failures: tuple[FileFailure, ...]
    ignored: tuple[Path, ...] = ()

    def count(self, status: ChangeStatus) -> int:
        return sum(result.count(status) for result in self.results)

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(problem for result in self.results for problem in result.problems)

    @property
    def clashes(self) -> tuple[str, ...]:
        return tuple(clash for result in self.results for clash in result.clashes)

    @property
    def skipped(self) -> tuple[str, ...]:
        return tuple(note for result in self.results for note in result.skipped)

    @property
    def ok(self) -> bool:
        return not self.failures and not self.problems


def collect_files(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """The files to ingest under ``paths`` (folders walked recursively, hidden entries
    skipped, each folder's files in name order) and the files found there that are ignored.

    A file named directly is always returned, whatever its suffix, so that an unsupported
    file given by name fails with a clear error instead of being skipped silently.
    """
    files: list[Path] = []
    ignored: list[Path] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.startswith("."):
                    continue
                found = Path(folder) / name
                (files if is_supported(found) else ignored).append(found)
    return files, ignored


def ingest_paths(
    store: SourceStore,
    paths: Sequence[Path],
    *,
    acl: Sequence[str] | None = None,
    on_file: Callable[[Path], None] | None = None,
    trusted_roots: Sequence[Path] = (),
) -> IngestReport:
    """Ingest every file under ``paths``; a file that fails is reported and the rest go on.

    ``on_file`` is called after each file (for a progress bar). Each file is one transaction,
    so a failure never loses what was stored before. ``trusted_roots``: see
    `SourceStore.ingest_file`.
    """
    files, ignored = collect_files(paths)
    return ingest_files(
        store, files, acl=acl, on_file=on_file, ignored=ignored, trusted_roots=trusted_roots
    )


def ingest_files(
    store: SourceStore,
    files: Sequence[Path],
    *,
    acl: Sequence[str] | None = None,
    on_file: Callable[[Path], None] | None = None,
    ignored: Sequence[Path] = (),
    trusted_roots: Sequence[Path] = (),
) -> IngestReport:
    """Ingest exactly ``files`` (see `ingest_paths`)."""
    results: list[IngestResult] = []
    failures: list[FileFailure] = []
    for path in files:
        try:
            results.append(store.ingest_file(path, acl=acl, trusted_roots=trusted_roots))
        except CiteproofError as error:
            failures.append(FileFailure(path, str(error)))
        except Exception as error:  # a library choking on one file must not stop the run
            failures.append(FileFailure(path, f"{path}: {type(error).__name__}: {error}"))
        if on_file is not None:
            on_file(path)
    return IngestReport(tuple(results), tuple(failures), tuple(ignored))
