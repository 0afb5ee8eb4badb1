"""Errors of the audit log, all under `citeproof.errors.CiteproofError`."""

from __future__ import annotations

from citeproof.errors import CiteproofError


class AuditError(CiteproofError):
    """Root of every error the audit log raises on purpose."""


class AuditRecordError(AuditError, ValueError):
    """A payload or request id cannot be logged, or a stored record cannot be read back."""


class RecordNotFoundError(AuditError, KeyError):
    """No record with the requested request id or sequence number is in the log."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class AuditStoreError(AuditError):
    """The log cannot be opened or written: bad target, wrong schema, append-only violation."""


class CheckpointError(AuditError):
    """A checkpoint is missing, unreadable, wrongly signed, or would sign an inconsistent log."""


class ProofError(AuditError, ValueError):
    """A Merkle inclusion or consistency proof is malformed or does not verify."""
