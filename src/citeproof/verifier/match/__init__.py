"""Finding a quote in a source: offset-preserving normalisation, exact search, candidate
index and bounded alignment, ellipsis segments.

Public entry points: `prepare(source) -> SourceIndex` (paid once per text: indexes are kept in
a shared, bounded `IndexCache`) and
`find_quote(text, index, paragraph=..., settings=...) -> Match | None`.
"""

from citeproof.verifier.match.cache import IndexCache, content_key, prepare
from citeproof.verifier.match.index import SourceIndex, TextIndex
from citeproof.verifier.match.normalise import Normalised, OffsetMap, normalise
from citeproof.verifier.match.quote import QuoteText, parse_quote
from citeproof.verifier.match.search import MatchSettings, find_quote

__all__ = [
    "IndexCache",
    "MatchSettings",
    "Normalised",
    "OffsetMap",
    "QuoteText",
    "SourceIndex",
    "TextIndex",
    "content_key",
    "find_quote",
    "normalise",
    "parse_quote",
    "prepare",
]
