"""The audit record's values to and from JSON: how a `Source`, a `Policy` and an `Eligibility`
are written into an audit payload (and the JSON contract) and read back from it.

Each value is a JSON object with one member per dataclass field, under the field's name, in
field order, derived from `dataclasses.fields`: a field added to one of these dataclasses is
written and read with no edit anywhere. A field whose type is not a plain JSON value (text,
number, boolean, null or one of a few literals) needs its conversion said once, in
`_CONVERSIONS`; until it is, importing this module raises `TypeError` naming the field.

Reading is as strict as the dataclasses: a member this version does not know is refused (the
record is from a newer version, or was edited), a missing member takes the field's default
(the record is from an older version that did not have it), and the dataclass checks the
values. Records already in a log read back exactly as they were written.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from typing import Any, Literal, TypeVar

from citeproof.errors import InputError
from citeproof.model import Eligibility, Exclusion, Policy, Source
from citeproof.sources import content_hash as text_hash

_T = TypeVar("_T")
_Conversion = tuple[Callable[[Any], Any], Callable[[Any], Any]]
"""How one field is written (value → JSON) and read (JSON → value)."""


def _spans_to_json(spans: tuple[tuple[int, int], ...] | None) -> list[list[int]] | None:
    # No spans and an empty tuple of spans both mean "blank-line paragraphs": logged as null.
    return [list(span) for span in spans] if spans else None


def _locations_to_json(locations: tuple[str | None, ...] | None) -> list[str | None] | None:
    return list(locations) if locations else None


def _exclusions_to_json(excluded: tuple[Exclusion, ...]) -> list[dict[str, Any]]:
    return [_to_json(exclusion) for exclusion in excluded]


def _exclusions_from_json(items: list[Any]) -> tuple[Exclusion, ...]:
    return tuple(
        _from_json(Exclusion, item, where=f"eligibility excluded[{n}]")
        for n, item in enumerate(items)
    )


def _ids_from_json(items: Any) -> tuple[str, ...]:
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise InputError("must be a list of source ids", where="eligibility", field="eligible")
    return tuple(items)


def _as_given(value: Any) -> Any:
    return value


_CONVERSIONS: dict[type, dict[str, _Conversion]] = {
    Source: {
        "paragraphs": (_spans_to_json, _as_given),  # `Source` reads the pairs itself
        "locations": (_locations_to_json, _as_given),  # and its locations
    },
    Eligibility: {
        "eligible": (list, _ids_from_json),
        "excluded": (_exclusions_to_json, _exclusions_from_json),
    },
    Exclusion: {},
    Policy: {},
}
"""Per record type, the fields that are not plain JSON values and how each is converted."""

RECORD_TYPES: tuple[type, ...] = tuple(_CONVERSIONS)
"""The dataclasses this module writes and reads."""

_SOURCE_EXTRA = ("content_hash",)
"""Written beside a source's fields: the hash of its text, which replay and re-validation
compare."""


def source_to_json(source: Source, *, content_hash: str | None = None) -> dict[str, Any]:
    """A source as an audit record logs it: its fields and ``content_hash`` (the hash of its
    text; pass it when it is known, as the source store does, to save hashing the text)."""
    data = _to_json(source)
    data["content_hash"] = content_hash if content_hash is not None else text_hash(source.text)
    return data


def source_from_json(data: Mapping[str, Any], *, where: str = "source") -> Source:
    """The source `source_to_json` wrote (its ``content_hash`` is not checked here)."""
    return _from_json(Source, data, where=where, extra=_SOURCE_EXTRA)


def policy_to_json(policy: Policy) -> dict[str, Any]:
    """A policy as the JSON contract and the audit record hold it: every setting by name."""
    return _to_json(policy)


def policy_from_json(data: Mapping[str, Any], *, where: str = "policy") -> Policy:
    """The policy `policy_to_json` wrote; a setting it lacks takes today's default."""
    return _from_json(Policy, data, where=where)


def eligibility_to_json(eligibility: Eligibility) -> dict[str, Any]:
    """A turn's eligibility as the JSON contract and the audit record hold it."""
    return _to_json(eligibility)


def eligibility_from_json(data: Mapping[str, Any], *, where: str = "eligibility") -> Eligibility:
    """The eligibility `eligibility_to_json` wrote, fingerprint as logged."""
    return _from_json(Eligibility, data, where=where)


def _to_json(value: Any) -> dict[str, Any]:
    conversions = _CONVERSIONS[type(value)]
    data: dict[str, Any] = {}
    for field in fields(value):
        item = getattr(value, field.name)
        conversion = conversions.get(field.name)
        data[field.name] = conversion[0](item) if conversion is not None else item
    return data


def _from_json(
    kind: type[_T], data: Mapping[str, Any], *, where: str, extra: tuple[str, ...] = ()
) -> _T:
    if not isinstance(data, Mapping):
        raise InputError(f"expected a JSON object, got {type(data).__name__}", where=where)
    conversions = _CONVERSIONS[kind]
    known = {field.name: field for field in fields(kind)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - set(known) - set(extra))
    if unknown:
        raise InputError(
            f"not a field of {kind.__name__}: {', '.join(map(repr, unknown))}", where=where
        )
    values: dict[str, Any] = {}
    for name, field in known.items():
        if name not in data:
            if field.default is MISSING and field.default_factory is MISSING:
                raise InputError("is missing", where=where, field=name)
            continue
        conversion = conversions.get(name)
        value = conversion[1](data[name]) if conversion is not None else data[name]
        if name in _FLOATS[kind] and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)  # canonical JSON writes an integral float as an integer
        values[name] = value
    return kind(**values)


_PLAIN = (str, int, float, bool, type(None))


def _is_plain(hint: object) -> bool:
    """Whether a field of this type is written as is: a JSON scalar, a literal or a union."""
    if hint in _PLAIN:
        return True
    origin = typing.get_origin(hint)
    if origin is Literal:
        return all(isinstance(choice, _PLAIN) for choice in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return all(_is_plain(arg) for arg in typing.get_args(hint))
    return False


def _float_fields() -> dict[type, frozenset[str]]:
    """Per record type, its fields of type ``float``; raises `TypeError` naming a field that
    is neither a plain JSON value nor given a conversion in `_CONVERSIONS`."""
    floats: dict[type, frozenset[str]] = {}
    for kind, conversions in _CONVERSIONS.items():
        hints = typing.get_type_hints(kind)
        for field in fields(kind):
            if field.name not in conversions and not _is_plain(hints[field.name]):
                raise TypeError(
                    f"{kind.__name__}.{field.name} ({hints[field.name]}) is not a plain JSON "
                    "value: say in citeproof.outcome._codec how to write and read it"
                )
        floats[kind] = frozenset(name for name, hint in hints.items() if hint is float)
    return floats


_FLOATS = _float_fields()
