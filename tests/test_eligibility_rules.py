"""Eligibility decided once per turn (012.1, 012.3): who may see a source, the prompt budget,
repeated candidates, the sources known but not in the turn, and the record of the decision
(its JSON and its fingerprint) that the audit log keeps."""

from __future__ import annotations

import hashlib

import pytest

from citeproof.errors import PolicyError
from citeproof.model import Candidate, Eligibility, Exclusion, Source
from citeproof.outcome._codec import eligibility_from_json, eligibility_to_json
from citeproof.turn._eligibility import decide_eligibility


def candidate(sid: str, chars: int = 10, **kwargs: object) -> Candidate:
    return Candidate(Source(id=sid, kind="document", text="x" * chars), chars, **kwargs)  # type: ignore[arg-type]


def test_the_budget_must_be_positive_and_one_character_is_a_budget_012_1() -> None:
    for budget in (0, -5):
        with pytest.raises(PolicyError) as caught:
            decide_eligibility([candidate("S1")], user=None, budget_chars=budget)
        assert (caught.value.field, caught.value.detail) == ("budget_chars", "must be > 0")
    assert decide_eligibility([candidate("S1", 1)], user=None, budget_chars=1).eligible == ("S1",)


def test_a_source_that_exactly_fills_the_budget_is_shown_and_the_next_is_over_012_1() -> None:
    decided = decide_eligibility(
        [candidate("S1", 60), candidate("S2", 40), candidate("S3", 1)], user=None, budget_chars=100
    )
    assert decided.eligible == ("S1", "S2")
    (over,) = decided.excluded
    assert over == Exclusion(
        "S3", "over_budget", "1 characters would exceed the prompt budget (100 of 100 used)"
    )


def test_a_repeated_candidate_counts_once_and_the_rest_are_still_considered_012_3() -> None:
    decided = decide_eligibility(
        [
            candidate("S1", 30),
            candidate("S1", 30),  # retrieved and attached: one source
            candidate("S2", 10, acl=frozenset({"board"})),
            candidate("S2", 10),  # the same source again: still not permitted
            candidate("S3", 30),
        ],
        user="dan",
        budget_chars=60,
    )
    assert decided.eligible == ("S1", "S3")
    assert [(e.source_id, e.reason) for e in decided.excluded] == [("S2", "not_permitted")]


def test_each_exclusion_says_why_in_words_012_1() -> None:
    decided = decide_eligibility(
        [
            candidate("old", superseded=True),
            candidate("board", acl=frozenset({"board"})),
        ],
        user=None,
        known_ids=["old", "later", "later", "board"],
    )
    assert decided.excluded == (
        Exclusion("old", "superseded", "a newer version of this source exists"),
        Exclusion("board", "not_permitted", "not permitted for an anonymous user"),
        Exclusion("later", "not_in_turn", "not retrieved or attached this turn"),
    )
    named = decide_eligibility([candidate("board", acl=frozenset({"board"}))], user="dan")
    assert named.excluded[0].detail == "not permitted for user 'dan'"


def test_the_fingerprint_is_the_hash_of_the_canonical_decision_012_3() -> None:
    decided = decide_eligibility(
        [candidate("Mémo"), candidate("S2", acl=frozenset({"board"}))], user="dan"
    )
    canonical = '{"eligible":["Mémo"],"excluded":[["S2","not_permitted"]]}'
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert decided.fingerprint == "elig_" + digest[:16]
    # The details are words for people: they never change the fingerprint.
    anonymous = decide_eligibility(
        [candidate("Mémo"), candidate("S2", acl=frozenset({"board"}))], user=None
    )
    assert anonymous.excluded[0].detail != decided.excluded[0].detail
    assert anonymous.fingerprint == decided.fingerprint


def test_the_decision_round_trips_through_its_json_record_012_3() -> None:
    decided = decide_eligibility(
        [candidate("S1"), candidate("S2", acl=frozenset({"board"}))], user="dan", known_ids=["S9"]
    )
    record = eligibility_to_json(decided)
    assert record == {
        "eligible": ["S1"],
        "excluded": [
            {
                "source_id": "S2",
                "reason": "not_permitted",
                "detail": "not permitted for user 'dan'",
            },
            {
                "source_id": "S9",
                "reason": "not_in_turn",
                "detail": "not retrieved or attached this turn",
            },
        ],
        "fingerprint": decided.fingerprint,
    }
    again = eligibility_from_json(record)
    assert again == decided
    assert isinstance(again, Eligibility)
    assert isinstance(again.eligible, tuple) and isinstance(again.excluded, tuple)
