"""Plug-ins: objects that other installed distributions offer under citeproof's entry points.

Two groups are read: ``citeproof.readers`` (a source reader per file suffix, named by the
suffix without its dot, e.g. ``rtf``) and ``citeproof.providers`` (a provider factory per
provider name). They are looked up only when a name is not one citeproof has built in, so a
plug-in is never imported unless it is asked for; the installed entry points of a group are
listed once per process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from citeproof.errors import CiteproofError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

READERS_GROUP = "citeproof.readers"
"""Entry points naming a `citeproof.sources.Reader`, one per file suffix (``rtf`` for .rtf)."""

PROVIDERS_GROUP = "citeproof.providers"
"""Entry points naming a provider factory: ``factory(**settings)`` returns a `Provider`."""


@dataclass(frozen=True, slots=True)
class Plugin:
    """A loaded plug-in: the object its entry point names, and words that name the entry
    point for messages (``'rtf = citeproof_rtf:RtfReader' in group citeproof.readers, from
    citeproof-rtf 0.1.0``)."""

    value: object
    described: str


@functools.cache
def _entry_points(group: str) -> dict[str, tuple[EntryPoint, ...]]:
    from importlib.metadata import entry_points  # reads every installed distribution: on a miss

    found: dict[str, list[EntryPoint]] = {}
    for point in entry_points(group=group):
        found.setdefault(point.name, []).append(point)
    return {name: tuple(points) for name, points in found.items()}


def plugin_names(group: str) -> tuple[str, ...]:
    """The entry point names installed distributions offer in ``group``, sorted; nothing is
    imported."""
    return tuple(sorted(_entry_points(group)))


def describe(point: EntryPoint) -> str:
    """An entry point as a message names it: ``'name = module:attr'``, its group and the
    distribution that offers it."""
    offered = f", from {point.dist.name} {point.dist.version}" if point.dist is not None else ""
    return f"entry point '{point.name} = {point.value}' in group {point.group}{offered}"


def load_plugin(group: str, name: str, fail: Callable[[str], CiteproofError]) -> Plugin | None:
    """The object the entry point ``name`` of ``group`` names, or ``None`` when no installed
    distribution offers one.

    Raises ``fail(message)`` naming the entry point when two distributions offer the same
    name, or when importing it fails (whatever the plug-in raised: an import error, a
    missing attribute, an exception in its module).
    """
    points = _entry_points(group).get(name, ())
    if not points:
        return None
    if len(points) > 1:
        raise fail(f"more than one plug-in offers {name!r}: " + "; ".join(map(describe, points)))
    point = points[0]
    try:
        value = point.load()
    except Exception as error:  # a plug-in's own failure, whatever it is, is reported as such
        raise fail(f"the {describe(point)} failed to load: {type(error).__name__}: {error}") from (
            error
        )
    return Plugin(value, describe(point))
