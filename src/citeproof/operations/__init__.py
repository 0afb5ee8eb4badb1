"""Operations: what a team running citeproof in production runs over its audit log.

- `revalidate_log` re-verifies logged answers against the current versions of their sources
  and appends the outcomes to the log as ``citeproof/revalidation/1`` records;
- `build_report` summarises a time window: coverage, statuses, drift, latency, re-validation;
- `draw_sample` / `review_payload` draw a reproducible sample for manual review and record a
  reviewer's verdict;
- `run_golden` / `compare` run a golden question set through a baseline and a candidate
  model and say whether the candidate cites worse.

This package sits above `citeproof.outcome` and `citeproof.render` and below the CLI; it
reads the audit log and the source store and never rewrites either.
"""

from __future__ import annotations

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.operations._batch import (
        BatchLine,
        BatchLineFailed,
        BatchSettings,
        FailOn,
        failed,
        verify_lines,
    )
    from citeproof.operations._engines import ENGINES, Engine
    from citeproof.operations._guardrail import Margins, compare, describe, read_golden, run_golden
    from citeproof.operations._logged import LoggedRecord, logged_records
    from citeproof.operations._report import parse_since, report_of_log
    from citeproof.operations._report_render import render_report_html, render_report_term
    from citeproof.operations._sampling import (
        VERDICTS,
        SampleRow,
        draw_sample,
        review_payload,
        sample_csv,
    )
    from citeproof.operations.revalidate_log import DEFAULT_CHUNK_SIZE


_WHERE = {
    "BatchLine": "citeproof.operations._batch",
    "BatchLineFailed": "citeproof.operations._batch",
    "BatchSettings": "citeproof.operations._batch",
    "DEFAULT_CHUNK_SIZE": "citeproof.operations.revalidate_log",
    "ENGINES": "citeproof.operations._engines",
    "Engine": "citeproof.operations._engines",
    "FailOn": "citeproof.operations._batch",
    "LoggedRecord": "citeproof.operations._logged",
    "Margins": "citeproof.operations._guardrail",
    "SampleRow": "citeproof.operations._sampling",
    "VERDICTS": "citeproof.operations._sampling",
    "compare": "citeproof.operations._guardrail",
    "describe": "citeproof.operations._guardrail",
    "draw_sample": "citeproof.operations._sampling",
    "failed": "citeproof.operations._batch",
    "logged_records": "citeproof.operations._logged",
    "parse_since": "citeproof.operations._report",
    "read_golden": "citeproof.operations._guardrail",
    "render_report_html": "citeproof.operations._report_render",
    "render_report_term": "citeproof.operations._report_render",
    "report_of_log": "citeproof.operations._report",
    "review_payload": "citeproof.operations._sampling",
    "run_golden": "citeproof.operations._guardrail",
    "sample_csv": "citeproof.operations._sampling",
    "verify_lines": "citeproof.operations._batch",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "ENGINES",
    "VERDICTS",
    "BatchLine",
    "BatchLineFailed",
    "BatchSettings",
    "Engine",
    "FailOn",
    "LoggedRecord",
    "Margins",
    "SampleRow",
    "compare",
    "describe",
    "draw_sample",
    "failed",
    "logged_records",
    "parse_since",
    "read_golden",
    "render_report_html",
    "render_report_term",
    "report_of_log",
    "review_payload",
    "run_golden",
    "sample_csv",
    "verify_lines",
]
