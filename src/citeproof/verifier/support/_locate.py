"""Find the passage of a cited source that best backs a claim: the cited paragraph first,
then the whole source. Sentences are scored by the idf-weighted share of the claim's content
tokens they hold (BM25's idf over the source's sentences); up to `MAX_SENTENCES` sentences
are taken greedily while each adds enough of the claim, so a claim drawn from two sentences
of a page is read against both.
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from sys import getsizeof

from citeproof.model import Source
from citeproof.verifier.match import SHARED as INDEX_CACHE
from citeproof.verifier.support._facts import SourceKeys
from citeproof.verifier.support._text import Token, is_content, sentences, tokenize

MAX_SENTENCES = 3
MIN_GAIN = 0.1  # share of the claim a further sentence must add to be read too
CITED_PARAGRAPH_ENOUGH = 0.8  # coverage at which the cited paragraph is taken as it is
CANDIDATES = 24


@dataclass(frozen=True, slots=True)
class Sentence:
    span: tuple[int, int]
    paragraph: int
    tokens: tuple[Token, ...]  # spans into the source text
    keys: frozenset[str]


@dataclass(frozen=True, slots=True)
class PreparedSource:
    """A source cut into sentences, with an inverted index from token key to sentences."""

    source: Source
    sentences: tuple[Sentence, ...]
    postings: dict[str, tuple[int, ...]]
    idf: dict[str, float]
    max_idf: float
    keys: SourceKeys
    """Every token key of the source, for the claim's ``source_*`` figures (`check_facts`)."""


PREPARED_MAX_BYTES = 256 * 1024 * 1024
"""Bytes of prepared sources kept between verifications (`footprint`; least recently used go
first). A prepared source holds about 70 bytes per character of its text (a token object
for each word, sentence by sentence): 256 MiB keeps the sentences of about 3.5 MB of text."""
FOOTPRINT_SAMPLE = 64
"""Sentences whose objects `footprint` measures one by one; the rest are counted."""


