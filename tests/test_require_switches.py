"""No silent skips in CI: every test that can skip for a missing part has a
``CITEPROOF_REQUIRE_<PART>=1`` switch that turns the skip into a failure, and `.ci/run` sets
every one of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import missing_modules, skip_unless_required

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_part_skips_with_the_switch_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CITEPROOF_REQUIRE_EXAMPLE", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"set CITEPROOF_REQUIRE_EXAMPLE=1"):
        skip_unless_required("EXAMPLE", "the example package is not installed")


def test_a_missing_part_fails_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEPROOF_REQUIRE_EXAMPLE", "1")
    with pytest.raises(pytest.fail.Exception, match="the example package is not installed"):
        skip_unless_required("EXAMPLE", "the example package is not installed")


def test_missing_modules_names_only_those_not_installed() -> None:
    assert missing_modules("json", "citeproof_no_such_module") == ["citeproof_no_such_module"]


def test_ci_sets_every_require_switch_the_tests_read() -> None:
    used: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"CITEPROOF_REQUIRE_([A-Z]+)", text))
        used |= set(re.findall(r'skip_unless_required\(\s*"([A-Z]+)"', text))
    used.discard("EXAMPLE")  # this file's own
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    exported = set(re.findall(r"^\s*export CITEPROOF_REQUIRE_([A-Z]+)=1", ci, re.MULTILINE))
    assert {"BROWSER", "MODEL", "PG", "RERANK", "MCP", "RAY"} <= used
    assert used <= exported, sorted(used - exported)
    assert not re.search(r"importorskip|mark\.skipif", _all_tests()), "use skip_unless_required"


def _all_tests() -> str:
    here = Path(__file__).name
    return "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py") if p.name != here
    )
