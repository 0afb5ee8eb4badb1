"""What ``citeproof db`` does: where each store's schema stands, bringing them up to date, and
copying a SQLite data folder into PostgreSQL.

The service keeps three stores: its own database (tokens, the answer index, idempotency
keys, batches), the source store and the audit log. With ``--data`` they are the SQLite
files ``service.db``, ``sources.db`` and ``audit.db`` in the folder; with ``--database`` they
are all in one PostgreSQL database. A copy writes each store only into an empty one, and
never changes the SQLite files it reads.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from citeproof.audit import CopiedLog, audit_schema_steps, copy_log, open_store
from citeproof.database import (
    Migration,
    SchemaStatus,
    is_database_url,
    open_engine,
    schema_status,
)
from citeproof.errors import DatabaseError, InputError
from citeproof.server._config import ServiceConfig
from citeproof.server._state import COMPONENT, MIGRATIONS, ServiceState
from citeproof.sources import SourceStore

AUDIT = "audit"


def schema_report(config: ServiceConfig) -> list[SchemaStatus]:
    """Where each store of ``config`` stands (read only: a SQLite file that does not exist
    is reported at version 0 and not made)."""
    found: list[SchemaStatus] = []
    stores: tuple[tuple[str, str, tuple[Migration, ...]], ...] = (
        (COMPONENT, config.state_target, MIGRATIONS),
        (SourceStore.COMPONENT, config.store_target, SourceStore.MIGRATIONS),
    )
    for component, target, migrations in stores:
        if _exists(target):
            found += schema_status(open_engine(target), {component: migrations})
        else:
            found.append(_nothing(component, tuple(step.name for step in migrations)))
    found.append(_audit_status(config.audit_target))
    return found


def migrate_all(config: ServiceConfig) -> list[SchemaStatus]:
    """Bring every store of ``config`` to its latest schema (each step once, whichever
    process gets there first) and say where they stand then."""
    ServiceState(config.state_target)
    SourceStore(config.store_target).close()
    open_store(config.audit_target, checkpoint_dir=config.checkpoint_dir).close()
    return schema_report(config)


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What `copy_data` wrote: rows per service table, sources and passages, the audit log's
    records and texts, and the checkpoint files copied (and where to)."""

    service: dict[str, int]
    sources: int
    passages: int
    audit: CopiedLog
    checkpoints: int
    checkpoint_dir: Path


def copy_data(data: Path, url: str, checkpoint_dir: Path) -> CopyReport:
    """Copy the SQLite stores of the data folder ``data`` into the PostgreSQL database at
    ``url``, and the audit log's signed checkpoints (with their signing key) into
    ``checkpoint_dir`` (where a host given ``--data`` and ``--database`` keeps them).

    Every store is checked empty before anything is written; raises `ServiceStateError`,
    `SourceError` or `AuditStoreError` naming the store that holds data (nothing written)."""
    old = ServiceConfig(data=data)
    new = ServiceConfig(data=data, database=url)
    for target in (old.state_target, old.store_target, old.audit_target):
        if not _exists(target):
            raise InputError(f"no {Path(target).name} in {data}: nothing to copy from there")
    state = ServiceState(new.state_target)
    with (
        SourceStore(new.store_target) as store,
        open_store(new.audit_target, checkpoint_dir=checkpoint_dir, checkpoint_every=0) as log,
    ):
        _check_empty(state, store, log.size(), log.location)
        service = state.copy_from(ServiceState(old.state_target))
        with SourceStore(old.store_target) as source:
            sources, passages = store.copy_from(source)
        with open_store(old.audit_target, checkpoint_every=0) as source_log:
            audit = copy_log(source_log, log)
            copied = _copy_checkpoints(source_log.checkpoints.path, checkpoint_dir)
    return CopyReport(service, sources, passages, audit, copied, checkpoint_dir)


def _check_empty(state: ServiceState, store: SourceStore, records: int, log: str) -> None:
    held = {table: n for table, n in state.row_counts().items() if n}
    sources = store.count(include_superseded=True)
    if held or sources or records:
        parts = [f"{n} in {table}" for table, n in held.items()]
        parts += [f"{sources} sources"] * bool(sources) + [f"{records} audit records"] * bool(
            records
        )
        raise DatabaseError(
            f"{state.where}: holds data already ({', '.join(parts)}): `citeproof db copy` "
            f"writes into an empty database only (a new database, or a new schema: "
            f"?options=-csearch_path%3Dname), so that nothing stored there is lost ({log})"
        )


def _copy_checkpoints(source: Path, target: Path) -> int:
    """Copy the checkpoint files and signing key from ``source`` to ``target``; a file
    already there is kept (never overwritten). Returns how many were copied."""
    if not source.is_dir():
        return 0
    target.mkdir(parents=True, exist_ok=True)
    copied = 0
    for path in sorted(source.iterdir()):
        if path.is_file() and not (target / path.name).exists():
            shutil.copy2(path, target / path.name)
            copied += 1
    return copied


def _exists(target: str) -> bool:
    return is_database_url(target) or Path(target).is_file()


def _nothing(component: str, names: tuple[str, ...]) -> SchemaStatus:
    return SchemaStatus(component, 0, len(names), names)


def _audit_status(target: str) -> SchemaStatus:
    steps = audit_schema_steps(target)
    if not _exists(target):
        return _nothing(AUDIT, steps)
    engine = open_engine(target)
    done: set[str] = set()
    if "audit_migrations" in engine.tables():
        done = {str(name) for (name,) in engine.rows("SELECT name FROM audit_migrations")}
    version = 0
    while version < len(steps) and steps[version] in done:
        version += 1
    return SchemaStatus(AUDIT, version, len(steps), steps[version:])
