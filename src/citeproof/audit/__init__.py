"""The tamper-evident audit log: append records, verify the log, prove inclusion.

Typical use (what ``citeproof verify --audit DB`` does)::

    from citeproof.audit import open_store

    with open_store("audit.db") as log:           # or "postgresql://user:pw@host/db"
        log.append(payload, request_id)           # durable once it returns
        log.append(payload, request_id, texts={text_key(text): text})  # texts kept once

and for auditors: ``citeproof audit verify --audit DB`` (or `verify_log`).
"""

from __future__ import annotations

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.audit._backends import open_existing_store, open_store
    from citeproof.audit._chain import record_hash
    from citeproof.audit._checkpoint import Checkpoint, CheckpointDirectory, load_public_key
    from citeproof.audit._copy import CopiedLog, audit_schema_steps, copy_log
    from citeproof.audit._group import GroupCommit
    from citeproof.audit._merkle import MerkleFrontier, leaf_hash
    from citeproof.audit._proofs import (
        ConsistencyProof,
        InclusionProof,
        consistency_proof,
        inclusion_proof,
        verify_proof,
    )
    from citeproof.audit._reading import BadRecord, ReadCheck, check_stored_texts, checked_records
    from citeproof.audit._record import (
        AppendedRecord,
        AppendsRecords,
        AuditRecord,
        build_entry,
        parse_entry,
        payload_json,
        request_id_for,
    )
    from citeproof.audit._store import (
        DEFAULT_CHECKPOINT_EVERY,
        AuditStore,
        Row,
        json_path_keys,
        value_at,
    )
    from citeproof.audit._texts import text_key
    from citeproof.audit._verify import Problem, VerifyReport, verify_log


_WHERE = {
    "AppendedRecord": "citeproof.audit._record",
    "AppendsRecords": "citeproof.audit._record",
    "AuditRecord": "citeproof.audit._record",
    "AuditStore": "citeproof.audit._store",
    "BadRecord": "citeproof.audit._reading",
    "Checkpoint": "citeproof.audit._checkpoint",
    "CheckpointDirectory": "citeproof.audit._checkpoint",
    "ConsistencyProof": "citeproof.audit._proofs",
    "CopiedLog": "citeproof.audit._copy",
    "DEFAULT_CHECKPOINT_EVERY": "citeproof.audit._store",
    "GroupCommit": "citeproof.audit._group",
    "InclusionProof": "citeproof.audit._proofs",
    "MerkleFrontier": "citeproof.audit._merkle",
    "Problem": "citeproof.audit._verify",
    "ReadCheck": "citeproof.audit._reading",
    "Row": "citeproof.audit._store",
    "VerifyReport": "citeproof.audit._verify",
    "audit_schema_steps": "citeproof.audit._copy",
    "build_entry": "citeproof.audit._record",
    "check_stored_texts": "citeproof.audit._reading",
    "checked_records": "citeproof.audit._reading",
    "consistency_proof": "citeproof.audit._proofs",
    "copy_log": "citeproof.audit._copy",
    "inclusion_proof": "citeproof.audit._proofs",
    "json_path_keys": "citeproof.audit._store",
    "leaf_hash": "citeproof.audit._merkle",
    "load_public_key": "citeproof.audit._checkpoint",
    "open_existing_store": "citeproof.audit._backends",
    "open_store": "citeproof.audit._backends",
    "parse_entry": "citeproof.audit._record",
    "payload_json": "citeproof.audit._record",
    "record_hash": "citeproof.audit._chain",
    "request_id_for": "citeproof.audit._record",
    "text_key": "citeproof.audit._texts",
    "value_at": "citeproof.audit._store",
    "verify_log": "citeproof.audit._verify",
    "verify_proof": "citeproof.audit._proofs",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "DEFAULT_CHECKPOINT_EVERY",
    "AppendedRecord",
    "AppendsRecords",
    "AuditRecord",
    "AuditStore",
    "BadRecord",
    "Checkpoint",
    "CheckpointDirectory",
    "ConsistencyProof",
    "CopiedLog",
    "GroupCommit",
    "InclusionProof",
    "MerkleFrontier",
    "Problem",
    "ReadCheck",
    "Row",
    "VerifyReport",
    "audit_schema_steps",
    "build_entry",
    "check_stored_texts",
    "checked_records",
    "consistency_proof",
    "copy_log",
    "inclusion_proof",
    "json_path_keys",
    "leaf_hash",
    "load_public_key",
    "open_existing_store",
    "open_store",
    "parse_entry",
    "payload_json",
    "record_hash",
    "request_id_for",
    "text_key",
    "value_at",
    "verify_log",
    "verify_proof",
]
