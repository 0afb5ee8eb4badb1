"""Optional embedding re-ranking of retrieved passages, offline.

`RerankingRetriever` wraps any `Retriever`: it takes its best ``candidates`` passages and
re-scores each by ``weight * lexical + (1 - weight) * max(cosine, 0)``, where ``lexical`` is
the base confidence (BM25 for `StoreRetriever`) and ``cosine`` the similarity of the passage
and query embeddings by the MiniLM encoder (`citeproof.embedding.TextEncoder`). The blend is
rounded to 4 decimals; ties go by source id, then paragraph range. The encoder embeds each
text alone and caches it, so the same query over the same passages gives the same passages,
order and confidences.
"""

from __future__ import annotations

import dataclasses

from citeproof.embedding import TextEncoder
from citeproof.errors import InputError
from citeproof.model import Passage
from citeproof.turn._retrieve import Retriever


class RerankingRetriever:
    """A `Retriever` that re-ranks the best ``candidates`` passages of ``base`` by a blend
    of their base confidence and their embedding similarity to the query (see the module).

    ``weight`` is the share of the base confidence, in [0, 1]: 1 keeps the base order, 0
    ranks by embedding similarity alone among the candidates.
    """

    def __init__(
        self,
        base: Retriever,
        encoder: TextEncoder,
        *,
        candidates: int = 32,
        weight: float = 0.5,
    ) -> None:
        if candidates < 1:
            raise InputError("must be >= 1", field="candidates")
        if not 0.0 <= weight <= 1.0:
            raise InputError("must be in [0, 1]", field="weight")
        self.base = base
        self.encoder = encoder
        self.candidates = candidates
        self.weight = weight

    def retrieve(self, query: str, *, limit: int = 8) -> list[Passage]:
        if limit <= 0:
            return []
        found = self.base.retrieve(query, limit=max(self.candidates, limit))
        if not found:
            return []
        query_vector = self.encoder.embed([query])[0]
        similarities = self.encoder.embed([p.text for p in found]) @ query_vector
        rescored = [
            dataclasses.replace(passage, confidence=self.blend(passage.confidence, float(cos)))
            for passage, cos in zip(found, similarities, strict=True)
        ]
        rescored.sort(key=lambda p: (-p.confidence, p.source_id, p.paragraphs, p.span))
        return rescored[:limit]

    def blend(self, lexical: float, cosine: float) -> float:
        """The re-ranked confidence: in [0, 1], rounded to 4 decimals."""
        semantic = min(max(cosine, 0.0), 1.0)
        lexical = min(max(lexical, 0.0), 1.0)
        return round(self.weight * lexical + (1.0 - self.weight) * semantic, 4)
