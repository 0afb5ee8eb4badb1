"""Heavy dependencies are extras (issue 7): without one, its feature says which pip command
installs it. The missing module is simulated by a None entry in sys.modules, which makes
Python's import fail as it does when the package is absent."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from citeproof import CiteproofError, MissingExtraError
from citeproof.audit import open_store
from citeproof.providers import EmbeddedModel, get_provider


def without(monkeypatch: pytest.MonkeyPatch, module: str, *importers: str) -> None:
    """Make ``module`` unimportable, and forget the citeproof modules that import it."""
    monkeypatch.setitem(sys.modules, module, None)
    for name in importers:
        monkeypatch.delitem(sys.modules, name, raising=False)


def _postgres() -> object:
    return open_store("postgresql://localhost/citeproof")


def _openai() -> object:
    return get_provider("openai", api_key="k", model="m")


def _anthropic() -> object:
    return get_provider("anthropic", api_key="k", model="m")


def _embedded(tmp_path: Path) -> Callable[[], object]:
    return lambda: EmbeddedModel(path=tmp_path / "model.gguf").start()


def _rerank() -> object:
    from citeproof.embedding import TextEncoder

    return TextEncoder()


@pytest.mark.parametrize(
    ("extra", "module", "importers", "feature", "make"),
    [
        (
            "postgres",
            "psycopg",
            ["citeproof.audit._postgres_store"],
            "PostgreSQL audit log",
            _postgres,
        ),
        ("openai", "openai", ["citeproof.providers._openai_compat"], "openai provider", _openai),
        (
            "anthropic",
            "anthropic",
            ["citeproof.providers._anthropic_provider"],
            "anthropic provider",
            _anthropic,
        ),
        ("embedded", "xllamacpp", [], "embedded model", None),
        ("rerank", "onnxruntime", [], "embedding re-ranking", _rerank),
    ],
)
def test_a_missing_extra_names_the_feature_the_module_and_the_pip_command(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    extra: str,
    module: str,
    importers: list[str],
    feature: str,
    make: Callable[[], object] | None,
) -> None:
    without(monkeypatch, module, *importers)
    with pytest.raises(MissingExtraError) as caught:
        (make or _embedded(tmp_path))()
    error = caught.value
    assert isinstance(error, CiteproofError) and isinstance(error, ImportError)
    assert (error.module, error.extra) == (module, extra)
    assert str(error) == (
        f"{error.feature} needs the {module!r} package, which is not installed: "
        f"pip install 'citeproof[{extra}]'"
    )
    assert feature in error.feature


def test_the_command_line_says_the_same_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from citeproof.cli import main

    without(monkeypatch, "psycopg", "citeproof.audit._postgres_store")
    result = CliRunner().invoke(
        main, ["audit", "verify", "--audit", "postgresql://localhost/citeproof"]
    )
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: a PostgreSQL audit log needs the 'psycopg' package, which is not installed: "
        "pip install 'citeproof[postgres]'\n"
    )


def test_citeproof_mcp_without_the_mcp_extra_names_the_pip_command_f_4(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from click.testing import CliRunner

    from citeproof.cli import main

    # Both names: the package and the submodule the server imports, which another test in
    # this process may already have loaded.
    monkeypatch.setitem(sys.modules, "mcp", None)
    without(monkeypatch, "mcp.server.mcpserver", "citeproof.mcp_server")
    result = CliRunner().invoke(main, ["mcp"])
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: citeproof mcp needs the 'mcp' package, which is not installed: "
        "pip install 'citeproof[mcp]'\n"
    )
