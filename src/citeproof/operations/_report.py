"""The operations report over a time window of the audit log.

Figures, all computed from what the log already holds:

- **coverage**: claims with evidence over claims with text, summed over the answers (each
  answer's ``validation.coverage`` as logged), and the claims without evidence;
- **statuses**: quotes per verification status; **corrections**: quotes corrected and the
  corrections per kind;
- **drift**: evidence objects whose source version was retrieved more than the freshness
  window (default 30 days) before the answer was logged (*stale*), and answers whose latest
  re-validation found a cited version superseded since (*superseded since*) or a cited source
  gone from the store (*source gone since*), counted apart as re-validation counts them;
- **latency**: per stage of ``request.timings`` (logged by ``citeproof ask``), p50/p95/p99 by
  the nearest-rank method (the smallest value with at least p% of the values at or below it),
  and the end-to-end total with and without the evidence stages (`EVIDENCE_STAGES`);
- **re-validation**: the latest outcome per answer among the re-validation records in the
  window; **reviews**: reviewers' verdicts in the window;
- **by day**: answers, coverage and stale evidence per UTC day, for the charts.

A record is in the window when it was logged at or after ``now - since``.
"""

from __future__ import annotations

import math
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from citeproof.audit import (
    AuditStore,
    BadRecord,
    ReadCheck,
    check_stored_texts,
    checked_records,
    json_path_keys,
    value_at,
)
from citeproof.errors import InputError
from citeproof.operations._logged import (
    REVALIDATION_SCHEMA,
    REVIEW_SCHEMA,
    LoggedRecord,
    parse_time,
)
from citeproof.outcome import ANSWER_SCHEMAS

DEFAULT_FRESHNESS = timedelta(days=30)
EVIDENCE_STAGES = frozenset({"verify", "evidence", "validate"})
"""Stages that check and attach evidence; the rest (retrieve, eligibility, prompt, generate)
are what a turn costs without them."""
PERCENTILES = (50, 95, 99)
_STATUSES = ("verified", "corrected", "mismatch", "not_found", "ineligible")
_DURATION = re.compile(r"^\s*(\d+)\s*([hdw])\s*$")
_UNITS = {"h": timedelta(hours=1), "d": timedelta(days=1), "w": timedelta(weeks=1)}


def parse_since(text: str) -> timedelta | None:
    """``30d``, ``12h``, ``2w`` as a duration; ``all`` as None (the whole log)."""
    if text.strip().lower() == "all":
        return None
    match = _DURATION.match(text)
    if match is None:
        raise InputError(
            f"expected a duration like 30d, 12h, 2w or 'all', not {text!r}", field="since"
        )
    return int(match.group(1)) * _UNITS[match.group(2)]


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest rank: the smallest value with at least ``p``% of ``values`` at or below it."""
    if not values:
        raise ValueError("no values")
    return _nearest_rank(sorted(values), p)


def _nearest_rank(ordered: Sequence[float], p: float) -> float:
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


@dataclass(frozen=True, slots=True)
class Day:
    """The figures of one UTC day."""

    date: str
    answers: int
    claims: int
    with_evidence: int
    evidence: int
    stale: int

    @property
    def coverage(self) -> float:
        return self.with_evidence / self.claims if self.claims else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "date": self.date,
            "answers": self.answers,
            "claims": self.claims,
            "with_evidence": self.with_evidence,
            "coverage": round(self.coverage, 4),
            "evidence": self.evidence,
            "stale": self.stale,
        }


@dataclass(frozen=True, slots=True)
class Report:
    """The figures of one window; `to_json` is the report's JSON form."""

    generated_at: str
    since: str | None
    freshness_days: float
    records: int
    answers: int
    claims: int
    with_evidence: int
    gaps: int
    statuses: dict[str, int]
    corrected_quotes: int
    corrections: dict[str, int]
    evidence: int
    stale: int
    answers_with_stale: int
    superseded_since: int
    missing_since: int
    latency: dict[str, dict[str, float | int]]
    revalidation: dict[str, int]
    reviews: dict[str, int]
    days: tuple[Day, ...] = field(default=())
    integrity: ReadCheck | None = None
    """What checking the records read found; None when the records were given already read
    (`build_report`) and nothing was checked."""

    @property
    def coverage(self) -> float:
        return self.with_evidence / self.claims if self.claims else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "generated_at": self.generated_at,
            "window": {"since": self.since, "records": self.records},
            "answers": self.answers,
            "coverage": {
                "claims": self.claims,
                "with_evidence": self.with_evidence,
                "gaps": self.gaps,
                "ratio": round(self.coverage, 4),
            },
            "statuses": self.statuses,
            "corrections": {"quotes": self.corrected_quotes, "by_kind": self.corrections},
            "drift": {
                "freshness_days": self.freshness_days,
                "evidence": self.evidence,
                "stale": self.stale,
                "answers_with_stale": self.answers_with_stale,
                "superseded_since": self.superseded_since,
                "sources_missing_since": self.missing_since,
            },
            "latency": self.latency,
            "revalidation": self.revalidation,
            "reviews": self.reviews,
            "days": [day.to_json() for day in self.days],
            "integrity": None if self.integrity is None else self.integrity.to_json(),
        }


