"""Reading sources from files."""

from citeproof.sources.files import read_source_file

__all__ = ["read_source_file"]
