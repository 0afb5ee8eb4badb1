"""A claim read against its passage: both parsed, and each content word of the claim matched
to a word of the passage by an equivalence that can be named.

Equivalences, in the order tried: the same word (``same``) or lemma (``lemma``); a rate's
period and its adjective (``period``: "a week" for "weekly"); the same
figure, date, duration or amount as the fact layer reads them (``figure``: "24 months" =
"two years", "£1.2 million" = "£1,200,000"); a WordNet synonym (``synonym``; a verb with
its particle read as the phrasal verb WordNet lists: "call off" = "cancel"; an adverb of two
words as one: "straight away" = "immediately"); a word the
passage says more narrowly (``broader``: the claim's "pay" for the passage's "reimburse"); a
word WordNet derives from the passage's (``derived``: "approves" for "approval"); a party's
name for the term the source defines it as, or back (``defined``: "Harrowgate" for "the
Licensee", `defined_terms`); the pronoun opening a passage sentence for the subject of the
sentence before (``antecedent``: "Amberley" for the "It" of "It may buy ..." after "The
Franchisee must buy ..."); in a mail thread, the "we", "I" or "you" of a message for a
word of the name of its writer or reader (``speaker``: "Tillpoint" for the "we" of a
message from tillpoint.example).
A word a prefix denies ("exclusive" of "non-exclusive") matches only a word the same prefix
denies. Words inside the claim's verified quotes are matched by their verification
(``quoted``).
Among several candidates the one in the passage sentence holding most of the claim's words
wins, then the one holding most of its figures, then the first.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from citeproof.model import Span
from citeproof.verifier.support._text import LIST_ITEM, LIST_REACH, STOP_WORDS, tokenize
from citeproof.verifier.support.confirm._parse import parse
from citeproof.verifier.support.lexicon import (
    ATTRIBUTION,
    CONDITION_PAIRS,
    DISCOURSE,
    DOCUMENTS,
    FRAMING_PREPOSITIONS,
    LIGHT_VERBS,
    MODALITY,
    NO_DEFINITIONS,
    PER_PERIOD,
    PRICE_NOUNS,
    RATE_WORDS,
    READER,
    THIRD_PERSON,
    WRITER,
    DefinedTerms,
    Message,
    WordNet,
    defined_terms,
    direction_of,
    quantifier_of,
    speakers,
    wordnet,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token
    from spacy.tokens import Span as Sent

CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"})
QUOTED = "quoted"


@dataclass(frozen=True, slots=True)
class Match:
    """Claim token ``claim`` matched to passage token ``passage`` (None: by its quote)."""

    claim: int
    passage: int | None
    how: str


@dataclass(slots=True)
class Reading:
    """What every rule reads: the two parses, the claim's content words and their matches."""

    claim: Doc
    passage: Doc
    content: tuple[int, ...]
    matches: dict[int, Match]
    figures: dict[tuple[str, int], str] = field(default_factory=dict)  # (side, token) → key
    units: dict[tuple[str, int], str] = field(default_factory=dict)
    lexicon: WordNet | None = None
    candidates: dict[int, list[Match]] = field(default_factory=dict)  # every match possible
    placed: frozenset[int] = frozenset()  # every passage token some candidate matches
    values: dict[tuple[str, int], float] = field(default_factory=dict)
    unnamed: tuple[int, ...] = ()  # names in the claim's framing the whole source never writes
    framing: frozenset[int] = frozenset()  # the words that only frame the claim ("Under the lease")
    defined: DefinedTerms = NO_DEFINITIONS  # the source's parties and their defined terms
    named: dict[int, tuple[Message, str]] = field(default_factory=dict)  # "we": its message

    def matched(self, i: int) -> Token | None:
        """The passage token claim token ``i`` is matched to, or None."""
        m = self.matches.get(i)
        return self.passage[m.passage] if m is not None and m.passage is not None else None

    def figure(self, side: str, i: int) -> str | None:
        return self.figures.get((side, i))


def lemma(token: Token) -> str:
    return token.lemma_.casefold()