REPORT_PATHS = (
    "$.recorded_at",
    "$.payload.schema",
    "$.payload.validation.coverage",
    "$.payload.answer.quotes",
    "$.payload.evidence",
    "$.payload.request.timings",
    "$.payload.result",
    "$.payload.verdict",
)
"""What the report takes from a record, and nothing else. Each record is still read whole:
its hash and its link to the next record are checked before any of it is counted."""


def build_report(
    records: Iterable[LoggedRecord],
    *,
    now: datetime,
    since: timedelta | None,
    freshness: timedelta = DEFAULT_FRESHNESS,
) -> Report:
    """The report of the records logged at or after ``now - since`` (all when None)."""
    keys = [json_path_keys(path) for path in REPORT_PATHS]
    fields = ((record.sequence, [value_at(_entry(record), k) for k in keys]) for record in records)
    return _report(fields, now=now, since=since, freshness=freshness)


def report_of_log(
    log: AuditStore,
    *,
    now: datetime,
    since: timedelta | None,
    freshness: timedelta = DEFAULT_FRESHNESS,
) -> Report:
    """`build_report` over every good record of ``log``, each checked as it is read
    (`citeproof.audit._reading`): a damaged record, or one whose payload the report cannot
    read, is skipped and named in the report's ``integrity``, and so is a stored source text
    changed since it was written or missing (each read and re-hashed once). Memory stays
    bounded by the number of answers' timings and of texts, not by the size of the log."""
    check = ReadCheck()
    keys = [json_path_keys(path) for path in REPORT_PATHS]
    rows = (
        (record.sequence, [value_at(fields, k) for k in keys])
        for record, fields in checked_records(log, check)
    )
    report = _report(rows, now=now, since=since, freshness=freshness, check=check)
    check_stored_texts(log, check)
    return replace(report, integrity=check)


def _entry(record: LoggedRecord) -> dict[str, Any]:
    return {"recorded_at": record.recorded_at, "payload": record.payload}


def _report(
    rows: Iterable[tuple[int, list[Any]]],
    *,
    now: datetime,
    since: timedelta | None,
    freshness: timedelta,
    check: ReadCheck | None = None,
) -> Report:
    """The report of ``rows``; with ``check``, a record whose values the report cannot read
    is added to it and skipped, else it raises `InputError` naming the record."""
    start = now - since if since is not None else None
    tally = _Tally(freshness)
    for sequence, values in rows:
        where = f"audit record {sequence}"
        try:
            if not isinstance(values[0], str):
                raise InputError("malformed record: no recorded_at", where=where)
            when = parse_time(values[0], where=where)
            if start is not None and when < start:
                continue
            tally.add(values, when, where)
        except InputError as error:
            if check is None:
                raise
            check.bad.append(BadRecord(sequence, "unreadable", error.detail))
    return tally.report(now, since)


