"""Schema migrations: numbered steps per store, applied once, whichever process or host opens
the database first.

``schema_versions`` holds each store's version. `migrate` takes the database's migration
lock (PostgreSQL: an advisory transaction lock; SQLite: its write lock) and, inside that one
transaction, applies the steps past the stored version and records the new one: two hosts
starting at once apply each step once, and a step that fails leaves the schema as it was.
A database already at the latest version is only read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citeproof.database._engine import Engine
from citeproof.errors import DatabaseError

_VERSIONS = """CREATE TABLE IF NOT EXISTS schema_versions (
    component   TEXT PRIMARY KEY,
    version     {int} NOT NULL,
    applied_at  TEXT NOT NULL
)"""
_LOCK = "schema-migrations"


@dataclass(frozen=True, slots=True)
class Migration:
    """Step ``version`` of a store's schema: the statements of ``both`` backends (written as
    for `Engine.ddl`), then those of ``sqlite`` or ``postgresql`` only."""

    version: int
    name: str
    both: tuple[str, ...] = ()
    sqlite: tuple[str, ...] = ()
    postgresql: tuple[str, ...] = ()

    def statements(self, engine: Engine) -> tuple[str, ...]:
        own = self.sqlite if engine.backend == "sqlite" else self.postgresql
        return tuple(engine.ddl(text) for text in (*self.both, *own))


@dataclass(frozen=True, slots=True)
class SchemaStatus:
    """Where one store's schema stands: ``version`` applied (0: none), ``latest`` known."""

    component: str
    version: int
    latest: int
    names: tuple[str, ...]
    """The names of the steps still to apply."""

    @property
    def current(self) -> bool:
        return self.version == self.latest


def stored_version(engine: Engine, component: str) -> int:
    """The version recorded for ``component`` (0 when none is, or there is no table yet)."""
    if "schema_versions" not in engine.tables():
        return 0
    row = engine.row("SELECT version FROM schema_versions WHERE component = ?", (component,))
    return int(row[0]) if row else 0


def migrate(engine: Engine, component: str, migrations: Sequence[Migration]) -> int:
    """Bring ``component``'s tables to the last of ``migrations`` and return its version.

    Raises `DatabaseError` when the database holds a newer schema than these migrations know
    (a newer citeproof wrote it) or a step fails (nothing of it is applied then)."""
    latest = _latest(component, migrations)
    if _checked(engine, component, latest) == latest:
        return latest
    with engine.transaction():
        engine.lock(_LOCK)
        engine.run(engine.ddl(_VERSIONS))
        current = _checked(engine, component, latest)
        for step in migrations:
            if step.version > current:
                for statement in step.statements(engine):
                    engine.run(statement)
        if current < latest:
            engine.run(
                "INSERT INTO schema_versions (component, version, applied_at) "
                "VALUES (?, ?, CURRENT_TIMESTAMP) ON CONFLICT (component) DO UPDATE "
                "SET version = excluded.version, applied_at = excluded.applied_at",
                (component, latest),
            )
    return latest


def schema_status(
    engine: Engine, components: Mapping[str, Sequence[Migration]]
) -> list[SchemaStatus]:
    """Where each of ``components`` (a store's name → its migrations) stands, read only."""
    found = []
    for component, migrations in components.items():
        version = stored_version(engine, component)
        pending = tuple(step.name for step in migrations if step.version > version)
        found.append(SchemaStatus(component, version, _latest(component, migrations), pending))
    return found


def _latest(component: str, migrations: Sequence[Migration]) -> int:
    versions = [step.version for step in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"{component}: migrations must be numbered 1, 2, 3...: {versions}")
    return len(versions)


def _checked(engine: Engine, component: str, latest: int) -> int:
    version = stored_version(engine, component)
    if version > latest:
        raise DatabaseError(
            f"{engine.where}: the {component} schema is version {version}, newer than this "
            f"citeproof knows ({latest}): upgrade citeproof on this host"
        )
    return version
