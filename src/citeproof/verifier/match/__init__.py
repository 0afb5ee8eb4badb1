"""Finding a quote in a source: offset-preserving normalisation, exact search, candidate
index and bounded alignment, ellipsis segments.

Public entry points: `prepare(source) -> SourceIndex` (paid once per source) and
`find_quote(text, index, paragraph=..., settings=...) -> Match | None`.
"""

from citeproof.verifier.match.index import SourceIndex, prepare
from citeproof.verifier.match.normalize import Normalized, OffsetMap, normalize
from citeproof.verifier.match.quote import QuoteText, parse_quote
from citeproof.verifier.match.search import MatchSettings, find_quote

__all__ = [
    "MatchSettings",
    "Normalized",
    "OffsetMap",
    "QuoteText",
    "SourceIndex",
    "find_quote",
    "normalize",
    "parse_quote",
    "prepare",
]
