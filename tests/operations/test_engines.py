"""The engines give the same re-validation, byte for byte (issue 13, scale-out; SPEC E)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from citeproof.audit import open_store
from citeproof.errors import InputError
from citeproof.operations._engines import ordered_map
from citeproof.operations.revalidate_log import RevalidationRun, revalidate_log
from citeproof.sources import SourceStore
from tests.operations.world import CHANGED_POLICY, NEW_RATES, World, make_world


@pytest.fixture
def changed_world(tmp_path: Path) -> World:
    world = make_world(tmp_path, str(tmp_path / "audit.db"), copies=5)
    world.write("policy.md", CHANGED_POLICY)
    world.write("rates.md", NEW_RATES)
    world.reingest()
    return world


def run_on_copy(world: World, name: str, **engine: object) -> tuple[RevalidationRun, bytes]:
    """Re-validate a copy of the world's log; the run and its outcomes as JSON lines."""
    audit = world.audit + f".{name}"
    shutil.copyfile(world.audit, audit)
    with (
        open_store(audit, checkpoint_dir=world.checkpoints.with_name(name)) as log,
        SourceStore(world.store_path) as store,
    ):
        run = revalidate_log(log, store, chunk_size=3, **engine)  # type: ignore[arg-type]
    lines = b"".join(json.dumps(r, sort_keys=True).encode() + b"\n" for r in run.results)
    return run, lines


def test_a_process_pool_gives_the_same_bytes_as_one_process_E(changed_world: World) -> None:
    _, one_bytes = run_on_copy(changed_world, "one", workers=1)
    pool, pool_bytes = run_on_copy(changed_world, "pool", engine="local", workers=2)
    assert pool_bytes == one_bytes
    assert pool.counts() == {"holds": 10, "changed": 5, "superseded": 5, "source_missing": 0}


def test_ray_and_the_local_pool_give_byte_identical_results_E(
    changed_world: World, local_ray: None
) -> None:
    _, local_bytes = run_on_copy(changed_world, "local", engine="local", workers=2)
    ray_run, ray_bytes = run_on_copy(changed_world, "ray", engine="ray")
    assert ray_bytes == local_bytes
    assert ray_run.appended == 20 and not ray_run.ok


def test_results_come_back_in_chunk_order_whatever_order_workers_finish_E() -> None:
    chunks = [[n] * (10 - n) for n in range(10)]
    assert list(ordered_map(len, chunks, workers=2)) == [10 - n for n in range(10)]


def test_an_unknown_engine_is_refused_by_name_E() -> None:
    with pytest.raises(InputError, match="unknown engine 'spark'"):
        list(ordered_map(len, [[1]], engine="spark"))  # type: ignore[arg-type]
