"""Bounded alignment with edlib, and snapping a matched span to whole words."""

from __future__ import annotations

import re
import threading
from array import array
from collections import OrderedDict
from functools import lru_cache
from itertools import accumulate, repeat
from operator import add
from typing import Any

import edlib
from rapidfuzz.distance import Levenshtein

_MAX_LOCATIONS = 4  # equally good alignments tried per window; more are near-duplicates


def _encode(query: str, target: str) -> tuple[str | bytes, str | bytes]:
    """edlib accepts at most 256 distinct symbols: recode non-ASCII input when needed.

    Characters absent from the query can never match it, so they may share one code.
    """
    if query.isascii() and target.isascii():
        return query, target
    alphabet = set(query)
    if len(alphabet | set(target)) <= 256:
        return query, target
    codes = {char: 1 + i % 255 for i, char in enumerate(sorted(alphabet))}
    return (
        bytes(codes[c] for c in query),
        bytes(codes.get(c, 0) for c in target),
    )


def infix(query: str, target: str, max_distance: int) -> tuple[int, list[tuple[int, int]]] | None:
    """Best placement of ``query`` inside ``target``: (distance, [(start, end), ...]).

    ``end`` is exclusive. None when no placement is within ``max_distance`` edits.
    """
    if not query or not target:
        return None
    q, t = _encode(query, target)
    return _aligned(q, t, max_distance)


def _aligned(
    query: str | bytes, target: str | bytes, max_distance: int
) -> tuple[int, list[tuple[int, int]]] | None:
    result: dict[str, Any] = edlib.align(query, target, mode="HW", task="locations", k=max_distance)
    distance = int(result["editDistance"])
    if distance < 0:
        return None
    spans: list[tuple[int, int]] = []
    for start, end in result["locations"]:
        span = (int(start), int(end) + 1)
        if span not in spans:
            spans.append(span)
        if len(spans) >= _MAX_LOCATIONS:
            break
    return distance, spans


_TOKEN = re.compile(r"\S+")
_NON_WORD = re.compile(r"\W+")
_ASCII_NON_WORD = dict.fromkeys(c for c in range(128) if not (chr(c).isalnum() or chr(c) == "_"))
_MARK = "\x01"
_ASCII_NON_WORD_BUT_MARK = {c: None for c in _ASCII_NON_WORD if c != ord(_MARK)}


def word_infix(quote: str, target: str, max_edits: int) -> tuple[int, list[tuple[int, int]]] | None:
    """Best placements of ``quote`` in ``target`` aligned word by word: a dropped or changed
    word costs one edit, so a gap in the middle never loses to cutting the quote short.

    Words are compared by their letters and digits (punctuation aside). Returns the word
    edits and character spans of ``target`` from the first aligned word's start to the last
    one's end, or None when no placement is within ``max_edits``.
    """
    quote_words = [_letters(w) for w in quote.split()]
    window = _window(target)
    words = window.words
    if not quote_words or not words:
        return None
    # Each distinct quote word is one symbol, every other word another: one byte each
    # (edlib aligns bytes many times faster than code points).
    codes: dict[str, int] = {}
    for word in quote_words:
        codes.setdefault(word, len(codes) + 1)
    if len(codes) < 256:
        query = bytes(codes[w] for w in quote_words)
        placed = _aligned(query, bytes(map(codes.get, words, repeat(0))), max_edits)
    else:  # more symbols than edlib takes: `_encode` makes some share one
        other = chr(0x4E00 + len(codes))
        chars = {w: chr(0x4DFF + code) for w, code in codes.items()}
        placed = infix(
            "".join(chars[w] for w in quote_words),
            "".join(chars.get(w, other) for w in words),
            max_edits,
        )
    if placed is None:
        return None
    starts, ends = window.bounds(target)
    return placed[0], [(starts[s], ends[e - 1]) for s, e in placed[1]]


_WINDOWS_KEPT_CHARS = 500_000  # characters of the windows whose words are kept
_WINDOW_MIN_CHARS = 2_000  # shorter windows are split again: cheaper than a lookup


