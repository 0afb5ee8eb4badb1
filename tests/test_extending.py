"""docs/extending.md's Python examples run as written, top to bottom, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citeproof.providers import _registry as registry

PAGE = Path(__file__).resolve().parents[1] / "docs" / "extending.md"


def test_the_extending_page_examples_run_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 4, "the page lost its examples"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(registry, "_factories", dict(registry._factories))  # unregistered after
    namespace: dict[str, object] = {"__name__": "extending_page"}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)
    assert "shouting" in registry.provider_names()
    assert {"OrgReader", "ShoutingProvider", "TestShoutingProvider"} <= set(namespace)
