"""The per-source index: normalised text, word postings and paragraph bounds, built once.

Postings are two arrays: the normalised start of every word occurrence, grouped by word id
(and in text order within a word), plus where each word's group begins. Looking a word up is
a dict access and a slice, so per-quote work depends on how often the quote's rarest words
occur, not on the size of the source. Plain Python (`array`, `bisect`): numpy only tokenises
a text of `NUMPY_MIN_CHARS` or more, whose tokenising costs far more than importing it.
"""

from __future__ import annotations

import re
import sys
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter, OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from itertools import accumulate, repeat
from operator import add, sub
from typing import TYPE_CHECKING

from citeproof.model import Source, Span
from citeproof.verifier.match._align import distance
from citeproof.verifier.match._normalise import Normalised, normalise
from citeproof.verifier.match._scan import is_word, whole_word_hits

if TYPE_CHECKING:  # numpy is imported where an array is made: `import citeproof` needs none
    import numpy as np
    import numpy.typing as npt

WORD = re.compile(r"\w+")
# Below this many normalised characters one `str.find` costs less than consulting postings.
EXACT_SCAN_LIMIT = 250_000
POSTINGS_MIN_CHARS = 1_000_000
"""Below this many normalised characters an approximate search finds its anchor words by
scanning the text, and the candidate index (word postings) is not built."""
NUMPY_MIN_CHARS = 1_000_000
"""From this many characters on, a text's words are found for its postings with numpy."""
REMEMBERED_RESULTS = 512  # search results kept per text
FORGOTTEN = object()  # what `TextIndex.recall` returns for a result it does not hold


@cache
def _ascii_word() -> npt.NDArray[np.bool_]:
    """Which byte values are ASCII word characters."""
    import numpy as np

    table = np.zeros(256, dtype=bool)
    for c in b"0123456789_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz":
        table[c] = True
    return table


def _dict_bytes(mapping: Mapping[str, object]) -> int:
    """A dict with its keys and values, as ``sys.getsizeof`` counts each."""
    return sys.getsizeof(mapping) + sum(
        sys.getsizeof(key) + sys.getsizeof(value) for key, value in mapping.items()
    )


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


