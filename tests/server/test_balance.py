"""The workers of ``--workers N`` keep their keep-alive connections even: a worker over its share
sends a connection away, never more than its excess, and a dead worker's slot is not counted
(see citeproof.server._balance). Another worker is a real process holding its own slot."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citeproof.server import create_table
from citeproof.server._balance import SLOTS, ConnectionShares

OTHER_WORKER = """
import sys
from citeproof.server._balance import ConnectionShares
shares = ConnectionShares(sys.argv[1])
for _ in range(int(sys.argv[2])):
    shares.opened()
print(shares.slot, flush=True)
for line in sys.stdin:  # "N": N more connections opened
    for _ in range(int(line)):
        shares.opened()
    print(shares.open, flush=True)
"""


class Worker:
    """Another worker process holding ``open`` connections in the table until `exit`."""

    def __init__(self, table: Path, open_connections: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", OTHER_WORKER, str(table), str(open_connections)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        self.slot = int(self.process.stdout.readline())

    def opened(self, more: int) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{more}\n")
        self.process.stdin.flush()
        self.process.stdout.readline()

    def exit(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(30) == 0


@pytest.fixture
def table() -> Iterator[Path]:
    path = create_table()
    yield path
    path.unlink(missing_ok=True)


def this_worker(table: Path, open_connections: int, settle: float = 0.0) -> ConnectionShares:
    shares = ConnectionShares(table, settle_seconds=settle)
    for _ in range(open_connections):
        shares.opened()
    return shares


def test_a_worker_over_its_share_sends_away_exactly_its_excess(table: Path) -> None:
    other = Worker(table, 8)
    shares = this_worker(table, 24, settle=0.5)
    try:
        assert shares.slot != other.slot
        # 32 open over two workers: 16 each, so 8 of the next requests here close after
        # their response, and none after that however many arrive.
        assert [shares.should_leave() for _ in range(12)] == [True] * 8 + [False] * 4
        for _ in range(8):
            shares.closed(leaving=True)
        assert (shares.open, shares.leaving) == (16, 0)
        # 16 and 8 open while the 8 reconnect: not a reason to send more away.
        assert not shares.should_leave()
        other.opened(8)  # they landed on the other worker
        time.sleep(0.6)
        assert not any(shares.should_leave() for _ in range(20))
    finally:
        other.exit()
        shares.close()


@pytest.mark.parametrize(("mine", "theirs"), [(16, 16), (17, 16), (16, 17), (1, 0), (0, 0)])
def test_an_even_split_closes_nothing(table: Path, mine: int, theirs: int) -> None:
    other = Worker(table, theirs)
    shares = this_worker(table, mine)
    try:
        assert not any(shares.should_leave() for _ in range(40))
    finally:
        other.exit()
        shares.close()


def test_the_share_is_of_every_live_worker(table: Path) -> None:
    others = [Worker(table, 2), Worker(table, 4)]
    shares = this_worker(table, 12)  # 18 over three workers: 6 each
    try:
        assert sum(shares.should_leave() for _ in range(20)) == 6
    finally:
        for other in others:
            other.exit()
        shares.close()


def test_a_dead_workers_slot_is_not_counted_and_its_restart_takes_it(table: Path) -> None:
    shares = this_worker(table, 10)
    gone = Worker(table, 0)
    gone.exit()  # exited: its slot still says 0 open, but its lock went with it
    try:
        assert not shares.should_leave()  # alone: no share to be over
        restarted = Worker(table, 0)
        try:
            assert restarted.slot == gone.slot
            assert sum(shares.should_leave() for _ in range(10)) == 5
        finally:
            restarted.exit()
    finally:
        shares.close()


HOLD_EVERY_SLOT = f"""
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, {SLOTS}, 0)
print("held", flush=True)
sys.stdin.readline()
"""


def test_a_full_table_is_refused_with_its_name(table: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_EVERY_SLOT, str(table)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(OSError, match=f"worker slots in {table}"):
            ConnectionShares(table)
    finally:
        holder.communicate("\n", timeout=30)
