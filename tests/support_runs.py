"""Verifying one cited claim through `citeproof.verify` and reading its one judgement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citeproof import Source, verify
from citeproof.model import ClaimSupport


def support_of(answer: str, sources: Sequence[Source], **options: Any) -> ClaimSupport:
    """The one judgement of the one claim of ``answer`` that cites a source (``options`` go
    to `citeproof.verify`)."""
    verified_answer = verify(answer, list(sources), **options)
    (verified,) = [c for c in verified_answer.claims if c.support]
    (support,) = verified.support
    return support
