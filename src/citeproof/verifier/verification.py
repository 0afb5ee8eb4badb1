"""`verify`: parse an answer, check every quote against the turn's sources, correct what is
safe to correct, and return the whole record as one value."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime

from citeproof.errors import AnswerError, SourceError
from citeproof.model import Eligibility, Policy, Source, VerifiedAnswer
from citeproof.verifier.catalog import SourceCatalog
from citeproof.verifier.correct import apply_verdicts
from citeproof.verifier.judgement import judge_quote
from citeproof.verifier.match import MatchSettings, SourceIndex, prepare
from citeproof.verifier.parse import parse_answer
from citeproof.verifier.support.claims import attach_support
from citeproof.verifier.support.judge import SupportJudge

MAX_ANSWER_CHARS = 1_000_000
"""Longest answer accepted, in characters. LLM answers are a few KB; a megabyte is not an answer."""


def verify(
    answer: str,
    sources: Sequence[Source],
    *,
    policy: Policy | None = None,
    answer_id: str | None = None,
    now: datetime | None = None,
    eligibility: Eligibility | None = None,
) -> VerifiedAnswer:
    """Verify every quote of ``answer`` against ``sources``, the sources of this turn.

    Returns the corrected answer with one verdict per quote occurrence (003.4). Citations to
    ids not among ``sources`` are ineligible (012.2). ``answer_id`` defaults to a stable hash
    of the answer and the sources; ``now`` stamps the corrections (default: the current UTC
    time). Inside a turn, pass the turn's ``eligibility``: only its eligible sources can be
    cited, and a citation to an excluded one says why (012.2, 012.3). Raises `AnswerError` or
    `SourceError` for bad input.
    """
    policy = policy or Policy()
    _check_answer(answer)
    if eligibility is not None:
        sources = _eligible_sources(sources, eligibility)
    # Inside a turn, no eligible source is a decision, not a mistake: every citation is refused.
    catalog = SourceCatalog(
        sources, eligibility.excluded if eligibility else (), allow_empty=eligibility is not None
    )
    parsed = parse_answer(answer)
    settings = MatchSettings(
        min_similarity=policy.min_similarity, max_ellipsis_gap=policy.max_ellipsis_gap
    )
    indexes: dict[str, SourceIndex] = {}

    def index_for(source: Source) -> SourceIndex:
        if source.id not in indexes:
            indexes[source.id] = prepare(source)
        return indexes[source.id]

    stamp = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    judgements = [
        judge_quote(
            quote,
            catalog,
            index_for,
            settings,
            excerpt_context=policy.excerpt_context,
            now=stamp,
        )
        for quote in parsed.quotes
    ]
    text, quotes, claims = apply_verdicts(parsed, judgements, catalog, policy)
    # Claim support (issue 10): every cited claim judged against each source it cites.
    claims = attach_support(text, claims, quotes, {s.id: s for s in catalog}, SupportJudge(policy))
    return VerifiedAnswer(
        id=answer_id or default_answer_id(answer, sources),
        text=text,
        original=answer,
        claims=claims,
        quotes=quotes,
        sources=tuple(catalog),
        policy=policy,
        eligibility=eligibility,
    )


def _eligible_sources(sources: Sequence[Source], eligibility: Eligibility) -> list[Source]:
    by_id = {s.id: s for s in sources}
    missing = [sid for sid in eligibility.eligible if sid not in by_id]
    if missing:
        raise SourceError(
            f"eligible sources {', '.join(missing)} were not given to verify", field="sources"
        )
    return [by_id[sid] for sid in eligibility.eligible]


def default_answer_id(answer: str, sources: Sequence[Source]) -> str:
    """A stable id: the same answer over the same sources always gets the same id."""
    digest = hashlib.sha256()
    digest.update(answer.encode("utf-8", "surrogatepass"))
    for source in sources:
        fingerprint = [source.id, source.kind, source.version or "", source.text]
        digest.update(json.dumps(fingerprint, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    return "ans_" + digest.hexdigest()[:16]


def _check_answer(answer: object) -> None:
    if isinstance(answer, bytes):
        raise AnswerError("the answer is bytes; decode it to str first", field="answer")
    if not isinstance(answer, str):
        raise AnswerError(f"expected text, got {type(answer).__name__}", field="answer")
    if len(answer) > MAX_ANSWER_CHARS:
        raise AnswerError(
            f"the answer is {len(answer):,} characters; the limit is {MAX_ANSWER_CHARS:,}",
            field="answer",
        )
