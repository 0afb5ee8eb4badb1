"""One exception tree: every error citeproof raises on purpose is a `CiteproofError`.

Errors about bad input name *what* was wrong and *where* (a file, a line, a field), so a
user can fix the input without reading a traceback.
"""

from __future__ import annotations


class CiteproofError(Exception):
    """Root of every error citeproof raises on purpose."""


class InputError(CiteproofError, ValueError):
    """Bad input: the message names the field and, where known, the file and line."""

    def __init__(self, message: str, *, where: str | None = None, field: str | None = None):
        self.where = where
        self.field = field
        self.detail = message
        parts = [p for p in (where, f"field {field!r}" if field else None) if p]
        prefix = ": ".join(parts)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class SourceError(InputError):
    """A source is malformed: empty id, unknown kind, paragraph spans out of range..."""


class AnswerError(InputError):
    """An answer cannot be verified: not text, too large, invalid UTF-8."""


class PolicyError(InputError):
    """A policy setting is out of range or unknown."""
