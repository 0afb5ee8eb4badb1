"""Asking over a source store: the wiring `citeproof ask` and `citeproof serve` share.

`ask_store` gives `citeproof.turn.run_turn` (which alone knows the order of a turn)
a `SourceStore` to retrieve from, the access lists of its asker and the budget that fits the
provider; `turn_to_json` is the JSON contract of the answer plus the turn (question,
passages, prompt, generation, timings). What follows the turn, evidence to the audit record,
is `citeproof.outcome.conclude`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citeproof.model import Policy
from citeproof.outcome import answer_to_json
from citeproof.providers import Provider, deadline_after
from citeproof.sources import SourceStore, StoreLibrary
from citeproof.turn import DEFAULT_BUDGET_CHARS, Retriever, StoreRetriever, Turn, run_turn

EMBEDDED_BUDGET_CHARS = 3_000
"""The embedded model reads 3,072 tokens: about 3,000 characters of sources (reading them takes
about 25 s on one core for the default model) leave room for the instructions, the question
and the answer."""


def default_budget(provider: Provider) -> int:
    """Characters of source text a prompt for ``provider`` may carry by default."""
    from citeproof.providers import EmbeddedProvider

    return EMBEDDED_BUDGET_CHARS if isinstance(provider, EmbeddedProvider) else DEFAULT_BUDGET_CHARS


def ask_store(
    question: str,
    store: SourceStore,
    provider: Provider,
    *,
    user: str | None = None,
    attached: Sequence[str] = (),
    policy: Policy | None = None,
    budget_chars: int | None = None,
    limit: int = 8,
    max_tokens: int = 300,
    timeout: float | None = None,
    retriever: Retriever | None = None,
    only_readable: bool = False,
) -> Turn:
    """One turn over ``store``: only sources ``user`` may read are eligible (the store's
    access lists), the prompt carries ``budget_chars`` (default: `default_budget`), and the
    model call must end within ``timeout`` seconds (None: the provider's own bound, which for
    the embedded model is scaled to the prompt and the answer's length). ``retriever``
    defaults to BM25 over the store (pass a re-ranking one to re-rank). With
    ``only_readable``, sources ``user`` may not read are not even retrieved or named in the
    turn's eligibility record."""
    readers = [user or ""] if only_readable else None
    return run_turn(
        question,
        retriever=retriever or StoreRetriever(store, principals=readers),
        library=StoreLibrary(store, principals=readers),
        provider=provider,
        user=user,
        attached=attached,
        policy=policy,
        budget_chars=budget_chars or default_budget(provider),
        limit=limit,
        max_tokens=max_tokens,
        deadline=None if timeout is None else deadline_after(timeout),
    )


def turn_request(turn: Turn, command: str, question: str, user: str | None) -> dict[str, Any]:
    """The request an asked turn's audit record holds, the same members whoever asked
    (``citeproof ask``, the service's ``POST /v1/ask``): the command, the question and who
    asked it, the model that answered, the prompt's version and whether it was quote-first,
    and the turn's stage timings."""
    return {
        "command": command,
        "question": question,
        "user": user,
        "provider": turn.generation.provider,
        "model": turn.generation.model,
        "prompt_version": turn.prompt.version,
        "quote_first": turn.prompt.grammar is not None,
        "timings": turn.timings,
    }


def turn_to_json(turn: Turn) -> dict[str, Any]:
    """The JSON contract of the answer, plus the turn: question, prompt, model and timings."""
    record = answer_to_json(turn.answer)
    record["turn"] = {
        "question": turn.question,
        "user": turn.user,
        "passages": [
            {
                "source_id": p.source_id,
                "version": p.version,
                "paragraphs": list(p.paragraphs),
                "confidence": p.confidence,
            }
            for p in turn.passages
        ],
        "prompt": {
            "version": turn.prompt.version,
            "source_ids": list(turn.prompt.source_ids),
            "removals": [
                {"source_id": r.source_id, "count": r.count, "codepoints": list(r.codepoints)}
                for r in turn.prompt.removals
            ],
            "eligibility_fingerprint": turn.prompt.eligibility_fingerprint,
            "flagged_lines": [
                {"source_id": f.source_id, "paragraph": f.paragraph, "text": f.text}
                for f in turn.prompt.flagged
            ],
        },
        "generation": {
            "provider": turn.generation.provider,
            "model": turn.generation.model,
            "prompt_tokens": turn.generation.usage.prompt_tokens,
            "completion_tokens": turn.generation.usage.completion_tokens,
            "seconds": round(turn.generation.seconds, 3),
            # What the model wrote; "original" is the answer verified (quote-first: the prose,
            # then the evidence lines).
            "text": turn.generation.text,
            "quote_first": turn.prompt.grammar is not None,
        },
        "normalised_markers": [
            {"written": n.written, "read_as": n.read_as, "start": n.start}
            for n in turn.answer.normalised_markers
        ],
        "timings": turn.timings,
    }
    return record
