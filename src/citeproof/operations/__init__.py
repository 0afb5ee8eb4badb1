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