def folded(token: Token) -> str:
    """The token's text, case folded, less a final full stop ("B." at a sentence's end)."""
    low = token.lower_
    return low[:-1] if len(low) > 1 and low.endswith(".") else low


def read(
    claim_text: str,
    passage_text: str,
    quoted: Sequence[Span] = (),
    source_text: str = "",
    lines: Sequence[tuple[int, int]] = (),
) -> Reading:
    """Parse both texts and match each content word of the claim (`content_words`). A name
    in the words that only attribute the claim ("Ana wrote that") need not be in the passage,
    but must be in ``source_text``, the whole cited source (the passage when not given).
    ``lines``: where each line of the passage stands in the source, so that a "we" is read in
    the message it was written in (`speakers`)."""
    claim, passage = parse(claim_text), parse(passage_text)
    lexicon = wordnet()
    reading = Reading(claim, passage, (), {}, lexicon=lexicon)
    if source_text:
        reading.defined = defined_terms(source_text)
        if lines:
            reading.named = _named(passage, passage_text, source_text, lines)
    _figures(reading, "claim", claim_text)
    _figures(reading, "passage", passage_text)
    framing = _framing(claim)
    content = content_words(claim, framing)
    reading.content = content
    whole = (source_text or passage_text).casefold()
    reading.framing = frozenset(framing)
    reading.unnamed = tuple(
        t.i
        for t in claim
        if t.i in framing
        and t.pos_ == "PROPN"
        and not re.search(rf"(?<!\w){re.escape(t.text.casefold())}(?!\w)", whole)
    )
    inside = [i for i in content if any(s <= claim[i].idx and claim[i].idx < e for s, e in quoted)]
    for i in inside:
        reading.matches[i] = Match(i, None, QUOTED)
    candidates = {
        i: _unless_denied(reading, i, _candidates(reading, i)) for i in content if i not in inside
    }
    reading.candidates = candidates
    reading.placed = frozenset(
        m.passage for found in candidates.values() for m in found if m.passage is not None
    )
    weight = _sentence_weight(reading, candidates)
    figures = _sentence_weight(
        reading, {i: [m for m in found if m.how == "figure"] for i, found in candidates.items()}
    )
    for i, found in candidates.items():
        if found:
            best = max(
                found,
                key=lambda m: (
                    weight.get(_sentence(passage, m.passage), 0),
                    figures.get(_sentence(passage, m.passage), 0),  # the figures say which
                    -_at(m),
                ),
            )
            reading.matches[i] = best
    for _ in range(2):  # twice: a verb's choice settles its arguments', and back
        _agree(reading, candidates)
    return reading


def _agree(reading: Reading, candidates: dict[int, list[Match]]) -> None:
    """Among a claim word's candidates in the sentence it was matched in, prefer the one
    whose neighbours in the parse are the matches of its own ("title passes" to the
    "passes" whose subject is "title", not to the "passes" of "risk passes")."""
    claim, passage = reading.claim, reading.passage
    for i, found in candidates.items():
        chosen = reading.matches.get(i)
        if chosen is None or chosen.passage is None:
            continue
        sentence = _sentence(passage, chosen.passage)
        rivals = [m for m in found if _sentence(passage, m.passage) == sentence]
        if len(rivals) < 2:
            continue
        token = claim[i]
        near = {t.i for t in (token.head, *token.children) if t.i != token.i}
        wanted = {
            m.passage for k in near if (m := reading.matches.get(k)) and m.passage is not None
        }

        reading.matches[i] = max(rivals, key=lambda m: _agreement(passage, m, wanted))


def _agreement(passage: Doc, match: Match, wanted: set[int]) -> tuple[int, int]:
    """How many of the passage word's parse neighbours are the matches ``wanted``; earlier
    first among equals."""
    assert match.passage is not None
    p = passage[match.passage]
    around = {t.i for t in (p.head, *p.children) if t.i != p.i}
    return (len(around & wanted), -match.passage)


def _at(match: Match) -> int:
    return match.passage if match.passage is not None else 0


def _sentence(doc: Doc, i: int | None) -> int:
    return statement(doc[i]) if i is not None else -1


