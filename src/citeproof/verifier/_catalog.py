"""The sources of one turn, and how a citation's label finds its source.

A label resolves by source id first, then by the forms LLMs use for the same id
(``1`` ↔ ``S1`` ↔ ``Source 1``, ``Credit Policy`` ↔ ``credit-policy``), then by title, url or
doc_id. A label that names no provided source does not resolve: the citation is ineligible
(012.2). Labels never resolve by position in the list, so reordering the sources never changes
what a citation means.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from citeproof.errors import SourceError
from citeproof.model import Exclusion, Source, label_number
from citeproof.verifier.parse import name_key


def _aliases(key: str) -> Iterator[str]:
    """The folded forms under which ``key`` can be looked up: as written but for case, the
    numbered forms ("1", "S1"), and case and punctuation aside ("Credit Policy" for
    "credit-policy", `name_key`)."""
    folded = key.strip().casefold()
    yield folded
    number = label_number(folded)
    if number is not None:
        yield f"s{folded}" if number == folded else number
    loose = name_key(key)
    if loose and loose != folded:
        yield loose


def citable_names(sources: Iterable[Source], excluded: Iterable[Exclusion] = ()) -> tuple[str, ...]:
    """Every name a citation may give one of ``sources`` (its id, doc_id, url and title) and
    the ids of the sources kept out of the turn: what `parse_answer` reads as a citation
    however it is written."""
    names = [name for source in sources for name in (source.id, *_other_names(source))]
    return (*names, *(exclusion.source_id for exclusion in excluded))


def _other_names(source: Source) -> tuple[str, ...]:
    """What else a source goes by besides its id: its doc_id, url and title, where given."""
    return tuple(key for key in (source.doc_id, source.url, source.title) if key)


class SourceCatalog:
    """The sources provided in one turn, looked up by citation label."""

    def __init__(
        self,
        sources: Sequence[Source],
        excluded: Sequence[Exclusion] = (),
        *,
        allow_empty: bool = False,
    ):
        if not sources and not allow_empty:
            raise SourceError(
                "no sources were given: at least one source is needed", field="sources"
            )
        self._sources: dict[str, Source] = {}
        for position, source in enumerate(sources, start=1):
            if not isinstance(source, Source):
                raise SourceError(
                    f"expected a citeproof.Source, got {type(source).__name__}",
                    where=f"sources[{position - 1}]",
                )
            if source.id in self._sources:
                raise SourceError(
                    f"duplicate source id {source.id!r} (sources[{position - 1}] repeats it)",
                    field="id",
                )
            self._sources[source.id] = source
        self._by_alias: dict[str, Source] = {}
        # Ids win over titles, urls and doc_ids: register them last so they overwrite.
        for source in self._sources.values():
            for key in _other_names(source):
                self._by_alias.setdefault(key.strip().casefold(), source)
                self._by_alias.setdefault(name_key(key), source)
        for source in self._sources.values():
            for alias in _aliases(source.id):
                self._by_alias[alias] = source
        self._excluded: dict[str, Exclusion] = {}
        for exclusion in excluded:
            for alias in _aliases(exclusion.source_id):
                self._excluded.setdefault(alias, exclusion)

    def __iter__(self) -> Iterator[Source]:
        return iter(self._sources.values())

    def __len__(self) -> int:
        return len(self._sources)

    def __getitem__(self, source_id: str) -> Source:
        return self._sources[source_id]

    def resolve(self, label: str) -> Source | None:
        """The provided source a citation label names, or None."""
        exact = self._sources.get(label)
        if exact is not None:
            return exact
        for alias in _aliases(label):
            found = self._by_alias.get(alias)
            if found is not None:
                return found
        return None

    def why_excluded(self, label: str) -> Exclusion | None:
        """Why the source a label names was kept out of this turn, when the turn knows it."""
        for alias in _aliases(label):
            found = self._excluded.get(alias)
            if found is not None:
                return found
        return None

    def others(self, excluded: Iterable[str]) -> list[Source]:
        """The sources of the turn except ``excluded`` ids, in the order given."""
        skip = set(excluded)
        return [s for s in self._sources.values() if s.id not in skip]
