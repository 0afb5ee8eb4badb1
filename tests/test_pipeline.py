"""One turn end to end with an in-test library, retriever and model (012.1, 012.3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citeproof.model import Eligibility, Passage, Source
from citeproof.providers import FunctionProvider
from citeproof.turn import run_turn
from citeproof.turn._eligibility import Candidate, decide_eligibility
from tests.lending import EMAIL, MEMO, POLICY

SECRET = Source(id="S4", kind="document", text="Board minutes: cut the base rate by 0.5%.")


class Library:
    def __init__(self, candidates: Sequence[Candidate]):
        self._by_id = {c.source.id: c for c in candidates}

    def candidate(self, source_id: str) -> Candidate:
        return self._by_id[source_id]

    def known_ids(self) -> Sequence[str]:
        return list(self._by_id)


class Retriever:
    """Returns every paragraph of the given sources that shares a word with the query."""

    def __init__(self, sources: Sequence[Source]):
        self.sources = sources

    def retrieve(self, query: str, *, limit: int = 8) -> list[Passage]:
        words = {w.lower().strip("?.,") for w in query.split() if len(w) > 3}
        found = []
        for source in self.sources:
            for number, (start, end) in enumerate(source.paragraph_spans(), start=1):
                text = source.text[start:end]
                if words & {w.lower().strip("?.,") for w in text.split()}:
                    found.append(
                        Passage(source.id, None, None, (number, number), (start, end), text, 0.5)
                    )
        return found[:limit]


class Model(FunctionProvider):
    """Answers with a fixed text and remembers the messages it was given."""

    def __init__(self, text: str):
        super().__init__(lambda request: text)

    @property
    def prompts(self) -> list[str]:
        return ["\n".join(m.content for m in r.messages) for r in self.requests]


LIBRARY = Library(
    [
        Candidate(POLICY, 0),
        Candidate(EMAIL, 0, acl=frozenset({"dan"})),
        Candidate(MEMO, 0),
        Candidate(SECRET, 0, acl=frozenset({"board"})),
    ]
)
ANSWER = (
    'Referral is required: "Applications with a loan-to-value ratio above 80% must be '
    'referred to a senior underwriter" <cite:S1#p3>. The board wants "to cut the base rate" '
    "<cite:S4#p1>."
)


def turn(model: Model, **kwargs: Any):  # type: ignore[no-untyped-def]
    sources = [POLICY, EMAIL, MEMO, SECRET]
    return run_turn(
        "When must a loan-to-value application be referred, and what about the base rate?",
        retriever=Retriever(sources),
        library=LIBRARY,
        provider=model,
        user="priya",
        **kwargs,
    )


def test_eligibility_is_computed_exactly_once_and_shared_by_every_stage_012_3() -> None:
    calls: list[Eligibility] = []

    def counting(*args: Any, **kwargs: Any) -> Eligibility:
        decided = decide_eligibility(*args, **kwargs)
        calls.append(decided)
        return decided

    model = Model(ANSWER)
    result = turn(model, decide=counting)
    assert len(calls) == 1
    (eligibility,) = calls
    assert result.eligibility is eligibility
    assert result.answer.eligibility is eligibility
    assert result.prompt.eligibility_fingerprint == eligibility.fingerprint


def test_the_model_never_sees_a_source_the_user_may_not_see_012_1() -> None:
    model = Model(ANSWER)
    result = turn(model)
    (prompt_text,) = model.prompts
    assert "Board minutes" not in prompt_text
    assert "S4" not in result.prompt.source_ids
    assert result.eligibility.reason("S4") is not None
    statuses = {q.text[:20]: q.status for q in result.answer.quotes}
    assert statuses == {"Applications with a ": "verified", "to cut the base rate": "ineligible"}


def test_every_stage_is_timed() -> None:
    result = turn(Model(ANSWER))
    assert list(result.timings) == ["retrieve", "eligibility", "prompt", "generate", "verify"]
    assert all(t >= 0 for t in result.timings.values())


def test_attached_sources_are_shown_whole_even_when_not_retrieved() -> None:
    model = Model("Nothing to add.")
    result = run_turn(
        "Who approved the accounts?",
        retriever=Retriever([]),
        library=LIBRARY,
        provider=model,
        user="priya",
        attached=["S3"],
    )
    (prompt_text,) = model.prompts
    assert result.prompt.source_ids == ("S3",)
    assert "M. Osei" in prompt_text


def test_a_turn_with_nothing_eligible_refuses_every_citation_012_2() -> None:
    model = Model('The board wants "to cut the base rate" <cite:S4#p1>.')
    result = run_turn(
        "base rate?",
        retriever=Retriever([SECRET]),
        library=LIBRARY,
        provider=model,
        user="priya",
    )
    assert result.eligibility.eligible == ()
    assert result.answer.quotes[0].status == "ineligible"