def statement(token: Token) -> int:
    """Where the statement ``token`` belongs to starts: its sentence, or for an item of a list
    ("(c) tools used in a hire fleet.") the sentence ending in a colon that introduces the
    list ("The warranty does not cover:"), with only items (each ending in a semicolon or
    opening with a marker) between; the line right after a colon is its first item."""
    doc = token.doc
    sentence = token.sent
    if sentence.start and doc[sentence.start - 1].sent.text.rstrip().endswith(":"):
        return doc[sentence.start - 1].sent.start  # the first item, marked or not
    if not _item(sentence):
        return sentence.start
    for _ in range(LIST_REACH):
        if sentence.start == 0:
            break
        before = doc[sentence.start - 1].sent
        said = before.text.rstrip()
        if said.endswith(":"):
            return before.start
        if not _item(before):
            break
        sentence = before
    return token.sent.start


def lead_in(token: Token) -> Sent | None:
    """The sentence ending in a colon that opens the list ``token`` is in an item of ("The
    Directors must:" for "tell" of "(c) tell us of any fraud ..."), past the items before its
    own; None if it is in none."""
    doc = token.doc
    sentence = token.sent
    for _ in range(LIST_REACH):
        if sentence.start == 0 or not _item(sentence):
            return None
        before = doc[sentence.start - 1].sent
        if before.text.rstrip().endswith(":"):
            return before
        sentence = before
    return None


def _item(sentence: Sent) -> bool:
    """Whether ``sentence`` reads as an item of a list: it opens with a marker ("(c)", "-",
    "2.") or ends in a semicolon; or it is a marker's piece the parser split off ("(" of
    "(c) tell us ...", "-" of "- Milestone 1: ...")."""
    text = sentence.text
    return (
        text.rstrip().endswith(";")
        or bool(LIST_ITEM.match(text))
        or not any(c.isalnum() for c in text)
    )


def _sentence_weight(reading: Reading, candidates: dict[int, list[Match]]) -> dict[int, int]:
    weight: dict[int, int] = {}
    for found in candidates.values():
        for s in {_sentence(reading.passage, m.passage) for m in found}:
            weight[s] = weight.get(s, 0) + 1
    return weight


def content_words(claim: Doc, framing: set[int] | None = None) -> tuple[int, ...]:
    """The claim's tokens that must each find a match: nouns, names, verbs, adjectives,
    adverbs and numbers, less stop words, light verbs, modal verbs, the words of direction
    and quantity (their own rules read them), and the words that only
    attribute the claim to its source ("the lease states that", "according to the memo")."""
    framing = _framing(claim) if framing is None else framing
    out = []
    for t in claim:
        if t.i in framing or t.pos_ not in CONTENT_POS:
            continue
        if t.lower_ in STOP_WORDS and t.pos_ != "NUM" and not t.like_num:
            continue
        lem = lemma(t)
        if t.pos_ in ("VERB", "AUX") and (lem in MODALITY or (lem in LIGHT_VERBS and light(t))):
            continue
        if lem in DISCOURSE:
            continue
        if t.pos_ == "ADJ" and lem in MODALITY:  # "entitled", "required", "permitted"
            continue
        before = claim[t.i - 1].lower_ if t.i else ""
        if direction_of(lem) is not None or quantifier_of(lem, before) is not None:
            continue  # read by the direction and quantity rules
        after = claim[t.i + 1].lower_ if t.i + 1 < len(claim) else ""
        if (t.lower_, after) in CONDITION_PAIRS:
            continue  # "apart from", "other than": read by the condition rule
        out.append(t.i)
    return tuple(out)


def light(verb: Token) -> bool:
    """Whether a verb of `LIGHT_VERBS` carries little of its own here: it has a complement
    that says what it carries ("stays valid", "carries a Margin", "came to £14,424",
    "happens every year"). One with a particle is a phrasal verb of its own ("carry on
    using": continue), and one with no complement is the statement's verb ("the interpreter
    has to stay until it finishes"): each must find a match."""
    doc = verb.doc
    particles = [
        c
        for c in verb.children
        if c.dep_ == "prt"
        and not (c.lower_ == "up" and c.i + 1 < len(doc) and doc[c.i + 1].lower_ == "to")
    ]  # "get it up to two days later": "up to" opens a bound, the parser's particle or not
    return not particles and any(c.dep_ in _COMPLEMENTS for c in verb.children)


