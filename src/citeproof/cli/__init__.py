"""The ``citeproof`` command: ``verify``, ``ingest``, ``ask`` and ``audit``."""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.cli._main import main


_WHERE = {
    "main": "citeproof.cli._main",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = ["main"]
