"""Reading sources from files, and the store that keeps every version of them.

`Reader` is what a plug-in implements to read another format (see docs/extending.md); it
returns a `Segmented` text."""

from citeproof.sources.files import read_source_file
from citeproof.sources.ingest import FileFailure, IngestReport, ingest_paths
from citeproof.sources.readers import Reader
from citeproof.sources.segment import Segmented
from citeproof.sources.store import IngestResult, SourceStore, StoredChange, StoredSource

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
