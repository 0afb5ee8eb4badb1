"""Fixture validation against a vendor SDK's own types: every field name must be one it knows."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def unknown_fields(value: Any, path: str = "") -> list[str]:
    """Paths of the fields a pydantic model (and every model inside it) did not recognise."""
    found: list[str] = []
    if isinstance(value, BaseModel):
        extra = value.__pydantic_extra__ or {}
        found.extend(f"{path}.{key}" for key in extra)
        for name in type(value).model_fields:
            found.extend(unknown_fields(getattr(value, name), f"{path}.{name}"))
    elif isinstance(value, (list, tuple)):
        for number, item in enumerate(value):
            found.extend(unknown_fields(item, f"{path}[{number}]"))
    elif isinstance(value, dict):
        for key, item in value.items():
            found.extend(unknown_fields(item, f"{path}.{key}"))
    return found


def dropped_fields(model: BaseModel, raw: Any) -> list[str]:
    """Paths of the fields of ``raw`` that a model which ignores unknown fields dropped."""
    kept = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return _missing(raw, kept, "")


def _missing(raw: Any, kept: Any, path: str) -> list[str]:
    if isinstance(raw, dict):
        if not isinstance(kept, dict):
            return [path]
        found: list[str] = []
        for key, value in raw.items():
            if key not in kept:
                found.append(f"{path}.{key}")
            else:
                found.extend(_missing(value, kept[key], f"{path}.{key}"))
        return found
    if isinstance(raw, list):
        if not isinstance(kept, list) or len(kept) != len(raw):
            return [path]
        return [p for n, item in enumerate(raw) for p in _missing(item, kept[n], f"{path}[{n}]")]
    return []
