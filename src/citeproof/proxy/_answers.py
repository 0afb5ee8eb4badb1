"""A vendor answer verified: converted by the vendor's adapter, checked against the request's
sources, then annotated, corrected or blocked as ``--on-fail`` says.

- ``annotate`` (the default): the response as it came, plus a ``citeproof`` member (the JSON
  contract's record of the answer, the vendor's citations and what failed) and
  ``X-Citeproof-*`` summary headers;
- ``correct``: the same, with the answer's text replaced by the corrected text (documents
  are corrected, emails kept as written, as everywhere) when the response's text is the
  model's own, without native citations whose offsets a new text would break;
- ``block``: an answer with a contradicted claim, a quote not found or an ineligible citation
  becomes a 422 problem naming each; any other answer is annotated.

A vendor citation whose location cannot be right (an offset out of range) does not cost the
answer: it is left out, unchecked, listed in the record's ``invalid_citations`` and counted a
failure (`citeproof.proxy._citations`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from citeproof.adapters import Converted, citation_report, from_anthropic, from_openai
from citeproof.model import VerifiedAnswer
from citeproof.outcome import answer_to_json
from citeproof.proxy._apis import VendorApi
from citeproof.proxy._citations import InvalidCitation, convert_flagging
from citeproof.proxy._request_sources import ProxiedRequest
from citeproof.verifier import Verifier

OnFail = Literal["annotate", "correct", "block"]
ON_FAIL: tuple[OnFail, ...] = ("annotate", "correct", "block")


@dataclass(frozen=True, slots=True)
class CheckedAnswer:
    """A vendor response verified: the conversion, the verified answer, what failed, and
    the citations left out as invalid."""

    converted: Converted
    verified: VerifiedAnswer
    failures: tuple[str, ...]
    invalid: tuple[InvalidCitation, ...] = ()

    @classmethod
    def of(
        cls,
        converted: Converted,
        verified: VerifiedAnswer,
        invalid: tuple[InvalidCitation, ...] = (),
        *,
        also: tuple[str, ...] = (),
    ) -> CheckedAnswer:
        """``verified`` with its failures: the invalid citations', ``also``, the answer's."""
        found = tuple(c.failure() for c in invalid) + also + failures(verified)
        return cls(converted, verified, found, invalid)

    def record(self, request: ProxiedRequest, request_id: str | None = None) -> dict[str, Any]:
        """The ``citeproof`` member: the contract's record, the vendor's citations, notes
        (what could not be read as a source or converted), the citations left out as invalid
        and the failures, with the audit log's ``request_id`` when the answer was recorded."""
        member = {
            **answer_to_json(self.verified),
            "vendor_citations": citation_report(self.converted),
            "invalid_citations": [citation.to_json() for citation in self.invalid],
            "notes": list(request.notes) + list(self.converted.notes),
            "outcome": "fail" if self.failures else "pass",
            "failures": list(self.failures),
        }
        if request_id is not None:
            member["request_id"] = request_id
        return member


def convert(
    api: VendorApi, response: object, request: ProxiedRequest
) -> tuple[Converted, tuple[InvalidCitation, ...]]:
    """The vendor's adapter over ``response``, with the request's sources as the caller's;
    the citations it refused, left out."""

    def adapter(body: object) -> Converted:
        if api.vendor == "anthropic":
            return from_anthropic(body, request.forward, request.sources)
        return from_openai(body, request.sources)

    return convert_flagging(adapter, response)


def check(
    converted: Converted,
    response: Mapping[str, Any],
    verifier: Verifier,
    invalid: tuple[InvalidCitation, ...] = (),
) -> CheckedAnswer:
    """Verify the ``converted`` ``response`` over ``verifier`` (the request's sources only: a
    citation to any other is ineligible); the answer's id is the vendor's."""
    answer_id = response.get("id")
    verified = verifier.verify(
        converted.answer, answer_id=answer_id if isinstance(answer_id, str) and answer_id else None
    )
    return CheckedAnswer.of(converted, verified, invalid)


def failures(verified: VerifiedAnswer) -> tuple[str, ...]:
    """What blocks an answer: contradicted claims, quotes not found, ineligible citations,
    each named for a person."""
    found: list[str] = []
    for claim in verified.claims:
        if claim.verdict == "contradicted":
            found.append(f"claim {claim.id} is contradicted by its source: {claim.text!r}")
        for cited in claim.citations:
            if cited.status == "ineligible":
                found.append(
                    f"claim {claim.id} cites {cited.source!r}, which is not among the "
                    f"request's sources ({cited.marker})"
                )
    for quote in verified.quotes:
        if quote.status == "not_found":
            found.append(f"quote {quote.id} is not in its source: {quote.text!r}")
        elif quote.status == "ineligible":
            found.append(f"quote {quote.id} cites a source not among the request's sources")
    return tuple(dict.fromkeys(found))


def summary_headers(checked: CheckedAnswer) -> dict[str, str]:
    """``X-Citeproof-*``: the quote and claim counts, the outcome and the answer id."""
    verified = checked.verified
    return {
        "X-Citeproof-Outcome": "fail" if checked.failures else "pass",
        "X-Citeproof-Quotes": _tally(verified.counts()),
        "X-Citeproof-Claims": _tally(verified.claim_counts()),
        "X-Citeproof-Answer-Id": _header_text(verified.id),
    }


def corrected(
    api: VendorApi, response: Mapping[str, Any], checked: CheckedAnswer
) -> dict[str, Any]:
    """``response`` with its text replaced by the corrected text, where that text is the
    model's own (no native citations); else ``response`` unchanged."""
    body = copy.deepcopy(dict(response))
    converted, verified = checked.converted, checked.verified
    if converted.citations or converted.answer != converted.output:
        return body
    if verified.text == verified.original:
        return body
    if api.name == "chat.completions":
        message = body["choices"][0]["message"]
        message["content"] = verified.text
    elif api.name == "responses":
        parts = [
            part
            for item in body.get("output", [])
            if item.get("type") == "message"
            for part in item.get("content", [])
            if part.get("type") == "output_text"
        ]
        if len(parts) == 1:
            parts[0]["text"] = verified.text
    else:
        blocks = [block for block in body.get("content", []) if block.get("type") == "text"]
        if blocks:
            blocks[0]["text"] = verified.text
            kept = [b for b in body["content"] if b.get("type") != "text" or b is blocks[0]]
            body["content"] = kept
    return body


def _tally(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{name}={count}" for name, count in counts.items())


def _header_text(value: str) -> str:
    """A header value: printable ASCII only (ids are the vendor's, or citeproof's hash)."""
    return "".join(c if " " <= c <= "~" else "?" for c in value)[:200]
