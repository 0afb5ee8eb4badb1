"""All of an answer's sources as one text: which of them may hold a quote, and where, found
by one search over them all instead of one search per source.

The texts are joined, each as it is where normalisation keeps its words as they are
(`plain`), else normalised, with a separator no word crosses. A quote is looked up once over
the whole. Word for word (`Corpus.narrow`): the texts that hold its words in its order with
nothing but non-word characters between them (a regex search in each text holding its
longest word). Approximately
(`Corpus.places`): where the quote's rarest words cluster, as `SourceIndex.candidates` finds
them inside one source, the words found by scanning the casefolded text, or in word
postings once the texts are long enough for those to pay. Only the sources so named are
then searched, and only there (`find_quote`'s ``near``): the corpus narrows, the aligner
decides. Built once per set of texts and kept (`corpus_of`); what it found for a quote is
kept with it.
"""

from __future__ import annotations

import re
import sys
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from itertools import repeat
from operator import sub
from typing import TYPE_CHECKING, TypeVar

from citeproof.verifier.match._index import WORD, _Postings, densest_first, quote_tokens
from citeproof.verifier.match._normalise import normalise
from citeproof.verifier.match._probe import plain
from citeproof.verifier.match._quote import parse_quote
from citeproof.verifier.match._scan import rarest, scan

if TYPE_CHECKING:
    from citeproof.verifier.match._normalise import OffsetMap

SEPARATOR = "\x00"
"""Between two texts: not a word character, so no word found spans two sources."""
POSTINGS_MIN_CHARS = 4_000_000
"""From this many characters on, the corpus finds a quote's words in word postings (built
once, on the first approximate search) rather than by scanning its text for each word."""
MAX_PLACES = 16  # places of a quote's words looked at, densest first: each names a source
ANCHORS = 6  # rarest quote words that vote for where the quote would be
VOTES = 20_000  # most votes counted per quote
SCANNED_VOTES = 3_000  # ...and found by scanning, past the rarest two words
COUNTED = 6  # longest (rarest) quote words counted in the text when scanning...
SCANNED_ANCHORS = 4  # ...and the rarest of them that vote
REMEMBERED = 512  # answers kept per corpus, of each kind: a quote asked again costs a lookup
MAX_BYTES = 256 * 1024 * 1024
"""Bytes the kept corpora may hold, in all (least recently used go)."""