class _Window:
    """The words of one window (`_window`) and, once a placement needs them, where its
    tokens start and end (`_token_bounds`)."""

    __slots__ = ("_bounds", "words")

    def __init__(self, target: str) -> None:
        tokens = target.split()
        if tokens and target.isascii() and _MARK not in target:
            # The tokens joined by a mark the table keeps, their other non-word characters
            # dropped and cut at the mark again: `_letters` of each, in C.
            self.words = _MARK.join(tokens).translate(_ASCII_NON_WORD_BUT_MARK).split(_MARK)
        else:
            self.words = [t if t.isalnum() else _letters(t) for t in tokens]
        self._bounds: tuple[array[int], array[int]] | None = None

    def bounds(self, target: str) -> tuple[array[int], array[int]]:
        """Where each token of ``target`` (the window's own text) starts, and ends."""
        if self._bounds is None:
            starts, ends = _token_bounds(target, len(self.words))
            self._bounds = (array("q", starts), array("q", ends))
        return self._bounds


_windows: OrderedDict[str, _Window] = OrderedDict()
_windows_chars = 0
_windows_lock = threading.Lock()


def _window(target: str) -> _Window:
    """The letters and digits of each ``\\S+`` token of ``target`` (`_letters`) and their
    bounds, kept for the longer windows most recently aligned: a source aligned whole for
    one quote is aligned whole for the next one too. ``str.split`` cuts where ``\\S+``
    tokens end (both ask ``Py_UNICODE_ISSPACE``), in C."""
    global _windows_chars
    if len(target) < _WINDOW_MIN_CHARS:
        return _Window(target)
    with _windows_lock:
        found = _windows.get(target)
        if found is not None:
            _windows.move_to_end(target)
            return found
    window = _Window(target)
    with _windows_lock:
        if target not in _windows:
            _windows[target] = window
            _windows_chars += len(target)
        while _windows_chars > _WINDOWS_KEPT_CHARS:
            dropped, _ = _windows.popitem(last=False)
            _windows_chars -= len(dropped)
    return window


def _token_bounds(target: str, count: int) -> tuple[list[int], list[int]]:
    """Where each of the ``count`` ``\\S+`` tokens of ``target`` starts and ends: from their
    lengths where one whitespace character parts each from the next (as in normalised text),
    else by the regex."""
    lengths = list(map(len, target.split()))
    lead = len(target) - len(target.lstrip())
    if len(lengths) == count and len(target.strip()) == sum(lengths) + count - 1:
        starts = list(accumulate(map(add, lengths, repeat(1)), initial=lead))[:-1]
        return starts, list(map(add, starts, lengths))
    spans = [m.span() for m in _TOKEN.finditer(target)]
    return [a for a, _ in spans], [b for _, b in spans]


def _letters(token: str) -> str:
    """``token`` without its non-word characters (most tokens have none: no regex then, and
    an ASCII one loses them by a table; ``\\w`` is `str.isalnum` or "_")."""
    if token.isalnum():
        return token
    if token.isascii():
        return token.translate(_ASCII_NON_WORD)
    return _NON_WORD.sub("", token)


def distance(a: str, b: str) -> int:
    """Plain (global) edit distance, case-sensitive."""
    return int(Levenshtein.distance(a, b))


def similarity(quote: str, matched: str) -> float:
    """The better of character and word similarity: 1.0 only for identical strings.

    Character similarity is 1 - edits / max(len). A whole changed or dropped word in a
    longer quote costs many characters but is one word: word similarity (1 - word edits /
    max(words), for quotes of at least `WORD_SIMILARITY_MIN_WORDS` words) scores it as such.
    """
    return max(char_similarity(quote, matched), word_similarity(quote, matched))


def char_similarity(quote: str, matched: str) -> float:
    """1 - edits / max(len)."""
    longest = max(len(quote), len(matched))
    if longest == 0:
        return 0.0
    return 1.0 - distance(quote, matched) / longest


WORD_SIMILARITY_MIN_WORDS = 5
_WORDS = re.compile(r"\w+")


def word_similarity(quote: str, matched: str) -> float:
    """1 - word edits / max(words); 0.0 for quotes too short for words to say much."""
    quote_words = _words(quote)
    matched_words = _words(matched)
    if max(len(quote_words), len(matched_words)) < WORD_SIMILARITY_MIN_WORDS or not matched_words:
        return 0.0
    edits = int(Levenshtein.distance(quote_words, matched_words))
    similar = 1.0 - edits / max(len(quote_words), len(matched_words))
    # Identical words with different punctuation are not identical text.
    return min(similar, 0.99) if quote != matched else 1.0


