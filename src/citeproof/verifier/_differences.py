"""How a quote's words differ from a source's words, and which differences change the meaning
(F.1).

`compare(written, source)` aligns the two texts word by word and names every difference:
``whitespace``, ``punctuation``, ``case`` and ``spelling`` are cosmetic; ``number``, ``name``,
``negation`` and ``date`` always change the meaning, and so do the small words that carry it
(`MEANING_WORDS`): a ``modal`` ("must" / "may"), a ``direction`` ("before" / "after",
"above" / "below", "more" / "less"), a ``stance`` ("for" / "against", "including" /
"excluding", "with" / "without"), a ``quantifier`` ("all" / "some") or a ``connective``
("and" / "or") added, dropped or swapped; a ``word`` difference changes it when a content
word (not merely a function word such as "the" or "of") was added, dropped or replaced. The
module depends on nothing else in the verifier, so any step that compares a statement with a
source (quotes here, unquoted claims elsewhere) can use it.

Typographic variants the matcher treats as equal (curly and straight quotation marks, dash
styles, runs of whitespace, invisible characters) are not differences.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA, Levenshtein, Opcode

from citeproof.model import Difference, DifferenceKind

COSMETIC_KINDS: frozenset[str] = frozenset({"whitespace", "punctuation", "case", "spelling"})
"""Kinds that never change the meaning."""
# Month names that are also everyday words: a date only where written as a month ("May").
_AMBIGUOUS_MONTHS = frozenset({"may", "march"})

_CANONICAL = str.maketrans(
    {
        **{c: '"' for c in "“”„‟«»「」『』〝〞〟″‶＂"},
        **{c: "'" for c in "‘’‚‛‹›′‵＇"},
        **{c: "-" for c in "‐‑‒–—―−"},
        **{c: " " for c in "\t\n\v\f\r\xa0\u2007\u202f\u2028\u2029\u3000"},
        **{c: None for c in "\u200b\u200c\u200d\u2060\ufeff\u00ad"},
        "…": "...",
    }
)
_TOKEN = re.compile(r"\w+(?:'\w+)*|[^\w\s]")
_DIGIT = re.compile(r"\d")


def _vocabulary(words: str) -> frozenset[str]:
    return frozenset(words.split())


NEGATIONS = _vocabulary(
    "not no never none nobody nothing nowhere neither nor cannot without "
    "n't ain't aren't can't couldn't didn't doesn't don't hadn't hasn't haven't isn't "
    "mightn't mustn't needn't shan't shouldn't wasn't weren't won't wouldn't"
)
DATE_WORDS = _vocabulary(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "monday tuesday wednesday thursday friday saturday sunday "
    "bc bce ad ce"
)
NUMBER_WORDS = _vocabulary(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred thousand million billion trillion dozen half twice thrice "
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "once single double triple percent"
)
FUNCTION_WORDS = _vocabulary(
    "a an the and or but if then than that this these those there here which who whom whose "
    "what when where why how of in on at by for with from to into onto upon about above "
    "below over under between among through during before after since until till within "
    "across along around against toward towards via per as is are was were be been being "
    "am do does did done has have had having will would shall should can could may might "
    "must it its it's he him his she her hers they them their theirs we us our ours you "
    "your yours i me my mine one's also so such too very just only both each either any "
    "all some most more much many other another same own while although though because "
    "whether yet still even up down out off again further once s"
)
MEANING_WORDS: dict[str, frozenset[str]] = {
    "modal": _vocabulary("must may might can could shall should will would need ought"),
    "direction": _vocabulary(
        "before after above below over under more less fewer greater higher lower up down "
        "earlier later since until till into beyond most least first last"
    ),
    "stance": _vocabulary(
        "for against with without including excluding include exclude includes excludes "
        "pro anti except unless only"
    ),
    "quantifier": _vocabulary(
        "all some any every each none both either few many several most no always sometimes "
        "often rarely usually"
    ),
    "connective": _vocabulary("and or but nor"),
}
"""The function words that carry meaning, by the kind of difference swapping one makes."""
MEANING_KINDS: frozenset[str] = frozenset(MEANING_WORDS)
FACT_KINDS: frozenset[str] = frozenset({"number", "name", "negation", "date"}) | MEANING_KINDS
"""Kinds that always change the meaning."""
# Small words whose mere presence moves the meaning: adding or dropping one is a change.
_ALONE_CHANGES_MEANING = _vocabulary(
    "only except unless without excluding including all every no none must may might "
    "more less least most before after above below or"
)
_SENTENCE_END = frozenset(".!?")
# A full stop after these ends an abbreviation, not a sentence: "M. Mensah", "Dr. Okafor".
_ABBREVIATIONS = _vocabulary("mr mrs ms dr prof st jr sr gen col lt capt sgt rev hon vs no")


@dataclass(frozen=True, slots=True)
class Comparison:
    """The result of `compare`: the differences, and how many words the texts share in
    order (the length of their shared context)."""

    differences: tuple[Difference, ...]
    shared_words: int
    words: int

    @property
    def meaning_changed(self) -> bool:
        return any(d.changes_meaning for d in self.differences)

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(d.kind for d in self.differences)


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    start: int
    end: int
    word: bool
    sentence_start: bool


def canonical(text: str) -> str:
    """``text`` with typographic variants made equal and whitespace runs collapsed."""
    flat = unicodedata.normalize("NFC", text).translate(_CANONICAL)
    return re.sub(r" {2,}", " ", flat).strip()


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    starts = True
    previous = ""
    for m in _TOKEN.finditer(text):
        value = m.group()
        word = value[0].isalnum() or value[0] == "_"
        tokens.append(_Token(value, m.start(), m.end(), word, starts))
        if word:
            starts = False
            previous = value
        elif value in _SENTENCE_END:
            starts = len(previous) > 1 and previous.casefold() not in _ABBREVIATIONS
    return tokens


def compare(written: str, source: str) -> Comparison:
    """Every difference between ``written`` (a quote as written) and ``source`` (the source's
    words for it), in the order they occur; ``before`` is from ``written``."""
    return _compare(written, source)


@lru_cache(maxsize=2048)
def _compare(written: str, source: str) -> Comparison:
    a_text, b_text = canonical(written), canonical(source)
    a, b = _tokens(a_text), _tokens(b_text)
    found: list[tuple[int, Difference]] = []
    shared = 0
    ops = Levenshtein.opcodes([t.text.casefold() for t in a], [t.text.casefold() for t in b])
    for tag, i1, i2, j1, j2 in _stretches(ops):
        if tag == "equal":
            for ta, tb in zip(a[i1:i2], b[j1:j2], strict=True):
                shared += ta.word
                if ta.text != tb.text:
                    found.append((ta.start, difference("case", ta.text, tb.text)))
            continue
        position = a[i1].start if i1 < len(a) else len(a_text)
        found.extend((position, d) for d in _block(a_text, b_text, a[i1:i2], b[j1:j2]))
    words = sum(t.word for t in a)
    return Comparison(tuple(_merge([d for _, d in found])), shared, words)


def _stretches(ops: Iterable[Opcode]) -> list[tuple[str, int, int, int, int]]:
    """The alignment as equal and unequal stretches: a replacement next to an insertion
    ("data base" / "database") is one change, not two."""
    out: list[tuple[str, int, int, int, int]] = []
    for op in ops:
        tag = "equal" if op.tag == "equal" else "change"
        if out and out[-1][0] == tag == "change":
            _, i1, _, j1, _ = out[-1]
            out[-1] = (tag, i1, op.src_end, j1, op.dest_end)
        else:
            out.append((tag, op.src_start, op.src_end, op.dest_start, op.dest_end))
    return out


def _span_text(text: str, tokens: list[_Token]) -> str:
    return text[tokens[0].start : tokens[-1].end] if tokens else ""


def _block(a_text: str, b_text: str, a: list[_Token], b: list[_Token]) -> list[Difference]:
    """The differences inside one unequal stretch of the alignment."""
    if "".join(t.text for t in a).casefold() == "".join(t.text for t in b).casefold():
        return [difference("whitespace", _span_text(a_text, a), _span_text(b_text, b))]
    a_words = [t for t in a if t.word]
    b_words = [t for t in b if t.word]
    out: list[Difference] = []
    if [t.text for t in a if not t.word] != [t.text for t in b if not t.word]:
        before = " ".join(t.text for t in a if not t.word)
        after = " ".join(t.text for t in b if not t.word)
        out.append(difference("punctuation", before, after))
    if not a_words and not b_words:
        return out
    if len(a_words) == len(b_words):
        for ta, tb in zip(a_words, b_words, strict=True):
            if ta.text.casefold() == tb.text.casefold():
                if ta.text != tb.text:
                    out.append(difference("case", ta.text, tb.text))
                continue
            out.append(difference(_kind([ta], [tb]), ta.text, tb.text))
        return out
    kind = _kind(a_words, b_words)
    out.append(difference(kind, _span_text(a_text, a_words), _span_text(b_text, b_words)))
    return out


def _kind(a: list[_Token], b: list[_Token]) -> DifferenceKind:
    """What kind of difference replacing words ``a`` by ``b`` is, most meaningful first."""
    a_folded = [t.text.casefold() for t in a]
    b_folded = [t.text.casefold() for t in b]
    if _negations(a_folded) != _negations(b_folded):
        return "negation"
    changed = set(a_folded) ^ set(b_folded)
    single = len(a) == 1 and len(b) == 1
    small = _small_word_kind(a, b, changed)
    if small is not None:
        return small
    if single and _misspelt(a_folded[0], b_folded[0]):
        return "spelling"  # "Auugst" is August misspelt, not another date
    if any(_is_date_word(t) for t in (*a, *b) if t.text.casefold() in changed):
        return "date"
    if any(_DIGIT.search(w) or w in NUMBER_WORDS for w in changed):
        return "number"
    if any(_is_name(t) for t in (*a, *b) if t.text.casefold() in changed):
        return "name"
    return "word"


def _small_word_kind(a: list[_Token], b: list[_Token], changed: set[str]) -> DifferenceKind | None:
    """The kind of a meaning-bearing small word swapped for another of its kind ("before" /
    "after"), or one of `_ALONE_CHANGES_MEANING` added, dropped or put in the place of a plain
    word ("only", "must"; "all" for "the"); None otherwise, and for words used as a date ("May
    2024"). "by" / "with" is no such swap: "by" carries no stance."""
    ours = [t.text.casefold() for t in a if t.text.casefold() in changed and not _is_date_word(t)]
    theirs = [t.text.casefold() for t in b if t.text.casefold() in changed and not _is_date_word(t)]
    # A name or figure in the swap is that fact changed ("Dunmore-Ireland" for "All-Ireland"),
    # and a word one typo from a small word is that word misspelt ("afetr").
    fact_or_typo = (len(ours) == len(theirs) == 1 and _misspelt(ours[0], theirs[0])) or any(
        _is_name(t) or _DIGIT.search(t.text) for t in (*a, *b) if t.text.casefold() in changed
    )
    for kind, words in MEANING_WORDS.items():
        mine = [w for w in ours if w in words]
        other = [w for w in theirs if w in words]
        if mine and other:
            return kind  # type: ignore[return-value]
        alone = mine if not theirs else other if not ours else []  # added or dropped
        if not alone and ours and theirs and not fact_or_typo:  # put where a plain word stood
            alone = mine if not other else other if not mine else []
        if any(w in _ALONE_CHANGES_MEANING for w in alone):
            return kind  # type: ignore[return-value]
    return None


def _is_date_word(token: _Token) -> bool:
    """A month or day name used as one: "may" and "march" only capitalised mid-sentence."""
    word = token.text.casefold()
    if word not in DATE_WORDS:
        return False
    if word in _AMBIGUOUS_MONTHS:
        return token.text[0].isupper() and not token.sentence_start
    return True


def _negations(words: list[str]) -> int:
    return sum(w in NEGATIONS or w.endswith("n't") for w in words)


def _misspelt(a: str, b: str) -> bool:
    """One typo apart (a letter added, dropped, changed or two swapped), in a word long
    enough for a typo to be told from another word. Digits are never typos ("1916" is not
    "1917"), nor is one number or date word for another ("fifty" is not "fifth")."""
    if _DIGIT.search(a) or _DIGIT.search(b) or min(len(a), len(b)) < 3:
        return False
    vocabulary = DATE_WORDS | NUMBER_WORDS
    if a in vocabulary and b in vocabulary:
        return False
    return OSA.distance(a, b) <= 1


def _is_name(token: _Token) -> bool:
    """A capitalised word that is not a function word and not merely a sentence's first."""
    text = token.text
    if not text[0].isupper() or text.casefold() in FUNCTION_WORDS:
        return False
    return not token.sentence_start or any(c.isupper() for c in text[1:])


def _merge(differences: list[Difference]) -> list[Difference]:
    """Adjacent cosmetic differences of one kind read better as one."""
    merged: list[Difference] = []
    for d in differences:
        last = merged[-1] if merged else None
        if last is not None and last.kind == d.kind == "case":
            merged[-1] = difference("case", f"{last.before} {d.before}", f"{last.after} {d.after}")
        else:
            merged.append(d)
    return merged


def difference(kind: DifferenceKind, before: str, after: str) -> Difference:
    """The `Difference` of ``kind`` between ``before`` (the quote's words) and ``after`` (the
    source's), with whether it changes the meaning: always for a number, name, negation or
    date difference and a meaning-bearing small word (`FACT_KINDS`), and for a ``word``
    difference that adds, drops or replaces a content word."""
    return Difference(kind, before, after, changes_meaning=_changes_meaning(kind, before, after))


def _changes_meaning(kind: DifferenceKind, before: str, after: str) -> bool:
    if kind in FACT_KINDS:
        return True
    if kind != "word":
        return False
    words = {w.casefold() for w in _TOKEN.findall(before)} ^ {
        w.casefold() for w in _TOKEN.findall(after)
    }
    # Negation words are weighed by the negation kind: "did not" / "didn't" is no change.
    return any(w not in FUNCTION_WORDS and _negations([w]) == 0 and w[0].isalnum() for w in words)
