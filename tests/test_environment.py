"""Every environment variable citeproof reads is in `citeproof.environment`, whose table
docs/environment.md is generated from: a variable read anywhere else would be missing there."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import citeproof
from citeproof import environment
from citeproof.providers import default_provider_name
from citeproof.providers._embedded import default_threads
from citeproof.sources import ReadLimits

PACKAGE = Path(citeproof.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[1]


def _reads_by_literal_name(tree: ast.AST) -> list[str]:
    """``os.environ.get("X")``, ``os.environ["X"]``, ``os.getenv("X")`` and
    ``"X" in os.environ`` in ``tree``: the names read by a literal."""
    found = []
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = ast.unparse(node.func)
            if called in ("os.environ.get", "os.getenv", "environ.get"):
                name = node.args[0].value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            if ast.unparse(node.value) in ("os.environ", "environ"):
                name = node.slice.value
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant):
            tested = [ast.unparse(c) for c in node.comparators]
            name = node.left.value if {"os.environ", "environ"} & set(tested) else None
        if isinstance(name, str):
            found.append(name)
    return found


# The audit-store suite hands its writer processes the interpreter's own PYTHONPATH: not a
# setting of citeproof's.
PASSED_ON = {"testing/_audit_store.py": ["PYTHONPATH"]}


def test_no_module_reads_a_variable_by_a_name_of_its_own() -> None:
    reads = {
        str(path.relative_to(PACKAGE)): names
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "environment.py"
        and (names := _reads_by_literal_name(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert reads == PASSED_ON


def test_the_scan_finds_a_read_by_a_literal_name() -> None:
    tree = ast.parse('import os\nos.environ.get("CITEPROOF_X")\nos.getenv("Y")\n"Z" in os.environ')
    assert _reads_by_literal_name(tree) == ["CITEPROOF_X", "Y", "Z"]


def test_every_variable_has_its_words_and_one_name() -> None:
    names = [variable.name for variable in environment.VARIABLES]
    assert len(names) == len(set(names))
    for variable in environment.VARIABLES:
        assert variable.does and variable.default and variable.read_by, variable.name


def test_the_generated_page_is_current() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "environment_reference.py"), "--check"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_the_readers_read_through_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(environment.THREADS.name, "3")
    assert default_threads() == 3
    assert default_provider_name({environment.ANTHROPIC_API_KEY.name: "k"}) == "anthropic"
    assert default_provider_name({environment.OPENAI_BASE_URL.name: ""}) == "embedded"
    limit = environment.READ_LIMIT_PREFIX + "MAX_PDF_PAGES"
    assert ReadLimits.from_env({limit: "7"}).max_pdf_pages == 7