_COMPLEMENTS = frozenset(
    {"dobj", "attr", "acomp", "oprd", "xcomp", "ccomp", "prep", "dative", "agent", "npadvmod"}
)
"""How what a light verb carries hangs from it."""


def _framing(claim: Doc) -> set[int]:
    out: set[int] = set()
    for t in claim:
        lem = lemma(t)
        if lem == "accord" or t.lower_ == "according":
            out.update(x.i for x in t.subtree)
        elif lem == "word" and t.dep_ == "pobj" and t.head.lower_ == "in":
            out.update(x.i for x in t.head.subtree)  # "in the memo's words"
        elif _frames(t):
            out.update(x.i for x in t.subtree)  # "Under the reseller terms, ..."
        elif lem in ATTRIBUTION and t.pos_ == "VERB" and any(c.dep_ == "ccomp" for c in t.children):
            out.add(t.i)
            for c in t.children:
                if c.dep_ in ("nsubj", "nsubjpass", "aux", "advmod"):
                    out.update(x.i for x in c.subtree)
    return out


def _frames(token: Token) -> bool:
    """A phrase opening the claim that names the document it draws on, before the subject of
    its verb: "Under the reseller terms, the Reseller ...", "Per the contract, ..."."""
    if (
        token.lower_ not in FRAMING_PREPOSITIONS
        or token.dep_ != "prep"
        or token.head.dep_ != "ROOT"
    ):
        return False
    objects = [c for c in token.children if c.dep_ == "pobj"]
    subjects = [c.i for c in token.head.children if c.dep_ in ("nsubj", "nsubjpass")]
    return (
        bool(objects)
        and lemma(objects[0]) in DOCUMENTS
        and bool(subjects)
        and token.i < min(subjects)
    )


def _figures(reading: Reading, side: str, text: str) -> None:
    """Each token inside a figure, date or duration of the fact layer gets that figure's key."""
    doc = reading.claim if side == "claim" else reading.passage
    spans = [
        (t.span, t.key, t.unit, t.value) for t in tokenize(text) if t.kind in ("number", "date")
    ]
    if not spans:
        return
    for token in doc:
        for (start, end), key, unit, value in spans:
            if start <= token.idx < end:
                reading.figures[(side, token.i)] = key
                reading.units[(side, token.i)] = unit
                if value is not None:
                    reading.values[(side, token.i)] = value
                break


_CURRENCY = {"$": "dollar", "£": "pound", "€": "euro", "¥": "yen"}


def _same_amount(reading: Reading, i: int, p: int) -> bool:
    """The same value in units that agree: the same unit, one side with none ("2000" and
    "£2,000"; never a duration), or a currency's sign and its name ("$2 million", "two
    million dollars")."""
    ours, theirs = reading.values.get(("claim", i)), reading.values.get(("passage", p))
    if ours is None or theirs is None or ours != theirs:
        return False
    a, b = reading.units.get(("claim", i), ""), reading.units.get(("passage", p), "")
    if a == b:
        return True
    if not a or not b:
        return "d" not in (a, b)
    return _CURRENCY.get(a) == _unit_word(reading.passage[p]) or _CURRENCY.get(b) == _unit_word(
        reading.claim[i]
    )


def _unit_word(token: Token) -> str:
    """The currency a number's next words name ("dollars" → "dollar")."""
    doc = token.doc
    for k in range(token.i + 1, min(token.i + 3, len(doc))):
        word = lemma(doc[k])
        if word in _CURRENCY.values():
            return word
    return ""


def _the_whole_term(reading: Reading, word: str, p: Token) -> bool:
    """Whether each capitalised word compounded with ``p`` stands for the claim's ``word``
    too: the "Owner" of "Building Owner" is not the "Adjoining Owner" that Fenwick Holdings
    is defined as, though both end in "Owner"."""
    return all(
        reading.defined.same(word, folded(c))
        for c in p.children
        if c.dep_ == "compound" and c.text[:1].isupper() and c.i < p.i
    )


