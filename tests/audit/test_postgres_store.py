"""The PostgreSQL audit store passes the conformance suite (issue 4 §3).

Needs a server: ``export CITEPROOF_PG_URL=$(.ci/postgres.sh)``; skipped without one unless
``CITEPROOF_REQUIRE_PG=1`` (CI), where a missing server fails the run.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from citeproof.audit import Row, open_store
from citeproof.errors import AuditStoreError
from citeproof.testing import AuditStoreConformance
from citeproof.testing._audit_store import BIG_LOG_SIZE, fill
from tests.conftest import PgSchemas


@pytest.fixture(scope="session")
def pg_big_log(pg_schemas: PgSchemas, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    schema, url = pg_schemas.new()
    checkpoints = tmp_path_factory.mktemp("big-pg") / "checkpoints"
    with open_store(url, checkpoint_dir=checkpoints, checkpoint_every=1000) as store:
        fill(store, BIG_LOG_SIZE, batch=1000)
    return schema, checkpoints


def raw(url: str) -> psycopg.Connection:
    """A connection whose writes skip triggers (superuser: session_replication_role)."""
    db = psycopg.connect(url, autocommit=True)
    db.execute("SET session_replication_role = replica")
    return db


class TestPostgresAudit(AuditStoreConformance):
    @pytest.fixture(autouse=True)
    def _server(
        self, tmp_path: Path, pg_schemas: PgSchemas, pg_big_log: tuple[str, Path]
    ) -> Iterator[None]:
        self.tmp_path = tmp_path
        self.schemas = pg_schemas
        self.big = pg_big_log
        self.count = 0
        yield

    def new_log(self) -> tuple[str, Path]:
        self.count += 1
        _, url = self.schemas.new()
        return url, self.tmp_path / f"checkpoints{self.count}"

    def raw_replace_rows(self, target: str, rows: list[Row]) -> None:
        with raw(target) as db, db.transaction():
            db.execute("DELETE FROM audit_records")
            with db.cursor() as cursor:
                cursor.executemany("INSERT INTO audit_records VALUES (%s, %s, %s, %s)", rows)

    def raw_set_column(self, target: str, sequence: int, column: str, value: object) -> None:
        with raw(target) as db:
            db.execute(
                f"UPDATE audit_records SET {column} = %s WHERE sequence = %s".encode(),
                (value, sequence),
            )

    def raw_set_text(self, target: str, key: str, data: bytes) -> None:
        with raw(target) as db:
            db.execute("UPDATE audit_texts SET text = %s WHERE key = %s", (data, key))

    def raw_execute(self, target: str, statement: str) -> None:
        with psycopg.connect(target, autocommit=True) as db:
            db.execute(statement.encode())

    def big_log_copy(self) -> tuple[str, Path]:
        source, checkpoints = self.big
        schema, url = self.schemas.new()
        self.count += 1
        copied = self.tmp_path / f"big-checkpoints{self.count}"
        shutil.copytree(checkpoints, copied)
        with psycopg.connect(self.schemas.url, autocommit=True) as db:
            for table in ("audit_migrations", "audit_records", "audit_texts"):
                db.execute(
                    f"CREATE TABLE {schema}.{table} (LIKE {source}.{table} INCLUDING ALL);"
                    f"INSERT INTO {schema}.{table} SELECT * FROM {source}.{table}".encode()
                )
        return url, copied

    def test_truncate_is_rejected_by_the_database(self) -> None:
        target, checkpoints, _ = self.small_log(3)
        with pytest.raises(psycopg.Error, match="append-only"):
            self.raw_execute(target, "TRUNCATE audit_records")
        assert self.report(target, checkpoints).ok


def test_unreachable_server_is_an_audit_store_error(tmp_path: Path) -> None:
    with pytest.raises(AuditStoreError):
        open_store(
            "postgresql://nobody:x@127.0.0.1:1/none?connect_timeout=2", checkpoint_dir=tmp_path
        )


def test_logs_in_different_schemas_keep_separate_checkpoints() -> None:
    from citeproof.audit._postgres_store import default_checkpoint_dir

    base = "postgresql://citeproof:secret@db.internal:5433/audit"
    plain = default_checkpoint_dir(base)
    first = default_checkpoint_dir(base + "?options=-csearch_path%3Dteam_a")
    second = default_checkpoint_dir(base + "?options=-csearch_path%3Dteam_b")
    assert plain.name == "db.internal-5433-audit"
    assert len({plain, first, second}) == 3
