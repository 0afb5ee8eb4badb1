"""``verify --fail-on``: what fails an answer for CI, an answer with nothing to check included.

The quotes and claims that fail come from `citeproof.operations.failed`; an answer in which
nothing could be checked (no quote to compare, no claim judged against a passage: it cites
nothing, or only sources not provided) fails ``any`` and ``review`` as well, since a gate
that lets it through says nothing about it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from citeproof.model import VerifiedAnswer
    from citeproof.operations import FailOn

NOTHING_CHECKED = "nothing checked (no quote, and no claim judged against a source)"
"""The failure an answer with nothing to check is named by, after ``failed (--fail-on any):``."""

fail_on_option = click.option(
    "--fail-on",
    "fail_on",
    type=click.Choice(["quote", "claim", "any", "review"]),
    default=None,
    help="Exit with status 1 when a quote failed (mismatch, not_found, ineligible, or "
    "corrected with its meaning changed), a claim failed (it cites a source not provided, a "
    "flagged source, carries a failed quote, or its sources do not back it: unsupported, "
    "contradicted), or either (any); review: either, and a claim the strict judge could not "
    "confirm (unconfirmed). any and review also fail an answer in which nothing could be "
    "checked: no quote, and no claim with a citation to a source given. For CI; the output "
    "is written all the same.",
)


def failures(answer: VerifiedAnswer, fail_on: FailOn) -> list[str]:
    """What fails ``answer`` under ``--fail-on``: ``q2 not_found``, ``claim c3``..., or
    `NOTHING_CHECKED` alone."""
    from citeproof.operations import failed

    found = failed(answer, fail_on)
    unchecked = not answer.quotes and not any(claim.support for claim in answer.claims)
    if not found and unchecked and fail_on in ("any", "review"):
        return [NOTHING_CHECKED]
    return found


def batch_line_unchecked(output: str, fail_on: FailOn | None) -> bool:
    """A batch line's JSON record in which nothing could be checked, under ``any`` or
    ``review`` (`failures` for one answer; a batch's lines are verified elsewhere)."""
    if fail_on not in ("any", "review"):
        return False
    record: Any = json.loads(output)
    if not isinstance(record, dict) or "quotes" not in record:
        return False  # an error record: the line was rejected, and counted as such
    claims = record.get("claims") or []
    return not record["quotes"] and not any(claim.get("support") for claim in claims)
