"""Request bodies for the service tests: batch lines of the JSON contract with real text."""

from __future__ import annotations

import json
from typing import Any

from citeproof import Source
from tests.lending import SOURCES

LENDING_ANSWER = """\
The Hartley application must be referred. The policy says that "Applications with a \
loan-to-value ratio above 80% must be referred to a senior underwriter before any offer is \
made" [S1]. Dan wrote that "the valuation came back at £412,000, so the loan-to-value is now \
83%" [S2]. The memo records that "Approval of the single year of accounts was given by M. Osei, \
senior underwriter" [S3]. It also says "the applicant was declined in 2024" [S3]."""
"""Four quotes: one misquoted (corrected), two verbatim, one not in the memo at all."""


def source_json(source: Source) -> dict[str, Any]:
    return {
        "id": source.id,
        "kind": source.kind,
        "text": source.text,
        "title": source.title,
        "doc_id": source.doc_id,
        "version": source.version,
        "url": source.url,
    }


def lending_line(line_id: str = "hartley-1", answer: str = LENDING_ANSWER) -> dict[str, Any]:
    return {"id": line_id, "answer": answer, "sources": [source_json(s) for s in SOURCES]}


def body(line: dict[str, Any]) -> bytes:
    return json.dumps(line, ensure_ascii=False).encode("utf-8")
