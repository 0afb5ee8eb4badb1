"""A lean start: `import citeproof` and ``citeproof --version`` import none of the heavy
dependencies; each command imports its own only when it runs (bench/bench_startup.py times it).

Each check is a fresh interpreter, so nothing another test imported counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import citeproof

SRC = Path(citeproof.__file__).resolve().parents[1]
HEAVY = (
    "pypdf",
    "docx",
    "celpy",
    "cryptography",
    "rich",
    "httpx",
    "onnxruntime",
    "tokenizers",
    "numpy",
    "uvicorn",
    "starlette",
    "fastapi",
    "pydantic",
    "markdown_it",
    "openai",
    "anthropic",
)
"""Packages the core (verifier, model, renderings) must not import when it is imported."""


def _imported_after(code: str, *argv: str) -> list[str]:
    """The `HEAVY` packages in ``sys.modules`` after a fresh interpreter runs ``code``."""
    probe = (
        f"import sys, json\n{code}\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_import_citeproof_imports_no_heavy_dependency() -> None:
    assert _imported_after("import citeproof") == []


def test_the_verifier_reads_source_sentences_without_the_readers_or_the_store() -> None:
    # The verifier imports citeproof.sources._sentences: the package's face must not load
    # the file readers and the SQLite store along with it.
    code = (
        "import citeproof\n"
        "loaded = [m for m in ('citeproof.sources.files', 'citeproof.sources._store',"
        " 'citeproof.sources._ingest', 'citeproof.sources._build') if m in sys.modules]\n"
        "assert not loaded, loaded"
    )
    _imported_after(code)


def test_citeproof_version_imports_no_command_and_no_heavy_dependency() -> None:
    code = (
        "from citeproof.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
        "assert not [m for m in sys.modules if m.startswith('citeproof.cli.') and "
        "m not in ('citeproof.cli._main', 'citeproof.cli._group')], sorted(sys.modules)"
    )
    assert _imported_after(code) == []


def test_a_verify_over_a_text_file_imports_no_reader_rules_audit_or_service(
    tmp_path: Path,
) -> None:
    (tmp_path / "source.txt").write_text("The loan-to-value was 72 percent.\n", encoding="utf-8")
    (tmp_path / "answer.md").write_text('It was "72 percent" [1].\n', encoding="utf-8")
    code = (
        "import contextlib, io\nfrom citeproof.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    try:\n        main(sys.argv[1:])\n    except SystemExit as end:\n"
        "        assert end.code in (0, None), end.code\n"
        "assert 'Verified: 1' in out.getvalue(), out.getvalue()"
    )
    argv = ("verify", str(tmp_path / "answer.md"), "--source", f"1={tmp_path / 'source.txt'}")
    imported = _imported_after(code, *argv)
    # Claim support needs its encoder, the terminal report rich: nothing else. Matching needs
    # no numpy for sources this short (importing it would cost more than the search).
    assert set(imported) <= {"onnxruntime", "tokenizers", "rich"}, imported
