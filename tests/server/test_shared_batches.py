"""Batches shared between hosts (issue 48 §2): two real `citeproof serve` processes with
separate data folders on one PostgreSQL; the one holding lines is SIGKILLed mid-batch, the
other takes its lines over once their lease runs out, and every line is done exactly once:
one result and one audit record each."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from citeproof.audit import open_store
from citeproof.server import ServiceState
from tests.conftest import PgSchemas
from tests.server.conftest import CITEPROOF, Server, free_port
from tests.server.lines import body, lending_line

LINES = 150


def _wait_stopped(pid: int) -> None:
    """Return once every thread of ``pid`` has stopped, and what it sent before has landed:
    SIGSTOP is delivered asynchronously, and a line's output the host was committing as it
    stopped must be in the database before the test reads which lines the host holds."""
    for _ in range(200):
        states = []
        for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
            try:
                states.append(stat.read_text().rsplit(")", 1)[1].split()[0])
            except (OSError, IndexError):
                continue  # a thread that ended meanwhile
        if states and all(state in ("T", "t") for state in states):
            break
        time.sleep(0.01)
    time.sleep(0.2)  # a commit already on its way to PostgreSQL


def test_a_batch_survives_the_host_running_it_being_killed_every_line_once(
    tmp_path: Path, pg_schemas: PgSchemas
) -> None:
    _, url = pg_schemas.new()
    secret = subprocess.run(
        [CITEPROOF, "token", "add", "alice", "--database", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    hosts = []
    for name in ("a", "b"):
        data = tmp_path / name
        data.mkdir()
        hosts.append(Server(data, free_port(), ("--database", url)))
    first, second = hosts
    first.start()
    state = ServiceState(url)
    headers = {"Authorization": f"Bearer {secret}"}
    try:
        second.start()  # both hosts take lines
        lines = [body(lending_line(f"line-{n}")) for n in range(LINES)]
        created = httpx.post(
            first.url + "/v1/batches", content=b"\n".join(lines), headers=headers, timeout=60
        )
        batch_id = created.json()["id"]
        assert first.process is not None
        by_first = f"%:{first.process.pid}:%"
        for _ in range(1200):  # until the first host has finished a few lines
            finished = state.engine.rows(
                "SELECT COUNT(*) FROM batch_lines WHERE holder LIKE ? AND output IS NOT NULL",
                (by_first,),
            )
            if finished[0][0] >= 3:
                break
            time.sleep(0.05)
        # Frozen (SIGSTOP) while it holds a line, then killed: mid-batch and mid-line, on a
        # machine of any speed.
        held: list[Any] = []
        for _ in range(600):
            os.kill(first.process.pid, signal.SIGSTOP)
            _wait_stopped(first.process.pid)
            held = state.engine.rows(
                "SELECT line FROM batch_lines WHERE holder LIKE ? AND output IS NULL", (by_first,)
            )
            if held:
                break
            os.kill(first.process.pid, signal.SIGCONT)
            time.sleep(0.02)
        first.stop(kill=True)
        interrupted = state.batch("alice", batch_id)
        assert interrupted is not None and interrupted.done < LINES
        for _ in range(1800):
            info = state.batch("alice", batch_id)
            if info is not None and info.status == "done":
                break
            time.sleep(0.1)
        assert info is not None and (info.status, info.done, info.failed) == ("done", LINES, 0)
        results = httpx.get(
            second.url + f"/v1/batches/{batch_id}/results", headers=headers, timeout=60
        ).text.splitlines()
        ids = [httpx.Response(200, content=line).json()["id"] for line in results]
        assert ids == [f"line-{n}" for n in range(LINES)]
        taken_over = state.engine.rows(
            "SELECT line FROM batch_lines WHERE batch_id = ? AND claims > 1", (batch_id,)
        )
        assert held, "the killed host held no line"
        assert {line for (line,) in held} <= {line for (line,) in taken_over}
    finally:
        first.stop()
        second.stop()
    with open_store(url, checkpoint_dir=tmp_path / "checkpoints") as log:
        logged = Counter(
            record.payload["request"].get("line")
            for record in log.records()
            if record.payload["request"].get("batch") == batch_id
        )
    assert logged == Counter(range(1, LINES + 1))  # one audit record per line, no more
