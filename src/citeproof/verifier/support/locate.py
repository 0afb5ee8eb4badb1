"""Find the passage of a cited source that best backs a claim: the cited paragraph first,
then the whole source. Sentences are scored by the idf-weighted share of the claim's content
tokens they hold (BM25's idf over the source's sentences); up to `MAX_SENTENCES` sentences
are taken greedily while each adds enough of the claim, so a claim drawn from two sentences
of a page is read against both.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from citeproof.model import Source
from citeproof.verifier.match.cache import SHARED as INDEX_CACHE
from citeproof.verifier.support.facts import SourceKeys
from citeproof.verifier.support.text import Token, is_content, sentences, tokenize

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


PREPARED_MAX_CHARS = 32_000_000
"""Characters of source text whose prepared sentences are kept between verifications."""

_prepared: OrderedDict[tuple[str, str], PreparedSource] = OrderedDict()
_prepared_chars = 0
_prepared_lock = threading.Lock()


def prepared_source(source: Source) -> PreparedSource:
    """`prepare_source`, reused across verifications for the same source id, text and
    paragraphs (least recently used go past `PREPARED_MAX_CHARS`); thread-safe."""
    global _prepared_chars
    key = (source.id, INDEX_CACHE.key(source))
    with _prepared_lock:
        found = _prepared.get(key)
        if found is not None:
            _prepared.move_to_end(key)
            return found
    made = prepare_source(source)
    size = len(source.text)
    with _prepared_lock:
        if key not in _prepared and size <= PREPARED_MAX_CHARS:
            _prepared[key] = made
            _prepared_chars += size
            while _prepared_chars > PREPARED_MAX_CHARS and _prepared:
                _, old = _prepared.popitem(last=False)
                _prepared_chars -= len(old.source.text)
    return made


def prepare_source(source: Source) -> PreparedSource:
    """Cut ``source`` into sentences and index them (see `prepared_source` for the cache)."""
    text = source.text
    cut: list[Sentence] = []
    for number, (start, end) in enumerate(source.paragraph_spans(), start=1):
        for s, e in sentences(text, start, end):
            tokens = tuple(
                Token(t.text, (t.span[0] + s, t.span[1] + s), t.key, t.kind, t.value, t.unit)
                for t in tokenize(text[s:e])
            )
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
            gain = sum(
                weights[k] for k in prepared.sentences[position].keys - covered if k in weights
            )
            if gain > best_gain:
                best, best_gain = position, gain
        if best < 0 or best_gain / total < MIN_GAIN:
            break
        chosen.append(best)
        covered |= set(weights) & prepared.sentences[best].keys
    share = sum(weights[k] for k in covered) / total
    # The best sentence first (it is the one shown), then the others in source order.
    return tuple(prepared.sentences[p] for p in [chosen[0], *sorted(chosen[1:])]), share
