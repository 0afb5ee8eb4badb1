"""The vendor response fixtures: JSON files under tests/fixtures/adapters/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "adapters"


def load(name: str) -> Any:
    """The parsed JSON of ``tests/fixtures/adapters/NAME.json``."""
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def path(name: str) -> Path:
    return FIXTURES / f"{name}.json"
