"""The citation manager (ADR 1): one immutable `Evidence` object per citation.

`build_evidence` turns a `VerifiedAnswer` into an `EvidenceBundle`:

- one `Evidence` per quote occurrence that verification found in a provided source (status
  ``verified``, ``corrected`` or ``mismatch``). Its location and excerpt are where the quote
  really is, after correction (the corrected source, paragraph and span), never where the
  answer said it was; the excerpt is the holding source's exact text at that span, i.e. the
  matched passage, not the context shown around it;
- one `Evidence` per citation marker that carries no quote and names a provided source whose
  claim support located a passage: the excerpt is that passage, ``confidence`` the
  support score and ``support`` the verdict (a field present only on such evidence, so older
  bundles keep their hash);
- otherwise, one `Evidence` per citation marker that carries no quote, names a provided
  source and a paragraph of it (``[policy, ¶3]``): the excerpt is the start of that
  paragraph, at most `CITATION_EXCERPT_CHARS` characters. A citation naming no paragraph and
  carrying no quote locates nothing, so it gets no evidence (the validator reports it).

The fixed ADR 1 schema ``doc_id, version, url, excerpt, retrieved_at, confidence`` comes first,
then the location and links: ``source_id, paragraph, span, content_hash, claim_id, quote_id``
(``schema/evidence.schema.json``). ``doc_id`` is the source's ``doc_id``, else its id;
``version`` is the source's ``version``, else ``sha256:`` and the first 12 hex digits of its
content hash (a content-addressed version). ``content_hash`` is ``sha256:`` and the SHA-256 of
the cited version's full text in UTF-8, so the excerpt can be checked against exactly that
version. ``span`` is the excerpt's ``[start, end)`` ``str`` index span in that text.

``confidence`` is deterministic and comes from verification only: the similarity between the
quote as written and the excerpt (1.0 for a word-for-word match, the fuzzy score otherwise),
and `UNCHECKED_CITATION_CONFIDENCE` for a citation without a quote, whose paragraph exists but
whose support for the claim citeproof did not check. It is a ranking aid for machines: no
user interface shows it alone, only beside the excerpt and the verification status.

Evidence holds only text, numbers and spans taken from the answer and its sources: its
fields are type-checked on construction, so a live value, a rule decision or any other
object cannot be stored in it (ADR 2).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from citeproof.canonical import canonical_json
from citeproof.errors import AuditRecordError, EvidenceError
from citeproof.model import Source, Span, VerifiedAnswer, VerifiedClaim
from citeproof.sources import content_hash

EVIDENCE_SCHEMA = "citeproof/evidence-bundle/1"
"""The version of the bundle's JSON form (``schema/evidence.schema.json``)."""

UNCHECKED_CITATION_CONFIDENCE = 0.5
"""Confidence of a citation without a quote: the paragraph exists; support is not checked."""

CITATION_EXCERPT_CHARS = 240
"""Longest excerpt of a cited paragraph when no quote narrows it down."""

