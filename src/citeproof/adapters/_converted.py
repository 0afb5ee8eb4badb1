"""What an adapter gives back: the vendor's answer in citeproof's own terms.

The answer text carries a ``<cite:ID#pN>`` marker after every span the vendor cited, so the
sentence holding it becomes a cited claim; where the vendor states the cited text (Anthropic's
``cited_text``), it is written as an inline quote next to the marker, so its verdict is given,
shown and audited like any quote's. The vendor's own facts about each citation (its type, the
span in the vendor's text in all three offset units, its confidence, and what citeproof found
at the location the vendor stated) are kept beside the answer in ``citations``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from citeproof.adapters._offsets import TextSpan
from citeproof.errors import SourceError
from citeproof.model import Policy, Source, Span, VerifiedAnswer
from citeproof.verifier import verify

Vendor = Literal["anthropic", "openai", "gemini", "cohere", "mistral", "perplexity"]
VENDORS: tuple[Vendor, ...] = ("anthropic", "openai", "gemini", "cohere", "mistral", "perplexity")

CheckStatus = Literal["verbatim", "moved", "not_verbatim", "not_checked"]


@dataclass(frozen=True, slots=True)
class LocationCheck:
    """The vendor's cited text compared with the source at the location the vendor stated.

    ``status``: ``"verbatim"`` (the text is there, word for word), ``"moved"`` (it is in the
    source word for word, elsewhere: ``found`` says where), ``"not_verbatim"`` (it is not in
    the source word for word; ``found`` is the closest passage, if any), ``"not_checked"`` (the
    source's text is not available). ``stated`` is the vendor's location in words
    ("characters 0-20", "pages 5-6", "content blocks 0-1"); ``found`` a ``str`` span of the
    source text; ``note`` one sentence for a person.
    """

    status: CheckStatus
    stated: str
    found: Span | None
    note: str


@dataclass(frozen=True, slots=True)
class VendorCitation:
    """One citation as the vendor gave it, and where it went in the converted answer.

    ``kind`` is the vendor's own name for it (``char_location``, ``file_citation``,
    ``grounding_support``...); ``source_id`` the id written in the marker; ``cited_words``
    the words of the vendor's output text it is attached to; ``marker_span`` the marker in
    `Converted.answer`; ``cited_text`` the source text the vendor says it cites, if it says.
    """

    kind: str
    source_id: str
    cited_words: TextSpan
    marker_span: Span
    cited_text: str | None = None
    confidence: float | None = None
    check: LocationCheck | None = None


@dataclass(frozen=True, slots=True)
class Converted:
    """A vendor response converted: verify ``answer`` against ``sources`` as any answer.

    ``output`` is the vendor's text as it came (no markers); ``notes`` say what could not be
    taken over (a document the response does not carry, a citation with no source text).
    """

    vendor: Vendor
    answer: str
    sources: tuple[Source, ...]
    citations: tuple[VendorCitation, ...]
    output: str
    notes: tuple[str, ...] = ()

    def verify(
        self,
        *,
        policy: Policy | None = None,
        answer_id: str | None = None,
        now: datetime | None = None,
    ) -> VerifiedAnswer:
        """`citeproof.verify` of the converted answer over its sources.

        Raises `SourceError` when the response carries no source text and none was given.
        """
        if not self.sources:
            raise SourceError(
                f"the {self.vendor} response carries no source text: give the cited sources "
                "(--source ID=FILE, or sources=[...])",
                field="sources",
            )
        return verify(self.answer, self.sources, policy=policy, answer_id=answer_id, now=now)

    def summary(self) -> dict[str, int]:
        """Number of vendor citations per check status (``unchecked``: nothing to check)."""
        tally: dict[str, int] = {}
        for citation in self.citations:
            key = citation.check.status if citation.check else "unchecked"
            tally[key] = tally.get(key, 0) + 1
        return tally


def citation_report(converted: Converted) -> list[dict[str, object]]:
    """The vendor citations as plain JSON values (for the audit record and the CLI)."""
    report: list[dict[str, object]] = []
    for citation in converted.citations:
        entry: dict[str, object] = {
            "kind": citation.kind,
            "source": citation.source_id,
            "cited_words": {
                "code_points": list(citation.cited_words.code_points),
                "utf16": list(citation.cited_words.utf16),
                "utf8": list(citation.cited_words.utf8),
            },
        }
        if citation.cited_text is not None:
            entry["cited_text"] = citation.cited_text
        if citation.confidence is not None:
            entry["confidence"] = citation.confidence
        if citation.check is not None:
            entry["check"] = {
                "status": citation.check.status,
                "stated": citation.check.stated,
                "found": list(citation.check.found) if citation.check.found else None,
                "note": citation.check.note,
            }
        report.append(entry)
    return report


def sources_given(sources: Sequence[Source]) -> tuple[Source, ...]:
    """The caller's sources, checked to be `Source` values."""
    checked: list[Source] = []
    for number, source in enumerate(sources):
        if not isinstance(source, Source):
            raise SourceError(
                f"expected a citeproof.Source, got {type(source).__name__}",
                where=f"sources[{number}]",
            )
        checked.append(source)
    return tuple(checked)
