"""The tamper-evident audit log: append records, verify the log, prove inclusion.

Typical use (what ``citeproof verify --audit DB`` does)::

    from citeproof.audit import open_store

    with open_store("audit.db") as log:           # or "postgresql://user:pw@host/db"
        log.append(payload, request_id)           # durable once it returns

and for auditors: ``citeproof audit verify --audit DB`` (or `verify_log`).
"""

from __future__ import annotations

from citeproof.audit.backends import open_store
from citeproof.audit.checkpoint import Checkpoint, CheckpointDirectory, load_public_key
from citeproof.audit.group import GroupCommit
from citeproof.audit.proofs import (
    ConsistencyProof,
    InclusionProof,
    consistency_proof,
    inclusion_proof,
)
from citeproof.audit.record import AppendedRecord, AppendsRecords, AuditRecord, request_id_for
from citeproof.audit.store import DEFAULT_CHECKPOINT_EVERY, AuditStore
from citeproof.audit.verify import Problem, VerifyReport, verify_log

__all__ = [
    "DEFAULT_CHECKPOINT_EVERY",
    "AppendedRecord",
    "AppendsRecords",
    "AuditRecord",
    "AuditStore",
    "Checkpoint",
    "CheckpointDirectory",
    "ConsistencyProof",
    "GroupCommit",
    "InclusionProof",
    "Problem",
    "VerifyReport",
    "consistency_proof",
    "inclusion_proof",
    "load_public_key",
    "open_store",
    "request_id_for",
    "verify_log",
]
