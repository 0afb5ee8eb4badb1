"""How the parse reads a denial the fact layer found on one side only (`_confirm.read_denial`,
`_confirm.restated_exception`): the passage's exception a denying claim restates
(`exception_restated`), every denied verb matched to a denied verb (`denial_kept`), each
denial of something the other side does not speak to (`denial_said_elsewhere`), and a denial
said in other words on either side (`denied_in_other_words`, `denies_in_other_words`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from citeproof.verifier.support.confirm._clauses import (
    _answered,
    _denied,
    _light_roots,
    _matched_sentences,
    _words,
    deontic,
    negated,
)
from citeproof.verifier.support.confirm._conditions import (
    _EXCEPTIONS_PROPER,
    _condition_clause,
    _condition_words,
    _opens_condition,
)
from citeproof.verifier.support.confirm._reading import QUOTED, Reading, lemma
from citeproof.verifier.support.lexicon import (
    DENYING,
    MODALITY,
    NEGATORS,
    SETTING_ASIDE,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def exception_restated(reading: Reading) -> str | None:
    """The passage's exception (``unless``, ``except``, ``other than``, ``excluding``; not a
    deduction) a denying claim restates: the claim is denied and matches at least half of the
    exception's words; None otherwise."""
    if not any(_denied(t) for t in reading.claim):
        return None
    targets = _answered(reading)
    for t in reading.passage:
        if t.lower_ not in _EXCEPTIONS_PROPER or not _opens_condition(t):
            continue
        clause = _condition_clause(t)
        words = _condition_words(reading.passage, clause)
        if words and sum(1 for w in words if w.i in targets) * 2 >= len(words):
            return _words(reading.passage[k] for k in clause)
    return None


_DENIALS = frozenset({"prohibition", "no_obligation"})


def denial_kept(reading: Reading) -> bool:
    """Whether every denied verb of the claim is matched to a verb the passage denies too
    ("are not covered by the warranty" and "The warranty does not cover: ... (c) tools used
    in a hire fleet"; "cannot be resolved" for "is not resolved"): the parse reads the denial
    where the fact layer's alignment did not; and no verb the passage denies is matched to one
    the claim states. A main verb no match reads (a light verb: "doesn't apply") is matched to
    the same verb of the passage's statement (`_light_roots`). False when the claim denies
    nothing."""
    denied = [
        t
        for t in reading.claim
        if t.pos_ in ("VERB", "AUX", "ADJ") and _denies(t) and not _quoted(reading, t.i)
    ]
    if not denied:
        return False
    light = {ours.i: theirs for ours, theirs in _light_roots(reading) if _denies(theirs)}
    for verb in denied:
        theirs = reading.matched(verb.i)
        if theirs is None:
            theirs = light.get(verb.i)
        if theirs is None or not _denies(theirs):
            return False
    for i, m in reading.matches.items():  # and the passage denies no verb the claim states
        theirs = reading.passage[m.passage] if m.passage is not None else None
        if (
            theirs is not None
            and theirs.pos_ in ("VERB", "AUX", "ADJ")
            and _denies(theirs)
            and not _denies(reading.claim[i])
        ):
            return False
    return True


def _quoted(reading: Reading, i: int) -> bool:
    """Whether claim token ``i`` stands in a verified quote: the quote says it, as written."""
    m = reading.matches.get(i)
    return m is not None and m.how == QUOTED


def denial_said_elsewhere(reading: Reading) -> bool:
    """Whether the parse places every denial of the claim and of the passage, and none is
    said of what the other side matches: no verb or adjective denied on one side is matched
    to the other (nor the copula of "is (not) an Event of Default", nor the claim's main verb
    no match reads, paired with the same verb of the passage, nor a modal verb whose
    complement is matched), and no claim word is matched inside a phrase the passage denies
    on its own ("not by branch managers"). Then the denial is of something the other side
    does not speak to ("cannot hold more than £75,000" against "will not exceed £75,000":
    nothing holds in the passage). False where the parse places no denial at all: it could
    not read it."""
    ours = [t for t in reading.claim if t.pos_ in _PREDICATES and _denies(t)]
    theirs = [t for t in reading.passage if t.pos_ in _PREDICATES and _denies(t)]
    phrases = _denied_phrases(reading.passage)
    if not (ours or theirs or phrases):
        return False
    pairs = [
        (reading.claim[i], reading.passage[m.passage])
        for i, m in reading.matches.items()
        if m.passage is not None
    ]
    spoken: set[int] = set()  # the claim's matched words (a copula for its object)
    answered: set[int] = set()  # the passage's words they are matched to
    for mine, other in [*pairs, *_light_roots(reading)]:
        if mine.dep_ == "attr" and other.dep_ == "attr":  # "is (not) an Event of Default"
            mine, other = mine.head, other.head
        spoken.add(mine.i)
        answered.add(other.i)
    # A modal verb's denial is its complement's ("does not require a referral").
    ours = [_governed(t, spoken) for t in ours]
    if any(t.i in spoken for t in ours) or any(t.i in answered for t in theirs):
        return False
    return not any(other.i in phrases for _, other in pairs)


