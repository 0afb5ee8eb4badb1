"""The model-update guardrail: a golden question set through a baseline and a
candidate model, compared before the candidate ships.

A golden set is a JSON-lines file, one question a line::

    {"id": "referral", "question": "When must ...?", "expected_sources": ["credit-policy-rev7.pdf"]}

An expected source is named by its id, doc_id or title. Each question runs as a whole turn
(retrieval, eligibility, prompt, generation, verification) on both providers over the same
source store, then its evidence bundle is built and validated. Per run:

- **citation correctness**: quotes verified word for word where cited, over all quotes;
- **expected sources**: questions whose evidence cites at least one expected source;
- **coverage**: claims with evidence over claims with text (the validator's coverage);
- **ineligible citations**: citations to sources the turn did not allow.

The candidate fails when its correctness, expected-source rate or coverage is lower than the
baseline's by more than the margin, or it has more ineligible citations than the margin
allows; the questions whose evidence bundle differs (other sources, paragraphs or excerpts)
are listed, and fail the guardrail only when ``Margins.changed_bundles`` is set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from citeproof.errors import InputError
from citeproof.outcome import build_evidence
from citeproof.outcome.validate import validate
from citeproof.providers import Provider, deadline_after
from citeproof.sources import SourceStore, StoreLibrary
from citeproof.turn import StoreRetriever, run_turn

EvidenceKey = tuple[str, int | None, str]
"""What an evidence object says: (doc_id, paragraph, excerpt)."""


class _GoldenLine(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    expected_sources: list[str] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class GoldenQuestion:
    """One question of a golden set and the sources a good answer cites."""

    id: str
    question: str
    expected_sources: tuple[str, ...]


def read_golden(path: Path) -> list[GoldenQuestion]:
    """The questions of a golden JSON-lines file; `InputError` names the file, line and field
    of anything malformed, or a repeated id."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the golden set: {error}", where=str(path)) from None
    questions: list[GoldenQuestion] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        where = f"{path}: line {number}"
        try:
            line = _GoldenLine.model_validate_json(raw)
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or None
            raise InputError(first["msg"], where=where, field=field) from None
        if any(q.id == line.id for q in questions):
            raise InputError(f"repeats the id {line.id!r}", where=where, field="id")
        questions.append(GoldenQuestion(line.id, line.question, tuple(line.expected_sources)))
    if not questions:
        raise InputError("the golden set has no questions", where=str(path))
    return questions


@dataclass(frozen=True, slots=True)
class QuestionResult:
    """What one provider's answer to one golden question gave."""

    id: str
    answer: str
    quotes: int
    verified: int
    claims: int
    with_evidence: int
    ineligible: int
    expected_cited: bool
    evidence: tuple[EvidenceKey, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "answer": self.answer,
            "quotes": self.quotes,
            "verified": self.verified,
            "claims": self.claims,
            "with_evidence": self.with_evidence,
            "ineligible": self.ineligible,
            "expected_cited": self.expected_cited,
            "evidence": [list(key) for key in self.evidence],
        }


@dataclass(frozen=True, slots=True)
class GoldenRun:
    """One provider's results on the whole golden set, with its summary figures."""

    label: str
    results: tuple[QuestionResult, ...]

    @property
    def correctness(self) -> float:
        quotes = sum(r.quotes for r in self.results)
        return sum(r.verified for r in self.results) / quotes if quotes else 0.0

    @property
    def expected_rate(self) -> float:
        return sum(r.expected_cited for r in self.results) / len(self.results)

    @property
    def coverage(self) -> float:
        claims = sum(r.claims for r in self.results)
        return sum(r.with_evidence for r in self.results) / claims if claims else 0.0

    @property
    def ineligible(self) -> int:
        return sum(r.ineligible for r in self.results)

    def figures(self) -> dict[str, float]:
        return {
            "citation_correctness": round(self.correctness, 4),
            "expected_sources": round(self.expected_rate, 4),
            "coverage": round(self.coverage, 4),
            "ineligible_citations": self.ineligible,
        }


def run_golden(
    questions: Sequence[GoldenQuestion],
    provider: Provider,
    store: SourceStore,
    *,
    label: str,
    budget_chars: int,
    max_tokens: int = 300,
    timeout: float = 120.0,
) -> GoldenRun:
    """Run every question through a whole turn with ``provider`` over ``store``."""
    results = []
    for question in questions:
        turn = run_turn(
            question.question,
            retriever=StoreRetriever(store),
            library=StoreLibrary(store),
            provider=provider,
            budget_chars=budget_chars,
            max_tokens=max_tokens,
            deadline=deadline_after(timeout),
        )
        answer = turn.answer
        bundle = build_evidence(answer)
        coverage = validate(answer, bundle, mode="flag").coverage
        names = {
            source.id: {source.id, source.doc_id or "", source.title or ""}
            for source in answer.sources
        }
        cited = {item.source_id for item in bundle.evidence}
        expected = set(question.expected_sources)
        results.append(
            QuestionResult(
                id=question.id,
                answer=answer.original,
                quotes=len(answer.quotes),
                verified=sum(q.status == "verified" for q in answer.quotes),
                claims=coverage.claims,
                with_evidence=coverage.with_evidence,
                ineligible=sum(
                    c.status in ("ineligible", "removed")
                    for claim in answer.claims
                    for c in claim.citations
                ),
                expected_cited=any(names.get(sid, {sid}) & expected for sid in cited),
                evidence=tuple(
                    sorted({(e.doc_id, e.paragraph, e.excerpt) for e in bundle.evidence})
                ),
            )
        )
    return GoldenRun(label, tuple(results))


