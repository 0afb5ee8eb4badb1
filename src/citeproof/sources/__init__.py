"""Reading sources from files, and the store that keeps every version of them.

`Reader` is what a plug-in implements to read another format (see docs/extending.md); it
returns a `Segmented` text.

The names below load on first use: the verifier imports this package's segmenters
(`sentence_spans`, `Segmented`), and importing the package must not pull in the readers and
the store for them (`import citeproof` stays lean).
"""

from __future__ import annotations

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.sources._ids import content_hash, readable_path
    from citeproof.sources._ingest import (
        FileFailure,
        IngestReport,
        collect_files,
        find_files,
        ingest_files,
        ingest_paths,
    )
    from citeproof.sources._library import StoreLibrary
    from citeproof.sources._limits import (
        DEFAULT_LIMITS,
        ReadLimits,
        bounded_lines,
        check_extent,
        read_bounded,
        read_file_bounded,
    )
    from citeproof.sources._locations import paragraph_locations
    from citeproof.sources._pdf_reader import read_pdf_pages
    from citeproof.sources._readers import Reader, read_document
    from citeproof.sources._segment import Segmented
    from citeproof.sources._sentences import (
        CLOSING,
        FULL_WIDTH_STOPS,
        is_abbreviation,
        sentence_spans,
        starts_sentence,
    )
    from citeproof.sources._store import (
        IngestResult,
        PassageHit,
        SourceStore,
        StoredChange,
        StoredSource,
        is_source_store,
    )
    from citeproof.sources._text_reader import MARKDOWN_SUFFIXES, read_markdown, read_text
    from citeproof.sources.files import read_source_file


_WHERE = {
    "CLOSING": "citeproof.sources._sentences",
    "DEFAULT_LIMITS": "citeproof.sources._limits",
    "FULL_WIDTH_STOPS": "citeproof.sources._sentences",
    "FileFailure": "citeproof.sources._ingest",
    "IngestReport": "citeproof.sources._ingest",
    "IngestResult": "citeproof.sources._store",
    "MARKDOWN_SUFFIXES": "citeproof.sources._text_reader",
    "PassageHit": "citeproof.sources._store",
    "ReadLimits": "citeproof.sources._limits",
    "Reader": "citeproof.sources._readers",
    "Segmented": "citeproof.sources._segment",
    "SourceStore": "citeproof.sources._store",
    "StoreLibrary": "citeproof.sources._library",
    "StoredChange": "citeproof.sources._store",
    "StoredSource": "citeproof.sources._store",
    "bounded_lines": "citeproof.sources._limits",
    "check_extent": "citeproof.sources._limits",
    "collect_files": "citeproof.sources._ingest",
    "content_hash": "citeproof.sources._ids",
    "find_files": "citeproof.sources._ingest",
    "ingest_files": "citeproof.sources._ingest",
    "ingest_paths": "citeproof.sources._ingest",
    "is_abbreviation": "citeproof.sources._sentences",
    "is_source_store": "citeproof.sources._store",
    "paragraph_locations": "citeproof.sources._locations",
    "read_bounded": "citeproof.sources._limits",
    "read_document": "citeproof.sources._readers",
    "read_file_bounded": "citeproof.sources._limits",
    "read_markdown": "citeproof.sources._text_reader",
    "read_pdf_pages": "citeproof.sources._pdf_reader",
    "read_source_file": "citeproof.sources.files",
    "read_text": "citeproof.sources._text_reader",
    "readable_path": "citeproof.sources._ids",
    "sentence_spans": "citeproof.sources._sentences",
    "starts_sentence": "citeproof.sources._sentences",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "CLOSING",
    "DEFAULT_LIMITS",
    "FULL_WIDTH_STOPS",
    "MARKDOWN_SUFFIXES",
    "FileFailure",
    "IngestReport",
    "IngestResult",
    "PassageHit",
    "ReadLimits",
    "Reader",
    "Segmented",
    "SourceStore",
    "StoreLibrary",
    "StoredChange",
    "StoredSource",
    "bounded_lines",
    "check_extent",
    "collect_files",
    "content_hash",
    "find_files",
    "ingest_files",
    "ingest_paths",
    "is_abbreviation",
    "is_source_store",
    "paragraph_locations",
    "read_bounded",
    "read_document",
    "read_file_bounded",
    "read_markdown",
    "read_pdf_pages",
    "read_source_file",
    "read_text",
    "readable_path",
    "sentence_spans",
    "starts_sentence",
]
