"""The per-source index: normalized text, word postings and paragraph bounds, built once.

Postings are two numpy arrays: the normalized start of every word occurrence, grouped by
word id (and in text order within a word), plus where each word's group begins. Looking a
word up is a dict access and a slice, so per-quote work depends on how often the quote's
rarest words occur, not on the size of the source.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import numpy.typing as npt

from citeproof.model import Source
from citeproof.verifier.match.align import distance
from citeproof.verifier.match.normalize import IntArray, Normalized, normalize

WORD = re.compile(r"\w+")
# Below this many normalized characters one `str.find` costs less than consulting postings.
EXACT_SCAN_LIMIT = 250_000
_ASCII_WORD = np.zeros(256, dtype=bool)
for _c in b"0123456789_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz":
    _ASCII_WORD[_c] = True


def is_word(char: str) -> bool:
    """Same notion of a word character as ``re``'s ``\\w``."""
    return char.isalnum() or char == "_"


def quote_tokens(text: str) -> list[tuple[str, int]]:
    """Casefolded words of ``text`` with their offsets, first occurrence of each word only."""
    seen: set[str] = set()
    tokens: list[tuple[str, int]] = []
    for m in WORD.finditer(text):
        word = m.group().casefold()
        if word not in seen:
            seen.add(word)
            tokens.append((word, m.start()))
    return tokens