FOUND = ("verified", "corrected", "mismatch")
"""Quote statuses that locate the quote in a provided source."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """What backs one citation: which version of which source, where, and its exact text.

    ``quote_id`` is None for a citation that carries no quote. Construction only checks
    types (so nothing but plain evidence can be stored); `citeproof.outcome.validate.validate`
    checks that the values are well formed and match the answer and its sources.
    """

    doc_id: str
    version: str | None
    url: str | None
    excerpt: str
    retrieved_at: str | None
    confidence: float
    source_id: str
    paragraph: int | None
    span: Span
    content_hash: str
    claim_id: str
    quote_id: str | None
    support: str | None = None

    def __post_init__(self) -> None:
        texts: dict[str, object] = {"doc_id": self.doc_id, "excerpt": self.excerpt}
        texts |= {"source_id": self.source_id, "content_hash": self.content_hash}
        texts["claim_id"] = self.claim_id
        optional: dict[str, object] = {"version": self.version, "url": self.url}
        optional |= {"retrieved_at": self.retrieved_at, "quote_id": self.quote_id}
        optional["support"] = self.support
        for name, value in texts.items():
            _require(isinstance(value, str), name, "text", value)
        for name, value in optional.items():
            _require(value is None or isinstance(value, str), name, "text or null", value)
        confidence = self.confidence
        _require(
            isinstance(confidence, int | float) and not isinstance(confidence, bool),
            "confidence",
            "a number",
            confidence,
        )
        if not math.isfinite(confidence):
            raise EvidenceError(f"must be finite, got {confidence}", field="confidence")
        object.__setattr__(self, "confidence", float(confidence))
        paragraph = self.paragraph
        _require(
            paragraph is None or (isinstance(paragraph, int) and not isinstance(paragraph, bool)),
            "paragraph",
            "an integer or null",
            paragraph,
        )
        span = self.span
        _require(
            isinstance(span, tuple | list)
            and len(span) == 2
            and all(isinstance(i, int) and not isinstance(i, bool) for i in span),
            "span",
            "two integers",
            span,
        )
        object.__setattr__(self, "span", (span[0], span[1]))

    def to_json(self) -> dict[str, Any]:
        """The evidence object of ``schema/evidence.schema.json``."""
        return {
            "doc_id": self.doc_id,
            "version": self.version,
            "url": self.url,
            "excerpt": self.excerpt,
            "retrieved_at": self.retrieved_at,
            "confidence": self.confidence,
            "source_id": self.source_id,
            "paragraph": self.paragraph,
            "span": list(self.span),
            "content_hash": self.content_hash,
            "claim_id": self.claim_id,
            "quote_id": self.quote_id,
            # Present only on claim-support evidence, so bundles without it keep their hash.
            **({"support": self.support} if self.support is not None else {}),
        }

    @classmethod
    def from_json(cls, data: object, *, where: str = "evidence") -> Evidence:
        """Read one evidence object; an `EvidenceError` names a missing or mistyped field."""
        if not isinstance(data, Mapping):
            raise EvidenceError(f"{where}: expected a JSON object")
        missing = [name for name in _FIELDS if name not in data and name not in _OPTIONAL]
        extra = sorted(set(data) - set(_FIELDS))
        claim_id = data.get("claim_id") if isinstance(data.get("claim_id"), str) else None
        quote_id = data.get("quote_id") if isinstance(data.get("quote_id"), str) else None
        if missing or extra:
            name = (missing or extra)[0]
            problem = "is missing" if missing else "is not part of the evidence schema"
            raise EvidenceError(
                f"{where}: {problem}", claim_id=claim_id, quote_id=quote_id, field=name
            )
        values = dict(data)
        if isinstance(values["span"], list):
            values["span"] = tuple(values["span"])
        try:
            return cls(**values)
        except (TypeError, ValueError) as error:
            raise EvidenceError(
                f"{where}: {error}", claim_id=claim_id, quote_id=quote_id, field=_field_of(error)
            ) from None


_FIELDS = tuple(Evidence.__dataclass_fields__)
_OPTIONAL = ("support",)


def _require(ok: bool, name: str, expected: str, value: object) -> None:
    if not ok:
        raise EvidenceError(f"must be {expected}, got {type(value).__name__}", field=name)


def _field_of(error: Exception) -> str | None:
    text = str(error)
    return text.split("'")[1] if text.count("'") >= 2 else None


@dataclass(frozen=True, slots=True)
class EvidenceBundle:
    """The evidence of one answer, in answer order, and the hash that pins it.

    ``bundle_hash`` is ``sha256:`` and the SHA-256 of `canonical_json`, the RFC 8785
    canonical JSON of the list of evidence objects; it is computed, never given.
    """

    answer_id: str
    evidence: tuple[Evidence, ...]
    bundle_hash: str = field(init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.answer_id, str):
            raise EvidenceError("must be text", field="answer_id")
        items = tuple(self.evidence)
        for item in items:
            if not isinstance(item, Evidence):
                raise EvidenceError(
                    f"an evidence bundle holds Evidence objects only, not {type(item).__name__}",
                    field="evidence",
                )
        object.__setattr__(self, "evidence", items)
        digest = hashlib.sha256(self.canonical_json()).hexdigest()
        object.__setattr__(self, "bundle_hash", "sha256:" + digest)

    def __iter__(self) -> Iterator[Evidence]:
        return iter(self.evidence)

    def __len__(self) -> int:
        return len(self.evidence)

    def canonical_json(self) -> bytes:
        """RFC 8785 canonical JSON of the evidence list: the bytes the hash is taken over."""
        try:
            return canonical_json([item.to_json() for item in self.evidence])
        except AuditRecordError as error:
            raise EvidenceError(f"the evidence cannot be canonicalised: {error}") from None

    def for_claim(self, claim_id: str) -> tuple[Evidence, ...]:
        """The evidence of one claim, in answer order."""
        return tuple(item for item in self.evidence if item.claim_id == claim_id)

    def to_json(self) -> dict[str, Any]:
        """The bundle of ``schema/evidence.schema.json``: schema, answer id, hash, list."""
        return {
            "schema": EVIDENCE_SCHEMA,
            "answer_id": self.answer_id,
            "bundle_hash": self.bundle_hash,
            "evidence": [item.to_json() for item in self.evidence],
        }

    @classmethod
    def from_json(cls, data: object) -> EvidenceBundle:
        """Read a bundle back; raises `EvidenceError` if it is malformed or its hash differs."""
        if not isinstance(data, Mapping):
            raise EvidenceError("expected a JSON object", field="evidence")
        if data.get("schema") != EVIDENCE_SCHEMA:
            raise EvidenceError(
                f"unknown schema {data.get('schema')!r}; expected {EVIDENCE_SCHEMA!r}",
                field="schema",
            )
        answer_id, items = data.get("answer_id"), data.get("evidence")
        if not isinstance(answer_id, str) or not isinstance(items, list):
            raise EvidenceError("needs answer_id (text) and evidence (a list)", field="evidence")
        bundle = cls(
            answer_id,
            tuple(Evidence.from_json(item, where=f"evidence[{n}]") for n, item in enumerate(items)),
        )
        logged = data.get("bundle_hash")
        if logged != bundle.bundle_hash:
            raise EvidenceError(
                f"the logged hash {logged!r} does not match the evidence ({bundle.bundle_hash})",
                field="bundle_hash",
            )
        return bundle


def build_evidence(answer: VerifiedAnswer) -> EvidenceBundle:
    """The evidence bundle of a verified answer: quotes found, then quote-less citations.

    Ordered by claim, then by position in the answer as given. Deterministic: the same
    answer always gives the same bundle, byte for byte.
    """
    sources = {source.id: source for source in answer.sources}
    hashes = {source.id: content_hash(source.text) for source in sources.values()}
    quotes_by_claim: dict[str, list[tuple[int, Evidence]]] = {}
    for quote in answer.quotes:
        source = sources.get(quote.source or "")
        if quote.status not in FOUND or source is None or quote.source_span is None:
            continue
        start, end = quote.source_span
        item = _evidence(
            source,
            hashes[source.id],
            excerpt=source.text[start:end],
            span=(start, end),
            paragraph=quote.paragraph,
            confidence=min(1.0, max(0.0, round(quote.score, 4))),
            claim_id=quote.claim_id,
            quote_id=quote.id,
        )
        quotes_by_claim.setdefault(quote.claim_id, []).append((quote.answer_span[0], item))
    bundle: list[Evidence] = []
    for claim in answer.claims:
        located = quotes_by_claim.get(claim.id, [])
        located += _citation_evidence(claim, sources, hashes)
        bundle.extend(item for _, item in sorted(located, key=lambda pair: pair[0]))
    return EvidenceBundle(answer.id, tuple(bundle))


def _citation_evidence(
    claim: VerifiedClaim, sources: Mapping[str, Source], hashes: Mapping[str, str]
) -> list[tuple[int, Evidence]]:
    """Evidence for the claim's citations that carry no quote and name a paragraph, each
    placed by its marker's position in the answer as given."""
    located = []
    judged = {s.source: s for s in claim.support}
    for citation in claim.citations:
        source = sources.get(citation.source)
        if citation.quote_ids or citation.status in ("ineligible", "removed") or source is None:
            continue
        support = judged.get(citation.source)
        if support is not None and support.passage is not None:
            # The passage claim support located: where the claim's backing is.
            passage = support.passage
            item = _evidence(
                source,
                hashes[source.id],
                excerpt=passage.text,
                span=passage.span,
                paragraph=passage.paragraph,
                confidence=support.score,
                claim_id=claim.id,
                quote_id=None,
                support=support.verdict,
            )
            located.append((citation.written_span[0], item))
            continue
        if citation.paragraph is None:
            continue
        spans = source.paragraph_spans()
        if not 1 <= citation.paragraph <= len(spans):
            continue
        start, end = spans[citation.paragraph - 1]
        end = _word_cut(source.text, start, end, CITATION_EXCERPT_CHARS)
        item = _evidence(
            source,
            hashes[source.id],
            excerpt=source.text[start:end],
            span=(start, end),
            paragraph=citation.paragraph,
            confidence=UNCHECKED_CITATION_CONFIDENCE,
            claim_id=claim.id,
            quote_id=None,
        )
        located.append((citation.written_span[0], item))
    return located


def _word_cut(text: str, start: int, end: int, limit: int) -> int:
    """The end of ``text[start:end]`` cut to ``limit`` characters at a word boundary."""
    if end - start <= limit:
        return end
    cut = text.rfind(" ", start, start + limit)
    return cut if cut > start else start + limit


def _evidence(
    source: Source,
    digest: str,
    *,
    excerpt: str,
    span: Span,
    paragraph: int | None,
    confidence: float,
    claim_id: str,
    quote_id: str | None,
    support: str | None = None,
) -> Evidence:
    return Evidence(
        doc_id=source.doc_id or source.id,
        version=source.version or digest[: len("sha256:") + 12],
        url=source.url,
        excerpt=excerpt,
        retrieved_at=source.retrieved_at,
        confidence=confidence,
        source_id=source.id,
        paragraph=paragraph,
        span=span,
        content_hash=digest,
        claim_id=claim_id,
        quote_id=quote_id,
        support=support,
    )