def _named(
    passage: Doc, text: str, source: str, lines: Sequence[tuple[int, int]]
) -> dict[int, tuple[Message, str]]:
    """Each "we", "I" or "you" of the passage that names someone, with the message of the
    source its line stands in and the pronoun, folded."""
    thread = speakers(source)
    if not thread.messages:
        return {}
    starts = [0, *(k + 1 for k, c in enumerate(text) if c == "\n")]
    out = {}
    for token in passage:
        pronoun = token.lower_
        if pronoun not in WRITER and pronoun not in READER:
            continue
        line = bisect.bisect_right(starts, token.idx) - 1
        if line < len(lines):
            message = thread.at(lines[line][0])
            if message is not None and message.named(pronoun):
                out[token.i] = (message, pronoun)
    return out


def _by_pronoun(passage: Doc, i: int, found: set[int | None]) -> list[Match]:
    """Claim token ``i`` as the pronoun that opens a passage sentence standing for the
    subject of the sentence before, where that subject is among ``found`` ("It may buy
    fresh dairy" after "The Franchisee must buy coffee ...": "It" is the Franchisee)."""
    out = []
    for sentence in list(passage.sents)[1:]:
        first = next(  # past a clause number: "1.2 It does not apply to:"
            (t for t in sentence if not (t.is_punct or t.is_space or t.like_num)), None
        )
        if first is None or first.lower_ not in THIRD_PERSON or first.dep_ not in SUBJECTS:
            continue
        before = passage[sentence.start - 1].sent
        subjects = [t for t in before.root.children if t.dep_ in SUBJECTS]
        named = {t.i for s in subjects for t in (s, *s.children) if t.dep_ in NAMING}
        if named & found:
            out.append(Match(i, first.i, "antecedent"))
    return out


SUBJECTS = frozenset({"nsubj", "nsubjpass"})
NAMING = frozenset({"nsubj", "nsubjpass", "compound", "appos"})


def _same_period(a: Token, b: Token) -> bool:
    """Whether one of ``a`` and ``b`` is a rate's period ("a week", "per month") and the
    other the adjective of a rate per that period ("weekly", "monthly")."""
    ours, theirs = _per(a), _per(b)
    return (ours is not None and ours == PER_PERIOD.get(folded(b))) or (
        theirs is not None and theirs == PER_PERIOD.get(folded(a))
    )


def _same_price(a: Token, b: Token) -> bool:
    """Whether one of ``a`` and ``b`` is "cost" and the other a noun that names a price
    (`PRICE_NOUNS`: "costs £345 a month" and "Monthly fee"), or "charge" (a heading the
    parser reads as a verb: "Charge £55.00"). The parser may read a verb "costs" after a
    compound as a noun."""
    return any(
        lemma(x) == "cost"
        and lemma(y) in PRICE_NOUNS
        and (y.pos_ in ("NOUN", "PROPN") or lemma(y) == "charge")
        for x, y in ((a, b), (b, a))
    )


def _per(token: Token) -> str | None:
    """The period ``token`` is a rate's ("week" of "£620 a week"), or None."""
    before = token.doc[token.i - 1].lower_ if token.i else ""
    return lemma(token) if before in RATE_WORDS and lemma(token) in PER_PERIOD.values() else None


def denied_by_prefix(token: Token) -> bool:
    """Whether ``token`` is denied by a prefix the parser splits off: "exclusive" of
    "non-exclusive", "refundable" of "non-refundable"."""
    doc, i = token.doc, token.i
    return (
        i >= 2
        and doc[i - 1].text == "-"
        and doc[i - 2].lower_ == "non"
        and not doc[i - 2].whitespace_
        and not doc[i - 1].whitespace_
    )


def _unless_denied(reading: Reading, i: int, found: list[Match]) -> list[Match]:
    """``found`` less the passage words a prefix denies where the claim's word has none, or
    the other way round: "exclusive" is no match for "non-exclusive". A word the claim
    denies itself keeps them ("cannot be assigned" for "is non-assignable": the denial
    rules read it)."""
    token = reading.claim[i]
    if any(c.dep_ == "neg" for c in (*token.children, *token.head.children)):
        return found
    ours = denied_by_prefix(token)
    return [
        m
        for m in found
        if m.passage is None or denied_by_prefix(reading.passage[m.passage]) == ours
    ]


