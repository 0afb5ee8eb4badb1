"""Finding a quote in a source: offset-preserving normalisation, exact search, candidate
index and bounded alignment, ellipsis segments.

Public entry points: `prepare(source) -> SourceIndex` (paid once per source) and
`find_quote(text, index, paragraph=..., settings=...) -> Match | None`.
"""
