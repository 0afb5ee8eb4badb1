"""Audit sampling: a reproducible random sample of logged answers for manual review,
and a reviewer's verdict recorded back into the log.

Membership is decided per record, not by shuffling the log: a record is in the sample when
SHA-256 of the seed, its sequence and its record hash, read as a number in [0, 1), is below
the rate. The same seed and rate always pick the same records, a record's membership never
changes as the log grows, and anyone holding the log can check the sample was not chosen by
hand.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from citeproof.errors import InputError
from citeproof.operations._logged import REVIEW_SCHEMA, LoggedRecord

Verdict = Literal["ok", "wrong"]
VERDICTS: tuple[Verdict, ...] = ("ok", "wrong")
CSV_COLUMNS = (
    "sequence",
    "request_id",
    "recorded_at",
    "question",
    "quotes",
    "not_verified",
    "coverage",
    "page",
    "verdict",
    "note",
)


def sample_key(seed: str, record: LoggedRecord) -> float:
    """The record's draw in [0, 1) for this seed."""
    digest = hashlib.sha256(f"{seed}\0{record.sequence}\0{record.record_hash}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def draw_sample(records: Iterable[LoggedRecord], *, rate: float, seed: str) -> list[LoggedRecord]:
    """The answer records whose draw is below ``rate`` (0 < rate <= 1), in log order."""
    if not 0.0 < rate <= 1.0:
        raise InputError("must be in (0, 1]", field="rate")
    return [r for r in records if r.is_answer and sample_key(seed, r) < rate]


@dataclass(frozen=True, slots=True)
class SampleRow:
    """One sampled answer as a line of the review sheet."""

    record: LoggedRecord
    page: str

    def to_csv(self) -> list[str]:
        payload = self.record.payload
        quotes = payload["answer"]["quotes"]
        coverage = payload["validation"]["coverage"]
        question = payload.get("request", {}).get("question") or ""
        return [
            str(self.record.sequence),
            self.record.request_id,
            self.record.recorded_at,
            str(question),
            str(len(quotes)),
            str(sum(q["status"] != "verified" for q in quotes)),
            f"{coverage['with_evidence']}/{coverage['claims']}",
            self.page,
            "",
            "",
        ]


def sample_csv(rows: Iterable[SampleRow]) -> str:
    """The review sheet: one row per sampled answer, with empty verdict and note columns."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow([_cell(value) for value in row.to_csv()])
    return buffer.getvalue()


def _cell(value: str) -> str:
    # A cell starting with = + - @ is a formula in spreadsheet programs: logged text is data.
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def review_payload(
    answer: LoggedRecord, *, verdict: str, note: str, reviewer: str | None
) -> dict[str, Any]:
    """The record of a reviewer's verdict on a logged answer. Raises `InputError` when the
    record is not an answer or the verdict is not one of `VERDICTS`."""
    if not answer.is_answer:
        raise InputError(
            f"record {answer.sequence} ({answer.request_id}) is not a logged answer",
            field="request_id",
        )
    if verdict not in VERDICTS:
        raise InputError(f"must be one of {', '.join(VERDICTS)}", field="verdict")
    return {
        "schema": REVIEW_SCHEMA,
        "answer": {
            "sequence": answer.sequence,
            "request_id": answer.request_id,
            "record_hash": answer.record_hash,
        },
        "verdict": verdict,
        "note": note,
        "reviewer": reviewer,
    }
