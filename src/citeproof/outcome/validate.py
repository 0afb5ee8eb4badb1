"""The validator: every cited claim has matching, well-formed evidence.

`validate` checks an `EvidenceBundle` against the `VerifiedAnswer` it belongs to:

- every quote occurrence must be backed by exactly one evidence object with its ``quote_id``.
  A quote verification did not find (``not_found``) or that cites a source not provided
  (``ineligible``) has nothing that can back it: it is reported as missing evidence;
- every citation marker the corrected answer still carries and that carries no quote must be
  backed by an evidence object of its claim without a ``quote_id``, from the cited source;
- every evidence object must be well formed: a non-empty ``doc_id`` and ``version``; a
  ``content_hash`` naming the version of its ``source_id`` the answer was verified against;
  a non-empty ``span`` inside that version's text
  whose text is exactly the ``excerpt``; a ``paragraph`` of that text; a ``confidence`` in
  [0, 1]; ``retrieved_at`` null or ISO 8601; a ``claim_id`` and ``quote_id`` of this answer,
  and for a quote, the corrected location verification found (never the uncorrected one).

Each problem names the claim, the quote and the field. In ``mode="reject"`` the first problem
raises `EvidenceError` (all problems attached as ``.problems``); in ``mode="flag"`` they are
returned in the `Validation`.

Evidence coverage is computed per answer: the claims with at least one well-formed
evidence object, over the numbered claims (`VerifiedAnswer.numbered_claims`: those that carry
words and cite, quote, were judged or assert something; the claims every rendering counts). A
heading, a question, a bare "Yes." or a claim that is only a marker asserts nothing and is not
counted. Every numbered claim counts, cited or not: an uncited claim is a coverage gap, not an
error. A claim
counts as covered only when its claim support is ``supported`` (or was not judged:
``none``); a partial, unsupported, contradicted or uncited claim is a gap.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from citeproof.errors import EvidenceError, InputError
from citeproof.model import Source, VerifiedAnswer, VerifiedClaim, VerifiedQuote
from citeproof.outcome._evidence import FOUND, Evidence, EvidenceBundle
from citeproof.sources import content_hash

Mode = Literal["reject", "flag"]
_Report = Callable[[str, str], None]

__all__ = ["Coverage", "EvidenceError", "EvidenceProblem", "Mode", "Validation", "validate"]


@dataclass(frozen=True, slots=True)
class EvidenceProblem:
    """One missing or malformed piece of evidence.

    ``index`` is the evidence object's position in the bundle, None when evidence is missing.
    """

    claim_id: str | None
    quote_id: str | None
    field: str
    message: str
    index: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "claim_id": self.claim_id,
            "quote_id": self.quote_id,
            "field": self.field,
            "message": self.message,
            "index": self.index,
        }


@dataclass(frozen=True, slots=True)
class Coverage:
    """Evidence coverage of one answer: claims with well-formed evidence over numbered claims.

    ``gaps`` are the ids of the claims with text but no well-formed evidence. With no claims
    the ratio is 1.0 (nothing is unsupported).
    """

    claims: int
    with_evidence: int
    gaps: tuple[str, ...]

    @property
    def ratio(self) -> float:
        return self.with_evidence / self.claims if self.claims else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "claims": self.claims,
            "with_evidence": self.with_evidence,
            "ratio": round(self.ratio, 4),
            "gaps": list(self.gaps),
        }


@dataclass(frozen=True, slots=True)
class Validation:
    """The validator's verdict on one answer's evidence."""

    answer_id: str
    bundle_hash: str
    ok: bool
    problems: tuple[EvidenceProblem, ...]
    coverage: Coverage

    def to_json(self) -> dict[str, Any]:
        return {
            "answer_id": self.answer_id,
            "bundle_hash": self.bundle_hash,
            "ok": self.ok,
            "problems": [p.to_json() for p in self.problems],
            "coverage": self.coverage.to_json(),
        }


def validate(
    answer: VerifiedAnswer,
    bundle: EvidenceBundle,
    *,
    mode: Mode = "reject",
) -> Validation:
    """Check that every citation of ``answer`` has matching, well-formed evidence in ``bundle``.

    Excerpts are checked against the source text whose content hash the evidence names, among
    the sources ``answer`` was verified against. Raises `EvidenceError` for the first problem
    in ``mode="reject"``; returns them all in ``mode="flag"``.
    """
    if mode not in ("reject", "flag"):
        raise InputError(f"must be 'reject' or 'flag', not {mode!r}", field="mode")
    checker = _Checker(answer)
    problems: list[EvidenceProblem] = []
    if bundle.answer_id != answer.id:
        problems.append(
            EvidenceProblem(
                None,
                None,
                "answer_id",
                f"the bundle is for answer {bundle.answer_id!r}, not {answer.id!r}",
            )
        )
    well_formed: list[Evidence] = []
    for index, item in enumerate(bundle.evidence):
        found = checker.check(item, index)
        problems.extend(found)
        if not found:
            well_formed.append(item)
    problems.extend(checker.missing(bundle.evidence))
    problems.sort(key=lambda p: (checker.claim_order(p.claim_id), p.index is None))
    coverage = _coverage(answer, well_formed)
    validation = Validation(answer.id, bundle.bundle_hash, not problems, tuple(problems), coverage)
    if problems and mode == "reject":
        first = problems[0]
        raise EvidenceError(
            first.message,
            claim_id=first.claim_id,
            quote_id=first.quote_id,
            field=first.field,
            problems=tuple(problems),
        )
    return validation


class _Checker:
    """The answer, its sources by content hash, and the checks of one evidence object."""

    def __init__(self, answer: VerifiedAnswer):
        self.answer = answer
        self.claims = {claim.id: claim for claim in answer.claims}
        self.order = {claim.id: n for n, claim in enumerate(answer.claims)}
        self.quotes = {quote.id: quote for quote in answer.quotes}
        self.source_ids = {source.id for source in answer.sources}
        self.by_hash: dict[str, Source] = {}
        for source in answer.sources:
            self.by_hash[content_hash(source.text)] = source

    def claim_order(self, claim_id: str | None) -> int:
        return self.order.get(claim_id or "", -1)

    def check(self, item: Evidence, index: int) -> list[EvidenceProblem]:
        problems: list[EvidenceProblem] = []

        def bad(field: str, message: str) -> None:
            problems.append(EvidenceProblem(item.claim_id, item.quote_id, field, message, index))

        if not item.doc_id.strip():
            bad("doc_id", "is empty")
        if item.version is None or not item.version.strip():
            bad("version", "is missing: evidence must name the version it cites")
        if not (math.isfinite(item.confidence) and 0.0 <= item.confidence <= 1.0):
            bad("confidence", f"{item.confidence} is outside [0, 1]")
        if item.retrieved_at is not None and not _is_iso_time(item.retrieved_at):
            bad("retrieved_at", f"{item.retrieved_at!r} is not an ISO 8601 time")
        if not item.excerpt:
            bad("excerpt", "is empty")
        source = self.by_hash.get(item.content_hash)
        if item.source_id not in self.source_ids:
            bad("source_id", f"{item.source_id!r} is not a source of this answer")
        elif source is None or source.id != item.source_id:
            bad(
                "content_hash",
                f"{item.content_hash} is not a provided version of source {item.source_id!r}",
            )
        else:
            self._check_text(item, source, bad)
        self._check_links(item, bad)
        return problems

    def _check_links(self, item: Evidence, bad: _Report) -> None:
        if item.claim_id not in self.claims:
            bad("claim_id", f"{item.claim_id!r} is not a claim of answer {self.answer.id!r}")
        if item.quote_id is None:
            return
        quote = self.quotes.get(item.quote_id)
        if quote is None or quote.claim_id != item.claim_id:
            bad("quote_id", f"{item.quote_id!r} is not a quote of claim {item.claim_id!r}")
        elif quote.status not in FOUND or quote.source_span is None:
            bad("quote_id", f"verification did not find this quote ({quote.status})")
        elif (item.source_id, item.span) != (quote.source, quote.source_span):
            where = f"{quote.source} {list(quote.source_span)}"
            bad(
                "source_id" if item.source_id != quote.source else "span",
                f"points to {item.source_id} {list(item.span)}, but verification found the "
                f"quote at {where}",
            )

    def _check_text(self, item: Evidence, source: Source, bad: _Report) -> None:
        start, end = item.span
        if not 0 <= start < end <= len(source.text):
            bad("span", f"{list(item.span)} is outside the text (length {len(source.text)})")
            if item.excerpt and item.excerpt not in source.text:
                bad("excerpt", f"is not in version {item.version} of {item.source_id!r}")
        elif source.text[start:end] != item.excerpt:
            where = "elsewhere in" if item.excerpt in source.text else "not in"
            bad(
                "excerpt",
                f"differs from the text at {list(item.span)}: the excerpt is {where} "
                f"version {item.version} of {item.source_id!r}",
            )
        paragraphs = source.paragraph_spans()
        if item.paragraph is not None and not 1 <= item.paragraph <= len(paragraphs):
            bad("paragraph", f"{item.paragraph} is not a paragraph of {item.source_id!r}")

    def missing(self, evidence: Sequence[Evidence]) -> list[EvidenceProblem]:
        """Quotes and quote-less citations that no evidence object backs."""
        problems: list[EvidenceProblem] = []
        per_quote: dict[str, int] = {}
        for item in evidence:
            if item.quote_id is not None:
                per_quote[item.quote_id] = per_quote.get(item.quote_id, 0) + 1
        for quote in self.answer.quotes:
            count = per_quote.get(quote.id, 0)
            if count == 0:
                problems.append(
                    EvidenceProblem(quote.claim_id, quote.id, "evidence", _no_evidence(quote))
                )
            elif count > 1:
                problems.append(
                    EvidenceProblem(
                        quote.claim_id, quote.id, "quote_id", f"{count} evidence objects"
                    )
                )
        for claim in self.answer.claims:
            problems.extend(_missing_citations(claim, evidence))
        return problems


def _missing_citations(claim: VerifiedClaim, evidence: Sequence[Evidence]) -> list[EvidenceProblem]:
    """A problem for each citation of ``claim`` that carries no quote and has no evidence."""
    backed = {e.source_id for e in evidence if e.claim_id == claim.id and e.quote_id is None}
    problems = []
    for citation in claim.citations:
        if citation.quote_ids or citation.status == "removed" or citation.source in backed:
            continue
        if citation.status == "ineligible":
            reason = f"cites {citation.source!r}, which was not provided in this turn"
        elif citation.paragraph is None:
            reason = f"{citation.marker} names no paragraph and carries no quote"
        else:
            reason = f"no evidence for {citation.marker}"
        problems.append(EvidenceProblem(claim.id, None, "evidence", reason))
    return problems


def _no_evidence(quote: VerifiedQuote) -> str:
    if quote.status == "ineligible":
        return f"cites {quote.cited_source!r}, which was not provided: nothing can back it"
    if quote.status == "not_found":
        return "the quote is in none of the provided sources: nothing backs it"
    return f"no evidence object for this {quote.status} quote"


def _coverage(answer: VerifiedAnswer, well_formed: Sequence[Evidence]) -> Coverage:
    # A claim judged partial, unsupported or contradicted has evidence, but not coverage.
    judged_short = {c.id for c in answer.claims if c.verdict not in ("supported", "none")}
    backed = {item.claim_id for item in well_formed} - judged_short
    counted = [claim.id for claim in answer.numbered_claims()]
    gaps = tuple(cid for cid in counted if cid not in backed)
    return Coverage(len(counted), len(counted) - len(gaps), gaps)


def _is_iso_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True
