"""``citeproof verify --from VENDOR RESPONSE.json``: a vendor response, verified like any answer.

The command's own options (sources, policy, format, audit) work as they do for an answer
file; this module reads the response and request files, converts them, tells on standard
error what the vendor's citations hold, and gives the audit record the vendor's citations.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from citeproof.adapters import MAX_JSON_CHARS, Converted, citation_report
from citeproof.adapters.convert import convert
from citeproof.errors import InputError
from citeproof.json_input import load_json
from citeproof.model import Policy, Source, VerifiedAnswer
from citeproof.render import plural, visible
from citeproof.sources import read_bounded


def verify_vendor_response(
    vendor: str,
    response_file: Path,
    request_file: Path | None,
    sources: Sequence[Source],
    policy: Policy,
) -> tuple[VerifiedAnswer, dict[str, Any]]:
    """Verify the response in ``response_file`` ('-': standard input); return the verified
    answer and the request record for the audit log. Raises `InputError` for unreadable files,
    malformed JSON, or a response whose cited sources were neither carried nor given."""
    response = _read_json(response_file, f"the {vendor} response")
    request = _read_json(request_file, f"the {vendor} request") if request_file else None
    converted = convert(vendor, response, request, sources)
    _report(converted)
    verified = converted.verify(policy=policy)
    record: dict[str, Any] = {
        "command": "verify",
        "from": vendor,
        "answer_file": str(response_file),
        "vendor_citations": citation_report(converted),
    }
    if request_file is not None:
        record["request_file"] = str(request_file)
    return verified, record


def _read_json(path: Path, what: str) -> object:
    try:
        if str(path) == "-":
            raw = read_bounded(sys.stdin.buffer, MAX_JSON_CHARS)
        else:
            with path.open("rb") as handle:
                raw = read_bounded(handle, MAX_JSON_CHARS)
    except OSError as error:
        raise InputError(f"cannot read {what}: {error.strerror}", where=str(path)) from None
    if raw is None:
        raise InputError(f"{what} is larger than {MAX_JSON_CHARS:,} bytes", where=str(path))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"invalid UTF-8 at byte {error.start}", where=str(path)) from None
    return load_json(text, where=str(path), what=what)


def _report(converted: Converted) -> None:
    """One line for the vendor's citations, one per location found wrong, one per note."""
    tally = ", ".join(
        f"{n} {status.replace('_', ' ')}" for status, n in converted.summary().items()
    )
    count = plural(len(converted.citations), "citation")
    click.echo(f"{converted.vendor}: {count} ({tally or 'none'})", err=True)
    for citation in converted.citations:
        check = citation.check
        if check is not None and check.status in ("moved", "not_verbatim"):
            line = f"  {citation.kind} -> {citation.source_id}: {check.note}"
            click.echo(visible(line, one_line=True), err=True)
    for note in converted.notes:
        click.echo(visible(f"  note: {note}", one_line=True), err=True)