class PreparedCache:
    """Prepared sources by source id and content (`IndexCache.key`): at most ``max_bytes``
    held in all (`footprint`), least recently used go first; one larger than that on its own
    is prepared but not kept. Thread-safe; two threads preparing the same new source may both
    prepare it, one result is kept."""

    def __init__(self, max_bytes: int = PREPARED_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, str], tuple[PreparedSource, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def nbytes(self) -> int:
        """Bytes held by the prepared sources kept (`footprint` of each)."""
        return self._bytes

    def get(self, source: Source) -> PreparedSource:
        """``source`` prepared (`prepare_source`), now only if it was not kept."""
        key = (source.id, INDEX_CACHE.key(source))
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                return found[0]
        made = prepare_source(source)
        size = footprint(made)
        with self._lock:
            if key not in self._entries and size <= self.max_bytes:
                self._entries[key] = (made, size)
                self._bytes += size
                while self._bytes > self.max_bytes:
                    _, (_, old) = self._entries.popitem(last=False)
                    self._bytes -= old
        return made

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0


SHARED = PreparedCache()
"""The prepared sources every verification in this process shares."""


def prepared_source(source: Source) -> PreparedSource:
    """`prepare_source`, reused across verifications for the same source id, text and
    paragraphs (`SHARED`, bounded by `PREPARED_MAX_BYTES`); thread-safe."""
    return SHARED.get(source)


def footprint(prepared: PreparedSource) -> int:
    """Bytes ``prepared`` holds, as ``sys.getsizeof`` counts its objects (the source itself
    aside): the first `FOOTPRINT_SAMPLE` sentences measured object by object and the rest
    scaled by their token count, plus the postings, idf and key tables."""
    cut = prepared.sentences
    sample = cut[:FOOTPRINT_SAMPLE]
    measured = 0
    for sentence in sample:
        measured += getsizeof(sentence) + getsizeof(sentence.span) + getsizeof(sentence.tokens)
        measured += getsizeof(sentence.keys)
        for t in sentence.tokens:
            measured += getsizeof(t) + getsizeof(t.span) + getsizeof(t.text) + getsizeof(t.key)
            measured += getsizeof(t.value) if t.value is not None else 0
    sampled_tokens = sum(len(s.tokens) for s in sample)
    tokens = sum(len(s.tokens) for s in cut)
    size = getsizeof(cut)
    if sample:
        # Scaled by tokens (most of the bytes), each sentence counted at least once.
        size += measured * max(tokens, 1) // max(sampled_tokens, 1)
    size += getsizeof(prepared.postings) + getsizeof(prepared.idf)
    for key, positions in prepared.postings.items():
        size += getsizeof(key) + getsizeof(positions) + 28 * len(positions)
    size += 24 * len(prepared.idf)  # a float each; the keys are the postings' own
    keys = prepared.keys
    size += getsizeof(keys.heads) + sum(getsizeof(h) for h in keys.heads)
    return size


_DOTTED = re.compile(r"\d+(?:\.\d+)+")


def _without_clause_number(tokens: list[Token], text: str) -> tuple[Token, ...]:
    """A sentence's tokens less the number of its clause or list item ("5.1 Business mileage
    ...", "2. Only 11,400 boxes ..."): it numbers the sentence, it is no figure of it. The
    first token, a number with dots before a capital letter, or one closed by a dot."""
    if not tokens or tokens[0].kind != "number":
        return tuple(tokens)
    start, end = tokens[0].span
    dotted = (
        len(tokens) > 1 and _DOTTED.fullmatch(text, start, end) and tokens[1].text[:1].isupper()
    )
    closed = text[start:end].isdigit() and text[end : end + 2] in (". ", ".\t", ".\n", ".")
    return tuple(tokens[1:]) if dotted or closed else tuple(tokens)


def prepare_source(source: Source) -> PreparedSource:
    """Cut ``source`` into sentences and index them (see `prepared_source` for the cache)."""
    text = source.text
    cut: list[Sentence] = []
    for number, (start, end) in enumerate(source.paragraph_spans(), start=1):
        for s, e in sentences(text, start, end):
            tokens = _without_clause_number(tokenize(text, s, e), text)
            cut.append(Sentence((s, e), number, tokens, frozenset(t.key for t in tokens)))
    postings: dict[str, list[int]] = {}
    for position, sentence in enumerate(cut):
        for key in sentence.keys:
            postings.setdefault(key, []).append(position)
    total = max(len(cut), 1)
    idf = {k: math.log(1.0 + (total - len(v) + 0.5) / (len(v) + 0.5)) for k, v in postings.items()}
    max_idf = math.log(1.0 + (total + 0.5) / 0.5)
    index = {k: tuple(v) for k, v in postings.items()}
    return PreparedSource(source, tuple(cut), index, idf, max_idf, SourceKeys.of(index.keys()))


def claim_weights(claim: Sequence[Token], prepared: PreparedSource) -> dict[str, float]:
    """The weight of each content key of the claim: its idf in the source (the highest idf
    for a key the source never holds), doubled for numbers and dates, 1.5x for names."""
    weights: dict[str, float] = {}
    for token in claim:
        if not is_content(token) or token.kind == "negation":
            continue
        base = prepared.idf.get(token.key, prepared.max_idf)
        factor = 2.0 if token.kind in ("number", "date") else 1.5 if token.kind == "name" else 1.0
        weights[token.key] = max(weights.get(token.key, 0.0), base * factor)
    return weights


def locate(
    claim: Sequence[Token], prepared: PreparedSource, cited_paragraph: int | None
) -> tuple[tuple[Sentence, ...], float]:
    """The sentences that best back ``claim`` (the best first, then the others in source
    order) and the weighted share of the claim's content they hold together. Empty when the
    source has no sentence."""
    if not prepared.sentences:
        return (), 0.0
    weights = claim_weights(claim, prepared)
    total = sum(weights.values()) or 1.0
    if cited_paragraph is not None:
        in_paragraph = [
            i for i, s in enumerate(prepared.sentences) if s.paragraph == cited_paragraph
        ]
        if in_paragraph:
            chosen, covered = _greedy(in_paragraph, weights, total, prepared)
            if covered >= CITED_PARAGRAPH_ENOUGH:
                return chosen, covered
            anywhere, anywhere_covered = _greedy(None, weights, total, prepared)
            if anywhere_covered > covered + 0.05:
                return anywhere, anywhere_covered
            return chosen, covered
    return _greedy(None, weights, total, prepared)


def _greedy(
    pool: list[int] | None,
    weights: dict[str, float],
    total: float,
    prepared: PreparedSource,
) -> tuple[tuple[Sentence, ...], float]:
    allowed = set(pool) if pool is not None else None
    scores: dict[int, float] = {}
    for key, weight in weights.items():
        for position in prepared.postings.get(key, ()):
            if allowed is None or position in allowed:
                scores[position] = scores.get(position, 0.0) + weight
    if not scores:
        first = pool[0] if pool else 0
        return (prepared.sentences[first],), 0.0
    # Ties go to the shorter sentence, then the earlier one: deterministic.
    ranked = sorted(
        scores,
        key=lambda p: (-scores[p], len(prepared.sentences[p].tokens), p),
    )[:CANDIDATES]
    chosen = [ranked[0]]
    covered = set(weights) & prepared.sentences[ranked[0]].keys
    while len(chosen) < MAX_SENTENCES:
        best, best_gain = -1, 0.0
        for position in ranked:
            if position in chosen:
                continue
            # fsum: exact, so the order a set yields its keys in (which follows str hashes,
            # randomised per process) cannot decide a tie; ties go to the higher ranked.
            gain = math.fsum(
                weights[k] for k in prepared.sentences[position].keys - covered if k in weights
            )
            if gain > best_gain:
                best, best_gain = position, gain
        if best < 0 or best_gain / total < MIN_GAIN:
            break
        chosen.append(best)
        covered |= set(weights) & prepared.sentences[best].keys
    share = math.fsum(weights[k] for k in covered) / total  # exact: any set order
    # The best sentence first (it is the one shown), then the others in source order.
    return tuple(prepared.sentences[p] for p in [chosen[0], *sorted(chosen[1:])]), share
