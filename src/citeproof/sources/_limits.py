"""How much citeproof reads from one file, and for how long, before it gives up on that file.

Every input from outside is bounded: a file that breaks a limit is reported by name, with the
limit and the setting that raises it, and is not stored; the other files go on. The defaults
fit real mail and documents with room to spare (a 5,000-page PDF, a 25 MB attachment); each
can be changed with an environment variable ``CITEPROOF_<SETTING>`` (upper case), e.g.
``CITEPROOF_MAX_PDF_PAGES=20000``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import BinaryIO

from citeproof import environment
from citeproof.errors import InputError, SourceError

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """The limits on reading one file (see the module)."""

    max_file_bytes: int = 100 * MB
    """Bytes read from one file; reading stops there, so ``/dev/zero`` is an error, not a hang."""
    max_expanded_bytes: int = 100 * MB
    """Uncompressed size of a DOCX package (a zip bomb expands to gigabytes)."""
    max_attachment_bytes: int = 25 * MB
    """Decoded size of one attachment; a larger one is skipped, the message is stored."""
    max_pdf_pages: int = 5000
    """Pages in one PDF."""
    max_passages: int = 50_000
    """Paragraphs in one source."""
    max_source_chars: int = 10_000_000
    """Characters of text in one source (also each source of a batch line or sources file)."""
    max_seconds: float = 120.0
    """Time spent reading one file."""
    max_mime_depth: int = 30
    """How deeply MIME parts may nest in a message."""
    max_line_bytes: int = 32 * MB
    """One line of a batch file (its answer and all its sources)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ReadLimits:
        """The defaults, with each ``CITEPROOF_<SETTING>`` variable that is set applied.
        Raises `InputError` naming the variable when its value is not a positive number."""
        environ = os.environ if environ is None else environ
        values: dict[str, int | float] = {}
        for setting in fields(cls):
            name = environment.READ_LIMIT_PREFIX + setting.name.upper()
            if name not in environ:
                continue
            kind = float if setting.type in (float, "float") else int
            try:
                value = kind(environ[name])
            except ValueError:
                value = 0
            if value <= 0:
                raise InputError(f"expected a positive number, got {environ[name]!r}", field=name)
            values[setting.name] = value
        return cls(**values)  # type: ignore[arg-type]


DEFAULT_LIMITS: ReadLimits = ReadLimits()


def over_limit(what: str, amount: str, setting: str, where: str) -> SourceError:
    """The error for a file that breaks a limit, naming the setting that raises it."""
    return SourceError(
        f"{what} is over the limit of {amount} (setting {setting}, "
        f"environment {environment.READ_LIMIT_PREFIX}{setting.upper()})",
        where=where,
    )


def read_bounded(handle: BinaryIO, limit: int) -> bytes | None:
    """At most ``limit`` bytes from ``handle``; ``None`` when there is more."""
    data = handle.read(limit + 1)
    return None if len(data) > limit else data


def bounded_lines(handle: BinaryIO, limit: int) -> Iterator[tuple[int, bytes | None]]:
    """Each line of ``handle`` (with its size in bytes), or ``None`` in place of a line longer
    than ``limit`` bytes; at most ``limit`` + 1 bytes are held at a time."""
    while True:
        line = handle.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or (line.endswith(b"\n") and len(line) == limit + 1):
            yield len(line), line
            continue
        size = len(line)
        while not line.endswith(b"\n"):
            line = handle.readline(1024 * 1024)
            if not line:
                break
            size += len(line)
        yield size, None


def read_file_bounded(path: Path, limits: ReadLimits, where: str) -> bytes:
    """The bytes of ``path``, or `SourceError` when it cannot be read or holds more than
    ``limits.max_file_bytes`` (only that much plus one byte is ever read)."""
    try:
        with path.open("rb") as handle:
            data = read_bounded(handle, limits.max_file_bytes)
    except OSError as error:
        raise SourceError(f"cannot read the file: {error.strerror or error}", where=where) from None
    if data is None:
        raise over_limit("the file", f"{limits.max_file_bytes:,} bytes", "max_file_bytes", where)
    return data


def check_extent(text: str, paragraphs: int, limits: ReadLimits, where: str) -> None:
    """`SourceError` when a source read from ``where`` holds too much text or too many
    paragraphs to be one source."""
    if len(text) > limits.max_source_chars:
        raise over_limit(
            f"the text ({len(text):,} characters)",
            f"{limits.max_source_chars:,}",
            "max_source_chars",
            where,
        )
    if paragraphs > limits.max_passages:
        raise over_limit(
            f"the number of paragraphs ({paragraphs:,})",
            f"{limits.max_passages:,}",
            "max_passages",
            where,
        )


@dataclass(frozen=True, slots=True)
class Deadline:
    """The time left to read one file."""

    limits: ReadLimits
    where: str
    started: float

    @classmethod
    def start(cls, limits: ReadLimits, where: str) -> Deadline:
        return cls(limits, where, time.monotonic())

    def check(self) -> None:
        """Raise `SourceError` once the file has taken longer than ``max_seconds``."""
        if time.monotonic() - self.started > self.limits.max_seconds:
            raise over_limit(
                "reading the file", f"{self.limits.max_seconds:g} s", "max_seconds", self.where
            )
