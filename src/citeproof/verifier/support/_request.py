"""What the claim judge is asked, what it found, and the names of its methods: shared by the
judge (`_judge`) and the promise it keeps (`_promise`)."""

from __future__ import annotations

from dataclasses import dataclass

from citeproof.model import Source, Span
from citeproof.verifier.support._facts import FactCheck
from citeproof.verifier.support._locate import Sentence

MODEL = "entailment"
PROVIDER = "provider"
QUOTE = "quote"


@dataclass(frozen=True, slots=True)
class Examined:
    """What the fact layer and the encoder found for one claim against one source."""

    check: FactCheck
    values: dict[str, float]
    chosen: tuple[Sentence, ...]
    share: float  # weighted share of the claim the chosen sentences hold


@dataclass(frozen=True, slots=True)
class Request:
    """One claim to judge against one source it cites (see `SupportJudge.judge`)."""

    claim: str
    source: Source
    paragraph: int | None = None
    quoted: tuple[Span, ...] = ()
