"""Verification of one answer against its sources: parse → judge → correct.

`parse` finds the claims, quotes and citation markers; `match` locates a quote in a source;
`catalog` resolves citation labels to the turn's sources; `judgement` gives each quote
occurrence its verdict (primary source, then secondary, then not found); `correct` applies the
correction policy per source kind; `verification.verify` runs them in that order.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.verifier._catalog import citable_names
    from citeproof.verifier._differences import difference
    from citeproof.verifier._verification import (
        MAX_ANSWER_CHARS,
        Verifier,
        default_answer_id,
        verify,
    )


_WHERE = {
    "MAX_ANSWER_CHARS": "citeproof.verifier._verification",
    "Verifier": "citeproof.verifier._verification",
    "citable_names": "citeproof.verifier._catalog",
    "default_answer_id": "citeproof.verifier._verification",
    "difference": "citeproof.verifier._differences",
    "verify": "citeproof.verifier._verification",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "MAX_ANSWER_CHARS",
    "Verifier",
    "citable_names",
    "default_answer_id",
    "difference",
    "verify",
]
