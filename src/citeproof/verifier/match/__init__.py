"""Finding a quote in a source: offset-preserving normalisation, exact search, candidate
index and bounded alignment, ellipsis segments; the sources of one answer searched as one
(`corpus_of`) for those that may hold a quote.

Public entry points: `prepare(source) -> SourceIndex` (paid once per text: indexes are kept in
a shared, bounded `IndexCache`) and
`find_quote(text, index, paragraph=..., settings=...) -> Match | None`.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.verifier.match._cache import SHARED, IndexCache, content_key, prepare
    from citeproof.verifier.match._corpus import corpus_of
    from citeproof.verifier.match._index import SourceIndex, TextIndex
    from citeproof.verifier.match._normalise import Normalised, OffsetMap, normalise
    from citeproof.verifier.match._probe import RULINGS, MayHold, VerbatimProbe, may_hold
    from citeproof.verifier.match._quote import QuoteText, parse_quote
    from citeproof.verifier.match._search import MatchSettings, find_quote


_WHERE = {
    "IndexCache": "citeproof.verifier.match._cache",
    "MatchSettings": "citeproof.verifier.match._search",
    "MayHold": "citeproof.verifier.match._probe",
    "Normalised": "citeproof.verifier.match._normalise",
    "OffsetMap": "citeproof.verifier.match._normalise",
    "QuoteText": "citeproof.verifier.match._quote",
    "RULINGS": "citeproof.verifier.match._probe",
    "SHARED": "citeproof.verifier.match._cache",
    "SourceIndex": "citeproof.verifier.match._index",
    "TextIndex": "citeproof.verifier.match._index",
    "VerbatimProbe": "citeproof.verifier.match._probe",
    "content_key": "citeproof.verifier.match._cache",
    "corpus_of": "citeproof.verifier.match._corpus",
    "find_quote": "citeproof.verifier.match._search",
    "may_hold": "citeproof.verifier.match._probe",
    "normalise": "citeproof.verifier.match._normalise",
    "parse_quote": "citeproof.verifier.match._quote",
    "prepare": "citeproof.verifier.match._cache",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "RULINGS",
    "SHARED",
    "IndexCache",
    "MatchSettings",
    "MayHold",
    "Normalised",
    "OffsetMap",
    "QuoteText",
    "SourceIndex",
    "TextIndex",
    "VerbatimProbe",
    "content_key",
    "corpus_of",
    "find_quote",
    "may_hold",
    "normalise",
    "parse_quote",
    "prepare",
]