class _Postings:
    """Word postings and the misspelling lookup of one normalised text: the candidate index
    for approximate search, built on first need."""

    __slots__ = ("_nbytes", "_spellings", "pos", "start", "vocab")

    def __init__(self, text: str) -> None:
        self.pos: array[int]
        self.start: array[int]
        if len(text) >= NUMPY_MIN_CHARS:
            self.vocab, self.pos, self.start = _grouped_by_numpy(text)
        else:
            self.vocab, self.pos, self.start = _grouped(text)
        self._spellings: _Spellings | None = None  # built on first misspelt lookup
        self._nbytes: int | None = None

    def nbytes(self) -> int:
        """Bytes held: the arrays, the vocabulary and the misspelling lookup once built (as
        ``sys.getsizeof`` counts the dicts, their keys and values). Measured once per part."""
        if self._nbytes is None:
            size = _array_bytes(self.pos) + _array_bytes(self.start) + _dict_bytes(self.vocab)
            if self._spellings is not None:
                size += self._spellings.nbytes()
            self._nbytes = size
        return self._nbytes

    def of(self, word: str) -> array[int]:
        """Where ``word`` occurs, in order."""
        return self.pos[slice(*self.bounds(word))]

    def bounds(self, word: str) -> tuple[int, int]:
        """Where ``word``'s occurrences are in `pos`: ``[first, last)``."""
        word_id = self.vocab.get(word)
        if word_id is None:
            return (0, 0)
        return (self.start[word_id], self.start[word_id + 1])

    def frequency(self, word: str) -> int:
        first, last = self.bounds(word)
        return last - first

    def similar_words(self, word: str, most: int = 3) -> list[str]:
        """Source words within a few edits of a word the source lacks (a misspelling): of
        the 50 sharing most of its trigrams (ties: the first in the text first), those within
        a quarter of its length in edits."""
        spellings = self._spellings
        if spellings is None:
            spellings = self._spellings = _Spellings(list(self.vocab))
            self._nbytes = None  # measured again with the lookup
        wanted = _trigrams(word)
        tally: Counter[int] = Counter()
        for g in wanted:
            tally.update(spellings.holding(g))
        allowed = max(1, len(word) // 4)
        close = [
            spellings.words[i]
            for i, shared in tally.most_common(50)
            if shared * 2 >= len(wanted) and distance(word, spellings.words[i]) <= allowed
        ]
        return close[:most]


class _Spellings:
    """A source's words (casefolded, by id), each padded as its trigrams are (``^word$``)
    and all joined in one text: the words holding a trigram are found by scanning that text
    (`str.find`, C speed) instead of looked up in an index of every trigram of every word,
    which costs more to build than the few lookups a misspelt quote makes. No trigram of a
    padded word spans two of them: ``^`` and ``$`` stand only at a trigram's ends."""

    __slots__ = ("_joined", "_starts", "words")

    def __init__(self, words: list[str]) -> None:
        self.words = words
        padded = [f"^{word}$" for word in words]
        self._joined = "".join(padded)
        self._starts = array("q", accumulate(map(len, padded), initial=0))

    def holding(self, gram: str) -> list[int]:
        """The ids of the words with ``gram`` among their trigrams, in order."""
        found: list[int] = []
        at = self._joined.find(gram)
        while at >= 0:
            word = bisect_right(self._starts, at) - 1
            found.append(word)
            at = self._joined.find(gram, self._starts[word + 1])
        return found

    def nbytes(self) -> int:
        return sys.getsizeof(self._joined) + _array_bytes(self._starts) + sys.getsizeof(self.words)


class TextIndex:
    """What finding quotes needs about one text and its paragraphs, whichever source carries
    them: built once and shared (see `IndexCache`). Thread-safe: the lazy parts are built
    under a lock; everything else is read-only."""

    __slots__ = (
        "_folded",
        "_found",
        "_lock",
        "_para_end",
        "_para_start",
        "_postings",
        "chars",
        "norm",
    )

    def __init__(self, text: str, paragraphs: tuple[Span, ...]) -> None:
        self.norm: Normalised = normalise(text)
        self.chars = len(text)
        # The paragraphs' original bounds; their normalised ones are found when asked for.
        self._para_start = array("q", [start for start, _ in paragraphs])
        self._para_end = array("q", [end for _, end in paragraphs])
        self._postings: _Postings | None = None
        self._folded: str | None = None
        self._lock = threading.Lock()
        # Recent search results: the same quote looked up again costs a dict access.
        self._found: OrderedDict[Hashable, object] = OrderedDict()

    def nbytes(self) -> int:
        """Bytes this index holds now: the normalised text, its offset map, the paragraph
        bounds and the lazy parts built so far (the candidate index, the casefolded text)."""
        size = sys.getsizeof(self.norm.text) + self.norm.offsets.nbytes
        size += _array_bytes(self._para_start) + _array_bytes(self._para_end)
        if self._folded:
            size += sys.getsizeof(self._folded)
        postings = self._postings
        if postings is not None:
            size += postings.nbytes()
        return size

    def recall(self, key: Hashable) -> object:
        """A result stored with `remember`, or `FORGOTTEN`."""
        with self._lock:
            found = self._found.get(key, FORGOTTEN)
            if found is not FORGOTTEN:
                self._found.move_to_end(key)
            return found

    def remember(self, key: Hashable, result: object) -> None:
        with self._lock:
            self._found[key] = result
            while len(self._found) > REMEMBERED_RESULTS:
                self._found.popitem(last=False)

    def postings(self) -> _Postings:
        """The candidate index, built on first call (O(size))."""
        built = self._postings
        if built is None:
            with self._lock:
                if self._postings is None:
                    self._postings = _Postings(self.norm.text)
                built = self._postings
        return built

    @property
    def has_postings(self) -> bool:
        return self._postings is not None

    def folded(self) -> str | None:
        """The normalised text casefolded, or lower-cased where casefolding would move
        offsets ("ß" is "ss" casefolded: a word whose two folds differ is then not found in
        it); None when both would."""
        if self._folded is None:
            text = self.norm.text
            folded = text.casefold()
            if len(folded) != len(text):
                folded = text.lower()
            with self._lock:
                self._folded = folded if len(folded) == len(text) else ""
        return self._folded or None


class SourceIndex:
    """Everything `find_quote` needs about one source; get it with `prepare`.

    Exact search runs on the normalised text; the candidate index for approximate search is
    built only when an approximate search needs it (`candidates`), once per text.
    """

    __slots__ = ("_core", "source")

    def __init__(self, source: Source, core: TextIndex | None = None) -> None:
        self.source = source
        self._core = core or TextIndex(source.text, source.paragraph_spans())

    @property
    def core(self) -> TextIndex:
        """The part shared by every source with the same text and paragraphs."""
        return self._core

    @property
    def norm(self) -> Normalised:
        return self._core.norm

    @property
    def text(self) -> str:
        """The normalised source text every normalised offset refers to."""
        return self._core.norm.text

    def for_source(self, source: Source) -> SourceIndex:
        """This index for another source with the same text and paragraphs."""
        return self if source is self.source else SourceIndex(source, self._core)

    def build_candidate_index(self) -> None:
        """Build the candidate index now rather than on the first approximate search."""
        self._core.postings()

    # -- paragraphs -------------------------------------------------------------------

    def paragraph_range(self, paragraph: int | None) -> tuple[int, int] | None:
        """Normalised ``[start, end)`` of 1-based ``paragraph``, None when out of range."""
        core = self._core
        if paragraph is None or not 1 <= paragraph <= len(core._para_start):
            return None
        bounds = (core._para_start[paragraph - 1], core._para_end[paragraph - 1])
        start, end = self.norm.offsets.to_normalised(bounds)
        return start, end

    def to_normalised(self, originals: tuple[int, ...]) -> list[int]:
        """The normalised offset of each original offset (of the first character at or
        after it)."""
        return self.norm.offsets.to_normalised(originals)

    def paragraph_of(self, original: int) -> int:
        """1-based paragraph holding original index ``original``, or the nearest one."""
        starts, ends = self._core._para_start, self._core._para_end
        k = bisect_right(starts, original) - 1
        if k < 0:
            return 1
        if original < ends[k] or k + 1 >= len(starts):
            return k + 1
        before = original - ends[k]
        after = starts[k + 1] - original
        return k + 1 if before <= after else k + 2

    # -- postings ---------------------------------------------------------------------

    def frequency(self, word: str) -> int:
        return self._core.postings().frequency(word)

    def positions(self, word: str, offset: int, lo: int, hi: int) -> list[int]:
        """Possible quote starts ``p`` in ``[lo, hi)``: where ``word`` sits at ``p + offset``."""
        postings = self._core.postings()
        first, last = postings.bounds(word)
        a = bisect_left(postings.pos, lo + offset, first, last)
        b = bisect_left(postings.pos, hi + offset, a, last)
        return [p - offset for p in postings.pos[a:b]]

    # -- exact search -----------------------------------------------------------------

    def exact(self, quote: str, lo: int, hi: int, limit: int) -> list[int]:
        """Normalised starts of ``quote`` inside ``[lo, hi)``, on word boundaries, in order.

        A plain scan of the normalised text unless the candidate index is already built and
        the text is long enough for it to be faster.
        """
        text = self.text
        tokens = quote_tokens(quote)
        if len(text) < EXACT_SCAN_LIMIT or not tokens or not self._core.has_postings:
            return self._exact_scan(quote, lo, hi, limit)
        rarest = sorted(tokens, key=lambda t: self.frequency(t[0]))[:2]
        starts = self.positions(rarest[0][0], rarest[0][1], lo, hi)
        if len(rarest) > 1 and len(starts) > 1:
            other = set(self.positions(rarest[1][0], rarest[1][1], lo, hi))
            starts = [p for p in starts if p in other]
        found: list[int] = []
        for p in starts:
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
        """Likely normalised starts of an approximate occurrence of ``quote``, best first.

        The rarest few quote words vote for where the quote would start; nearby votes add up.
        """
        width = max(16, len(quote) // 3)
        if not self._core.has_postings and len(self.text) < POSTINGS_MIN_CHARS:
            scanned = self._scanned_votes(quote, budget)
            if scanned is not None:
                return _top_clusters(sorted(scanned), width, count)
        anchors = self._anchors(quote)
        if not anchors:
            return []
        postings = self._core.postings()
        votes: list[int] = []
        spent = 0
        for word, offset in anchors:
            posts = postings.of(word)[: max(budget - spent, 1)]
            votes += map(sub, posts, repeat(offset, len(posts)))
            spent += len(posts)
            if spent >= budget:
                break
        return _top_clusters(sorted(votes), width, count)

    def _scanned_votes(self, quote: str, budget: int, most: int = 6) -> list[int] | None:
        """Votes from the rarest few quote words, found by scanning the text: for a text
        this short a few C-speed passes cost less than building the candidate index. None
        when fewer than three quote words occur (a misspelt quote needs the index)."""
        folded = self._core.folded()
        if folded is None:
            return None
        # Longer words are rarer: count those first, and only until enough occur.
        words = sorted(
            ((word, offset) for word, offset in quote_tokens(quote) if len(word) >= 3),
            key=lambda t: -len(t[0]),
        )
        known: list[tuple[int, str, int]] = []
        for word, offset in words:
            count = folded.count(word)
            if count:
                known.append((count, word, offset))
                if len(known) >= 2 * most:
                    break
        if len(known) < 3:
            return None
        known.sort()
        votes: list[int] = []
        for _, word, offset in known[:most]:
            for at in whole_word_hits(folded, word):
                if len(votes) >= budget:
                    break
                votes.append(at - offset)
        return votes

    def _anchors(self, quote: str, most: int = 6) -> list[tuple[str, int]]:
        postings = self._core.postings()
        known: list[tuple[int, str, int]] = []
        unknown: list[tuple[str, int]] = []
        for word, offset in quote_tokens(quote):
            freq = postings.frequency(word)
            if freq:
                known.append((freq, word, offset))
            elif len(word) >= 3:
                unknown.append((word, offset))
        if len(known) < 3:  # too few words to anchor on: try source words close to the others
            for word, offset in unknown:
                known.extend(
                    (postings.frequency(w), w, offset) for w in postings.similar_words(word)
                )
        known.sort()
        return [(word, offset) for _, word, offset in known[:most]]


def _trigrams(word: str) -> set[str]:
    padded = f"^{word}$"
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def densest_first(votes: Sequence[int], width: int) -> tuple[list[int], list[int]]:
    """For sorted ``votes``: how many votes the window of ``width`` from each holds, and the
    votes' indices by that, densest first (ties: the earliest first)."""
    n = len(votes)
    ends = map(bisect_left, repeat(votes, n), map(add, votes, repeat(width, n)))
    density = list(map(sub, ends, range(n)))
    return density, sorted(range(n), key=density.__getitem__, reverse=True)


def _top_clusters(votes: list[int], width: int, count: int) -> list[int]:
    """Starts of the ``count`` densest windows of ``width`` among sorted ``votes``."""
    _, order = densest_first(votes, width)
    chosen: list[int] = []
    for i in order[: 50 * count]:
        v = votes[i]
        if all(abs(v - c) >= width for c in chosen):
            chosen.append(v)
            if len(chosen) >= count:
                break
    return chosen


def _grouped(text: str) -> tuple[dict[str, int], array[int], array[int]]:
    """The postings of ``text`` (see `_Postings`): the vocabulary (casefolded word -> id, in
    order of first occurrence), every word's starts grouped by id, where each group starts."""
    groups: dict[str, list[int]] = {}
    if text.isascii():  # lower-casing keeps offsets, and is casefolding, in ASCII
        for m in WORD.finditer(text.lower()):
            groups.setdefault(m.group(), []).append(m.start())
    else:
        for m in WORD.finditer(text):
            groups.setdefault(m.group().casefold(), []).append(m.start())
    vocab = dict(zip(groups, range(len(groups)), strict=True))
    pos = array("q")
    for starts in groups.values():
        pos.extend(starts)
    start = array("q", accumulate(map(len, groups.values()), initial=0))
    return vocab, pos, start


def _grouped_by_numpy(text: str) -> tuple[dict[str, int], array[int], array[int]]:
    """`_grouped`, with numpy: for a long text."""
    import numpy as np

    vocab, starts, ids = _tokenize(text)
    order = np.argsort(ids, kind="stable")
    counts = np.bincount(ids, minlength=len(vocab))
    bounds = np.concatenate(([0], np.cumsum(counts)))
    return vocab, _int_array(starts[order]), _int_array(bounds)


def _int_array(values: npt.NDArray[np.integer]) -> array[int]:
    import numpy as np

    converted = array("q")
    converted.frombytes(values.astype(np.int64).tobytes())
    return converted


def _array_bytes(values: array[int]) -> int:
    return len(values) * values.itemsize


def _tokenize(text: str) -> tuple[dict[str, int], npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """Vocabulary (casefolded word -> id), word starts, and word ids in text order."""
    import numpy as np

    vocab: dict[str, int] = {}
    add = vocab.setdefault
    if text.isascii():
        # Fast path: word starts from a byte mask, words from one findall.
        mask = _ascii_word()[np.frombuffer(text.encode("ascii"), dtype=np.uint8)]
        starts = _word_starts(mask)
        words = WORD.findall(text.lower())
        ids = [add(w, len(vocab)) for w in words]
        return vocab, starts, np.array(ids, dtype=np.int32)
    # The same with a code-point mask: the few distinct non-ASCII characters are asked once
    # whether they are word characters (``\w`` is ``str.isalnum()`` or "_").
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    ascii_points = points < 128
    mask = np.zeros(len(points), dtype=bool)
    mask[ascii_points] = _ascii_word()[points[ascii_points]]
    high = np.flatnonzero(~ascii_points)
    distinct, which = np.unique(points[high], return_inverse=True)
    wordy = np.array([chr(c).isalnum() for c in distinct.tolist()], dtype=bool)
    mask[high] = wordy[which] if len(distinct) else False
    starts = _word_starts(mask)
    words = WORD.findall(text)
    if len(words) == len(starts):
        ids = [add(w.casefold(), len(vocab)) for w in words]
        return vocab, starts, np.array(ids, dtype=np.int32)
    positions: list[int] = []  # a character the mask disagrees with ``re`` on: go slowly
    ids = []
    for m in WORD.finditer(text):
        positions.append(m.start())
        ids.append(add(m.group().casefold(), len(vocab)))
    return vocab, np.array(positions, dtype=np.int64), np.array(ids, dtype=np.int32)


def _word_starts(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    import numpy as np

    edges = np.flatnonzero(mask[1:] & ~mask[:-1]) + 1
    starts = np.concatenate(([0], edges)) if len(mask) and mask[0] else edges
    return starts.astype(np.int64)
