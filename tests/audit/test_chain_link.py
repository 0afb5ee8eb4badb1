"""Signing a checkpoint reads each record's chain fields from the end of its entry, without
parsing a long payload: what it reads is what the whole entry says, whatever the payload holds
(D, audit service)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeproof.audit import build_entry, parse_entry, payload_json
from citeproof.audit._record import chain_link
from citeproof.errors import AuditRecordError

# Payloads that try to pass for the entry's own fields: nested records, keys and strings
# spelling the tail, quotes and backslashes.
tricky = st.sampled_from(
    [
        ',"previous_hash":"' + "a" * 64 + '","recorded_at":"x","request_id":"r","sequence":7}',
        '\\","sequence":9}',
        "\\",
        '"',
        "}",
    ]
)
json_values = st.recursive(
    st.none() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text() | tricky,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["previous_hash", "sequence", "x", "request_id"]), inner)
    ),
    max_leaves=20,
)
request_ids = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")), min_size=1, max_size=200
).filter(lambda r: r.isprintable() and not any(c.isspace() for c in r))


@settings(max_examples=300, deadline=None)
@given(
    payload=st.dictionaries(st.sampled_from(["previous_hash", "sequence", "a"]), json_values),
    request_id=request_ids | st.sampled_from(['r"1', "r\\2", '","sequence":3}']),
    sequence=st.integers(0, 2**53 - 1),
    previous=st.text("0123456789abcdef", min_size=64, max_size=64),
)
def test_the_chain_fields_read_from_the_end_are_those_of_the_whole_entry(
    payload: dict[str, object], request_id: str, sequence: int, previous: str
) -> None:
    entry = build_entry(
        payload_json(payload),
        request_id=request_id,
        sequence=sequence,
        previous_hash=previous,
        recorded_at="2026-11-30T12:00:00.000000Z",
    )
    fields = parse_entry(entry)
    assert (
        chain_link(entry) == (fields["previous_hash"], fields["sequence"]) == (previous, sequence)
    )


def test_the_payload_of_an_entry_as_written_is_not_parsed() -> None:
    tail = b',"previous_hash":"' + b"c" * 64 + b'","recorded_at":"t","request_id":"r","sequence":5}'
    unparsable = b'{"format":"citeproof-audit/1","payload":{' + b"[" * 10_000 + b"}" + tail
    assert chain_link(unparsable) == ("c" * 64, 5)  # the record hash, not this, vouches for it


def test_an_entry_written_otherwise_is_parsed_whole_and_a_non_record_refused() -> None:
    spaced = (
        b'{"format": "citeproof-audit/1", "payload": {}, "previous_hash": "'
        + b"b" * 64
        + b'", "recorded_at": "t", "request_id": "r", "sequence": 3}'
    )
    assert chain_link(spaced) == ("b" * 64, 3)
    with pytest.raises(AuditRecordError):
        chain_link(b'{"format":"citeproof-audit/1","payload":{},"sequence":1}')
    with pytest.raises(AuditRecordError):
        chain_link(b"not json")
