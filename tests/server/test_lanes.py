"""The verify lane shared between principals (`citeproof.server._lanes.FairLane`), in
threads as the service runs it: one holder at a time, principals in rotation, and work that
gives way or stops while waiting never takes another's place."""

from __future__ import annotations

import threading
import time

import pytest

from citeproof.server._lanes import FairLane


class Stopped(Exception):
    pass


def never() -> None:
    """A check that never stops the work."""


def run(lane: FairLane, principal: str, log: list[str], hold: threading.Event) -> threading.Thread:
    def work() -> None:
        with lane.turn(principal, never):
            log.append(f"{principal} in")
            hold.wait(10)
            log.append(f"{principal} out")

    thread = threading.Thread(target=work)
    thread.start()
    return thread


def waiting(lane: FairLane, count: int) -> None:
    stop = time.monotonic() + 10
    while lane.waiting < count:
        assert time.monotonic() < stop, "the work never queued"
        time.sleep(0.01)


def test_principals_take_turns_not_arrival_order() -> None:
    lane, log, release = FairLane(), [], threading.Event()
    first = run(lane, "alice", log, release)
    waiting(lane, 0)
    while "alice in" not in log:
        time.sleep(0.01)
    more = [run(lane, "alice", log, release) for _ in range(2)]
    waiting(lane, 2)
    bob = run(lane, "bob", log, release)
    waiting(lane, 3)
    release.set()
    for thread in [first, *more, bob]:
        thread.join(10)
    ins = [entry for entry in log if entry.endswith(" in")]
    assert ins[:3] == ["alice in", "bob in", "alice in"]  # bob came last, ran second


def test_work_gives_way_to_another_principal_and_comes_back() -> None:
    lane, log = FairLane(), []
    bob_ran = threading.Event()

    def alice() -> None:
        with lane.turn("alice", never) as turn:
            log.append("alice step 1")
            waiting(lane, 1)  # bob waits
            lane.give_way(turn, never)
            log.append("alice step 2")

    def bob() -> None:
        with lane.turn("bob", never):
            log.append("bob")
            bob_ran.set()

    a = threading.Thread(target=alice)
    a.start()
    while not log:
        time.sleep(0.01)
    b = threading.Thread(target=bob)
    b.start()
    a.join(10)
    b.join(10)
    assert log == ["alice step 1", "bob", "alice step 2"]


def test_work_stopped_while_waiting_to_come_back_does_not_free_anothers_turn() -> None:
    lane, log = FairLane(), []
    stop_alice = threading.Event()
    bob_inside, bob_may_leave = threading.Event(), threading.Event()

    def alice_check() -> None:
        if stop_alice.is_set():
            raise Stopped

    def alice() -> None:
        with pytest.raises(Stopped), lane.turn("alice", alice_check) as turn:
            waiting(lane, 1)
            lane.give_way(turn, alice_check)  # bob runs; alice is stopped meanwhile

    def bob() -> None:
        with lane.turn("bob", never):
            bob_inside.set()
            bob_may_leave.wait(10)
            log.append("bob out")

    a = threading.Thread(target=alice)
    a.start()
    time.sleep(0.05)
    b = threading.Thread(target=bob)
    b.start()
    assert bob_inside.wait(10)
    stop_alice.set()
    a.join(10)  # alice has left, bob still holds the lane
    carol_in = threading.Event()

    def carol() -> None:
        with lane.turn("carol", never):
            carol_in.set()

    c = threading.Thread(target=carol)
    c.start()
    assert not carol_in.wait(0.5), "carol ran beside bob"
    bob_may_leave.set()
    b.join(10)
    assert carol_in.wait(10)
    c.join(10)
