"""Claim support judged by the team's own LLM: ``Policy(support_judge="provider")``.

The claims' parts and the passage the judge located for each go to the configured provider
(OpenAI-compatible, Anthropic, the embedded model) in one call per answer, asking for one JSON
verdict per part: ``entails``, ``contradicts`` or ``neither``, with a short reason. The
answer is cached by the SHA-256 of the prompt, so verifying the same answer over the same
sources again costs nothing. A reply that cannot be read, or that leaves a part out, leaves
that part ``neither`` (never ``supported`` on a guess), with the reason saying so.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from citeproof.model import Message
from citeproof.providers import Provider
from citeproof.verifier.support._nli import Entailment

CACHE_ANSWERS = 1024
MAX_TOKENS_PER_ITEM = 60
PROMPT = """You check whether passages support claims. For each numbered item, read the \
passage and the claim, and answer whether the passage ENTAILS the claim (it says what the \
claim says, in any words), CONTRADICTS it (it says something incompatible: another party, \
figure, date, direction, or the opposite), or NEITHER (it does not say). Judge only from the \
passage. Reply with JSON only: a list of objects {"item": <number>, "verdict": \
"entails"|"contradicts"|"neither", "reason": "<at most 20 words>"}, one per item."""
_VERDICTS = {
    "entails": Entailment(1.0, 0.0, 0.0),
    "contradicts": Entailment(0.0, 1.0, 0.0),
    "neither": Entailment(0.0, 0.0, 1.0),
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The provider's verdict on one (passage, claim) item."""

    entailment: Entailment
    reason: str


class ProviderJudge:
    """Asks ``provider`` for the verdicts of one answer's items at once; thread-safe."""

    _cache: ClassVar[OrderedDict[str, list[Verdict]]] = OrderedDict()
    _lock = threading.Lock()

    def __init__(self, provider: Provider, *, deadline_seconds: float = 300.0) -> None:
        self.provider = provider
        self.deadline_seconds = deadline_seconds

    def judge(self, items: Sequence[tuple[str, str]]) -> list[Verdict]:
        """One `Verdict` per (passage, claim) item, in order. Raises `ProviderError` when
        the provider fails (the caller sees why: no verdict is made up)."""
        if not items:
            return []
        prompt = _prompt(items)
        key = hashlib.sha256(prompt.encode()).hexdigest()
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                return found
        from citeproof.providers import deadline_after

        generation = self.provider.generate(
            [Message("system", PROMPT), Message("user", prompt)],
            max_tokens=MAX_TOKENS_PER_ITEM * len(items) + 32,
            temperature=0.0,
            deadline=deadline_after(self.deadline_seconds),
        )
        verdicts = read_verdicts(generation.text, len(items))
        with self._lock:
            self._cache[key] = verdicts
            while len(self._cache) > CACHE_ANSWERS:
                self._cache.popitem(last=False)
        return verdicts


def _prompt(items: Sequence[tuple[str, str]]) -> str:
    lines = []
    for n, (passage, claim) in enumerate(items, start=1):
        passage_text, claim_text = " ".join(passage.split()), " ".join(claim.split())
        lines.append(f"Item {n}\nPassage: {passage_text}\nClaim: {claim_text}")
    return "\n\n".join(lines)


_ARRAY = re.compile(r"\[.*\]", re.DOTALL)


def read_verdicts(text: str, count: int) -> list[Verdict]:
    """The reply's verdicts for items 1..``count``; an item the reply does not give well is
    ``neither``, its reason saying the verdict could not be read."""
    unread = Verdict(_VERDICTS["neither"], "the model's verdict for this claim could not be read")
    found = _ARRAY.search(text)
    got: dict[int, Verdict] = {}
    if found is not None:
        try:
            rows = json.loads(found.group(0))
        except ValueError:
            rows = []
        for row in rows if isinstance(rows, list) else []:
            if not isinstance(row, dict):
                continue
            item, verdict = row.get("item"), str(row.get("verdict", "")).strip().lower()
            if isinstance(item, int) and 1 <= item <= count and verdict in _VERDICTS:
                reason = " ".join(str(row.get("reason", "")).split())[:200]
                got.setdefault(item, Verdict(_VERDICTS[verdict], reason or f"the model: {verdict}"))
    return [got.get(n, unread) for n in range(1, count + 1)]
