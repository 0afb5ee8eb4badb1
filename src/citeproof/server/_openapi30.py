"""The service's OpenAPI 3.1 document rewritten as OpenAPI 3.0.3, for the bundled Swagger UI
(4.x reads 3.0 only: on 3.1 it says "Unable to render this definition").

Only what FastAPI writes is rewritten: ``anyOf``/``oneOf`` with ``{"type": "null"}`` becomes
``nullable: true``, a ``type`` list with ``"null"`` too, ``const`` becomes a one-value
``enum``, ``examples`` lists in schemas become ``example``, numeric ``exclusiveMinimum`` /
``exclusiveMaximum`` become the 3.0 boolean form. The input is never changed.
"""

from __future__ import annotations

from typing import Any


def _schema(node: Any) -> Any:
    if isinstance(node, list):
        return [_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {key: _schema(value) for key, value in node.items()}
    for key in ("anyOf", "oneOf"):
        options = out.get(key)
        if isinstance(options, list) and {"type": "null"} in options:
            rest = [o for o in options if o != {"type": "null"}]
            del out[key]
            if len(rest) == 1 and isinstance(rest[0], dict) and "$ref" not in rest[0]:
                out.update(rest[0])
            elif len(rest) == 1:
                out["allOf"] = rest
            else:
                out[key] = rest
            out["nullable"] = True
    kind = out.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        if len(kinds) < len(kind):
            out["nullable"] = True
        out["type"] = kinds[0] if len(kinds) == 1 else kinds
    if "const" in out:
        out["enum"] = [out.pop("const")]
    if isinstance(out.get("examples"), list) and "properties" not in out.get("examples", {}):
        examples = out.pop("examples")
        if examples:
            out["example"] = examples[0]
    for bound, plain in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = out.get(bound)
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[plain] = value
            out[bound] = True
    return out


def openapi_30(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (OpenAPI 3.1, as FastAPI makes it) as an OpenAPI 3.0.3 document."""
    converted: dict[str, Any] = _schema(document)
    converted["openapi"] = "3.0.3"
    converted.pop("webhooks", None)
    converted.get("info", {}).pop("summary", None)
    return converted