class SourceIndex:
    """Everything `find_quote` needs about one source; build it with `prepare`."""

    __slots__ = (
        "_grams",
        "_ids",
        "_para_norm",
        "_para_orig",
        "_post_pos",
        "_post_start",
        "_vocab",
        "norm",
        "source",
    )

    def __init__(self, source: Source) -> None:
        self.source = source
        self.norm: Normalized = normalize(source.text)
        spans = source.paragraph_spans()
        self._para_orig = np.array(spans, dtype=np.int64).reshape(-1, 2)
        flat = self.norm.offsets.to_normalized(self._para_orig.reshape(-1))
        self._para_norm = flat.reshape(-1, 2)
        self._vocab, starts, ids = _tokenize(self.norm.text)
        order = np.argsort(ids, kind="stable")
        self._post_pos: IntArray = starts[order]
        counts = np.bincount(ids, minlength=len(self._vocab))
        self._post_start: IntArray = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        self._grams: dict[str, list[int]] | None = None  # built on first misspelt lookup
        self._ids: list[str] | None = None

    @property
    def text(self) -> str:
        """The normalized source text every normalized offset refers to."""
        return self.norm.text

    # -- paragraphs -------------------------------------------------------------------

    def paragraph_range(self, paragraph: int | None) -> tuple[int, int] | None:
        """Normalized ``[start, end)`` of 1-based ``paragraph``, None when out of range."""
        if paragraph is None or not 1 <= paragraph <= len(self._para_norm):
            return None
        start, end = self._para_norm[paragraph - 1]
        return int(start), int(end)

    def paragraph_of(self, original: int) -> int:
        """1-based paragraph holding original index ``original``, or the nearest one."""
        starts = self._para_orig[:, 0]
        k = int(np.searchsorted(starts, original, side="right")) - 1
        if k < 0:
            return 1
        if original < self._para_orig[k, 1] or k + 1 >= len(starts):
            return k + 1
        before = original - int(self._para_orig[k, 1])
        after = int(starts[k + 1]) - original
        return k + 1 if before <= after else k + 2

    # -- postings ---------------------------------------------------------------------

    def _postings(self, word: str) -> IntArray:
        word_id = self._vocab.get(word)
        if word_id is None:
            return self._post_pos[:0]
        return self._post_pos[self._post_start[word_id] : self._post_start[word_id + 1]]

    def frequency(self, word: str) -> int:
        word_id = self._vocab.get(word)
        if word_id is None:
            return 0
        return int(self._post_start[word_id + 1] - self._post_start[word_id])

    def positions(self, word: str, offset: int, lo: int, hi: int) -> IntArray:
        """Possible quote starts ``p`` in ``[lo, hi)``: where ``word`` sits at ``p + offset``."""
        posts = self._postings(word)
        a, b = np.searchsorted(posts, [lo + offset, hi + offset])
        return posts[a:b] - offset

    # -- exact search -----------------------------------------------------------------

    def exact(self, quote: str, lo: int, hi: int, limit: int) -> list[int]:
        """Normalized starts of ``quote`` inside ``[lo, hi)``, on word boundaries, in order."""
        text = self.text
        tokens = quote_tokens(quote)
        if len(text) < EXACT_SCAN_LIMIT or not tokens:
            return self._exact_scan(quote, lo, hi, limit)
        rarest = sorted(tokens, key=lambda t: self.frequency(t[0]))[:2]
        starts = self.positions(rarest[0][0], rarest[0][1], lo, hi)
        if len(rarest) > 1 and len(starts) > 1:
            other = self.positions(rarest[1][0], rarest[1][1], lo, hi)
            starts = np.intersect1d(starts, other, assume_unique=True)
        found: list[int] = []
        for p in starts.tolist():
            if p + len(quote) <= hi and text.startswith(quote, p) and self._bounded(quote, p):
                found.append(p)
                if len(found) >= limit:
                    break
        return found

    def _exact_scan(self, quote: str, lo: int, hi: int, limit: int) -> list[int]:
        found: list[int] = []
        p = self.text.find(quote, lo, hi)
        while p >= 0 and len(found) < limit:
            if self._bounded(quote, p):
                found.append(p)
            p = self.text.find(quote, p + 1, hi)
        return found

    def _bounded(self, quote: str, p: int) -> bool:
        """A quote that starts (ends) with a word character must not cut a source word."""
        text = self.text
        end = p + len(quote)
        if p > 0 and is_word(quote[0]) and is_word(text[p - 1]):
            return False
        return not (end < len(text) and is_word(quote[-1]) and is_word(text[end]))

    # -- candidates for approximate search ---------------------------------------------

    def candidates(self, quote: str, count: int, budget: int = 20_000) -> list[int]:
        """Likely normalized starts of an approximate occurrence of ``quote``, best first.

        The rarest few quote words vote for where the quote would start; nearby votes add up.
        """
        anchors = self._anchors(quote)
        if not anchors:
            return []
        votes: list[IntArray] = []
        spent = 0
        for word, offset in anchors:
            posts = self._postings(word)[: max(budget - spent, 1)]
            votes.append(posts - offset)
            spent += len(posts)
            if spent >= budget:
                break
        return _top_clusters(np.sort(np.concatenate(votes)), max(16, len(quote) // 3), count)

    def _anchors(self, quote: str, most: int = 6) -> list[tuple[str, int]]:
        known: list[tuple[int, str, int]] = []
        unknown: list[tuple[str, int]] = []
        for word, offset in quote_tokens(quote):
            freq = self.frequency(word)
            if freq:
                known.append((freq, word, offset))
            elif len(word) >= 3:
                unknown.append((word, offset))
        if len(known) < 3:  # too few words to anchor on: try source words close to the others
            for word, offset in unknown:
                known.extend((self.frequency(w), w, offset) for w in self._similar_words(word))
        known.sort()
        return [(word, offset) for _, word, offset in known[:most]]

    def _similar_words(self, word: str, most: int = 3) -> list[str]:
        """Source words within a few edits of a word the source lacks (a misspelling)."""
        if self._grams is None:
            self._ids = list(self._vocab)
            grams: dict[str, list[int]] = {}
            for i, w in enumerate(self._ids):
                for g in _trigrams(w):
                    grams.setdefault(g, []).append(i)
            self._grams = grams
        assert self._ids is not None
        wanted = _trigrams(word)
        tally: Counter[int] = Counter()
        for g in wanted:
            tally.update(self._grams.get(g, ()))
        allowed = max(1, len(word) // 4)
        close = [
            self._ids[i]
            for i, shared in tally.most_common(50)
            if shared * 2 >= len(wanted) and distance(word, self._ids[i]) <= allowed
        ]
        return close[:most]


def _trigrams(word: str) -> set[str]:
    padded = f"^{word}$"
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def _top_clusters(votes: IntArray, width: int, count: int) -> list[int]:
    """Starts of the ``count`` densest windows of ``width`` among sorted ``votes``."""
    density = np.searchsorted(votes, votes + width, side="left") - np.arange(len(votes))
    order = np.argsort(-density, kind="stable")  # ties: earliest position first
    chosen: list[int] = []
    for i in order[: 50 * count].tolist():
        v = int(votes[i])
        if all(abs(v - c) >= width for c in chosen):
            chosen.append(v)
            if len(chosen) >= count:
                break
    return chosen


def _tokenize(text: str) -> tuple[dict[str, int], IntArray, npt.NDArray[np.int32]]:
    """Vocabulary (casefolded word -> id), word starts, and word ids in text order."""
    vocab: dict[str, int] = {}
    add = vocab.setdefault
    if text.isascii():
        # Fast path: word starts from a byte mask, words from one findall.
        mask = _ASCII_WORD[np.frombuffer(text.encode("ascii"), dtype=np.uint8)]
        edges = np.flatnonzero(mask[1:] & ~mask[:-1]) + 1
        starts = np.concatenate(([0], edges)) if len(mask) and mask[0] else edges
        words = WORD.findall(text.lower())
        ids = [add(w, len(vocab)) for w in words]
        return vocab, starts.astype(np.int64), np.array(ids, dtype=np.int32)
    positions: list[int] = []
    ids = []
    for m in WORD.finditer(text):
        positions.append(m.start())
        ids.append(add(m.group().casefold(), len(vocab)))
    return vocab, np.array(positions, dtype=np.int64), np.array(ids, dtype=np.int32)


def prepare(source: Source) -> SourceIndex:
    """Build the index for ``source`` once (O(size)); reuse it for every quote against it."""
    return SourceIndex(source)