class Corpus:
    """The joined texts of one set of sources (in the order given; a text is named by its
    position). Thread-safe: the lazy parts (the casefolded text, the word postings) are
    built under a lock, everything else is read-only."""

    __slots__ = (
        "_folded",
        "_lock",
        "_maps",
        "_places",
        "_postings",
        "_remembered",
        "_starts",
        "_texts",
        "text",
    )

    def __init__(self, texts: Sequence[str]) -> None:
        parts: list[str] = []
        # For a text joined normalised, its map back to the text's own offsets.
        self._maps: list[OffsetMap | None] = []
        for text in texts:
            if plain(text):
                parts.append(text)
                self._maps.append(None)
            else:
                normalised = normalise(text)
                parts.append(normalised.text)
                self._maps.append(normalised.offsets)
        starts: list[int] = []
        at = 0
        for part in parts:
            starts.append(at)
            at += len(part) + len(SEPARATOR)
        self.text = SEPARATOR.join(parts)
        self._texts = tuple(texts)  # the caller's: each joined as it is, where plain
        self._starts = array("q", starts)
        self._folded: str | None = None
        self._postings: _Postings | None = None
        self._lock = threading.Lock()
        self._remembered: OrderedDict[str, tuple[int, ...] | None] = OrderedDict()
        self._places: OrderedDict[str, dict[int, tuple[int, ...]] | None] = OrderedDict()

    def __len__(self) -> int:
        return len(self._starts)

    def nbytes(self, texts: Sequence[str] = ()) -> int:
        """Bytes held now: the joined text, the casefolded one and the word postings once
        built, and ``texts`` (those it was built from, when the caller holds them too)."""
        size = sys.getsizeof(self.text) + len(self._starts) * self._starts.itemsize
        size += sum(sys.getsizeof(text) for text in texts)
        if self._folded is not None:
            size += sys.getsizeof(self._folded)
        if self._postings is not None:
            size += self._postings.nbytes()
        return size

    def narrow(self, quote: str) -> tuple[int, ...] | None:
        """Positions (in the order the texts were given) of the texts that may hold
        ``quote`` word for word; None when the corpus cannot tell (a quote with no ASCII
        word to look for): any of them may."""
        return _remembered(self._lock, self._remembered, quote, self._verbatim)

    def places(self, quote: str) -> dict[int, tuple[int, ...]] | None:
        """Where ``quote`` may be, approximately: for each text worth searching (by its
        position), offsets in that text near which the quote would start. None when the
        corpus cannot tell (no word of the quote is in any text): search them all."""
        return _remembered(self._lock, self._places, quote, self._approximate)

    def _ends(self) -> list[int]:
        """Where each text ends in the joined text."""
        return [*(start - len(SEPARATOR) for start in self._starts[1:]), len(self.text)]

    def source_at(self, position: int) -> int:
        """Which text the joined text's ``position`` falls in."""
        return bisect_right(self._starts, position) - 1

    # -- word for word ------------------------------------------------------------------

    def _verbatim(self, quote: str) -> tuple[int, ...] | None:
        """The texts holding the quote's words in its order with only non-word characters
        between them: all a word-for-word occurrence must leave in a text, whatever its
        normalisation changed (spaces, line breaks, quotation marks, dashes). One regex
        search inside each text that holds the quote's longest word (`_holding_longest`);
        once the word postings are built, inside each holding its rarest words."""
        words = WORD.findall(parse_quote(quote).bare)
        if not words:
            return None
        text, starts, ends = self.text, self._starts, self._ends()
        holding: Sequence[int]
        if self._postings is not None:
            holding = self._holding_rarest(words)
        else:
            holding = self._holding_longest(words, ends)
        if not holding:
            return ()
        pattern = re.compile(r"\W+".join(map(re.escape, words)))
        return tuple(k for k in holding if pattern.search(text, starts[k], ends[k]))

    def _holding_longest(self, words: list[str], ends: Sequence[int]) -> list[int]:
        """The texts holding the longest of ``words`` (as written). A word no text holds (a
        misspelt one, most often the longest) costs one pass over the joined text and no
        regex search; the texts that hold a long word are few."""
        longest = min(words, key=lambda word: (-len(word), word))
        find, starts = self.text.find, self._starts
        return [k for k in range(len(starts)) if find(longest, starts[k], ends[k]) >= 0]

    def _holding_rarest(self, words: list[str]) -> tuple[int, ...]:
        """The texts holding each of the three rarest of ``words`` (casefolded), by the
        word postings."""
        postings = self._built_postings()
        folded = {word.casefold() for word in words}
        rarest = sorted((postings.frequency(word), word) for word in folded)[:3]
        if rarest[0][0] == 0:
            return ()
        holding: list[int] | None = None
        for _, word in rarest:
            texts = self._texts_at(postings.of(word))
            if holding is not None:
                also = set(texts)
                texts = [t for t in holding if t in also]
            holding = texts
        assert holding is not None
        return tuple(holding)

    def _texts_at(self, places: Sequence[int]) -> list[int]:
        """The texts (in order) in which the sorted ``places`` of the joined text fall: one
        search among the places per text found."""
        starts = self._starts
        found: list[int] = []
        i = 0
        while i < len(places):
            text = self.source_at(places[i])
            found.append(text)
            if text + 1 >= len(starts):
                break
            i = bisect_left(places, starts[text + 1], i)
        return found

    # -- approximately ------------------------------------------------------------------

    def _approximate(self, quote: str) -> dict[int, tuple[int, ...]] | None:
        parsed = parse_quote(quote)
        if not parsed.segments:
            return {}
        segment = max(parsed.segments, key=len)
        votes = self._votes(segment)
        if votes is None:
            return None
        if not len(votes):  # no word of it is a whole word anywhere: any text may hold it
            return None
        width = max(16, len(segment) // 3)
        places = _densest(sorted(votes), width)
        found: dict[int, list[int]] = {}
        for place in places:
            # A place just before a text's start may be the quote at its start (its words
            # sit closer together there than in the quote): that text is named too.
            for at in dict.fromkeys((max(place, 0), max(place + width, 0))):
                source = self.source_at(at)
                start = self._starts[source]
                found.setdefault(source, []).append(max(place, start) - start)
        return {source: self._original(source, found[source]) for source in sorted(found)}

    def _original(self, source: int, offsets: list[int]) -> tuple[int, ...]:
        """Offsets into the joined part of text ``source`` as offsets into the text."""
        offset_map = self._maps[source]
        unique = sorted(set(offsets))
        if offset_map is None:
            return tuple(unique)
        return tuple(dict.fromkeys(offset_map.start(o) for o in unique))

    def _votes(self, segment: str) -> list[int] | None:
        """Where the segment would start, by each occurrence of its rarest words; None
        when no word of it can be looked for."""
        if len(self.text) >= POSTINGS_MIN_CHARS:
            return self._posted_votes(segment)
        return self._scanned_votes(segment)

    def _posted_votes(self, segment: str) -> list[int] | None:
        postings = self._built_postings()
        known: list[tuple[int, str, int]] = []
        unknown: list[tuple[str, int]] = []
        for word, offset in quote_tokens(segment):
            freq = postings.frequency(word)
            if freq:
                known.append((freq, word, offset))
            elif len(word) >= 3:
                unknown.append((word, offset))
        if len(known) < 3:  # a misspelt quote: source words close to its unknown ones
            for word, offset in unknown:
                known.extend(
                    (postings.frequency(w), w, offset) for w in postings.similar_words(word)
                )
        if not known:
            return None
        known.sort()
        votes: list[int] = []
        for _, word, offset in known[:ANCHORS]:
            posts = postings.of(word)[: max(VOTES - len(votes), 1)]
            votes += map(sub, posts, repeat(offset, len(posts)))
            if len(votes) >= VOTES:
                break
        return votes

    def _scanned_votes(self, segment: str) -> list[int] | None:
        """The same from a scan of the casefolded text: the `COUNTED` longest words
        counted, the rarest `SCANNED_ANCHORS` of them found (whole words), but past the
        rarest two only while they occur `SCANNED_VOTES` times in all. Each word's count
        and occurrences come from one pass over the text (`scan`), a frequent word's
        from a pass that stops early: few words, the longest (most often the rarest)."""
        folded = self._built_folded()
        words = sorted(
            ((word, offset) for word, offset in quote_tokens(segment) if len(word) >= 3),
            key=lambda t: (-len(t[0]), t[1]),
        )
        known = rarest(folded, [scan(folded, *w) for w in words[:COUNTED]], SCANNED_ANCHORS)
        if not known:
            return None
        votes: list[int] = []
        counted = 0
        for n, (count, scanned) in enumerate(known):
            if n >= 2 and counted + count > SCANNED_VOTES:
                break
            counted += count
            most = len(votes) + VOTES
            for at in scanned.whole_word_hits(folded):
                if len(votes) >= most:
                    break
                votes.append(at - scanned.offset)
        return votes

    def _built_folded(self) -> str:
        """The joined text casefolded, text by text (see `_fold`)."""
        if self._folded is None:
            folded = SEPARATOR.join(map(_fold, self._parts()))
            with self._lock:
                self._folded = folded
        return self._folded

    def _parts(self) -> Iterator[str]:
        """The texts as joined: a plain one is the caller's text itself."""
        for text, offset_map, start, end in zip(
            self._texts, self._maps, self._starts, self._ends(), strict=True
        ):
            yield text if offset_map is None else self.text[start:end]

    def _built_postings(self) -> _Postings:
        built = self._postings
        if built is None:
            with self._lock:
                if self._postings is None:
                    self._postings = _Postings(self.text)
                built = self._postings
        return built


def _fold(text: str) -> str:
    """``text`` casefolded, or lower-cased where casefolding would move offsets ("ß" is "ss"
    casefolded), or as it is where both would: a word is then found only as written."""
    if text.isascii():
        return text.lower()
    folded = text.casefold()
    if len(folded) != len(text):
        folded = text.lower()
    return folded if len(folded) == len(text) else text


def _densest(votes: list[int], width: int) -> list[int]:
    """Starts of the densest windows of ``width`` among sorted ``votes``: those with as
    many votes as the densest or one fewer (a misspelt or changed word votes nowhere), but
    never a place only one word voted for when another had two; densest first, then
    earliest, at most `MAX_PLACES`. A short quote's words may occur together in many
    places: which of them is the quote, only the aligner can tell."""
    density, order = densest_first(votes, width)
    top = density[order[0]] if order else 0
    floor = max(top - 1, min(top, 2))
    chosen: list[int] = []
    for i in order[: 50 * MAX_PLACES]:
        if density[i] < floor or len(chosen) >= MAX_PLACES:
            break
        v = votes[i]
        if all(abs(v - c) >= width for c in chosen):
            chosen.append(v)
    return chosen


_V = TypeVar("_V")


def _remembered(
    lock: threading.Lock,
    table: OrderedDict[str, _V],
    quote: str,
    find: Callable[[str], _V],
) -> _V:
    """``find(quote)``, kept in ``table`` (the `REMEMBERED` most recent)."""
    with lock:
        if quote in table:
            table.move_to_end(quote)
            return table[quote]
    found = find(quote)
    with lock:
        table[quote] = found
        while len(table) > REMEMBERED:
            table.popitem(last=False)
    return found


class CorpusCache:
    """Corpora kept by their texts (the texts themselves are the key: the same strings
    given again, or equal ones, find the corpus built before), least recently used go once
    they hold more than ``max_bytes`` (`Corpus.nbytes`, the texts they are keyed by
    included). An entry is measured when stored and again each time it is used, so the
    parts a corpus builds later count from its next use. Thread-safe; two threads asking for
    the same new set may both build it, one is kept; a corpus over the bound on its own is
    built but not kept."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, ...], Corpus] = OrderedDict()
        self._sizes: dict[tuple[str, ...], int] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def nbytes(self) -> int:
        """Bytes the corpora kept held when last measured."""
        return self._bytes

    def get(self, texts: Sequence[str]) -> Corpus:
        key = tuple(texts)
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self._store(key, found)
                return found
        corpus = Corpus(key)
        with self._lock:
            if key in self._entries:
                return self._entries[key]
            self._store(key, corpus)
        return corpus

    def _store(self, key: tuple[str, ...], corpus: Corpus) -> None:
        """Keep (or measure again) ``corpus``, then drop the least recently used over the
        bound; under the lock."""
        size = corpus.nbytes(key)
        self._bytes += size - self._sizes.pop(key, 0)
        self._entries[key] = corpus
        self._sizes[key] = size
        while self._bytes > self.max_bytes and self._entries:
            dropped, _ = self._entries.popitem(last=False)
            self._bytes -= self._sizes.pop(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._sizes.clear()
            self._bytes = 0


CORPORA = CorpusCache()
"""The corpora every verification in this process shares."""


def corpus_of(texts: Sequence[str]) -> Corpus:
    """The corpus of ``texts`` (in this order), built now only if not kept (`CORPORA`)."""
    return CORPORA.get(texts)
