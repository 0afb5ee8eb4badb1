"""``tools/faces.py``, the codemod that gives every package a face (the names other packages
import, exported from its ``__init__``) and makes the modules no other package imports
``_private``. It is not applied yet: applied as it stands, the faces import eagerly and a
plain ``citeproof verify`` would load the rules engine, pydantic, httpx and cryptography
through them (tests/test_startup.py), so faces must load their names on first use first.
Until then ``--check`` reports the plan and changes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_check_reports_the_plan_on_the_tree_and_changes_nothing() -> None:
    before = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "faces.py"), "--check"],
        capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stdout + result.stderr
    assert "private: citeproof.sources._segment -> citeproof.sources._segment" in result.stdout
    assert any(line.endswith("files changed") for line in result.stdout.splitlines())
    after = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert after == before