@lru_cache(maxsize=4096)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORDS.findall(text))


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def snap_options(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Ways to move ``[start, end)`` onto whole words of ``text``: outward and inward at each
    edge where it cuts a word, then trimmed of surrounding spaces.
    """
    lefts = [start]
    if 0 < start < len(text) and _is_word(text[start - 1]) and _is_word(text[start]):
        out = start
        while out > 0 and _is_word(text[out - 1]):
            out -= 1
        inward = start
        while inward < end and _is_word(text[inward]):
            inward += 1
        lefts = [out, inward]
    rights = [end]
    if 0 < end < len(text) and _is_word(text[end - 1]) and _is_word(text[end]):
        out = end
        while out < len(text) and _is_word(text[out]):
            out += 1
        inward = end
        while inward > start and _is_word(text[inward - 1]):
            inward -= 1
        rights = [out, inward]
    # An LLM that changed the first or last word leaves the alignment one word short of the
    # passage it quoted: offer one more whole word on each side too.
    # (two words: a word dropped next to the edge shifts the alignment by one more).
    for _ in range(2):
        lefts.append(_previous_word_start(text, min(lefts)))
        rights.append(_next_word_end(text, max(rights)))
    # ...and one without the punctuation at each edge ("1916." for a quote ending "1916").
    lefts += [_skip_punctuation(text, left, end) for left in lefts]
    rights += [_drop_punctuation(text, start, right) for right in rights]
    # ...and each edge with the punctuation that clings to its word ("science." for "science").
    lefts += [_token_start(text, left) for left in lefts]
    rights += [_token_end(text, right) for right in rights]
    # ...and every cut inside a run of punctuation: '"ango".' offers '"ango"' for '"ango"'.
    lefts += [p for left in lefts for p in _punctuation_cuts(text, left, forward=True)]
    rights += [p for right in rights for p in _punctuation_cuts(text, right, forward=False)]
    # Never a cut word, whatever the edge.
    lefts = [p for p in dict.fromkeys(lefts) if not _inside_word(text, p)]
    rights = [p for p in dict.fromkeys(rights) if not _inside_word(text, p)]
    options: list[tuple[int, int]] = []
    for left in lefts:
        for right in rights:
            s, e = left, right
            while s < e and text[s] == " ":
                s += 1
            while e > s and text[e - 1] == " ":
                e -= 1
            if s < e and (s, e) not in options:
                options.append((s, e))
    return options


def _punctuation_cuts(text: str, position: int, *, forward: bool) -> list[int]:
    """Positions inside the run of punctuation that ``position`` borders."""
    cuts: list[int] = []
    step = 1 if forward else -1
    i = position
    for _ in range(3):
        at = i if forward else i - 1  # the character this cut would step over
        if not 0 <= at < len(text) or text[at].isspace() or _is_word(text[at]):
            break
        i += step
        cuts.append(i)
    return cuts


def _inside_word(text: str, position: int) -> bool:
    return 0 < position < len(text) and _is_word(text[position - 1]) and _is_word(text[position])


def _token_start(text: str, position: int) -> int:
    while position > 0 and not text[position - 1].isspace():
        position -= 1
    return position


def _token_end(text: str, position: int) -> int:
    while position < len(text) and not text[position].isspace():
        position += 1
    return position


def _skip_punctuation(text: str, start: int, end: int) -> int:
    while start < end and not _is_word(text[start]):
        start += 1
    return start


def _drop_punctuation(text: str, start: int, end: int) -> int:
    while end > start and not _is_word(text[end - 1]):
        end -= 1
    return end


def _previous_word_start(text: str, position: int) -> int:
    i = position
    while i > 0 and not _is_word(text[i - 1]):
        i -= 1
    while i > 0 and _is_word(text[i - 1]):
        i -= 1
    return i


def _next_word_end(text: str, position: int) -> int:
    i = position
    while i < len(text) and not _is_word(text[i]):
        i += 1
    while i < len(text) and _is_word(text[i]):
        i += 1
    return i