@dataclass(frozen=True, slots=True)
class Margins:
    """How much worse the candidate may be: rates are absolute drops (0.05 = five points);
    ``changed_bundles`` None means changed bundles are listed but never fail the guardrail."""

    correctness: float = 0.05
    expected_sources: float = 0.10
    coverage: float = 0.05
    ineligible: int = 0
    changed_bundles: int | None = None


@dataclass(frozen=True, slots=True)
class Comparison:
    """The baseline and candidate runs, what failed, and the questions whose bundle changed."""

    baseline: GoldenRun
    candidate: GoldenRun
    failures: tuple[str, ...]
    changed_bundles: tuple[str, ...]
    expected_missed: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "failures": list(self.failures),
            "baseline": {"label": self.baseline.label, **self.baseline.figures()},
            "candidate": {"label": self.candidate.label, **self.candidate.figures()},
            "changed_bundles": list(self.changed_bundles),
            "expected_sources_missed_by_candidate": list(self.expected_missed),
            "questions": {
                "baseline": [r.to_json() for r in self.baseline.results],
                "candidate": [r.to_json() for r in self.candidate.results],
            },
        }


def compare(baseline: GoldenRun, candidate: GoldenRun, margins: Margins) -> Comparison:
    """The guardrail's verdict on ``candidate`` against ``baseline`` (same questions)."""
    if [r.id for r in baseline.results] != [r.id for r in candidate.results]:
        raise InputError("the two runs answered different questions", field="golden")
    failures = []
    for name, base, cand, margin in (
        ("citation correctness", baseline.correctness, candidate.correctness, margins.correctness),
        ("expected sources", baseline.expected_rate, candidate.expected_rate,
         margins.expected_sources),
        ("coverage", baseline.coverage, candidate.coverage, margins.coverage),
    ):  # fmt: skip
        if base - cand > margin + 1e-12:
            failures.append(f"{name}: {cand:.1%} against {base:.1%}, down more than {margin:.1%}")
    if candidate.ineligible - baseline.ineligible > margins.ineligible:
        failures.append(
            f"ineligible citations: {candidate.ineligible} against {baseline.ineligible}, "
            f"more than {margins.ineligible} extra"
        )
    changed = tuple(
        b.id
        for b, c in zip(baseline.results, candidate.results, strict=True)
        if b.evidence != c.evidence
    )
    if margins.changed_bundles is not None and len(changed) > margins.changed_bundles:
        failures.append(
            f"evidence bundles: {len(changed)} questions changed, at most "
            f"{margins.changed_bundles} allowed"
        )
    missed = tuple(r.id for r in candidate.results if not r.expected_cited)
    return Comparison(baseline, candidate, tuple(failures), changed, missed)


def describe(comparison: Comparison) -> str:
    """The comparison for a terminal: the figures side by side, then the differences."""
    base, cand = comparison.baseline, comparison.candidate
    lines = [f"{'':24}{base.label:>16}{cand.label:>16}"]
    for name, b, c in zip(
        ("citation correctness", "expected sources", "coverage"),
        (base.correctness, base.expected_rate, base.coverage),
        (cand.correctness, cand.expected_rate, cand.coverage),
        strict=True,
    ):
        lines.append(f"{name:24}{b:>16.1%}{c:>16.1%}")
    lines.append(f"{'ineligible citations':24}{base.ineligible:>16}{cand.ineligible:>16}")
    by_id: Mapping[str, QuestionResult] = {r.id: r for r in base.results}
    for result in cand.results:
        if result.id in comparison.changed_bundles:
            before = _cites(by_id[result.id].evidence)
            lines.append(f"bundle changed: {result.id}: {before} -> {_cites(result.evidence)}")
    for question_id in comparison.expected_missed:
        lines.append(f"expected source not cited by {cand.label}: {question_id}")
    lines.extend(f"WORSE {failure}" for failure in comparison.failures)
    lines.append("candidate passes the guardrail" if comparison.ok else "candidate is worse")
    return "\n".join(lines) + "\n"


def _cites(evidence: Sequence[EvidenceKey]) -> str:
    if not evidence:
        return "no evidence"
    return ", ".join(f"{doc_id} ¶{paragraph}" for doc_id, paragraph, _ in evidence)
