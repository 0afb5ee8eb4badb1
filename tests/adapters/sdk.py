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
