"""`verify`: parse an answer, check every quote against the turn's sources, correct what is
safe to correct, and return the whole record as one value."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from citeproof.errors import AnswerError, PolicyError, SourceError
from citeproof.model import (
    Eligibility,
    Policy,
    Source,
    VerifiedAnswer,
    expect_instance,
    lone_surrogate_at,
    not_unicode,
)
from citeproof.providers import Provider
from citeproof.stopping import checkpoint
from citeproof.verifier._catalog import SourceCatalog, citable_names
from citeproof.verifier._correct import apply_verdicts
from citeproof.verifier._judgement import judge_quote
from citeproof.verifier.match import (
    RULINGS,
    SHARED,
    IndexCache,
    MatchSettings,
    SourceIndex,
    VerbatimProbe,
    content_key,
    prepare,
)
from citeproof.verifier.parse import normalise_markers, parse_answer
from citeproof.verifier.support import SupportJudge, attach_support

MAX_ANSWER_CHARS = 1_000_000
"""Longest answer accepted, in characters. LLM answers are a few KB; a megabyte is not an answer."""


class Verifier:
    """Verifies answers over one set of sources: the catalog is built once, and each source's
    index once per text (shared, through ``cache``, with every other `Verifier` and `verify`
    call over the same text). Use one for many answers over one corpus: a batch, a service.

    ``eligibility``: inside a turn, only its eligible sources can be cited, and a citation to
    an excluded one says why (012.2, 012.3). ``support_provider`` is the LLM that judges
    claim support when ``policy.support_judge`` is ``"provider"``. Raises `SourceError` for
    bad sources. Safe to share between threads.
    """

    def __init__(
        self,
        sources: Sequence[Source],
        *,
        policy: Policy | None = None,
        eligibility: Eligibility | None = None,
        cache: IndexCache | None = SHARED,
        support_provider: Provider | None = None,
    ) -> None:
        self.policy = Policy() if policy is None else policy
        self.support_provider = support_provider
        expect_instance(self.policy, Policy, "policy", PolicyError)
        self.eligibility = eligibility
        if eligibility is not None:
            expect_instance(eligibility, Eligibility, "eligibility")
            sources = _eligible_sources(sources, eligibility)
        # Inside a turn, no eligible source is a decision, not a mistake: every citation is
        # refused.
        self.catalog = SourceCatalog(
            sources,
            eligibility.excluded if eligibility else (),
            allow_empty=eligibility is not None,
        )
        self.sources: tuple[Source, ...] = tuple(self.catalog)
        excluded = eligibility.excluded if eligibility else ()
        self._known_ids = [s.id for s in self.sources] + [e.source_id for e in excluded]
        self.source_names = citable_names(self.sources, excluded)
        """What the answer may call its sources (`citable_names`)."""
        self._cache = cache
        self._text_key = cache.key if cache is not None else content_key
        self._indexes: dict[str, SourceIndex] = {}
        self._lock = threading.Lock()

    def index_for(self, source: Source) -> SourceIndex:
        """The index of one of this verifier's sources, built on first need."""
        index = self._indexes.get(source.id)
        if index is None:
            index = prepare(source, self._cache)
            with self._lock:
                index = self._indexes.setdefault(source.id, index)
        return index

    def may_hold(self, probe: VerbatimProbe, source: Source) -> bool:
        """Whether one of this verifier's sources may hold a quote word for word, without
        indexing it (`VerbatimProbe`; what was found of the same text before is reused)."""
        if source.id in self._indexes:
            return True  # indexed already: the search itself costs less
        return RULINGS.may_hold(probe, source.text, self._text_key(source))

    def verify(
        self,
        answer: str,
        *,
        policy: Policy | None = None,
        answer_id: str | None = None,
        now: datetime | None = None,
    ) -> VerifiedAnswer:
        """Verify every quote of ``answer``; see `verify`. ``policy`` overrides the
        verifier's policy for this answer."""
        policy = self.policy if policy is None else policy
        expect_instance(policy, Policy, "policy", PolicyError)
        _check_answer(answer)
        if answer_id is not None and not isinstance(answer_id, str):
            raise AnswerError(f"expected text, got {type(answer_id).__name__}", field="answer_id")
        # Markers written slightly wrong are rewritten first, when unambiguous (and recorded).
        normalised = normalise_markers(answer, self._known_ids)
        parsed = parse_answer(normalised.text, self.source_names)
        settings = MatchSettings(
            min_similarity=policy.min_similarity, max_ellipsis_gap=policy.max_ellipsis_gap
        )
        stamp = (now or datetime.now(UTC)).isoformat(timespec="seconds")
        judgements = []
        for quote in parsed.quotes:
            checkpoint()  # the caller may stop or pause the work between quotes
            judgements.append(
                judge_quote(
                    quote,
                    self.catalog,
                    self.index_for,
                    settings,
                    excerpt_context=policy.excerpt_context,
                    now=stamp,
                    holds=self.may_hold,
                )
            )
        text, quotes, claims = apply_verdicts(parsed, judgements, self.catalog, policy)
        # Claim support: every cited claim judged against each source it cites.
        by_id = {source.id: source for source in self.catalog}
        judge = SupportJudge(policy, provider=self.support_provider)
        claims = attach_support(text, claims, quotes, by_id, judge)
        return VerifiedAnswer(
            id=answer_id or default_answer_id(answer, self.sources, text_key=self._text_key),
            text=text,
            original=answer,
            claims=claims,
            quotes=quotes,
            sources=self.sources,
            policy=policy,
            eligibility=self.eligibility,
            normalised_markers=normalised.changes,
        )


