"""Shared by the tests: no remote model calls, PostgreSQL access, the slow marker."""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from collections.abc import Iterator
from typing import NoReturn
from urllib.parse import quote

import pytest

PG_SKIP_MESSAGE = "set CITEPROOF_PG_URL (see .ci/postgres.sh) to run the PostgreSQL audit tests"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes more than about 20 seconds")
    # No test may call a real, remote model: only loopback servers (the embedded model's,
    # the tests' own fakes) are reachable from the providers.
    os.environ["CITEPROOF_ALLOW_MODEL_REQUESTS"] = "0"


@pytest.fixture(autouse=True)
def _fresh_quote_caches() -> None:
    """Each test finds quotes as a fresh process would: the process-wide caches of the quote
    matcher (indexes and their remembered results, probe rulings, comparisons, prepared
    support sources) start empty. A result an earlier test left there would otherwise answer
    for the code under test: mutation testing forks each mutant's run from a process that ran
    the tests once, and a cached result never calls the mutated code."""
    loaded = sys.modules.get
    if (cache := loaded("citeproof.verifier.match._cache")) is not None:
        cache.SHARED.clear()
    if (probe := loaded("citeproof.verifier.match._probe")) is not None:
        probe.RULINGS.__init__(probe.RULINGS.most)  # type: ignore[misc]
    if (normalise := loaded("citeproof.verifier.match._normalise")) is not None:
        normalise._changes_with_nfc.cache_clear()
    if (differences := loaded("citeproof.verifier._differences")) is not None:
        differences._compare.cache_clear()
    if (locate := loaded("citeproof.verifier.support._locate")) is not None:
        locate.SHARED.clear()


def skip_unless_required(switch: str, missing: str, *, module: bool = False) -> NoReturn:
    """Skip a test (or, with ``module``, the whole module) for what is ``missing``, unless
    ``CITEPROOF_REQUIRE_<switch>=1`` (as `.ci/run` sets for every optional part): then fail,
    so CI never passes by skipping."""
    variable = f"CITEPROOF_REQUIRE_{switch}"
    if os.environ.get(variable) == "1":
        pytest.fail(f"{variable}=1 but {missing}", pytrace=False)
    pytest.skip(f"{missing} (set {variable}=1 to make this a failure)", allow_module_level=module)


def missing_modules(*names: str) -> list[str]:
    """Those of the importable ``names`` that are not installed."""
    return [name for name in names if importlib.util.find_spec(name) is None]


MODEL_SKIP_MESSAGE = "the embedded model's weights are not installed (make install)"


def require_model(key: str | None = None) -> None:
    """Skip unless the embedded model ``key`` is installed (fail when CITEPROOF_REQUIRE_MODEL=1,
    as in CI)."""
    from citeproof.errors import ProviderConfigError
    from citeproof.providers._weights import find_weights, weights_for

    try:
        find_weights(weights_for(key))
    except ProviderConfigError as error:
        if os.environ.get("CITEPROOF_REQUIRE_MODEL") == "1":
            pytest.fail(f"CITEPROOF_REQUIRE_MODEL=1 but {error}")
        pytest.skip(f"{MODEL_SKIP_MESSAGE}: {error}")


def pg_url() -> str:
    """The server URL, or skip (fail when CITEPROOF_REQUIRE_PG=1, as in CI)."""
    url = os.environ.get("CITEPROOF_PG_URL")
    if url:
        return url
    if os.environ.get("CITEPROOF_REQUIRE_PG") == "1":
        pytest.fail("CITEPROOF_REQUIRE_PG=1 but CITEPROOF_PG_URL is not set (.ci/postgres.sh)")
    pytest.skip(PG_SKIP_MESSAGE)


def schema_url(url: str, schema: str) -> str:
    """`url` with its search_path set to `schema`."""
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options={quote('-csearch_path=' + schema)}"


class PgSchemas:
    """Creates throwaway schemas on the test server and drops them afterwards."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self.admin = psycopg.connect(url, autocommit=True)
        self.created: list[str] = []

    def new(self) -> tuple[str, str]:
        name = f"audit_test_{uuid.uuid4().hex[:16]}"
        self.admin.execute(f"CREATE SCHEMA {name}".encode())
        self.created.append(name)
        return name, schema_url(self.url, name)

    def close(self) -> None:
        for name in self.created:
            self.admin.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE".encode())
        self.admin.close()


@pytest.fixture(scope="session")
def pg_schemas() -> Iterator[PgSchemas]:
    schemas = PgSchemas(pg_url())
    yield schemas
    schemas.close()
