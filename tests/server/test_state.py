"""The service database (issue 12): hashed tokens, idempotency keys, the answer index."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof.errors import InputError
from citeproof.server import ServiceState


def test_a_token_is_shown_once_kept_hashed_and_names_its_principal_F_3(tmp_path: Path) -> None:
    state = ServiceState(tmp_path / "service.db")
    secret = state.add_token("alice")
    assert state.principal_for(secret) == "alice"
    assert state.principal_for(secret + "x") is None
    with pytest.raises(InputError, match="has a token already"):
        state.add_token("alice")
    replaced = state.add_token("alice", replace=True)
    assert state.principal_for(secret) is None and state.principal_for(replaced) == "alice"
    with pytest.raises(InputError) as error:
        state.add_token("bad\nname")
    assert error.value.field == "name"


def test_an_idempotency_key_is_busy_then_stored_and_a_stale_claim_is_taken_over_F_3(
    tmp_path: Path,
) -> None:
    state = ServiceState(tmp_path / "service.db")
    assert state.claim_key("alice", "k1", "digest-a") == ("new", None)
    assert state.claim_key("alice", "k1", "digest-a") == ("busy", None)
    assert state.claim_key("bob", "k1", "digest-b") == ("new", None)  # keys are per principal
    with pytest.raises(InputError) as error:
        state.claim_key("alice", "k1", "digest-other")
    assert error.value.field == "Idempotency-Key"
    # A claim left by a process that stopped before answering is taken over.
    assert state.claim_key("alice", "k1", "digest-a", stale_seconds=0) == ("new", None)
    state.store_response("alice", "k1", '{"id": "x"}')
    assert state.claim_key("alice", "k1", "digest-a", stale_seconds=0) == (
        "stored",
        '{"id": "x"}',
    )


def test_recent_answers_are_newest_first_searchable_and_per_principal_F_3(tmp_path: Path) -> None:
    state = ServiceState(tmp_path / "service.db")
    for number, (who, text, counts) in enumerate(
        [
            ("alice", "the loan is referred", {"verified": 1}),
            ("alice", "100% of the fee_waived", {"not_found": 2}),
            ("bob", "the loan is referred", {"verified": 1}),
        ]
    ):
        state.record_answer(
            answer_id=f"a{number}",
            principal=who,
            request_id=f"req_{number}",
            audit_sequence=number,
            kind="verify",
            counts=counts,
            text=text,
        )
    assert [e.answer_id for e in state.recent_answers("alice")] == ["a1", "a0"]
    assert [e.answer_id for e in state.recent_answers("alice", search="loan")] == ["a0"]
    # LIKE wildcards in a search are literal characters.
    assert [e.answer_id for e in state.recent_answers("alice", search="0%")] == ["a1"]
    assert [e.answer_id for e in state.recent_answers("alice", search="e_w")] == ["a1"]
    assert [e.answer_id for e in state.recent_answers("alice", search="s_r")] == []
    assert [e.answer_id for e in state.recent_answers("alice", status="not_found")] == ["a1"]
    assert state.answer("bob", "a0") is None and state.answer("alice", "a0") is not None
    assert (
        state.request_sequences("alice", "req_0") != [] == state.request_sequences("bob", "req_0")
    )