def denied_in_other_words(reading: Reading) -> str:
    """The word by which the passage's statement that the claim's denial is matched to denies
    too, or "": for each denial of the claim ("not", "no", "never", "nothing"), what it is
    said of (a modal verb's matched complement: "does not have to provide"), and a denying
    word (`NEGATORS`, `DENYING`) that no claim word matches in the clause of each of the
    passage's matches of that (`_clause`: "free of charge" for "at no charge"; not the "only"
    of "; a single year is accepted only with approval" for "do not have to provide"; not
    where another sentence says it plainly: "Since March, branch managers approve
    exceptions")."""
    spoken = {i for i, m in reading.matches.items() if m.passage is not None}
    answered = _answered(reading)
    for token in reading.claim:
        if token.lower_ not in NEGATORS and token.dep_ != "neg":
            continue
        said_of = _governed(token.head if token.head.i != token.i else token, spoken)
        found = [m.passage for m in reading.candidates.get(said_of.i, ()) if m.passage is not None]
        words = [
            next(
                (
                    t.text
                    for t in _clause(_clause_verb(reading.passage[k]))
                    if (t.lower_ in _DENYING_WORDS or t.dep_ == "neg") and t.i not in answered
                ),
                "",
            )
            for k in found
        ]
        if words and all(words):
            return words[0]
    return ""


_DENYING_WORDS = NEGATORS | DENYING


def denies_in_other_words(reading: Reading) -> str:
    """The word by which the claim's statement that the passage's denial is matched to denies
    too, or "": the mirror of `denied_in_other_words`. For each denial of the passage ("not",
    "no", "never") in a sentence the claim matches, the clause of each claim word matched in
    the denial's clause holds a denying word (`DENYING`, `SETTING_ASIDE`) that the denial's
    clause does not say too ("rather than in this payment" for "not in this payment",
    "without it being resolved" for "is not resolved"; not "without" for "cannot ... without")."""
    sentences = _matched_sentences(reading)
    spoken = {m.passage: i for i, m in reading.matches.items() if m.passage is not None}
    matched = set(spoken.values())
    words = []
    for token in reading.passage:
        if token.sent.start not in sentences:
            continue
        if token.lower_ not in NEGATORS and token.dep_ != "neg":
            continue
        clause = list(_clause(_clause_verb(token)))
        said = {t.lower_ for t in clause}  # "without" on both sides is the same word
        inside = {t.i for t in clause}
        ours = [reading.claim[i] for k, i in spoken.items() if k in inside]
        if not ours:
            return ""
        found = [
            next(
                (
                    t.text
                    for t in _clause(_clause_verb(mine))
                    if t.lower_ in DENYING | SETTING_ASIDE
                    and t.lower_ not in said
                    and t.i not in matched
                ),
                "",
            )
            for mine in ours
        ]
        if not any(found):
            return ""
        words.append(next(w for w in found if w))
    return words[0] if words else ""


def _clause(verb: Token) -> Iterator[Token]:
    """The tokens of ``verb``'s clause: its subtree less the clauses coordinated with it
    ("; a single year is accepted only with approval"), its nouns' conjuncts kept."""
    for t in verb.subtree:
        node = t
        while node.i != verb.i and not (
            node.dep_ in ("conj", "parataxis") and node.pos_ in ("VERB", "AUX")
        ):
            node = node.head
        if node.i == verb.i:
            yield t


def _clause_verb(token: Token) -> Token:
    """The verb of the clause ``token`` stands in (itself, for a verb), or the root."""
    node = token
    while node.pos_ not in ("VERB", "AUX") and node.head.i != node.i:
        node = node.head
    return node


def _governed(verb: Token, spoken: set[int]) -> Token:
    """For a modal verb ("require", "permit"), a matched word of what it governs, else the
    verb itself."""
    if lemma(verb) not in MODALITY:
        return verb
    return next(
        (
            t
            for t in verb.subtree
            if t.i in spoken and t.dep_ not in ("nsubj", "nsubjpass") and t.i != verb.i
        ),
        verb,
    )


def _denied_phrases(doc: Doc) -> set[int]:
    """The tokens of each phrase a "not" denies on its own, no verb's denial ("not by branch
    managers", "but not Unit 3")."""
    out: set[int] = set()
    for t in doc:
        if t.lower_ == "not" and t.head.i != t.i and t.head.pos_ not in ("VERB", "AUX", "ADJ"):
            out |= {x.i for x in t.head.subtree} - {t.i}
    return out


_PREDICATES = frozenset({"VERB", "AUX", "ADJ"})


def _denies(token: Token) -> bool:
    if token.dep_ == "attr" and token.head.i != token.i:
        token = token.head  # "is not a competitor": its copula's denial
    return negated(token) or deontic(token) in _DENIALS
