"""WordNet 3.0's senses, hypernyms, antonyms and derivations, as `tools/build_lexicon.py`
packs them."""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import threading
from dataclasses import dataclass
from importlib import resources

from citeproof.errors import SupportLexiconError

SHA256 = "0852d5dcc9382adc5df4b37c690629cd06f4cb9b3b330fd44f09100f72106008"
SENSES = 3
"""How many of a lemma's senses (most frequent first) count: rare senses make false friends."""
HYPERNYM_STEPS = 2
_POS = {"NOUN": "n", "PROPN": "n", "VERB": "v", "ADJ": "a", "ADV": "r", "NUM": "n"}


@dataclass(frozen=True, eq=False)
class WordNet:
    """Lemma → its first senses, per part of speech; synset → hypernyms; antonym pairs."""

    senses: dict[str, dict[str, list[int]]]
    hypernyms: dict[int, list[int]]
    similar: dict[int, list[int]]
    antonym_pairs: frozenset[tuple[str, str]]
    derived_pairs: frozenset[tuple[str, str]]

    def _senses(self, lemma: str, pos: str | None) -> set[int]:
        tables = [self.senses[_POS[pos]]] if pos in _POS else list(self.senses.values())
        out: set[int] = set()
        for table in tables:
            out.update(table.get(lemma, ())[:SENSES])
        return out

    def knows(self, lemma: str, pos: str) -> bool:
        """Whether WordNet lists ``lemma`` as a ``pos`` ("call off" as a verb)."""
        return lemma in self.senses[_POS[pos]]

    @functools.lru_cache(maxsize=65536)  # noqa: B019 - one shared instance for the process
    def synonyms(self, a: str, b: str, pos: str | None = None) -> bool:
        """Whether ``a`` and ``b`` share one of their first senses (adjectives: or stand in
        one similar-to cluster)."""
        if a == b:
            return True
        ours, theirs = self._senses(a, pos), self._senses(b, pos)
        if ours & theirs:
            return True
        near = {s for x in ours for s in self.similar.get(x, ())}
        return bool(near & theirs)

    @functools.lru_cache(maxsize=65536)  # noqa: B019
    def broader(self, general: str, specific: str, pos: str | None = None) -> bool:
        """Whether a first sense of ``general`` is a hypernym (within `HYPERNYM_STEPS`) of a
        first sense of ``specific``: "computer" of "laptop", "pay" of "reimburse"."""
        if pos not in ("NOUN", "VERB"):
            return False
        targets = self._senses(general, pos)
        frontier = self._senses(specific, pos)
        for _ in range(HYPERNYM_STEPS):
            frontier = {h for s in frontier for h in self.hypernyms.get(s, ())}
            if frontier & targets:
                return True
        return False

    def derived(self, a: str, b: str) -> bool:
        """Whether WordNet derives one word from the other ("approve", "approval")."""
        return (a, b) in self.derived_pairs or (b, a) in self.derived_pairs

    def antonyms(self, a: str, b: str) -> bool:
        return (a, b) in self.antonym_pairs or (b, a) in self.antonym_pairs


_LOCK = threading.Lock()


@functools.cache
def wordnet() -> WordNet:
    """The packaged WordNet, its SHA-256 checked, loaded once per process."""
    with _LOCK:
        raw = resources.files(__package__).joinpath("wordnet.json.gz").read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        if digest != SHA256:
            raise SupportLexiconError(
                f"lexicon wordnet.json.gz has SHA-256 {digest}, expected {SHA256}"
            )
        data = json.loads(gzip.decompress(raw))
        return WordNet(
            senses=data["senses"],
            hypernyms={int(k): v for k, v in data["hypernyms"].items()},
            similar={int(k): v for k, v in data["similar"].items()},
            antonym_pairs=frozenset(tuple(p) for p in data["antonyms"]),
            derived_pairs=frozenset(tuple(p) for p in data["derived"]),
        )
