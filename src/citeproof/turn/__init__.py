"""One turn before verification: retrieve → (rerank) → eligibility → prompt, and the pipeline.

`retrieve` finds passages in the source store, `rerank` optionally reorders them (with the
MiniLM encoder of `citeproof.embedding`), `eligibility` decides once per turn which sources
may be shown and cited, `prompt` builds the messages from the eligible sources only, and
`pipeline` runs the whole turn in that order, through generation and verification: the only
place that knows the order.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.turn._eligibility import DEFAULT_BUDGET_CHARS
    from citeproof.turn._pipeline import Turn, run_turn, select_sources
    from citeproof.turn._prompt import Prompt
    from citeproof.turn._rerank import RerankingRetriever
    from citeproof.turn._retrieve import Retriever, StoreRetriever


_WHERE = {
    "DEFAULT_BUDGET_CHARS": "citeproof.turn._eligibility",
    "Prompt": "citeproof.turn._prompt",
    "RerankingRetriever": "citeproof.turn._rerank",
    "Retriever": "citeproof.turn._retrieve",
    "StoreRetriever": "citeproof.turn._retrieve",
    "Turn": "citeproof.turn._pipeline",
    "run_turn": "citeproof.turn._pipeline",
    "select_sources": "citeproof.turn._pipeline",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "DEFAULT_BUDGET_CHARS",
    "Prompt",
    "RerankingRetriever",
    "Retriever",
    "StoreRetriever",
    "Turn",
    "run_turn",
    "select_sources",
]
