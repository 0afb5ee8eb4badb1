"""One turn, end to end: retrieve → eligibility → prompt → generate → verify → correct.

The pipeline is the only place that knows the order: `citeproof.asking` (the CLI's and the
service's ``ask``), the guardrail and the proxy call `run_turn` or its first half,
`select_sources`, and never string the stages themselves. Each stage takes values and returns
values; each is timed. Eligibility is decided exactly once and the same value goes to the
prompt, to verification and (through the verified answer) to rendering and the JSON output.
What happens after verification (evidence, rules, the audit record) runs in the order of
`citeproof.outcome.conclude`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from citeproof.model import Candidate, Eligibility, Passage, Policy, Source, VerifiedAnswer
from citeproof.providers import Generation, GrammarProvider, Provider, wants_quote_first
from citeproof.turn._eligibility import DEFAULT_BUDGET_CHARS, decide_eligibility
from citeproof.turn._evidence_first import answer_text, quote_first_prompt
from citeproof.turn._prompt import Prompt, build_prompt, shown_paragraphs
from citeproof.turn._retrieve import Retriever
from citeproof.verifier import verify


class Library(Protocol):
    """Where a turn's sources come from: the whole source and what governs its use."""

    def candidate(self, source_id: str) -> Candidate: ...

    def known_ids(self) -> Sequence[str]: ...


Decide = Callable[..., Eligibility]


@dataclass(frozen=True, slots=True)
class Turn:
    """Everything one turn produced, in the order it was produced."""

    question: str
    user: str | None
    passages: tuple[Passage, ...]
    eligibility: Eligibility
    prompt: Prompt
    generation: Generation
    answer: VerifiedAnswer
    timings: dict[str, float]


@dataclass(frozen=True, slots=True)
class Selection:
    """The sources of one turn: the passages retrieved, every candidate source (retrieved or
    attached, best first) and the eligibility decided over them, with the time each took."""

    passages: tuple[Passage, ...]
    sources: tuple[Source, ...]
    eligibility: Eligibility
    timings: dict[str, float]

    @property
    def eligible(self) -> tuple[Source, ...]:
        """The sources the eligibility allows, best first: those shown and verified against."""
        return tuple(s for s in self.sources if self.eligibility.allows(s.id))

    def prompt(self, question: str) -> Prompt:
        """The prompt for ``question`` over the eligible sources: retrieved sources show their
        passages; attached ones with none are shown whole."""
        return build_prompt(question, self.sources, self.eligibility, passages=self.passages)


def select_sources(
    question: str,
    *,
    retriever: Retriever,
    library: Library,
    user: str | None = None,
    attached: Sequence[str] = (),
    budget_chars: int = DEFAULT_BUDGET_CHARS,
    limit: int = 8,
    decide: Decide = decide_eligibility,
) -> Selection:
    """Retrieve for ``question`` and decide eligibility once: the first half of a turn,
    also what a caller needs that sends the prompt to a model of its own (the proxy)."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    passages = tuple(retriever.retrieve(question, limit=limit))
    timings["retrieve"] = round(time.perf_counter() - started, 6)

    started = time.perf_counter()
    order = list(dict.fromkeys([*attached, *(p.source_id for p in passages)]))
    chosen = shown_paragraphs(passages)
    candidates = [_sized(library.candidate(sid), chosen.get(sid)) for sid in order]
    eligibility = decide(
        candidates, user=user, budget_chars=budget_chars, known_ids=library.known_ids()
    )
    timings["eligibility"] = round(time.perf_counter() - started, 6)
    return Selection(passages, tuple(c.source for c in candidates), eligibility, timings)


def run_turn(
    question: str,
    *,
    retriever: Retriever,
    library: Library,
    provider: Provider,
    user: str | None = None,
    attached: Sequence[str] = (),
    policy: Policy | None = None,
    budget_chars: int = DEFAULT_BUDGET_CHARS,
    limit: int = 8,
    max_tokens: int = 400,
    deadline: float | None = None,
    decide: Decide = decide_eligibility,
) -> Turn:
    """Answer ``question`` from the library and verify the answer.

    ``attached`` are source ids the user attached to this turn: they are candidates whether or
    not retrieval finds them. ``decide`` computes eligibility (exactly once per call).
    ``deadline`` is a `time.monotonic()` time for the model call (see `deadline_after`).
    A provider with quote-first generation on (`wants_quote_first`) gets the quote-first
    prompt and its grammar; the answer verified is then its prose followed by its evidence.
    """
    selection = select_sources(
        question,
        retriever=retriever,
        library=library,
        user=user,
        attached=attached,
        budget_chars=budget_chars,
        limit=limit,
        decide=decide,
    )
    passages, sources, eligibility = selection.passages, selection.sources, selection.eligibility
    timings = dict(selection.timings)

    def timed(stage: str, started: float) -> None:
        timings[stage] = round(time.perf_counter() - started, 6)

    started = time.perf_counter()
    prompt = selection.prompt(question)
    quote_first = wants_quote_first(provider)
    if quote_first:
        prompt = quote_first_prompt(prompt, sources, passages, question=question)
    timed("prompt", started)

    started = time.perf_counter()
    if quote_first and isinstance(provider, GrammarProvider):
        generation = provider.generate(
            prompt.messages, max_tokens=max_tokens, deadline=deadline, grammar=prompt.grammar
        )
    else:
        generation = provider.generate(prompt.messages, max_tokens=max_tokens, deadline=deadline)
    timed("generate", started)

    started = time.perf_counter()
    text = answer_text(generation.text) if quote_first else generation.text
    answer = verify(text, selection.eligible, policy=policy, eligibility=eligibility)
    timed("verify", started)
    return Turn(question, user, passages, eligibility, prompt, generation, answer, timings)


def _sized(candidate: Candidate, paragraphs: set[int] | None) -> Candidate:
    """The candidate with the budget it takes: the paragraphs shown, or the whole text."""
    source = candidate.source
    if paragraphs is None:
        chars = len(source.text)
    else:
        spans = source.paragraph_spans()
        chars = sum(spans[n - 1][1] - spans[n - 1][0] for n in paragraphs if n <= len(spans))
    return Candidate(source, chars, candidate.acl, candidate.superseded)
