"""Reading sources from files, and the store that keeps every version of them."""

from citeproof.sources.files import read_source_file
from citeproof.sources.ingest import FileFailure, IngestReport, ingest_paths
from citeproof.sources.store import IngestResult, SourceStore, StoredChange, StoredSource

__all__ = [
    "FileFailure",
    "IngestReport",
    "IngestResult",
    "SourceStore",
    "StoredChange",
    "StoredSource",
    "ingest_paths",
    "read_source_file",
]
