"""For teams testing their LLM app: `assert_cited` fails a test when an answer's quotes or
claims do not hold up against its sources, and says which ones and why.

Installed as a pytest plugin (entry point ``pytest11``), it is also the fixture
``assert_cited``; importing it works without pytest.

For teams extending citeproof: the conformance suites a backend of their own proves itself
with, `citeproof.testing.AuditStoreConformance` and
`citeproof.testing.ProviderConformance` (they need pytest; see docs/extending.md).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator, Sequence

from citeproof.adapters import Converted
from citeproof.lazy import on_first_use
from citeproof.model import (
    STATUSES,
    CitedSource,
    Policy,
    Source,
    VerifiedAnswer,
    VerifiedClaim,
    VerifiedQuote,
)
from citeproof.verifier import verify

if typing.TYPE_CHECKING:
    from citeproof.testing._audit_store import AuditStoreConformance
    from citeproof.testing._providers import ProviderConformance, check_provider


def assert_cited(
    answer: str | Converted | VerifiedAnswer,
    sources: Sequence[Source] = (),
    *,
    max_corrected: int | None = None,
    max_mismatch: int = 0,
    max_not_found: int = 0,
    max_ineligible: int = 0,
    max_meaning_changed: int = 0,
    max_contradicted: int = 0,
    max_unsupported: int | None = None,
    max_partial: int | None = None,
    max_unconfirmed: int | None = None,
    min_quotes: int = 0,
    min_cited_claims: float = 0.0,
    policy: Policy | None = None,
) -> VerifiedAnswer:
    """Verify ``answer`` (text over ``sources``, a vendor response converted by
    `citeproof.adapters`, or an answer already verified) and raise `AssertionError` when:

    - more quotes have a status than its ``max_<status>`` allows (``corrected``: no limit
      unless given; ``mismatch``, ``not_found`` and ``ineligible``: none allowed by default);
      a claim citing a source that was not provided, without a quote, counts against
      ``max_ineligible`` too, as ``citeproof verify --fail-on claim`` fails it;
    - more quotes changed the meaning than ``max_meaning_changed`` (none by default: a
      correction that turns the source's 80% into 90% is a failure, however the quote was
      corrected);
    - more claims have a verdict than its ``max_<verdict>`` allows (``contradicted``: none by
      default; ``unsupported``, ``partial`` and ``unconfirmed``, the strict judge's review
      band: no limit unless given);
    - fewer than ``min_quotes`` quotes were found;
    - a smaller share of the claims than ``min_cited_claims`` (0 to 1) cites a provided source.

    The message lists every quote and claim at fault with what was written, the source it
    cites and what citeproof found. Returns the verified answer for further asserts.
    """
    verified = _verified(answer, sources, policy)
    limits = {
        "corrected": max_corrected,
        "mismatch": max_mismatch,
        "not_found": max_not_found,
        "ineligible": max_ineligible,
    }
    counts = verified.counts()
    problems: list[str] = []
    for status, limit in limits.items():
        if limit is not None and counts[status] > limit:
            problems.append(f"{counts[status]} {status} quotes (at most {limit} allowed):")
            problems.extend(_quote_lines(verified, status))
    not_provided = _not_provided(verified.claims)
    if counts["ineligible"] + len(not_provided) > max_ineligible and not_provided:
        problems.append(
            f"{len(not_provided)} claims cite a source that was not provided, with no quote "
            f"({counts['ineligible']} such quotes; at most {max_ineligible} allowed in all):"
        )
        problems.extend(
            f"  {claim.id}: {_short(claim.text)!r} cites {citation.source}, not provided"
            for claim, citation in not_provided
        )
    changed = [q for q in verified.quotes if q.meaning_changed]
    if len(changed) > max_meaning_changed:
        problems.append(
            f"{len(changed)} quotes changed the meaning (at most {max_meaning_changed} allowed):"
        )
        problems.extend(_changed_lines(changed))
    claim_limits = {
        "contradicted": max_contradicted,
        "unsupported": max_unsupported,
        "partial": max_partial,
        "unconfirmed": max_unconfirmed,
    }
    for verdict, limit in claim_limits.items():
        judged = [c for c in verified.claims if c.verdict == verdict]
        if limit is not None and len(judged) > limit:
            problems.append(f"{len(judged)} {verdict} claims (at most {limit} allowed):")
            problems.extend(_claim_lines(judged))
    if len(verified.quotes) < min_quotes:
        problems.append(f"{len(verified.quotes)} quotes found, at least {min_quotes} expected")
    if verified.claims and min_cited_claims > 0:
        uncited = [c for c in verified.claims if not _cites_a_provided_source(c.citations)]
        share = 1 - len(uncited) / len(verified.claims)
        if share < min_cited_claims:
            problems.append(
                f"{share:.0%} of claims cite a provided source ({min_cited_claims:.0%} expected); "
                "these do not:"
            )
            problems.extend(f"  {c.id}: {_short(c.text)}" for c in uncited)
    if problems:
        tally = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
        header = f"answer {verified.id}: {len(verified.quotes)} quotes ({tally or 'none'})"
        raise AssertionError("\n".join([header, *problems]))
    return verified


def _verified(
    answer: str | Converted | VerifiedAnswer, sources: Sequence[Source], policy: Policy | None
) -> VerifiedAnswer:
    if isinstance(answer, VerifiedAnswer):
        return answer
    if isinstance(answer, Converted):
        return answer.verify(policy=policy)
    return verify(answer, sources, policy=policy)


def _not_provided(claims: Sequence[VerifiedClaim]) -> list[tuple[VerifiedClaim, CitedSource]]:
    """Each claim's citations of a source not provided that carry no quote (a quote's own
    citation is counted with the quote)."""
    return [
        (claim, citation)
        for claim in claims
        for citation in claim.citations
        if citation.status == "ineligible" and not citation.quote_ids
    ]


def _cites_a_provided_source(citations: Sequence[CitedSource]) -> bool:
    return any(citation.status in ("ok", "corrected") for citation in citations)


def _quote_lines(verified: VerifiedAnswer, status: str) -> Iterator[str]:
    for quote in verified.quotes:
        if quote.status != status:
            continue
        cited = quote.cited_source or "no source"
        yield f"  {quote.id} {status}: {_short(quote.text)!r} citing {cited}: {quote.note}"


def _changed_lines(quotes: Sequence[VerifiedQuote]) -> Iterator[str]:
    for quote in quotes:
        said = "; ".join(d.description for d in quote.differences if d.changes_meaning)
        cited = quote.cited_source or "no source"
        yield f"  {quote.id} {quote.status}: {_short(quote.text)!r} citing {cited}: {said}"


def _claim_lines(claims: Sequence[VerifiedClaim]) -> Iterator[str]:
    for claim in claims:
        reasons = "; ".join(f"{s.source}: {s.reason}" for s in claim.support if s.reason)
        yield f"  {claim.id} {claim.verdict}: {_short(claim.text)!r}: {reasons or 'no source'}"


def _short(text: str, most: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= most else flat[: most - 1] + "…"


try:  # the pytest plugin: only when pytest is there
    import pytest

    @pytest.fixture(name="assert_cited")
    def assert_cited_fixture() -> Callable[..., VerifiedAnswer]:
        """`assert_cited` as a fixture."""
        return assert_cited

except ImportError:  # pragma: no cover - pytest is a test-time dependency
    pass


_WHERE = {
    "AuditStoreConformance": "citeproof.testing._audit_store",
    "ProviderConformance": "citeproof.testing._providers",
    "check_provider": "citeproof.testing._providers",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = ["AuditStoreConformance", "ProviderConformance", "assert_cited", "check_provider"]
