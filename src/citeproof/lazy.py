"""Names of a package that are imported on first use (PEP 562): the package's ``__init__``
lists where each lives, and ``import`` of the package costs nothing for them."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping


def on_first_use(
    namespace: MutableMapping[str, object], where: Mapping[str, str]
) -> Callable[[str], object]:
    """A module ``__getattr__`` for the package whose globals are ``namespace``: a name in
    ``where`` is imported from the module it names, kept in ``namespace`` (so it is imported
    once) and returned; any other name raises `AttributeError` as Python's own lookup would."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
