"""Plain values for request facts and live values, and their exact JSON form.

A value is a `Decimal` (every number: money, rates, ratios), a ``str`` or a ``bool``. Numbers
never pass through binary floating point: JSON numbers are read as `Decimal`, a Python
``float`` is converted through its shortest ``repr`` (``0.1`` → ``Decimal("0.1")``).

In JSON a number is written ``{"decimal": "341960.00"}`` so that it survives any JSON
parser unchanged and cannot be confused with text; text and booleans are written as
themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from citeproof.errors import InputError

Value = Decimal | str | bool
"""A fact or a live value: a `Decimal`, a ``str`` or a ``bool``."""


def as_value(raw: object, *, name: str, where: str = "values") -> Value:
    """``raw`` as a `Value`: ints and floats become `Decimal`; anything else is an error."""
    if isinstance(raw, bool | str):
        return raw
    if isinstance(raw, Decimal):
        number = raw
    elif isinstance(raw, int):
        number = Decimal(raw)
    elif isinstance(raw, float):
        number = Decimal(repr(raw))
    else:
        raise InputError(
            f"expected a number, text or true/false, got {type(raw).__name__}",
            where=where,
            field=name,
        )
    if not number.is_finite():
        raise InputError(f"{number} is not a finite number", where=where, field=name)
    return number


def as_values(raw: Mapping[str, object], *, where: str = "values") -> dict[str, Value]:
    """Every entry of ``raw`` as a `Value`, keys checked to be non-empty names."""
    values: dict[str, Value] = {}
    for name, item in raw.items():
        if not isinstance(name, str) or not name:
            raise InputError(f"a name must be non-empty text, got {name!r}", where=where)
        values[name] = as_value(item, name=name, where=where)
    return values


def values_to_json(values: Mapping[str, Value]) -> dict[str, Any]:
    """The exact JSON form: numbers as ``{"decimal": "…"}``, text and booleans as themselves."""
    return {
        name: {"decimal": str(value)} if isinstance(value, Decimal) else value
        for name, value in values.items()
    }


def values_from_json(data: object, *, where: str = "values") -> dict[str, Value]:
    """Read `values_to_json` output back; an `InputError` names the first bad entry."""
    if not isinstance(data, Mapping):
        raise InputError("expected a JSON object of named values", where=where)
    values: dict[str, Value] = {}
    for name, item in data.items():
        if isinstance(item, Mapping):
            text = item.get("decimal")
            if set(item) != {"decimal"} or not isinstance(text, str):
                raise InputError('expected {"decimal": "<number>"}', where=where, field=name)
            try:
                number = Decimal(text)
            except InvalidOperation:
                raise InputError(f"{text!r} is not a number", where=where, field=name) from None
            values[name] = as_value(number, name=name, where=where)
        elif isinstance(item, bool | str):
            values[name] = item
        else:
            raise InputError(
                f'expected text, true/false or {{"decimal": ...}}, got {item!r}',
                where=where,
                field=name,
            )
    return values
