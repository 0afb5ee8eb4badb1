"""Ingest many paths into a store: walk folders, read each file, keep going past failures."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from citeproof.errors import CiteproofError
from citeproof.sources._build import FileDrafts, is_supported, read_file
from citeproof.sources._limits import DEFAULT_LIMITS, ReadLimits
from citeproof.sources._store import ChangeStatus, IngestResult, SourceStore


@dataclass(frozen=True, slots=True)
class FileFailure:
    """A file that could not be ingested, and why (the message names the file)."""

    path: Path
    message: str


@dataclass(frozen=True, slots=True)
class IngestReport:
    """Everything one ingest run did.

    ``ignored`` are files found in folders in formats citeproof does not read;
    ``not_followed`` the symbolic links left alone.
    ``ok`` is false when a file failed or a supported attachment could not be read.
    """

    results: tuple[IngestResult, ...]
    failures: tuple[FileFailure, ...]
    ignored: tuple[Path, ...] = ()
    not_followed: tuple[NotFollowed, ...] = ()

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


@dataclass(frozen=True, slots=True)
class NotFollowed:
    """A symbolic link found while walking a folder and not followed, and why."""

    path: Path
    reason: str


@dataclass(frozen=True, slots=True)
class FoundFiles:
    """What walking the ingest paths found: the files to read, the files in formats citeproof
    does not read, and the symbolic links left alone."""

    files: tuple[Path, ...]
    ignored: tuple[Path, ...]
    not_followed: tuple[NotFollowed, ...]


def find_files(paths: Iterable[Path], *, follow_symlinks: bool = False) -> FoundFiles:
    """The files to ingest under ``paths``: folders walked recursively, hidden entries
    skipped, each folder's entries in name order.

    A symbolic link inside a folder (to a file or a folder) is never followed unless
    ``follow_symlinks``, and never when it leads outside the folder named in ``paths`` (its
    ingest root): a link to ``/etc/passwd`` dropped in a mail folder is not read. A path named
    directly is always returned, whatever its suffix, so that an unsupported file given by name
    fails with a clear error instead of being skipped silently.
    """
    files: list[Path] = []
    ignored: list[Path] = []
    not_followed: list[NotFollowed] = []

    def walk(folder: Path, root: Path, seen: set[Path]) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as error:
            not_followed.append(NotFollowed(folder, f"cannot list the folder: {error.strerror}"))
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            found = Path(entry.path)
            if entry.is_symlink():
                if not follow_symlinks:
                    not_followed.append(
                        NotFollowed(found, "symbolic link, not followed (--follow-symlinks)")
                    )
                    continue
                target = found.resolve()
                if not target.is_relative_to(root):
                    not_followed.append(
                        NotFollowed(found, f"symbolic link to {target}, outside {root}")
                    )
                    continue
            if entry.is_dir():
                real = found.resolve()
                if real not in seen:  # a link back up the tree would loop forever
                    walk(found, root, seen | {real})
            elif entry.is_file():
                (files if is_supported(found) else ignored).append(found)

    for path in paths:
        if path.is_dir():
            root = path.resolve()
            walk(path, root, {root})
        else:
            files.append(path)
    return FoundFiles(tuple(files), tuple(ignored), tuple(not_followed))


def collect_files(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """The files to ingest under ``paths`` and the files found there that are ignored, with
    no symbolic link followed (see `find_files`)."""
    found = find_files(paths)
    return list(found.files), list(found.ignored)


def ingest_paths(
    store: SourceStore,
    paths: Sequence[Path],
    *,
    acl: Sequence[str] | None = None,
    on_file: Callable[[Path], None] | None = None,
    trusted_roots: Sequence[Path] = (),
    follow_symlinks: bool = False,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> IngestReport:
    """Ingest every file under ``paths`` (see `find_files`); a file that fails is reported
    and the rest go on.

    ``on_file`` is called after each file (for a progress bar). Files are stored a batch at
    a time (see `ingest_files`), and a file that fails stores nothing and never loses what
    was stored before. ``trusted_roots``: see `SourceStore.ingest_file`; ``limits`` bound the
    reading of each file.
    """
    found = find_files(paths, follow_symlinks=follow_symlinks)
    return ingest_files(
        store,
        found.files,
        acl=acl,
        on_file=on_file,
        found=found,
        trusted_roots=trusted_roots,
        limits=limits,
    )


def ingest_files(
    store: SourceStore,
    files: Sequence[Path],
    *,
    acl: Sequence[str] | None = None,
    on_file: Callable[[Path], None] | None = None,
    found: FoundFiles | None = None,
    trusted_roots: Sequence[Path] = (),
    limits: ReadLimits = DEFAULT_LIMITS,
) -> IngestReport:
    """Ingest exactly ``files`` (see `ingest_paths`); ``found`` is the walk they came from,
    whose ignored files and links not followed the report names.

    Files are read one at a time and stored a batch at a time (`Batch`), one transaction per
    batch: what each file stores, and what the report says of it, is what storing it alone
    would give. A batch that fails to store is stored again file by file, so a file that
    cannot be stored fails alone. ``on_file`` is called for each file once it is stored (or
    has failed), in the order of ``files``.
    """
    results: list[IngestResult] = []
    failures: list[FileFailure] = []
    batch = Batch()

    def done(path: Path) -> None:
        if on_file is not None:
            on_file(path)

    def store_batch() -> None:
        if not batch.files:
            return
        try:
            stored = store.put_many(batch.files, acl=acl)
        except Exception:  # one of them failed: nothing was stored; each is stored alone
            for file in batch.files:
                try:
                    results.append(store.put(file, acl=acl))
                except Exception as error:
                    failures.append(_failure(file.path, error))
                done(file.path)
        else:
            results.extend(stored)
            for file in batch.files:
                done(file.path)
        batch.clear()

    for path in files:
        try:
            file = read_file(path, trusted_roots=trusted_roots, limits=limits)
        except Exception as error:  # a library choking on one file must not stop the run
            store_batch()  # the files before it are stored, and reported, first
            failures.append(_failure(path, error))
            done(path)
            continue
        if batch.add(file):
            store_batch()
    store_batch()
    if found is None:
        return IngestReport(tuple(results), tuple(failures))
    return IngestReport(tuple(results), tuple(failures), found.ignored, found.not_followed)


def _failure(path: Path, error: Exception) -> FileFailure:
    if isinstance(error, CiteproofError):
        return FileFailure(path, str(error))
    return FileFailure(path, f"{path}: {type(error).__name__}: {error}")


class Batch:
    """Files read and not yet stored. Full (`add` says so) at `FILES` files, at `CHARS`
    characters of text, or `SECONDS` after its first file was read, so that memory stays
    bounded and a progress bar or deadline check hears of each file soon after it is read."""

    FILES = 64
    CHARS = 4_000_000
    SECONDS = 0.5

    def __init__(self) -> None:
        self.files: list[FileDrafts] = []
        self._chars = 0
        self._since = 0.0

    def add(self, file: FileDrafts) -> bool:
        """Add a file read; whether the batch should now be stored."""
        if not self.files:
            self._since = time.monotonic()
        self.files.append(file)
        self._chars += sum(len(draft.text) for draft in file.drafts)
        return (
            len(self.files) >= self.FILES
            or self._chars >= self.CHARS
            or time.monotonic() - self._since >= self.SECONDS
        )

    def clear(self) -> None:
        self.files.clear()
        self._chars = 0
