"""Reading sources from files, and the store that keeps every version of them.

`Reader` is what a plug-in implements to read another format (see docs/extending.md); it
returns a `Segmented` text.

The names below load on first use: the verifier imports this package's segmenters
(`citeproof.sources.sentences`, `.segment`), and importing the package must not pull in the
readers and the store for them (`import citeproof` stays lean).
"""

from __future__ import annotations

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.sources.files import read_source_file
    from citeproof.sources.ingest import FileFailure, IngestReport, ingest_paths
    from citeproof.sources.readers import Reader
    from citeproof.sources.segment import Segmented
    from citeproof.sources.store import IngestResult, SourceStore, StoredChange, StoredSource

_WHERE = {
    "FileFailure": "citeproof.sources.ingest",
    "IngestReport": "citeproof.sources.ingest",
    "IngestResult": "citeproof.sources.store",
    "Reader": "citeproof.sources.readers",
    "Segmented": "citeproof.sources.segment",
    "SourceStore": "citeproof.sources.store",
    "StoredChange": "citeproof.sources.store",
    "StoredSource": "citeproof.sources.store",
    "ingest_paths": "citeproof.sources.ingest",
    "read_source_file": "citeproof.sources.files",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "FileFailure",
    "IngestReport",
    "IngestResult",
    "Reader",
    "Segmented",
    "SourceStore",
    "StoredChange",
    "StoredSource",
    "ingest_paths",
    "read_source_file",
]
