"""Claim support: whether each cited claim is backed by the sources it cites."""

from citeproof.verifier.support.judge import SupportJudge, decide

__all__ = ["SupportJudge", "decide"]
