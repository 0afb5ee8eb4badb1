"""What follows verification: evidence → validation → live values → rules → the audit payload.

`evidence` builds the immutable evidence bundle, `validate` checks every claim has well-formed
evidence, `live` fetches live values (never evidence), `rules` decides deterministic business
rules, `payload` gathers the audit record, `recording` runs these in order and appends the
record to the audit log, and `replay` runs a logged record again. `codec` writes and reads the
record's sources, policy and eligibility; `verify_again` re-verifies a logged answer (for
replay, audit sampling and re-validation). `contract` is the JSON form of the verified answer
and of a batch line.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.outcome._codec import (
        policy_from_json,
        policy_to_json,
        source_from_json,
        source_to_json,
    )
    from citeproof.outcome._evidence import FOUND, build_evidence
    from citeproof.outcome._live import FileLiveValues, HttpLiveValues, LiveValues
    from citeproof.outcome._payload import ANSWER_SCHEMAS, AUDIT_SCHEMA, payload_with_texts
    from citeproof.outcome._recording import Outcome, conclude
    from citeproof.outcome._rules import load_rules
    from citeproof.outcome.contract import (
        BatchLine,
        answer_to_json,
        located,
        read_batch_line,
        read_policy,
        read_sources,
        sources_from_json,
    )
    from citeproof.outcome.verify_again import verification_inputs


_WHERE = {
    "ANSWER_SCHEMAS": "citeproof.outcome._payload",
    "AUDIT_SCHEMA": "citeproof.outcome._payload",
    "BatchLine": "citeproof.outcome.contract",
    "FOUND": "citeproof.outcome._evidence",
    "FileLiveValues": "citeproof.outcome._live",
    "HttpLiveValues": "citeproof.outcome._live",
    "LiveValues": "citeproof.outcome._live",
    "Outcome": "citeproof.outcome._recording",
    "answer_to_json": "citeproof.outcome.contract",
    "build_evidence": "citeproof.outcome._evidence",
    "conclude": "citeproof.outcome._recording",
    "load_rules": "citeproof.outcome._rules",
    "located": "citeproof.outcome.contract",
    "payload_with_texts": "citeproof.outcome._payload",
    "policy_from_json": "citeproof.outcome._codec",
    "policy_to_json": "citeproof.outcome._codec",
    "read_batch_line": "citeproof.outcome.contract",
    "read_policy": "citeproof.outcome.contract",
    "read_sources": "citeproof.outcome.contract",
    "source_from_json": "citeproof.outcome._codec",
    "source_to_json": "citeproof.outcome._codec",
    "sources_from_json": "citeproof.outcome.contract",
    "verification_inputs": "citeproof.outcome.verify_again",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "ANSWER_SCHEMAS",
    "AUDIT_SCHEMA",
    "FOUND",
    "BatchLine",
    "FileLiveValues",
    "HttpLiveValues",
    "LiveValues",
    "Outcome",
    "answer_to_json",
    "build_evidence",
    "conclude",
    "load_rules",
    "located",
    "payload_with_texts",
    "policy_from_json",
    "policy_to_json",
    "read_batch_line",
    "read_policy",
    "read_sources",
    "source_from_json",
    "source_to_json",
    "sources_from_json",
    "verification_inputs",
]
