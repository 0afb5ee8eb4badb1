"""What the claim judge is asked, what it found, and the names of its methods: shared by the
judge (`_judge`) and the promise it keeps (`_promise`)."""

from __future__ import annotations

import re
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


def naming(claim: str, source_id: str) -> tuple[Span, ...]:
    """Where ``claim`` names the source it cites by that source's id, when the id is a word of
    the language ("Under the lease, ..." citing the source "lease"; not "S1", which the
    claim's text has blanked): the citation itself backs those words."""
    if not (source_id.isalpha() and (source_id.islower() or source_id.istitle())):
        return ()
    pattern = rf"(?<![\w-]){re.escape(source_id)}(?:['’]s)?(?![\w-])"  # "the memo's words"
    return tuple(m.span() for m in re.finditer(pattern, claim, re.IGNORECASE))
