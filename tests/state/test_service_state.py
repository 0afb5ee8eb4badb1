"""The service database's conformance suite (issue 48): every operation of `ServiceState`,
run against SQLite and PostgreSQL alike."""

from __future__ import annotations

import threading
import time

import pytest

from citeproof.errors import InputError, ServiceStateError
from citeproof.server import ServiceState
from citeproof.server._state import BatchLine


def test_tokens_are_kept_hashed_replaced_listed_and_revoked(target: str) -> None:
    state = ServiceState(target)
    secret = state.add_token("alice")
    assert state.principal_for(secret) == "alice"
    assert state.principal_for(secret + "x") is None
    with pytest.raises(InputError, match="has a token already"):
        state.add_token("alice")
    replaced = state.add_token("alice", replace=True)
    assert state.principal_for(secret) is None and state.principal_for(replaced) == "alice"
    state.add_token("bob")
    assert state.token_names() == ["alice", "bob"]
    assert [name for name, _ in state.tokens()] == ["alice", "bob"]
    assert state.revoke_token("alice") and not state.revoke_token("alice")
    assert state.principal_for(replaced) is None
    with pytest.raises(InputError) as error:
        state.add_token("bad\nname")
    assert error.value.field == "name"


def test_the_deployment_key_is_made_once_and_shared(target: str) -> None:
    first = ServiceState(target).deployment_key()
    assert len(first) == 32
    assert ServiceState(target).deployment_key() == first


def test_answers_are_indexed_searched_filtered_ordered_and_tallied(target: str) -> None:
    state = ServiceState(target)
    for n, (counts, text) in enumerate(
        [
            ({"verified": 2}, "The LTV limit is 80%"),
            ({"verified": 1, "not_found": 1}, "A quote that is missing_here"),
            ({"claim_contradicted": 1}, "Rates went UP"),
        ]
    ):
        state.record_answer(
            answer_id=f"ans-{n}",
            principal="alice",
            request_id=f"req-{n}",
            audit_sequence=10 + n,
            kind="verify",
            counts=counts,
            text=text,
        )
    state.record_answer(
        answer_id="ans-0",
        principal="bob",
        request_id="req-b",
        audit_sequence=99,
        kind="verify",
        counts={},
        text="bob's",
    )
    entry = state.answer("alice", "ans-1")
    assert entry is not None and entry.counts == {"verified": 1, "not_found": 1}
    assert entry.audit_sequence == 11 and entry.request_id == "req-1"
    assert state.answer("bob", "ans-1") is None
    assert [e.answer_id for e in state.recent_answers("alice")] == ["ans-2", "ans-1", "ans-0"]
    assert [e.answer_id for e in state.recent_answers("alice", limit=1)] == ["ans-2"]
    # Search is literal (no wildcards) and case-insensitive for ASCII on both backends.
    assert [e.answer_id for e in state.recent_answers("alice", search="ltv")] == ["ans-0"]
    assert [e.answer_id for e in state.recent_answers("alice", search="80%")] == ["ans-0"]
    assert [e.answer_id for e in state.recent_answers("alice", search="g_h")] == ["ans-1"]
    assert state.recent_answers("alice", search="%x") == []
    assert [e.answer_id for e in state.recent_answers("alice", status="not_found")] == ["ans-1"]
    worst_first = state.recent_answers("alice", severity=[["claim_contradicted"], ["not_found"]])
    assert [e.answer_id for e in worst_first] == ["ans-2", "ans-1", "ans-0"]
    tally = state.answer_tally(
        "alice", {"bad": ["not_found"], "any": ["missing", "verified"]}, search=""
    )
    assert tally == {"": 3, "bad": 1, "any": 2}
    assert state.answer_tally("alice", {}, search="rates") == {"": 1}
    with pytest.raises(InputError):
        state.recent_answers("alice", status="x') OR 1=1 --")
    assert state.request_sequences("alice", "req-1") == [11]
    assert state.request_sequences("alice", "req-b") == []


