"""Canonical JSON: the one encoding citeproof hashes and signs (RFC 8785).

The audit log's records, the evidence bundle's hash, the rule set's hash, the eligibility
fingerprint and signed checkpoints are all hashed over `canonical_json`, so equal values give
equal bytes wherever they are written, today and in any later version.
"""

from __future__ import annotations

import orjson

from citeproof.errors import AuditRecordError


def canonical_json(value: object) -> bytes:
    """RFC 8785 canonical JSON of `value`; raises `AuditRecordError` when it is not JSON.

    Integers must fit in an IEEE double exactly (|n| < 2**53) and floats must be finite, as
    RFC 8785 requires. Values that orjson writes exactly as RFC 8785 does (see `_plain`) take
    that path, many times faster; any other goes through ``rfc8785``.
    """
    plain = _plain(value)
    if plain is not _NOT_PLAIN:
        try:
            return orjson.dumps(plain, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:
            pass  # a lone surrogate: rfc8785 names the error
    import rfc8785  # only for values orjson cannot write canonically

    try:
        return rfc8785.dumps(value)  # type: ignore[arg-type]  # checked at run time
    except (rfc8785.CanonicalizationError, TypeError, ValueError) as exc:
        raise AuditRecordError(f"value is not canonical JSON: {exc}") from exc


_NOT_PLAIN = object()
_SAFE_INTEGER = 2**53 - 1


def _plain(value: object) -> object:
    """``value`` with integral floats as ints, when ``orjson.dumps(option=OPT_SORT_KEYS)``
    writes it byte for byte as RFC 8785 does; else `_NOT_PLAIN`.

    They agree on strings (both escape only ``"``, ``\\`` and control characters, with the
    same short forms and lowercase ``\\u00xx``), on integers within ±(2**53 - 1), and on
    floats from 1e-4 to 1e16 that are not integral (the shortest round-trip digits, in fixed
    notation; an integral float is written as its integer, as ECMAScript does). Keys sort
    alike when none holds a character beyond U+FFFF (UTF-16, UTF-8 and code point order agree
    there).
    """
    kind = type(value)
    if kind is dict:
        return _plain_dict(value)  # type: ignore[arg-type]
    if kind is list or kind is tuple:
        return _plain_items(value)  # type: ignore[arg-type]
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, int):
        return value if -_SAFE_INTEGER <= value <= _SAFE_INTEGER else _NOT_PLAIN
    if isinstance(value, float):
        if value.is_integer():
            return int(value) if abs(value) <= _SAFE_INTEGER else _NOT_PLAIN
        return value if 1e-4 <= abs(value) < 1e16 else _NOT_PLAIN
    if isinstance(value, dict):
        return _plain_dict(value)
    if isinstance(value, list | tuple):
        return _plain_items(value)
    return _NOT_PLAIN


# The two walks pass over an item that is plain as it stands by its exact type (a string,
# None, a boolean, a safe integer: most of an audit record) without a call of `_plain`.
_AS_IS = frozenset({str, bool, type(None)})


def _plain_dict(value: dict[object, object]) -> object:
    out: dict[str, object] | None = None  # a copy, made once an item must change
    for key, item in value.items():
        if not isinstance(key, str) or (not key.isascii() and max(key) > "\uffff"):
            return _NOT_PLAIN
        kind = type(item)
        if kind in _AS_IS or (kind is int and -_SAFE_INTEGER <= item <= _SAFE_INTEGER):  # type: ignore[operator]
            plain = item
        else:
            plain = _plain(item)
            if plain is _NOT_PLAIN:
                return _NOT_PLAIN
            if plain is not item and out is None:
                out = dict(value)  # type: ignore[arg-type]
        if out is not None:
            out[key] = plain
    return out if out is not None else value


def _plain_items(value: list[object] | tuple[object, ...]) -> object:
    items: list[object] | None = None
    for position, item in enumerate(value):
        kind = type(item)
        if kind in _AS_IS or (kind is int and -_SAFE_INTEGER <= item <= _SAFE_INTEGER):  # type: ignore[operator]
            continue  # a copy made later holds it already
        plain = _plain(item)
        if plain is _NOT_PLAIN:
            return _NOT_PLAIN
        if plain is not item and items is None:
            items = list(value)
        if items is not None:
            items[position] = plain
    return items if items is not None else value
