"""The audit log's canonical JSON is RFC 8785 byte for byte, whichever encoder writes it
(the standard library's for plain values, ``rfc8785`` for the rest): a record hashed today
verifies against the same bytes tomorrow (D, audit service)."""

from __future__ import annotations

import math

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from citeproof.canonical import canonical_json
from citeproof.errors import AuditRecordError

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([0.5, 1.0, -0.0, 1e-5, 1e-7, 1e16, 1e21, 2.0**60, 123.456, 0.1 + 0.2])
    | st.text()
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=600, deadline=None)
@given(values)
def test_canonical_json_is_rfc_8785_for_any_json_value(value: object) -> None:
    try:
        expected = rfc8785.dumps(value)  # type: ignore[arg-type]
    except rfc8785.CanonicalizationError:
        with pytest.raises(AuditRecordError):
            canonical_json(value)
        return
    assert canonical_json(value) == expected


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ({"b": 1.0, "a": -0.0}, b'{"a":0,"b":1}'),
        ({"score": 1e-5, "big": 1e21}, b'{"big":1e+21,"score":0.00001}'),
        ({"\U0001f600": 1, "\uff01": 2}, '{"\U0001f600":1,"\uff01":2}'.encode()),
        ({"text": 'a "quote"\n\x01\u2028'}, '{"text":"a \\"quote\\"\\n\\u0001\u2028"}'.encode()),
    ],
)
def test_numbers_key_order_and_escapes_follow_rfc_8785(value: object, written: bytes) -> None:
    assert canonical_json(value) == written


@pytest.mark.parametrize(
    "value", [{"n": 2**53}, {"x": math.inf}, {"x": math.nan}, {1: "key"}, {"s": "\ud800"}]
)
def test_what_rfc_8785_cannot_write_is_refused(value: object) -> None:
    with pytest.raises(AuditRecordError, match="not canonical JSON"):
        canonical_json(value)