def test_an_idempotency_key_is_busy_stored_released_and_taken_over(target: str) -> None:
    state = ServiceState(target)
    assert state.claim_key("alice", "k1", "digest-a") == ("new", None)
    assert state.claim_key("alice", "k1", "digest-a") == ("busy", None)
    assert state.claim_key("bob", "k1", "digest-b") == ("new", None)
    with pytest.raises(InputError) as error:
        state.claim_key("alice", "k1", "digest-other")
    assert error.value.field == "Idempotency-Key"
    assert state.claim_key("alice", "k1", "digest-a", stale_seconds=0) == ("new", None)
    state.store_response("alice", "k1", '{"id": "x"}')
    assert state.claim_key("alice", "k1", "digest-a", stale_seconds=0) == ("stored", '{"id": "x"}')
    state.release_key("bob", "k1")
    assert state.claim_key("bob", "k1", "digest-c") == ("new", None)


def test_concurrent_claims_of_one_key_give_one_new(target: str) -> None:
    state = ServiceState(target)
    results: list[str] = []
    threads = [
        threading.Thread(target=lambda: results.append(state.claim_key("a", "k", "d")[0]))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["busy"] * 7 + ["new"]


def test_a_batch_is_stored_claimed_line_by_line_and_finished_once(target: str) -> None:
    state = ServiceState(target)
    batch_id = state.create_batch("alice", [b'{"n": 1}', b'{"n": 2}'])
    info = state.batch("alice", batch_id)
    assert info is not None and (info.status, info.total, info.done) == ("queued", 2, 0)
    assert state.batch("bob", batch_id) is None
    first = state.claim_line("host-a", 60, audit_size=7)
    second = state.claim_line("host-b", 60, audit_size=9)
    assert first is not None and second is not None
    assert (first.line, first.input, first.claims, first.audit_from) == (1, b'{"n": 1}', 1, 7)
    assert (second.line, second.principal) == (2, "alice")
    assert state.claim_line("host-c", 60, audit_size=0) is None  # both held
    running = state.batch("alice", batch_id)
    assert running is not None and running.status == "running"
    assert state.renew_line(first, "host-a", 60) and not state.renew_line(first, "host-b", 60)
    assert not state.finish_line(first, "host-b", '{"x": 0}', failed=False)  # not its line
    assert state.finish_line(first, "host-a", '{"x": 1}', failed=False)
    assert not state.finish_line(first, "host-a", '{"x": 1}', failed=False)  # once
    assert state.finish_line(second, "host-b", '{"x": 2}', failed=True)
    done = state.batch("alice", batch_id)
    assert done is not None and (done.status, done.done, done.failed) == ("done", 2, 1)
    assert done.finished_at is not None
    assert list(state.batch_results(batch_id)) == ['{"x": 1}', '{"x": 2}']


def test_a_line_whose_lease_ran_out_is_taken_over_and_its_old_holder_fenced(target: str) -> None:
    state = ServiceState(target)
    state.create_batch("alice", [b"one"])
    dead = state.claim_line("dead-host", 0.2, audit_size=3)
    assert dead is not None and state.claim_line("live-host", 60, audit_size=5) is None
    time.sleep(0.3)
    taken = state.claim_line("live-host", 60, audit_size=5)
    assert taken is not None and (taken.claims, taken.audit_from) == (2, 3)
    assert not state.renew_line(dead, "dead-host", 60)
    assert not state.finish_line(dead, "dead-host", "late", failed=False)
    assert state.finish_line(taken, "live-host", "kept", failed=False)
    assert list(state.batch_results(taken.batch_id)) == ["kept"]


def test_many_holders_claiming_at_once_get_each_line_once(target: str) -> None:
    state = ServiceState(target)
    state.create_batch("alice", [str(n).encode() for n in range(40)])
    taken: list[BatchLine] = []
    lock = threading.Lock()

    def work(holder: str) -> None:
        while (line := state.claim_line(holder, 60, audit_size=0)) is not None:
            assert state.finish_line(line, holder, line.input.decode(), failed=False)
            with lock:
                taken.append(line)

    threads = [threading.Thread(target=work, args=(f"h{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(line.line for line in taken) == list(range(1, 41))


def test_a_file_that_is_not_a_database_is_refused(tmp_path: object, backend: str) -> None:
    if backend != "sqlite":
        pytest.skip("a file is SQLite's case")
    from pathlib import Path

    path = Path(str(tmp_path)) / "junk.db"
    path.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(ServiceStateError, match="not a citeproof service database"):
        ServiceState(path)
