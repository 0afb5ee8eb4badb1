"""Verifying one cited claim through `citeproof.verify` and reading its one judgement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citeproof import Policy, Source, verify
from citeproof.model import ClaimSupport


def support_of(answer: str, sources: Sequence[Source], **options: Any) -> ClaimSupport:
    """The one judgement of the one claim of ``answer`` that cites a source (``options`` go
    to `citeproof.verify`)."""
    verified_answer = verify(answer, list(sources), **options)
    (verified,) = [c for c in verified_answer.claims if c.support]
    (support,) = verified.support
    return support


HEAD = Policy(support_judge="lexical")
"""The lexical head alone: the scores the strict default judge reads before its rules."""


def true_claim(answer: str, sources: Sequence[Source], **options: Any) -> ClaimSupport:
    """For a true claim the head reads right: the head supports it, and the default strict
    judge confirms it or leaves it `unconfirmed` for a reader (never contradicted, never
    unsupported: an honest "could not confirm" is no error). The strict judgement."""
    head = support_of(answer, sources, **{**options, "policy": HEAD})
    assert head.verdict == "supported", head
    strict = support_of(answer, sources, **options)
    assert strict.verdict in ("supported", "unconfirmed"), strict
    assert strict.verdict == "supported" or strict.rule, strict  # the rule that held it back
    return strict
