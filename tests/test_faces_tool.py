"""``tools/faces.py`` keeps the packages' faces (``make lint`` runs its ``--check``): the tree
is what the codemod makes it, a deep import from another package is caught and rewritten
through the face, a module only its own package imports becomes private, and a second run
changes nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("src", "tests", "bench", "eval", "examples", "tools", "train", "docs")
FILES = ("README.md", ".importlinter", "Makefile", "pyproject.toml")


def faces(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(root / "tools" / "faces.py"), *args],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=600,
    )


def copy_of_the_tree(tmp_path: Path) -> Path:
    """The files the codemod reads, in a git repository of their own (it renames with git mv)."""
    root = tmp_path / "tree"
    keep = shutil.ignore_patterns("entailment", "*.onnx", "*.png", "*.db", "__pycache__", "*.pyc")
    for tree in TREES:
        if (ROOT / tree).is_dir():
            shutil.copytree(ROOT / tree, root / tree, ignore=keep)
    for name in FILES:
        shutil.copy2(ROOT / name, root / name)
    for command in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *command], cwd=root, check=True, capture_output=True)
    return root


def test_the_tree_is_what_the_codemod_makes_it() -> None:
    result = faces(ROOT, "--check")
    assert result.returncode == 0, result.stdout
    assert result.stdout.rstrip().endswith(
        "0 modules made private, 0 imports rewritten through a face, "
        "0 imports of a renamed module, 0 files changed"
    )


def test_a_deep_import_is_caught_rewritten_through_a_lazy_face_and_a_second_run_is_a_no_op(
    tmp_path: Path,
) -> None:
    root = copy_of_the_tree(tmp_path)
    probe = root / "src" / "citeproof" / "probe.py"
    deep = (
        '"""A top-level module."""\n\n'
        "from citeproof.render.shade import grey\n"
        "from citeproof.verifier._verification import verify\n"
    )
    probe.write_text(deep + '\n__all__ = ["grey", "verify"]\n', encoding="utf-8")
    render = root / "src" / "citeproof" / "render"
    (render / "shade.py").write_text(
        '"""A module of the render package."""\n\n\ndef grey() -> str:\n    return "grey"\n',
        encoding="utf-8",
    )
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)

    check = faces(root, "--check")
    assert check.returncode == 1
    assert "rewrites src/citeproof/probe.py" in check.stdout
    assert "face of citeproof.render gains: grey" in check.stdout
    assert "private: citeproof.render.shade -> citeproof.render._shade" in check.stdout
    assert probe.read_text(encoding="utf-8").startswith(deep)  # --check changes nothing

    applied = faces(root)
    assert applied.returncode == 0, applied.stderr
    text = probe.read_text(encoding="utf-8")
    assert "\nfrom citeproof.render import grey\nfrom citeproof.verifier import verify\n" in text
    assert not (render / "shade.py").exists()
    assert (render / "_shade.py").exists()
    face = (render / "__init__.py").read_text(encoding="utf-8")
    assert '    "grey": "citeproof.render._shade",\n' in face
    assert "    from citeproof.render._shade import grey\n" in face  # for type checkers only

    # The face loads the module when the name is first asked for, not when imported.
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            # citeproof.render, the attribute, is the function: take the package itself.
            "import importlib, sys; r = importlib.import_module('citeproof.render');"
            " before = 'citeproof.render._shade' in sys.modules;"
            " print(before, r.grey(), 'citeproof.render._shade' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
        timeout=60,
    )
    assert loaded.stdout.split() == ["False", "grey", "True"], loaded.stderr

    again = faces(root, "--check")
    assert again.returncode == 0, again.stdout
