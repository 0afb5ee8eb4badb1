"""The ``citeproof`` command: ``verify``, ``ingest``, ``ask`` and ``audit``."""

from citeproof.cli.main import main

__all__ = ["main"]
