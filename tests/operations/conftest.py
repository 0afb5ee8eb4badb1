"""Fixtures of the operations tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import PgSchemas, missing_modules, skip_unless_required


@pytest.fixture(params=["sqlite", "postgresql"])
def audit_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty audit log on each backend; PostgreSQL skips without CITEPROOF_PG_URL (and
    fails under CITEPROOF_REQUIRE_PG=1), as the audit store's own tests do."""
    if request.param == "sqlite":
        yield str(tmp_path / "audit.db")
        return
    schemas: PgSchemas = request.getfixturevalue("pg_schemas")
    _, url = schemas.new()
    yield url


@pytest.fixture
def second_audit_target(audit_target: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Another empty log on the same backend as `audit_target`."""
    if audit_target.startswith("postgresql"):
        schemas: PgSchemas = request.getfixturevalue("pg_schemas")
        return schemas.new()[1]
    return str(tmp_path / "second.db")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray instance with one CPU for the module's tests; skipped without Ray (a
    failure under CITEPROOF_REQUIRE_RAY=1)."""
    if missing_modules("ray"):
        skip_unless_required("RAY", "ray is not installed: pip install 'citeproof[ray]'")
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