class _Tally:
    def __init__(self, freshness: timedelta) -> None:
        self.freshness = freshness
        self.records = 0
        self.answers = 0
        self.claims = self.with_evidence = self.gaps = 0
        self.statuses: Counter[str] = Counter()
        self.corrected_quotes = 0
        self.corrections: Counter[str] = Counter()
        self.evidence = self.stale = self.answers_with_stale = 0
        # Compact arrays of doubles: a million answers' timings stay tens of megabytes.
        self.timings: dict[str, array[float]] = defaultdict(lambda: array("d"))
        self.latest_revalidation: dict[int, str] = {}
        self.reviews: Counter[str] = Counter()
        self.days: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
        self.superseded_since: set[int] = set()
        self.missing_since: set[int] = set()

    def add(self, values: Sequence[Any], when: datetime, where: str) -> None:
        """One record's `REPORT_PATHS` values, logged at ``when``."""
        self.records += 1
        _, schema, coverage, quotes, evidence, timings, result, verdict = values
        try:
            if schema in ANSWER_SCHEMAS:
                self._answer(coverage, quotes, evidence, timings, when, where)
            elif schema == REVALIDATION_SCHEMA:
                sequence = int(result["sequence"])
                self.latest_revalidation[sequence] = str(result["outcome"])
                states = {s["state"] for s in result["sources"]}
                for state, answers in (
                    ("superseded", self.superseded_since),
                    ("missing", self.missing_since),
                ):
                    if state in states:
                        answers.add(sequence)
                    else:
                        answers.discard(sequence)
            elif schema == REVIEW_SCHEMA:
                if verdict is None:
                    raise KeyError("verdict")
                self.reviews[str(verdict)] += 1
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InputError(f"malformed record: {error!r}", where=where) from None

    def _answer(
        self,
        coverage: Mapping[str, Any],
        quotes: Sequence[Mapping[str, Any]],
        evidence: Mapping[str, Any],
        timings: object,
        when: datetime,
        where: str,
    ) -> None:
        self.answers += 1
        claims, covered = int(coverage["claims"]), int(coverage["with_evidence"])
        self.claims += claims
        self.with_evidence += covered
        self.gaps += len(coverage["gaps"])
        for quote in quotes:
            self.statuses[str(quote["status"])] += 1
            if quote["corrections"]:
                self.corrected_quotes += 1
            for correction in quote["corrections"]:
                self.corrections[str(correction["kind"])] += 1
        items = evidence.get("evidence", [])
        stale = sum(1 for item in items if self._is_stale(item.get("retrieved_at"), when, where))
        self.evidence += len(items)
        self.stale += stale
        self.answers_with_stale += stale > 0
        if isinstance(timings, Mapping) and timings:
            for stage, seconds in timings.items():
                self.timings[str(stage)].append(float(seconds))
            total = sum(float(s) for s in timings.values())
            before = sum(float(s) for k, s in timings.items() if k not in EVIDENCE_STAGES)
            self.timings["total"].append(total)
            self.timings["total_without_evidence"].append(before)
        day = self.days[when.date().isoformat()]
        for position, value in enumerate((1, claims, covered, len(items), stale)):
            day[position] += value

    def _is_stale(self, retrieved_at: object, when: datetime, where: str) -> bool:
        if not isinstance(retrieved_at, str):
            return False  # no retrieval time: its age is unknown, not stale
        return when - parse_time(retrieved_at, where=where) > self.freshness

    def report(self, now: datetime, since: timedelta | None) -> Report:
        latency: dict[str, dict[str, float | int]] = {}
        for stage, values in self.timings.items():
            ordered = sorted(values)  # once per stage, not once per percentile
            figures: dict[str, float | int] = {"count": len(values)}
            figures.update({f"p{p}": _nearest_rank(ordered, p) for p in PERCENTILES})
            latency[stage] = figures
        revalidated = Counter(self.latest_revalidation.values())
        return Report(
            generated_at=now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            since=_since_text(since),
            freshness_days=self.freshness / timedelta(days=1),
            records=self.records,
            answers=self.answers,
            claims=self.claims,
            with_evidence=self.with_evidence,
            gaps=self.gaps,
            statuses={status: self.statuses[status] for status in _STATUSES},
            corrected_quotes=self.corrected_quotes,
            corrections=dict(sorted(self.corrections.items())),
            evidence=self.evidence,
            stale=self.stale,
            answers_with_stale=self.answers_with_stale,
            superseded_since=len(self.superseded_since),
            missing_since=len(self.missing_since),
            latency=dict(sorted(latency.items(), key=lambda item: _stage_order(item[0]))),
            revalidation={
                k: revalidated[k] for k in ("holds", "changed", "superseded", "source_missing")
            },
            reviews={k: self.reviews[k] for k in ("ok", "wrong")},
            days=tuple(Day(date, *figures) for date, figures in sorted(self.days.items())),
        )


_ORDER = ("retrieve", "eligibility", "prompt", "generate", "verify", "evidence", "validate")


def _stage_order(stage: str) -> tuple[int, str]:
    if stage in _ORDER:
        return (_ORDER.index(stage), stage)
    return (len(_ORDER) + (stage.startswith("total")) * 10, stage)


def _since_text(since: timedelta | None) -> str | None:
    if since is None:
        return None
    days = since / timedelta(days=1)
    return f"{days:g}d"
