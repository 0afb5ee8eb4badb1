"""``verify --batch`` on an engine: the lines of a JSON-lines file verified in chunks (003.4).

The parent reads the file and ships *chunks of lines* to an engine (`ordered_map`, the same
one re-validation uses): each chunk carries its lines' numbers and raw bytes, the file name
(for error messages), the verification policy and the read limits, nothing else. A worker
parses and verifies each line and returns, per line, the output record as its JSON text, the
problem that rejected it, the ``--fail-on`` failures and, when the batch is logged, the audit
payload and its request id. The parent writes the outputs and appends the audit records
itself, in input order: workers never open the audit log, so the log and its chain are the
same as a run in one process.

A worker reads no clock (the batch's time is read once by the parent and shipped), no
environment and no database, so a line gives the same output, byte for byte, in this process,
in a local process pool and on a Ray cluster.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import chain, islice
from typing import Any, Literal

from citeproof.errors import InputError
from citeproof.model import Policy, VerifiedAnswer
from citeproof.operations._engines import Engine, ordered_map
from citeproof.outcome import answer_to_json, conclude, read_batch_line
from citeproof.render import json_text
from citeproof.sources import ReadLimits
from citeproof.verifier import Verifier

FailOn = Literal["quote", "claim", "any", "review"]

FAILED_QUOTE = ("mismatch", "not_found", "ineligible")
"""Quote statuses `--fail-on quote` fails on: not in the source as written, or not provided.
A ``corrected`` quote passes (the corrected answer holds the source's words) unless the
correction changed its meaning (F.1)."""

FAILED_CITATION = ("ineligible", "removed", "flagged")
"""Citation statuses that fail a claim: a source not provided, or one kept but flagged."""

FAILED_SUPPORT = ("unsupported", "contradicted")
"""Claim-support verdicts that fail a claim (F.2): its sources do not back it, or say
otherwise. A ``partial`` claim is shown with what is not backed, and passes."""

REVIEW_SUPPORT = ("unconfirmed",)
"""Verdicts `--fail-on review` fails on besides every other failure: claims citeproof could
not confirm (the strict judge's review band)."""

CHUNK_LINES = 16
"""Lines per worker task at most."""
CHUNK_BYTES = 4 * 1024 * 1024
"""Bytes of lines per worker task at most (a chunk holds at least one line, however long)."""


def failed(answer: VerifiedAnswer, fail_on: FailOn) -> list[str]:
    """What fails ``answer`` under ``--fail-on``: ``q2 not_found``, ``claim c3`` ..., in order."""
    failures: list[str] = []
    failed_quotes = {q.id for q in answer.quotes if q.status in FAILED_QUOTE or q.meaning_changed}
    if fail_on in ("quote", "any", "review"):
        failures += [
            f"{q.id} {q.status}" + (" (meaning changed)" if q.meaning_changed else "")
            for q in answer.quotes
            if q.id in failed_quotes
        ]
    if fail_on in ("claim", "any", "review"):
        support = FAILED_SUPPORT + (REVIEW_SUPPORT if fail_on == "review" else ())
        failures += [
            f"claim {c.id}" + (f" ({c.verdict})" if c.verdict in support else "")
            for c in answer.claims
            if any(cited.status in FAILED_CITATION for cited in c.citations)
            or failed_quotes.intersection(c.quote_ids)
            or c.verdict in support
        ]
    return failures


@dataclass(frozen=True, slots=True)
class BatchLine:
    """One non-blank line of the file: its 1-based number, size in bytes, and bytes (None:
    longer than ``max_line_bytes``, never read into memory)."""

    number: int
    size: int
    raw: bytes | None


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """What every line of a batch is verified with; shipped with each chunk."""

    where: str
    """The batch file's name, for error messages (``FILE: line N``)."""
    policy: Policy
    limits: ReadLimits
    now: datetime
    """The batch's clock, read once by the parent: every correction of the batch is stamped
    with it, so a line's output does not depend on when or where a worker ran it."""
    fail_on: FailOn | None = None
    audited: bool = False
    """Build each answer's audit payload (the parent appends it)."""


@dataclass(frozen=True, slots=True)
class BatchChunk:
    """A worker task: consecutive lines and the settings to verify them with."""

    settings: BatchSettings
    lines: tuple[BatchLine, ...]


@dataclass(frozen=True, slots=True)
class LineResult:
    """The outcome of one line, as the parent writes and logs it."""

    number: int
    size: int
    output: str
    """The output record as one line of JSON (no newline)."""
    problem: str | None
    """Why the line was rejected (the message names the file and line), or None."""
    failures: tuple[str, ...]
    """What fails the answer under ``--fail-on`` (empty without it)."""
    audit: tuple[dict[str, Any], str, dict[str, str]] | None
    """The audit payload, its request id and the sources' texts it names (`Outcome.texts`),
    when the batch is audited and the line verified."""


class BatchLineFailed(ValueError):
    """A line could not be verified for a reason other than its input (the message names the
    file and line). A plain `ValueError` with one argument, so it crosses process and Ray
    boundaries."""


def verify_chunk(chunk: BatchChunk) -> list[LineResult]:
    """The result of every line of ``chunk``, in order. A bad line is a result (an error
    record), never an exception; anything else raises `BatchLineFailed` naming the line."""
    results = []
    for line in chunk.lines:
        try:
            results.append(_verify_line(line, chunk.settings))
        except Exception as error:  # a fault, not bad input: named, not swallowed
            raise BatchLineFailed(
                f"{chunk.settings.where}: line {line.number}: cannot verify it: {error!r}"
            ) from None
    return results


def _verify_line(line: BatchLine, settings: BatchSettings) -> LineResult:
    where = f"{settings.where}: line {line.number}"
    line_id: str | None = None
    try:
        if line.raw is None:
            raise InputError(
                f"the line is longer than {settings.limits.max_line_bytes:,} bytes "
                "(setting max_line_bytes)",
                where=where,
            )
        try:
            text = line.raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(
                f"invalid UTF-8 at byte {error.start} of the line", where=where
            ) from None
        line_id, answer, sources, line_policy = read_batch_line(
            text, where=where, limits=settings.limits
        )
        policy = line_policy.to_policy(settings.policy) if line_policy else settings.policy
        # Indexes of sources repeated across lines come from the process's shared cache.
        verifier = Verifier(sources, policy=policy)
        verified = verifier.verify(answer, answer_id=line_id, now=settings.now)
    except InputError as error:
        message = str(error) if error.where else f"{where}: {error}"
        record = {
            "id": line_id if line_id is not None else _own_id(line.raw),
            "line": line.number,
            "error": {"field": error.field, "message": message},
        }
        return LineResult(line.number, line.size, json_text(record), message, (), None)
    audit = None
    if settings.audited:
        request = {"command": "verify --batch", "batch_line": line.number}
        outcome = conclude(verified, request=request)
        audit = (outcome.payload, outcome.request_id, outcome.texts)
    failures = tuple(failed(verified, settings.fail_on)) if settings.fail_on else ()
    output = json_text(answer_to_json(verified))
    return LineResult(line.number, line.size, output, None, failures, audit)


def _own_id(raw: bytes | None) -> str | None:
    """The line's own ``id`` when it is a JSON object with a non-empty string ``id``, whatever
    else is wrong with it, so that an error record can be matched to the line it rejects."""
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    line_id = data.get("id") if isinstance(data, dict) else None
    return line_id if isinstance(line_id, str) and line_id else None


def chunks_of(
    lines: Iterable[BatchLine],
    settings: BatchSettings,
    *,
    max_lines: int = CHUNK_LINES,
    max_bytes: int = CHUNK_BYTES,
) -> Iterator[BatchChunk]:
    """Consecutive lines in chunks of at most ``max_lines`` lines and ``max_bytes`` bytes."""
    pending: list[BatchLine] = []
    size = 0
    for line in lines:
        if pending and (len(pending) >= max_lines or size + line.size > max_bytes):
            yield BatchChunk(settings, tuple(pending))
            pending, size = [], 0
        pending.append(line)
        size += line.size
    if pending:
        yield BatchChunk(settings, tuple(pending))


def verify_lines(
    lines: Iterable[BatchLine],
    settings: BatchSettings,
    *,
    engine: Engine | None = None,
    workers: int | None = None,
    address: str | None = None,
) -> Iterator[LineResult]:
    """The result of every line, in input order, verified on ``engine`` (see `ordered_map`).

    ``engine=None`` keeps a batch of one chunk in this process (no pool to start) and runs a
    longer one on the local process pool. Raises `BatchLineFailed` naming the first line that
    could not be verified for a reason other than its input."""
    chunks = chunks_of(lines, settings)
    if engine is None:
        head = list(islice(chunks, 2))
        chunks = chain(head, chunks)
        if len(head) < 2:
            engine, workers = "local", 1
    for results in ordered_map(
        verify_chunk, chunks, engine=engine or "local", workers=workers, address=address
    ):
        yield from results
