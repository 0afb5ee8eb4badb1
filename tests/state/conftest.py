"""Each conformance test runs once per backend: a SQLite file in the test's folder, and a
fresh schema of the test PostgreSQL (skipped with a message without CITEPROOF_PG_URL, a
failure in CI where CITEPROOF_REQUIRE_PG=1)."""

from __future__ import annotations

from pathlib import Path

import pytest

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Where one store lives: ``tmp_path/state.db``, or a new PostgreSQL schema's URL."""
    if backend == "sqlite":
        return str(tmp_path / "state.db")
    schemas = request.getfixturevalue("pg_schemas")
    _, url = schemas.new()
    return str(url)


@pytest.fixture
def other_target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A second, separate database of the same backend."""
    if backend == "sqlite":
        return str(tmp_path / "other.db")
    schemas = request.getfixturevalue("pg_schemas")
    _, url = schemas.new()
    return str(url)