def _candidates(reading: Reading, i: int) -> list[Match]:
    token = reading.claim[i]
    passage = reading.passage
    key = reading.figure("claim", i)
    if key is not None:
        same = [
            Match(i, p.i, "figure")
            for p in passage
            if reading.figure("passage", p.i) == key and p.lower_ == token.lower_
        ]
        keyed = [Match(i, p.i, "figure") for p in passage if reading.figure("passage", p.i) == key]
        valued = [Match(i, p.i, "figure") for p in passage if _same_amount(reading, i, p.i)]
        return same or keyed[:1] or valued[:1]
    lem, low = lemma(token), folded(token)
    exact = [
        Match(i, p.i, "same" if folded(p) == low else "lemma")
        for p in passage
        if folded(p) == low
        or (
            lemma(p) == lem and p.pos_ != "PUNCT" and (p.pos_ == "PROPN") == (token.pos_ == "PROPN")
        )
    ]
    # Beside the name itself, which may stand in its definition; a common noun the source
    # defines as a party's term stands for it too ("the auditor" for (the "Auditor")).
    term = token.pos_ == "NOUN" and bool(reading.defined.aliases(low))
    if token.text[:1].isupper() or term:
        exact += [
            Match(i, p.i, "defined")
            for p in passage
            if (p.text[:1].isupper() or p.lower_ in WRITER or p.lower_ in READER)  # ("X", "we")
            and reading.defined.same(low, folded(p))
            and _the_whole_term(reading, low, p)
        ]
        names = {low, *reading.defined.aliases(low)} if term else {low}
        exact += [
            Match(i, p, "speaker")
            for p, (message, pronoun) in reading.named.items()
            if any(message.stands_for(pronoun, name) for name in names)
        ]
    if exact and token.pos_ in ("PROPN", "NOUN"):
        exact += _by_pronoun(passage, i, {m.passage for m in exact})
    exact += [Match(i, p.i, "period") for p in passage if _same_period(token, p)]
    exact += [Match(i, p.i, "price") for p in passage if _same_price(token, p)]
    if exact or token.pos_ == "PROPN" or reading.lexicon is None:
        return exact
    lexicon = reading.lexicon
    ours = looked_up(token, lexicon)
    out = []
    for p in passage:
        if p.pos_ not in CONTENT_POS:
            continue
        theirs = looked_up(p, lexicon)
        if p.lower_ in STOP_WORDS and theirs == lemma(p):
            continue  # a stop word alone; "once" of "at once" is an adverb of two words
        pos = token.pos_ if token.pos_ == p.pos_ else None
        if lexicon.synonyms(ours, theirs, pos):
            out.append(Match(i, p.i, "synonym"))
        elif lexicon.broader(ours, theirs, pos):
            out.append(Match(i, p.i, "broader"))
        elif lexicon.derived(ours, theirs):
            out.append(Match(i, p.i, "derived"))
    return out


def looked_up(token: Token, lexicon: WordNet) -> str:
    """The lemma ``token`` is looked up by: a verb with a particle (dependency ``prt``) as
    the phrasal verb, where WordNet lists one ("call off", which is "cancel" as "call" is
    not); an adverb as the adverb of two words it is one of ("straight away", written
    "straightaway", for "immediately"); else the word's own."""
    lem = lemma(token)
    if token.pos_ == "VERB":
        particle = next((c for c in token.children if c.dep_ == "prt"), None)
        if particle is not None and lexicon.knows(f"{lem} {particle.lower_}", "VERB"):
            return f"{lem} {particle.lower_}"
    if token.pos_ == "ADV":
        doc = token.doc
        for start in (token.i - 1, token.i):  # "straight away", "right away", "at once"
            if start < 0 or start + 1 >= len(doc):
                continue
            first, second = doc[start].lower_, doc[start + 1].lower_
            for form in (f"{first} {second}", first + second):
                if lexicon.knows(form, "ADV"):
                    return form
    return lem