def verify(
    answer: str,
    sources: Sequence[Source],
    *,
    policy: Policy | None = None,
    answer_id: str | None = None,
    now: datetime | None = None,
    eligibility: Eligibility | None = None,
    support_provider: Provider | None = None,
) -> VerifiedAnswer:
    """Verify every quote of ``answer`` against ``sources``, the sources of this turn.

    Returns the corrected answer with one verdict per quote occurrence (003.4). Citations to
    ids not among ``sources`` are ineligible (012.2). ``answer_id`` defaults to a stable hash
    of the answer and the sources; ``now`` stamps the corrections (default: the current UTC
    time). Inside a turn, pass the turn's ``eligibility``: only its eligible sources can be
    cited, and a citation to an excluded one says why (012.2, 012.3). With
    ``Policy(support_judge="provider")``, ``support_provider`` (any `citeproof.providers`
    provider) judges claim support, one call per answer. Raises `AnswerError` or
    `SourceError` for bad input, `PolicyError` for a bad policy. Source indexes are reused
    across calls for the same text (see `Verifier` for many answers over one corpus).
    """
    _check_answer(answer)
    verifier = Verifier(
        sources, policy=policy, eligibility=eligibility, support_provider=support_provider
    )
    return verifier.verify(answer, answer_id=answer_id, now=now)


def _eligible_sources(sources: Sequence[Source], eligibility: Eligibility) -> list[Source]:
    by_id = {s.id: s for s in sources}
    missing = [sid for sid in eligibility.eligible if sid not in by_id]
    if missing:
        raise SourceError(
            f"eligible sources {', '.join(missing)} were not given to verify", field="sources"
        )
    return [by_id[sid] for sid in eligibility.eligible]


def default_answer_id(
    answer: str, sources: Sequence[Source], *, text_key: Callable[[Source], str] | None = None
) -> str:
    """A stable id: the same answer over the same sources always gets the same id.

    ``text_key`` gives a hash of a source's text (`content_key`). By default the shared
    cache's ``key`` gives it: the same text object verified a moment ago (the sources of a
    verified answer being recorded) is not hashed again."""
    text_key = SHARED.key if text_key is None else text_key
    digest = hashlib.sha256()
    digest.update(answer.encode("utf-8", "surrogatepass"))
    for source in sources:
        fingerprint = [source.id, source.kind, source.version or "", text_key(source)]
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
    at = lone_surrogate_at(answer)
    if at is not None:
        raise AnswerError(not_unicode(at), field="answer")
