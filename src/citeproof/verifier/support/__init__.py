"""Claim support: whether each cited claim is backed by the sources it cites."""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.verifier.support._claims import attach_support
    from citeproof.verifier.support._judge import SupportJudge, decide
    from citeproof.verifier.support._promise import warm_up


_WHERE = {
    "SupportJudge": "citeproof.verifier.support._judge",
    "attach_support": "citeproof.verifier.support._claims",
    "decide": "citeproof.verifier.support._judge",
    "warm_up": "citeproof.verifier.support._promise",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = ["SupportJudge", "attach_support", "decide", "warm_up"]
