"""The rules that decide whether a claim is confirmed, one named unit each.

Every rule reads the same `Reading` and returns `Finding`s naming its id; `RULES` is the
order they are listed and reported in. A claim is confirmed when no rule finds anything; a
`contradicted` finding outranks an `unconfirmed` one, and among findings of one effect the
first rule in `RULES` gives the reason.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from citeproof.verifier.support._opposites import opposites
from citeproof.verifier.support._text import LIST_ITEM, STOP_WORDS, tokenize
from citeproof.verifier.support.confirm._cells import beside_another, cell_at
from citeproof.verifier.support.confirm._reading import (
    QUOTED,
    Match,
    Reading,
    lead_in,
    lemma,
    looked_up,
    statement,
)
from citeproof.verifier.support.lexicon import (
    ANYONE,
    ATTRIBUTION,
    BOUND_BY_TIME,
    CARVING_OUT,
    CONDITION_PAIRS,
    CONDITION_WORDS,
    CONDITIONS,
    DENYING,
    DIRECTIONS,
    EXCEPTIONS,
    LIGHT_VERBS,
    MODALITY,
    NECESSARY_CONDITIONS,
    NEGATORS,
    SETTING_ASIDE,
    THIRD_PERSON,
    TIME_OPENERS,
    TIME_WORDS,
    Deontic,
    direction_of,
    quantifier_of,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

Effect = Literal["unconfirmed", "contradicted"]


@dataclass(frozen=True, slots=True)
class Finding:
    """What one rule found: its id, its effect, the claim's words, the passage's words, and
    a sentence a reader understands."""

    rule: str
    effect: Effect
    claim_words: str
    passage_words: str
    message: str


class Rule(Protocol):
    """One rule: an id, what it checks, an example (claim, passage, what it finds)."""

    id: str
    checks: str
    example: tuple[str, str, str]

    def check(self, reading: Reading) -> Iterable[Finding]: ...


def _words(tokens: Iterable[Token]) -> str:
    return " ".join(t.text for t in sorted(tokens, key=lambda t: t.i))


def _phrase(token: Token) -> str:
    """A figure's words as written ("2.75%", "5 April"): the phrase's own tokens next to the
    head, less its prepositions and what follows them."""
    near = [
        t
        for t in token.subtree
        if abs(t.i - token.i) <= 2 and (t.like_num or t.i == token.i or t.pos_ in ("PROPN", "SYM"))
    ]
    first, last = min(t.i for t in near), max(t.i for t in near)
    return token.doc[first : last + 1].text


def own(token: Token, apart: frozenset[str] = frozenset()) -> set[int]:
    """A phrase's own tokens: its subtree less the conjuncts coordinated with it, and less the
    children whose relation is in ``apart``."""
    out = {token.i}
    for child in token.children:
        if child.dep_ in ("conj", "cc", "punct") or child.dep_ in apart:
            continue
        out |= own(child, apart)
    return out


def negated(token: Token) -> bool:
    """Whether the clause of ``token`` is denied: a `neg` child ("not", "never"), or a
    subject or object introduced by "no" ("No Founder shall"); a denial bounded by "until"
    or "without" is none ("not due until 1 May" says when it is due, "may not be kept
    without consent" that it may be kept with it)."""
    denied = _denied(token)
    if not denied:
        return False
    bounded = any(c.lower_ == "until" and c.i > token.i for c in token.children) and any(
        c.dep_ == "neg" for c in token.children
    )
    without = any(t.lower_ == "without" and _clause_of(t) == token.i for t in token.subtree)
    return not (bounded or without)


def _clause_of(token: Token) -> int:
    """The nearest verb above ``token`` (its clause's predicate)."""
    node = token
    while node.head.i != node.i and node.head.pos_ not in ("VERB", "AUX"):
        node = node.head
    return node.head.i


def _denied(token: Token) -> bool:
    for child in token.children:
        if child.dep_ == "neg" or child.lower_ in ("never", "neither"):
            return True
        if child.dep_ in ("nsubj", "nsubjpass", "dobj") and any(
            d.dep_ == "det" and d.lower_ in ("no", "neither") for d in child.children
        ):
            return True
        if child.dep_ in ("nsubj", "nsubjpass") and child.lower_ in ("nobody", "none", "nothing"):
            return True
    if token.dep_ in ("xcomp", "acomp") and token.head.i != token.i:
        return negated(token.head)  # "was not able to waive"
    if token.dep_ == "conj" and not _own_clause(token):
        return negated(_sharer(token))  # "shall not return or destroy"
    return False


def _sharer(token: Token) -> Token:
    """The verb a coordinated verb with no clause of its own shares its modal and denial with:
    the nearest conjunct before it that has its own ("may display X, but may not resell them,
    lend them or make them available": "lend" shares "resell"'s, whichever verb the parse
    hung it from), else the verb it is coordinated with."""
    head = token.head
    own = [c for c in head.children if c.dep_ == "conj" and c.i < token.i and _own_clause(c)]
    return max(own, key=lambda c: c.i) if own else head


def _own_clause(token: Token) -> bool:
    """Whether a coordinated verb carries its own clause: a subject, auxiliary or denial of
    its own, or a finite form that no modal of the first verb can govern ("could not waive
    the fee and escalated it")."""
    if token.tag_ in ("VBD", "VBZ", "VBP") and token.head.tag_ not in ("VBD", "VBZ", "VBP"):
        return True
    return any(c.dep_ in ("nsubj", "nsubjpass", "aux", "neg") for c in token.children)


def _holders(token: Token) -> list[Token]:
    """The verbs whose modals and denials are said of ``token``: itself, the verb it is the
    `to` infinitive of, and the verbs of a list it belongs to ("shall return or destroy":
    "shall" is said of both; "may not sublicense it, rent it or make it available": of every
    verb of the list, each the conjunct of the one before)."""
    holders = [token, token.head] if token.dep_ == "xcomp" else [token]
    conjunct = token
    while conjunct.dep_ == "conj" and not _own_clause(conjunct):
        conjunct = _sharer(conjunct)
        holders.append(conjunct)
    return holders


def deontic(token: Token) -> Deontic:
    """Obligation, permission, prohibition, no obligation or a plain statement, from the
    modal verbs of ``token``'s clause (and the verb it is the `to` infinitive of)."""
    kind: str | None = None
    modal_lemma = ""
    holders = _holders(token)
    for holder in holders:
        for child in holder.children:
            lem = lemma(child)
            if child.dep_ in ("aux", "auxpass") and lem in MODALITY and lem != "have":
                kind, modal_lemma = MODALITY[lem], lem  # "has escalated" is no "has to"
        lem = lemma(holder)
        if holder is not token and lem in MODALITY:
            kind, modal_lemma = MODALITY[lem], lem
    denied = negated(token) or (token.dep_ == "xcomp" and negated(token.head))
    if kind is None:
        modal = _introducing_modal(token)
        if modal is None:
            return "plain"
        kind, modal_lemma = MODALITY[lemma(modal)], lemma(modal)
        denied = denied or negated(modal)
    if kind == "obligation":
        if denied:
            weak = modal_lemma in ("need", "require", "have", "oblige", "obligate")
            return "no_obligation" if weak else "prohibition"
        return "obligation"
    return "prohibition" if denied else "permission"


def _introducing_modal(token: Token) -> Token | None:
    """The modal verb a list's lead-in ends on, for the main verb of one of its items ("tell"
    of "(c) tell us of any fraud ..." after "The Directors must:"): the modal stands alone,
    each item saying what it is said of."""
    if token.sent.root not in (token, *token.ancestors):
        return None
    if any(a.dep_ not in ("conj", "ROOT") for a in [token, *token.ancestors][:-1]):
        return None
    lead = lead_in(token)
    if lead is None or lemma(lead.root) not in MODALITY:
        return None
    verbs = [t for t in lead if t.pos_ == "VERB" and t is not lead.root]
    return lead.root if lead.root.pos_ == "AUX" and not verbs else None


# --- the rules --------------------------------------------------------------------------


class EveryWordMatched:
    id = "match.every_word"
    checks = (
        "Every content word of the claim (nouns, names, verbs, adjectives, adverbs, figures) "
        "is in the passage as the same word or lemma, the same figure, a WordNet synonym or a "
        "narrower word."
    )
    example = (
        "Corvel will send an engineer to install the pumps at Llanwern.",
        "Corvel will ship the pumps to Llanwern on 5 April.",
        "no match in the passage for “send”, “engineer”, “install”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        excused = _said_of_anyone(reading)
        missing = [
            reading.claim[i]
            for i in reading.content
            if i not in reading.matches and i not in excused
        ] + [reading.claim[i] for i in reading.unnamed]
        if missing:
            listed = ", ".join(f"“{t.text}”" for t in missing[:6])
            yield Finding(
                self.id,
                "unconfirmed",
                _words(missing),
                "",
                f"no match in the passage for {listed}",
            )


class PredicateMatched:
    id = "match.predicate"
    checks = (
        "The claim's main verb is matched in the passage by a named equivalence: what the "
        "claim says happens is never left to the entailment model alone (on the claim "
        "table's evaluation halves the model backed 28 false claims for 39 true ones whose "
        "verb no equivalence matched)."
    )
    example = (
        "The Distributor may advertise the Products outside the Territory.",
        "The Distributor may sell the Products outside the Territory only in response to "
        "unsolicited orders.",
        "no match in the passage for the claim's verb “advertise”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        excused = _said_of_anyone(reading)
        for i in reading.content:
            token = reading.claim[i]
            if token.dep_ == "ROOT" and i not in reading.matches and i not in excused:
                yield Finding(
                    self.id,
                    "unconfirmed",
                    token.text,
                    "",
                    f"no match in the passage for the claim's verb “{token.text}”",
                )


class SameStatement:
    id = "match.same_statement"
    checks = (
        "The words of one clause of the claim are matched in one sentence of the passage: a "
        "word found only in another sentence joins two statements the passage keeps apart "
        "(“the Compliance team and the Finance Director” where the sentence names only the "
        "Compliance team). An item of a list is one statement with the list's lead-in, and "
        "two items are two (“Milestone 1: ... 20%; - Milestone 2: ... 25%”). A verb joined "
        "to another with no subject of its own (“... and must be in place by 1 June”) is said "
        "of the other's subject: the sentence its words are matched in speaks of it too. A "
        "word that only describes the clause's subject may stand elsewhere (“the Hartley "
        "Bridge over the Nene”), unless it is an adjective that says which (“the beams on the "
        "top level”) or says when (“the limit on the Test Date”: "
        "`lexicon.TIME_WORDS`) or is a noun compounded with the subject's where the "
        "statement compounds another (“the arrangement fee” for its “Valuation fee”)."
    )
    example = (
        "A public official's entertainment needs the approval of the Compliance team and the "
        "Finance Director.",
        "Trips above £3,000 need the approval of the Finance Director. Entertaining a public "
        "official requires the approval of the Compliance team.",
        "“Finance Director” is in another sentence of the passage than the rest of its clause",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        clauses: dict[int, list[int]] = {}
        for i in reading.content:
            if reading.matched(i) is not None:
                clauses.setdefault(_clause_head(reading.claim[i]).i, []).append(i)
        for members in clauses.values():
            where = {i: _sentence_of(reading, i) for i in members}
            yield from _shared_subject_apart(reading, members, where)
            counts: dict[int, int] = {}
            for s in where.values():
                counts[s] = counts.get(s, 0) + 1
            head = _clause_head(reading.claim[members[0]])
            verb = reading.matched(head.i)
            main = max(
                counts,
                key=lambda s: (counts[s], verb is not None and statement(verb) == s, -s),
            )
            items, item = _items(reading, members, main)
            if len(counts) < 2 and len(set(items.values()) - {-1}) < 2:
                continue
            apart = [
                reading.claim[i]
                for i in members
                if (where[i] != main or items.get(i, -1) not in (-1, item))
                and not _found_in(reading, i, main, item)
                and not _referred_to(reading, i, main)
                and not _carved_out_of(reading, where[i], main)
                and not (
                    _describes_subject(reading, reading.claim[i], main)
                    and reading.figure("claim", i) is None  # "a fee of £250" says the fee
                    and lemma(reading.claim[i]) not in TIME_WORDS  # "the limit on the Test Date"
                    and reading.claim[i].pos_ != "ADJ"  # "on the top level" says which
                )
            ]
            if apart:
                words = _words(_with_compounds(apart))
                yield Finding(
                    self.id,
                    "unconfirmed",
                    words,
                    "",
                    f"“{words}” is in another sentence of the passage than the rest of its clause",
                )


def _shared_subject_apart(
    reading: Reading, members: list[int], where: dict[int, int]
) -> Iterator[Finding]:
    """A clause of a verb joined to another, with no subject of its own ("... and must be in
    place by 1 June 2026"), says more of the other's subject: the statement its words are
    matched in must speak of that subject too (name it, or a pronoun opening it), else the
    claim joins what the passage says of something else. ``where``: the statement each of
    ``members`` is matched in."""
    head = _clause_head(reading.claim[members[0]])
    if head.dep_ != "conj" or any(c.dep_ in ("nsubj", "nsubjpass") for c in head.children):
        return
    subject = _role(head.head, "doer") or _role(head.head, "object")
    if subject is None or subject.i not in reading.content or reading.matched(subject.i) is None:
        return  # no subject, or one matched by its verified quote: nowhere to look
    counts = Counter(where.values())
    main = max(counts, key=lambda s: (counts[s], -s))
    if _found_in(reading, subject.i, main) or _referred_to(reading, subject.i, main):
        return
    said = _words([reading.claim[i] for i in members if where[i] == main])
    yield Finding(
        SameStatement.id,
        "unconfirmed",
        said,
        "",
        f"“{said}” is in another sentence of the passage than the rest of its clause",
    )


def _carved_out_of(reading: Reading, sentence: int, main: int) -> bool:
    """Whether the passage sentence starting at ``sentence`` carves an exception out of the
    one starting at ``main``, right before it (`_carves_out`): a claim that keeps the
    exception says one statement."""
    if not sentence or reading.passage[sentence - 1].sent.start != main:
        return False
    targets = _answered(reading)
    return _carves_out(reading, reading.passage[sentence].sent, {main}, targets)


def _describes_subject(reading: Reading, token: Token, main: int) -> bool:
    """Whether ``token`` only describes its clause's subject ("the Hartley Bridge over the
    Nene"): the statement is what is said of the subject, not how it is named. A possessor
    is no description ("Marlowe & Finch's monitoring" says whose it is), nor a noun
    compounded with the subject where the passage's statement compounds another with it
    ("the arrangement fee" for the "Valuation fee" of the statement; "the facility term"
    for its bare "term" describes)."""
    node = token
    while node.head.i != node.i:
        if node.dep_ == "poss":
            return False
        if node.dep_ in ("nsubj", "nsubjpass"):
            return node.i != token.i and not _renamed(reading, token, main)
        if node.dep_ in ("advcl", "ccomp", "relcl", "conj", "xcomp"):
            return False
        node = node.head
    return False


def _renamed(reading: Reading, token: Token, main: int) -> bool:
    """Whether ``token`` compounds a noun of the claim whose match in the statement's
    sentence (starting at ``main``) is compounded with a noun of its own that no claim word
    matches ("arrangement" of "arrangement fee" against "Valuation fee")."""
    if token.dep_ != "compound" or token.pos_ != "NOUN":
        return False
    return any(
        c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN") and c.i not in reading.placed
        for m in reading.candidates.get(token.head.i, ())
        if m.passage is not None and statement(reading.passage[m.passage]) == main
        for c in reading.passage[m.passage].children
    )


def _referred_to(reading: Reading, i: int, sentence: int) -> bool:
    """Whether claim token ``i`` is a doer the main sentence names by a third-person pronoun
    ("Orion agreed ... They asked for 5%"), or stands in the heading right above the sentence
    ("3.3 Excess. You must pay ...")."""
    token = reading.claim[i]
    found = reading.matched(i)
    if found is not None and _heading(found.sent) and found.sent.end == sentence:
        return True  # the heading right above the sentence, not a signature below it
    doer = token
    while doer.dep_ in ("compound", "amod", "poss") and doer.head.i != doer.i:
        doer = doer.head
    if doer.dep_ not in ("nsubj", "nsubjpass", "pobj") or doer.pos_ not in ("PROPN", "NOUN"):
        return False
    main = next(s for s in reading.passage.sents if s.start == sentence)
    subjects = {t.lower_ for t in main if t.dep_ in ("nsubj", "nsubjpass")}
    if subjects & THIRD_PERSON:
        return True
    # "I" and "we" are the writer: a name from another sentence only when it labels who
    # speaks ("Agent: I can confirm ..."), never a signature or a name said of someone else.
    return bool(subjects & {"i", "we"}) and found is not None and _speaker_label(found)


def _speaker_label(token: Token) -> bool:
    """Whether ``token`` labels who speaks: the first word of its line, followed by a colon
    ("Agent: I was not able to ...")."""
    doc = token.doc
    first = token.i == 0 or "\n" in doc[token.i - 1].text_with_ws
    return first and token.i + 1 < len(doc) and doc[token.i + 1].text == ":"


def _heading(sentence: Span) -> bool:
    """A heading: a short run of words with no verb, numbered or naming a thing ("3.3
    Excess."); a name alone is a signature, not a heading ("Sunita Ravel")."""
    words = [t for t in sentence if t.is_alpha]
    short = 0 < len(words) <= 4 and not any(t.pos_ in ("VERB", "AUX") for t in sentence)
    return short and any(t.like_num or t.pos_ == "NOUN" for t in sentence)


def _found_in(reading: Reading, i: int, sentence: int, item: int = -1) -> bool:
    """Whether claim token ``i`` has any match in the passage sentence starting at
    ``sentence`` (and, for ``item`` other than -1, in that item of its list or the list's
    lead-in)."""
    return any(
        m.passage is not None
        and statement(reading.passage[m.passage]) == sentence
        and (item == -1 or _item_of(reading.passage[m.passage]) in (-1, item))
        for m in reading.candidates.get(i, ())
    )


def _items(reading: Reading, members: list[int], main: int) -> tuple[dict[int, int], int]:
    """For the claim words matched in the statement starting at ``main``, the item of its
    list each is matched in (-1: the lead-in, or no list), and the item most of them are in:
    a statement is its lead-in and one item, never two ("Milestone 1: ... 20%;" and
    "Milestone 2: ... 25%;" are two)."""
    out: dict[int, int] = {}
    for i in members:
        found = reading.matched(i)
        if found is not None and statement(found) == main:
            out[i] = _item_of(found)
    listed = [v for v in out.values() if v != -1]
    return out, max(set(listed), key=lambda v: (listed.count(v), -v)) if listed else -1


def _item_of(token: Token) -> int:
    """Where the item of a list ``token`` stands in starts (a character offset), or -1
    outside any item. An item is its sentence, or the line it is on where that line opens
    with a marker: the parser may read two lines ("- taxis up to £40 a day; and" and "-
    meals up to £50 a day.") as one sentence."""
    if lead_in(token) is None:
        return -1
    text = token.doc.text
    line = text.rfind("\n", 0, token.idx) + 1
    if line > token.sent.start_char and LIST_ITEM.match(text, line):
        return line
    return token.sent.start_char


def _sentence_of(reading: Reading, i: int) -> int:
    found = reading.matched(i)
    assert found is not None
    return statement(found)


def _clause_head(token: Token) -> Token:
    """The head of the clause ``token`` belongs to: the nearest verb (or root) above it
    with a subject of its own, or the root."""
    node = token
    while node.head.i != node.i:
        if node.dep_ in ("advcl", "ccomp", "relcl", "acl") or (
            node.dep_ == "conj" and node.pos_ in ("VERB", "AUX")
        ):
            return node
        node = node.head
    return node


def _with_compounds(tokens: list[Token]) -> list[Token]:
    out = {t.i: t for t in tokens}
    for t in tokens:
        for c in t.children:
            if c.dep_ == "compound":
                out[c.i] = c
    return list(out.values())


class NotAsked:
    id = "match.question"
    checks = (
        "The passage sentence that holds the claim's main verb states it: a question "
        "(“And who applies for the road closure?”) says nothing of who does it."
    )
    example = (
        "Gareth Pryce applied to Newport Council for the road closure.",
        "And who applies to Newport Council for the road closure?",
        "the passage asks “And who applies to Newport Council for the road closure?”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        root = next((t for t in reading.claim if t.dep_ == "ROOT"), None)
        if root is None:
            return
        verbs = [reading.matched(root.i)] + [b for a, b in _light_roots(reading)]
        for verb in verbs:
            asked = _question(verb) if verb is not None else None
            if asked is not None:
                yield Finding(
                    self.id, "unconfirmed", root.text, asked, f"the passage asks “{asked}”"
                )
                return


_ENDS = frozenset({".", "!", "?"})


def _question(token: Token) -> str | None:
    """The question ``token`` stands in, read from the last end of a sentence or line before
    it to the next (the parser may join a question to the line after it); None when that
    ends otherwise."""
    doc = token.doc
    end = next((t for t in doc[token.i :] if t.text in _ENDS or "\n" in t.text_with_ws), doc[-1])
    if end.text != "?":
        return None
    start = next(
        (t.i + 1 for t in reversed(doc[: token.i]) if t.text in _ENDS or "\n" in t.text_with_ws),
        0,
    )
    return doc[start : end.i + 1].text.strip()


class OppositeWord:
    id = "match.opposite"
    checks = (
        "A claim word with no match whose opposite (a direction such as up/down or "
        "before/after, or a WordNet antonym) stands in the passage sentence the claim "
        "matches: the passage says the other way. A bound (“not more than £850,000”, “up to "
        "10%”) is no direction, nor is the particle of a phrasal verb WordNet lists (“take "
        "over”). A word that cannot hold where the claim's holds (the "
        "fact layer's opposites: “arrears” for “advance”) holds the claim back too, as does a "
        "clause of time opened on the other side of its event (“until” against “once”)."
    )
    example = (
        "If Leverage is below 2.00:1, the Margin goes up by 0.25% per annum.",
        "If Leverage is below 2.00:1, the Margin is reduced by 0.25% per annum.",
        "the passage says “reduced”, not “up”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        sentences = _matched_sentences(reading)
        for t in reading.claim:
            matched = t.i in reading.matches and reading.matches[t.i].how != "broader"
            if matched and direction_of(lemma(t)) is None:
                continue
            if _particle(reading, t) and t.head.i in reading.matches:
                continue  # a phrasal verb matched whole: its particle is no way
            other = _opposite_in(reading, t, sentences)
            if other is None and not matched and t.i in reading.content:
                excluding = _excluding_in(reading, t, sentences)
                if excluding is not None:  # "in advance" where it says "in arrears"
                    yield Finding(
                        self.id,
                        "unconfirmed",
                        t.text,
                        excluding.text,
                        f"the passage says “{excluding.text}”, not “{t.text}”",
                    )
                    continue
            if other is not None and not _same_way_in(reading, t, sentences):
                # "A after B" restates "B before A": an order turned round is read, not judged
                temporal = direction_of(lemma(t)) in ("before", "after") or bool(_opens_time(t))
                yield Finding(
                    self.id,
                    "unconfirmed" if temporal else "contradicted",
                    t.text,
                    other.text,
                    f"the passage says “{other.text}”, not “{t.text}”",
                )


def _said_of_anyone(reading: Reading) -> set[int]:
    """The claim's doer words where the passage says the same of anyone ("nobody should
    send the contract" backs "the team should not send the contract")."""
    out: set[int] = set()
    for ours, theirs in _predicates(reading):
        claim_role, passage_role = _role(ours, "doer"), _role(theirs, "doer")
        if claim_role is not None and passage_role is not None and (lemma(passage_role) in ANYONE):
            out.update(t.i for t in claim_role.subtree)
    return out


def _answered(reading: Reading) -> set[int]:
    """The passage's words the claim's words are matched to."""
    return {m.passage for m in reading.matches.values() if m.passage is not None}


def _matched_sentences(reading: Reading) -> set[int]:
    out = set()
    for m in reading.matches.values():
        if m.passage is not None:
            out.add(reading.passage[m.passage].sent.start)
    return out


def _opposite_in(reading: Reading, t: Token, sentences: set[int]) -> Token | None:
    ours = lemma(t)
    way = direction_of(ours)
    ours_side = _opens_time(t)
    lexicon = reading.lexicon
    said = {lemma(c) for c in reading.claim}
    for p in (p for p in reading.passage if p.sent.start in sentences):
        theirs = lemma(p)
        if theirs in said:
            continue  # the claim says it too: "if Leverage is below 2.00:1"
        if _bound_phrase(p):
            continue  # a bound ("not more than £850,000") points no way a figure moved
        if _particle(reading, p):
            continue  # "take over" is no "over" a figure moved
        side = _opens_time(p)
        if side and ours_side and side != ours_side:
            return p  # "until 12 instalments have been paid" against "once ..."
        if theirs in DIRECTIONS.get(ours, ()):
            return p
        other_way = direction_of(theirs)
        if way and other_way and _opposed(way, other_way):
            return p
        if (
            lexicon is not None
            and p.pos_ in ("ADJ", "ADV")
            and t.pos_ == p.pos_
            and lexicon.antonyms(ours, theirs)
        ):
            return p
    return None


def _excluding_in(reading: Reading, t: Token, sentences: set[int]) -> Token | None:
    """A word of the passage sentence the claim matches that cannot hold where the claim's
    unmatched word ``t`` holds (`_opposites`: "arrears" for "advance", "net" for "gross"),
    which the claim does not say too."""
    read = tokenize(t.text)
    if len(read) != 1:
        return None
    excluded = opposites(read[0])
    if not excluded:
        return None
    said = {k.key for c in reading.claim for k in tokenize(c.text)}
    for p in (p for p in reading.passage if p.sent.start in sentences):
        theirs = tokenize(p.text)
        if (
            len(theirs) == 1
            and theirs[0].key in excluded
            and theirs[0].key not in said
            and not _bound_phrase(p)
        ):
            return p
    return None


def _opens_time(t: Token) -> str | None:
    """The side of an event a clause of time ``t`` opens speaks of (`TIME_OPENERS`), or
    None: "once" as a conjunction only ("once 12 instalments have been paid", not "once a
    year")."""
    if t.dep_ not in ("mark", "prep", "advmod") or (t.lower_ == "once" and t.dep_ != "mark"):
        return None
    return TIME_OPENERS.get(t.lower_)


def _particle(reading: Reading, t: Token) -> bool:
    """Whether ``t`` is the particle of a phrasal verb WordNet lists ("take down", "take
    over"): the two words mean one thing, and the particle alone points no way."""
    return (
        t.dep_ == "prt"
        and reading.lexicon is not None
        and " " in looked_up(t.head, reading.lexicon)
    )


def _bound_phrase(t: Token) -> bool:
    """Whether ``t`` ends a bound of two words or more ("not more than", "no later than",
    "up to", "at most"): a word of quantity, not of direction ("maximum" alone is a word)."""
    doc = t.doc
    before = doc[t.i - 1].lower_ if t.i else ""
    after = doc[t.i + 1].lower_ if t.i + 1 < len(doc) else ""
    two = before in ("no", "not", "at", "be") or (t.lower_ == "up" and after == "to")
    return two and _quantity(doc, t) in _BOUNDED


def _same_way_in(reading: Reading, t: Token, sentences: set[int]) -> bool:
    way = direction_of(lemma(t))
    if way is None:
        return False
    return any(direction_of(lemma(p)) == way for p in reading.passage if p.sent.start in sentences)


_OPPOSED = {("up", "down"), ("before", "after")}


def _opposed(a: str, b: str) -> bool:
    return (a, b) in _OPPOSED or (b, a) in _OPPOSED


class SameDirection:
    id = "direction.kept"
    checks = (
        "Each direction the claim gives (up/down, before/after, above/below) is given the "
        "same way by the passage sentence it matches; a word of a bound (“no less than”, "
        "“up to”) is a quantity, `quantity.kept`'s; the particle of a phrasal verb the "
        "claim's verb is matched as is no direction."
    )
    example = (
        "Invoices are paid before delivery.",
        "Invoices are paid on delivery.",
        "the passage does not say “before”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        sentences = _matched_sentences(reading)
        for t in reading.claim:
            way = direction_of(lemma(t))
            if way is None or t.pos_ in ("NOUN", "PROPN") or t.i in reading.framing:
                continue
            if _bound_phrase(t):
                continue  # "no less than 4%", "up to 15 years": a bound, `SameQuantity`'s
            if _particle(reading, t) and t.head.i in reading.matches:
                continue  # a phrasal verb matched whole
            if _same_way_in(reading, t, sentences) or _opposite_in(reading, t, sentences):
                continue  # kept; or the opposite, which `OppositeWord` reports
            yield Finding(
                self.id,
                "unconfirmed",
                t.text,
                "",
                f"the passage does not say “{t.text}”",
            )


_BOUNDED = frozenset({"at_least", "at_most"})


class SameModality:
    id = "modality.kept"
    checks = (
        "The claim's predicate carries the modality of the passage's (must / may / may not / "
        "need not, or a plain statement); a plain statement may restate an obligation, and "
        "an obligation what the passage says will be done (“will pay”). A "
        "permission against a prohibition, or an obligation against a prohibition, "
        "contradicts. The verb of an item of a list carries the modal its lead-in ends on "
        "(“The Directors must: (b) tell the auditor of any fraud ...”)."
    )
    example = (
        "The Tenant may sublet the Premises.",
        "The Tenant shall not sublet the Premises.",
        "the passage says “shall not sublet”, the claim “may sublet”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        for ours, theirs in _predicates(reading):
            a, b = deontic(ours), deontic(theirs)
            if _compatible(a, b) or (a == "obligation" and _undertaken(theirs)):
                continue
            conflict = {a, b} in _CONFLICTS and _same_doer(reading, ours, theirs)
            effect: Effect = "contradicted" if conflict else "unconfirmed"
            said, claimed = _modal_words(theirs), _modal_words(ours)
            yield Finding(
                self.id,
                effect,
                claimed,
                said,
                f"the passage says “{said}”, the claim “{claimed}”",
            )


_CONFLICTS = [{"permission", "prohibition"}, {"obligation", "prohibition"}]


def _same_doer(reading: Reading, ours: Token, theirs: Token) -> bool:
    """Whether the two verbs are said of the same doer (or the passage's stands for anyone,
    or neither names one): a modality said of another party is no contradiction."""
    claim_role, passage_role = _role(ours, "doer"), _role(theirs, "doer")
    if claim_role is None or passage_role is None or lemma(passage_role) in ANYONE:
        return claim_role is None or passage_role is None or lemma(passage_role) in ANYONE
    inside = {x.i for x in passage_role.subtree}
    anchors = [reading.matched(t.i) for t in claim_role.subtree]
    return any(a is not None and a.i in inside for a in anchors)


def _compatible(claim: Deontic, passage: Deontic) -> bool:
    return claim == passage or (claim == "plain" and passage == "obligation")


def _undertaken(verb: Token) -> bool:
    """Whether the passage's plain ``verb`` is undertaken with "will", not denied ("we will
    pay the credit within 30 days"), which a claim may restate as an obligation ("must
    pay")."""
    return (
        deontic(verb) == "plain"
        and not negated(verb)
        and any(
            c.dep_ == "aux" and c.lower_ in ("will", "'ll")
            for holder in _holders(verb)
            for c in holder.children
        )
    )


def _modal_words(token: Token) -> str:
    holders = _holders(token)
    words = [
        c
        for h in holders
        for c in h.children
        if c.dep_ in ("aux", "auxpass", "neg") or c.lower_ in NEGATORS
    ]
    if token.dep_ == "xcomp":
        words.append(token.head)
    modal = _introducing_modal(token) if not words else None
    if modal is not None:  # "must: ... tell"
        return f"{_words([modal, *(c for c in modal.children if c.dep_ == 'neg')])}: {token.text}"
    return _words([*words, token])


def _predicates(reading: Reading) -> Iterator[tuple[Token, Token]]:
    """Claim verbs matched to passage verbs (and the claim's root to its match), and the light
    verbs that carry a matched word the same way on both sides: "make it available" says its
    modality with "make", which no match reads."""
    seen: set[tuple[int, int]] = set()
    for i, m in reading.matches.items():
        if m.passage is None:
            continue
        ours, theirs = reading.claim[i], reading.passage[m.passage]
        if ours.pos_ in ("VERB", "AUX") and theirs.pos_ in ("VERB", "AUX"):
            pair = (ours, theirs)
        elif (
            ours.dep_ in _CARRIED
            and theirs.dep_ in _CARRIED
            and lemma(ours.head) in _CARRIERS
            and lemma(ours.head) == lemma(theirs.head)
        ):
            pair = (ours.head, theirs.head)
        else:
            continue
        if (pair[0].i, pair[1].i) not in seen:
            seen.add((pair[0].i, pair[1].i))
            yield pair


_CARRIED = frozenset({"ccomp", "acomp", "oprd", "dobj", "xcomp"})
"""How a word hangs from the verb that carries it: "make it available", "take effect"."""
_CARRIERS = LIGHT_VERBS - {"be"}
"""The light verbs whose modality is their word's ("be" and its adjective: `SamePolarity`)."""


class SamePolarity:
    id = "polarity.kept"
    checks = (
        "A matched verb is denied on both sides or on neither: “not”, “never”, or a subject "
        "or object under “no” (“No Founder shall” = “Founders may not”); so is a main verb "
        "of the claim no match reads (a light verb: “applies”; “includes”) and the same verb "
        "of the passage's statement (“It does not apply to:”, “does not include”)."
    )
    example = (
        "The Supplier is liable for indirect loss.",
        "The Supplier is not liable for indirect loss.",
        "the passage denies “liable”; the claim does not",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        pairs = [(a, b, a, b) for a, b in _predicates(reading)]
        for i, m in reading.matches.items():
            if m.passage is None:
                continue
            ours, theirs = reading.claim[i], reading.passage[m.passage]
            if ours.pos_ == "ADJ" and ours.dep_ in ("acomp", "attr") and theirs.pos_ == "ADJ":
                pairs.append((ours.head, theirs.head, ours, theirs))  # "is (not) liable"
        pairs += [(a, b, a, b) for a, b in _light_roots(reading)]
        for ours, theirs, our_word, their_word in pairs:
            if deontic(ours) != "plain" or deontic(theirs) != "plain":
                continue  # the modality rule reads negation with the modal
            if negated(ours) == negated(theirs):
                continue
            side = "the passage denies" if negated(theirs) else "the claim denies"
            other = "the claim does not" if negated(theirs) else "the passage does not"
            named = their_word.text if negated(theirs) else our_word.text
            yield Finding(
                self.id, "unconfirmed", our_word.text, their_word.text, f"{side} “{named}”; {other}"
            )


def _light_roots(reading: Reading) -> Iterator[tuple[Token, Token]]:
    """The claim's main verb where no match reads it (a light verb, a word of direction, a
    stop word: "The policy applies to purchases of energy", "The fee includes bar staff"), and each
    verb of the same lemma in the passage's statement that holds most of the claim's matches
    ("It does not apply to: ... (b) purchases of energy"): said, or denied, of what the
    claim matches."""
    root = next((t for t in reading.claim if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("VERB", "AUX") or root.i in reading.matches:
        return
    lem = lemma(root)
    if lem not in _CARRIERS and (root.i in reading.content or lem in MODALITY or lem == "be"):
        return
    counts: dict[int, int] = {}
    for m in reading.matches.values():
        if m.passage is not None:
            at = statement(reading.passage[m.passage])
            counts[at] = counts.get(at, 0) + 1
    if not counts:
        return
    main = max(counts, key=lambda s: (counts[s], -s))
    for t in reading.passage:
        if lemma(t) == lemma(root) and t.pos_ in ("VERB", "AUX") and statement(t) == main:
            yield root, t


class SameQuantity:
    id = "quantity.kept"
    checks = (
        "Each quantity word of the claim (all / every / each / any, some, only, at least, at "
        "most, more than, less than) is in the passage sentence it matches, in the same class "
        "(a comparative after the figure of a difference, “8% more than”, is a direction; a "
        "time bound of a length counted back from an event turns over: “no earlier than 7 "
        "days before” is at most 7 days); where the passage quantifies the thing the "
        "claim's word quantifies, in that noun phrase (“every one of the entries” against “a "
        "sample of at least one in ten of your entries”)."
    )
    example = (
        "The Landlord must give at least 30 days' notice.",
        "The Landlord must give 30 days' notice.",
        "the passage does not say “at least”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        sentences = _matched_sentences(reading)
        theirs = {
            q
            for p in reading.passage
            if p.sent.start in sentences
            for q in [_quantity(reading.passage, p)]
            if q is not None
        }
        for t in reading.claim:
            q = _quantity(reading.claim, t)
            if q is None or t.i in reading.framing:
                continue
            if q in ("more", "less") and _difference(reading, t):
                continue  # "8% more than in Q2 2024": a change, `direction.kept`'s
            near = _quantities_of(reading, t)  # the passage's, of what the claim quantifies
            said = near if near else theirs
            if q in said or (q in _ALL and said & _ALL):
                continue
            if q == "only" and _only_if(t) and _necessary_condition_in(reading, sentences):
                continue  # "only if" for "provided that": `condition.kept` reads the rest
            yield Finding(
                self.id,
                "unconfirmed",
                _quantity_words(t),
                "",
                f"the passage does not say “{_quantity_words(t)}”",
            )


_ALL = {"all", "any"}


def _quantities_of(reading: Reading, t: Token) -> set[str]:
    """The quantity classes the passage says of the thing the claim's quantity word ``t``
    quantifies ("every one of Tillbrook's entries": the entries), in the noun phrase its
    match stands in ("a sample of at least one in ten of your entries"); none where that
    thing is not matched or the phrase has no quantity word."""
    quantified = t.head if t.dep_ in ("det", "amod", "advmod", "nummod", "quantmod") else t
    of = next((c for c in quantified.children if c.dep_ == "prep" and c.lower_ == "of"), None)
    if of is not None and (quantified.pos_ in ("NUM", "PRON") or lemma(quantified) in _ONES):
        quantified = next((c for c in of.children if c.dep_ == "pobj"), quantified)
    found = reading.matched(quantified.i)
    if found is None or found.pos_ not in ("NOUN", "PROPN"):
        return set()
    while found.dep_ == "pobj" and found.head.dep_ == "prep":
        above = found.head.head  # "entries" of "one in ten of your entries", "a sample of"
        if above.pos_ not in ("NUM", "PRON") and not (
            found.head.lower_ == "of" and above.pos_ in ("NOUN", "PROPN")
        ):
            break
        found = above
    return {q for p in found.subtree if (q := _quantity(reading.passage, p)) is not None}


_ONES = frozenset({"one", "each", "all", "any", "some", "none", "sample"})


def _difference(reading: Reading, t: Token) -> bool:
    """Whether the comparative ``t`` follows the figure of a difference ("8% more than", "£56
    a day more than", "£37,600 below the limit"): it says which way a figure moved, not a
    bound of one."""
    return t.i > 0 and reading.figure("claim", t.i - 1) is not None


def _only_if(t: Token) -> bool:
    """Whether ``t`` is the "only" of "only if", "only when", "only where"."""
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    return nxt is not None and nxt.lower_ in ("if", "when", "where")


def _necessary_condition_in(reading: Reading, sentences: set[int]) -> bool:
    """Whether a matched sentence of the passage opens a condition that must hold
    (`lexicon.NECESSARY_CONDITIONS`: "provided that", "subject to", "as long as")."""
    for p in reading.passage:
        if p.sent.start not in sentences or p.lower_ not in NECESSARY_CONDITIONS:
            continue
        after = p.doc[p.i + 1].lower_ if p.i + 1 < len(p.doc) else ""
        before = p.doc[p.i - 1].lower_ if p.i else ""
        if p.lower_ in ("provided", "providing") or (p.lower_, after) in CONDITION_PAIRS:
            return True
        if p.lower_ == "long" and before in ("as", "so"):
            return True
    return False


def _quantity(doc: Doc, t: Token) -> str | None:
    before = doc[t.i - 1].lower_ if t.i > 0 else ""
    after = doc[t.i + 1].lower_ if t.i + 1 < len(doc) else ""
    if t.like_num or t.pos_ == "NUM":
        return None
    if lemma(t) == "up" and after == "to":
        return "at_most"
    two = doc[t.i - 2].lower_ if t.i > 1 else ""
    found = quantifier_of(lemma(t), before)
    if before == "be" and two in ("not", "no"):
        found = quantifier_of(lemma(t), "not be")  # "may not be more than"
    if found is None and lemma(t) in ("above", "below", "over", "under", "exceed"):
        # "over 50 miles", "above £100": a bound, as "more than" is
        return "more" if direction_of(lemma(t)) == "up" else "less"
    if lemma(t) in BOUND_BY_TIME and found in _TURNED and _counted_back(doc, t):
        return _TURNED[found]
    return found


_TURNED = {"at_least": "at_most", "at_most": "at_least"}
_BACK = frozenset({"before", "prior", "ahead", "earlier"})


def _counted_back(doc: Doc, t: Token) -> bool:
    """Whether the time bound ``t`` ("no earlier than") is of a length of time counted back
    from an event ("no earlier than 7 days before the Completion Date"): the bound turns
    over, as "at most 7 days before" says."""
    after = doc[t.i + 1 : t.i + 7]
    if not after or after[0].lower_ != "than" or not any(x.like_num for x in after):
        return False
    return any(x.lower_ in _BACK for x in after[1:])


def _quantity_words(t: Token) -> str:
    doc = t.doc
    if t.i > 0 and doc[t.i - 1].lower_ in ("at", "no", "not", "up"):
        return f"{doc[t.i - 1].text} {t.text}"
    return t.text


class SameRoles:
    id = "roles.kept"
    checks = (
        "Who does what to whom agrees: for each matched verb, the claim's doer (its subject, "
        "or the `by` agent of a passive) is the passage's doer, and its object the "
        "passage's object, or a word inside them; the doer too of a main verb of the claim no "
        "match reads (a light verb: “applies”) and the same verb of the passage's statement. "
        "A pronoun of the passage counts where it "
        "stands for a party: a message's “we”, or a term the source defines (“we” of "
        "(the “Factor”, “we”)), and a pronoun of a clause the claim reports stands for its "
        "speaker (“Fiona Gallagher said she would pay”); a possessor is not the doer (“Our "
        "treasurer”), and of two subjects the parse gives a verb, the one beside it is. Who "
        "the claim says said something (“Raj Menon said that ...”) is who the passage's "
        "statement of it says said it, where it says so."
    )
    example = (
        "The Landlord must pay the Tenant's legal costs.",
        "The Tenant must pay the Landlord's legal costs.",
        "the passage says “The Tenant” does this (“pay”), not “The Landlord”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        yield from _said_by(reading)
        light = [pair for pair in _light_roots(reading) if _carries_the_same(reading, *pair)]
        for ours, theirs in [*_predicates(reading), *light]:
            # a light verb's doer only: its object is what the claim's words match
            roles = ("doer",) if (ours, theirs) in light else ("doer", "object")
            for role in roles:
                claim_role = _role(ours, role)
                passage_role = _role(theirs, role)
                if claim_role is None or passage_role is None:
                    continue
                if claim_role.pos_ == "PRON":
                    yield from _reported_doer(reading, ours, claim_role, theirs, passage_role)
                    continue
                if passage_role.pos_ == "PRON" and not _names_party(reading, passage_role):
                    continue  # "it", "they": no party the rule can name
                if lemma(passage_role) in ANYONE:
                    continue  # "no one may discuss": said of staff too
                # its phrase (its own words are in it), less whose it is: "Our treasurer"
                inside = {x.i for x in passage_role.subtree} - _owners(passage_role)
                placed = [
                    m.passage
                    for t in claim_role.subtree
                    if t.i in reading.content
                    for m in reading.candidates.get(t.i, [])
                    if m.passage is not None
                ]
                if any(k in inside for k in placed):
                    continue  # some occurrence of the claim's doer is the passage's
                if not placed and not _names_someone(reading, passage_role):
                    continue  # a doer the passage names no one as: the words' rule reads it
                yield Finding(
                    self.id,
                    "unconfirmed",
                    _words(claim_role.subtree),
                    _words(passage_role.subtree),
                    f"the passage says “{_words(passage_role.subtree)}” "
                    f"{'does this' if role == 'doer' else 'is the object'} "
                    f"(“{theirs.text}”), not “{_words(claim_role.subtree)}”",
                )


_OWN_CLAUSE_APART = frozenset({"advcl", "ccomp", "conj", "pcomp", "relcl", "parataxis", "xcomp"})


def _carries_the_same(reading: Reading, ours: Token, theirs: Token) -> bool:
    """Whether the claim's light verb ``ours`` ("apply") says what the passage's ``theirs``
    says: each matched word of its own clause, its doer aside, is matched in the clause of
    ``theirs`` ("We will apply to North Craven Council for the scaffold licence"), not in
    another clause of the same sentence ("bears its own costs, except that Wendover will pay
    the costs of the planning application")."""
    doer = _role(ours, "doer")
    aside = {t.i for t in doer.subtree} if doer is not None else set()
    words = [
        i
        for i in own(ours, _OWN_CLAUSE_APART) - aside
        if i in reading.content and reading.matched(i) is not None
    ]
    clause = own(theirs, _OWN_CLAUSE_APART)
    return bool(words) and all(reading.matches[i].passage in clause for i in words)


def _reported_doer(
    reading: Reading, ours: Token, pronoun: Token, theirs: Token, passage_role: Token
) -> Iterator[Finding]:
    """A doer of a reported clause the claim names by a pronoun of its speaker ("Fiona
    Gallagher said she would pay"), where the passage names another ("Martin Hollis, our
    finance director, will pay"): the speaker's words, or the pronoun of the speaker's own
    message, must stand in the passage's doer."""
    speaker = _speaker_of(ours, pronoun)
    if speaker is None or lemma(passage_role) in ANYONE:
        return
    names = [t.lower_ for t in speaker.subtree if t.pos_ == "PROPN"]
    if passage_role.pos_ == "PRON":
        said = reading.named.get(passage_role.i)
        if said is None or any(said[0].stands_for(said[1], n) for n in names):
            return
    else:
        words = {t.lower_ for t in passage_role.subtree} - {
            passage_role.doc[k].lower_ for k in _owners(passage_role)
        }
        if any(n in words or reading.defined.aliases(n) & words for n in names):
            return
    who = _words(passage_role.subtree)
    yield Finding(
        SameRoles.id,
        "unconfirmed",
        _name(speaker),
        who,
        f"the passage says “{who}” does this (“{theirs.text}”), not “{_name(speaker)}”",
    )


def _speaker_of(verb: Token, pronoun: Token) -> Token | None:
    """The name a pronoun of a reported clause stands for: the speaker who reports it
    ("Fiona Gallagher said she would pay": "she" is Fiona Gallagher), or None."""
    if pronoun.lower_ not in THIRD_PERSON:
        return None
    head = verb
    while head.dep_ in ("ccomp", "xcomp", "conj") and head.head.i != head.i:
        head = head.head
    if head is verb or lemma(head) not in ATTRIBUTION:
        return None
    speaker = next((c for c in head.children if c.dep_ == "nsubj"), None)
    return speaker if speaker is not None and speaker.pos_ == "PROPN" else None


def _owners(role: Token) -> set[int]:
    """The words of ``role`` that say whose it is ("Our" of "Our treasurer", "the Tenant's"
    of "the Tenant's agent"): the possessor is not who does it."""
    return {y.i for x in role.subtree if x.dep_ == "poss" and x.i != role.i for y in x.subtree}


def _said_by(reading: Reading) -> Iterator[Finding]:
    """A speaker the claim names for what it reports ("Raj Menon said that software leads
    growth": the verb and its subject frame the claim, `Reading.framing`) against the
    speaker the passage names in its statement that holds most of the reported words
    ("Helena Strand, Chief Executive, said: ..."): the claim's speaker's own word, or a term
    the source defines it by, must stand in the passage's."""
    for said in reading.claim:
        if said.i not in reading.framing or lemma(said) not in ATTRIBUTION:
            continue
        speaker = next((c for c in said.children if c.dep_ == "nsubj"), None)
        clause = next((c for c in said.children if c.dep_ == "ccomp"), None)
        if speaker is None or clause is None or not _a_name(reading, speaker):
            continue
        where = [
            statement(found)
            for t in clause.subtree
            if t.i in reading.content and (found := reading.matched(t.i)) is not None
        ]
        if not where:
            continue
        sentence = max(set(where), key=where.count)
        for verb in reading.passage:
            theirs = next((c for c in verb.children if c.dep_ == "nsubj"), None)
            if (
                statement(verb) != sentence
                or lemma(verb) not in ATTRIBUTION
                or theirs is None
                or not _a_name(reading, theirs)
            ):
                continue
            words = {t.lower_ for t in theirs.subtree}
            if speaker.lower_ in words or reading.defined.aliases(speaker.lower_) & words:
                continue
            ours, who = _name(speaker), _name(theirs)
            yield Finding(
                SameRoles.id,
                "unconfirmed",
                ours,
                who,
                f"the passage says “{who}” said this, not “{ours}”",
            )
            return


def _a_name(reading: Reading, token: Token) -> bool:
    """Whether ``token`` names someone: a name, or a term the source defines ("the
    Auditor"), not a common noun ("Studies have shown", "Results showed")."""
    return token.pos_ == "PROPN" or bool(reading.defined.aliases(token.lower_))


def _name(token: Token) -> str:
    """A noun with the names compounded with it: "Helena Strand" of "Helena Strand, Chief
    Executive"."""
    parts = [token]
    for part in parts:
        parts += [c for c in part.children if c.dep_ == "compound"]
    return _words(sorted(parts, key=lambda t: t.i))


def _names_someone(reading: Reading, role: Token) -> bool:
    """Whether a passage's doer or object names a party of the source: a term or a name it
    defines, or a pronoun standing for one (`_names_party`): a claim whose own word for it
    finds no match names someone else, or the same party in words citeproof cannot pair."""
    if role.pos_ == "PRON":
        return _names_party(reading, role)
    return bool(reading.defined.aliases(role.lower_))


def _names_party(reading: Reading, pronoun: Token) -> bool:
    """Whether a pronoun stands for a party the source names: the "we" of a message's writer
    (`Reading.named`) or a term the source defines ("we" of (the "Factor", "we"))."""
    return pronoun.i in reading.named or bool(reading.defined.aliases(pronoun.lower_))


def _role(verb: Token, role: str) -> Token | None:
    holders = [verb]
    if verb.dep_ == "conj" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        holders.append(verb.head)  # "return or destroy": the subject of the first verb
    for holder in holders:
        # nearest first: a parse that runs two lines together may give a verb two subjects
        for child in sorted(holder.children, key=lambda c: abs(c.i - holder.i)):
            if role == "doer":
                if child.dep_ == "nsubj":
                    return child
                if child.dep_ == "agent":
                    return next((g for g in child.children if g.dep_ == "pobj"), None)
            elif child.dep_ in ("dobj", "nsubjpass"):
                return child
    modal = _introducing_modal(verb) if role == "doer" else None
    if modal is not None:  # "The Directors must: (d) sign ...": the lead-in's subject
        return next((c for c in modal.children if c.dep_ == "nsubj"), None)
    return None


class FigureAttached:
    id = "figure.attached"
    checks = (
        "Each figure and date of the claim is said of the same thing in the passage: no word "
        "the claim attaches to it lies in the phrase of another figure of the passage, and the "
        "verb it hangs from in the claim governs it in the passage. An amount “of” a noun is "
        "said of that noun (“an upfront fee of £120,000 ..., and a milestone payment of "
        "£80,000”: not a “£120,000 milestone payment”). An amount said of two things joined "
        "by “and”, the other with no amount of its own, is not said of one of them (“the six "
        "chairs and the two desks, £2,068 in total”)."
    )
    example = (
        "Facility B carries a Margin of 2.75% per annum.",
        "The Margin is 2.75% per annum for Facility A and 2.25% per annum for Facility B.",
        "the passage gives “2.25%” for “B”, and “2.75%” for something else",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        passage = reading.passage
        tops = _figure_tops(reading, "passage")
        for i, m in reading.matches.items():
            if m.how != "figure" or m.passage is None:
                continue
            key = reading.figure("claim", i)
            ours = _top(reading, "passage", passage[m.passage])
            unit = reading.units.get(("passage", m.passage), "")
            stated = {k for (side, _), k in reading.figures.items() if side == "claim"}
            mine = own(ours)
            noun = _amount_of(reading, "passage", ours)
            claimed = _said_of_in_claim(reading, i) if noun is not None else set()
            rivals = [
                t
                for t in tops
                if reading.figure("passage", t.i) not in (key, None)
                and reading.figure("passage", t.i) not in stated  # the claim says it too
                and reading.units.get(("passage", t.i), "") == unit
                and t.i not in mine
            ]
            elsewhere = _other_figures_phrases(reading, key)
            for j in reading.content:
                if j == i or reading.figure("claim", j) is not None or j in elsewhere:
                    continue  # a word the claim itself says of another of its figures
                anchor = reading.matched(j)
                if anchor is None or anchor.i in mine:
                    continue
                if noun is not None and any(
                    m.passage in own(noun) for m in reading.candidates.get(j, ())
                ):
                    continue  # the same word stands in the claim's figure's phrase too
                for rival in rivals:
                    if anchor.i in own(rival) or (
                        j in claimed and anchor.i in _named_amount(reading, rival, ours)
                    ):
                        yield Finding(
                            self.id,
                            "unconfirmed",
                            reading.claim[j].text,
                            _phrase(rival),
                            f"the passage gives “{_phrase(rival)}” "
                            f"for “{anchor.text.rstrip('.')}”, "
                            f"and “{_phrase(ours)}” for something else",
                        )
                        break
            yield from self._in_its_cell(reading, i, passage[m.passage])
            yield from self._governed(reading, i, ours)
            joined = _left_out_conjunct(reading, i, ours) if unit else None
            if joined is not None:
                said = _words(joined.subtree)
                yield Finding(
                    self.id,
                    "unconfirmed",
                    reading.claim[i].text,
                    said,
                    f"the passage gives “{_phrase(ours)}” for “{said}” too",
                )

    def _in_its_cell(self, reading: Reading, i: int, figure: Token) -> Iterator[Finding]:
        """A table row read as a sentence: the claim's words stand by its figure in a cell
        that lists several (`_cells`)."""
        cell = cell_at(reading.passage.text, figure.idx)
        j = None if cell is None else beside_another(reading, i, figure.idx, cell)
        if j is not None:
            word = reading.matched(j)
            said = word.text if word is not None else reading.claim[j].text
            yield Finding(
                self.id,
                "unconfirmed",
                reading.claim[j].text,
                said,
                f"the cell gives “{reading.claim[i].text}” for other words than "
                f"“{said}”, which stands by another figure",
            )

    def _governed(self, reading: Reading, i: int, ours: Token) -> Iterator[Finding]:
        verb = _verb_above(reading.claim[i])
        if verb is None or lemma(verb) in _SKIP_VERBS:
            return
        if reading.units.get(("claim", i)) == "th":
            return  # an ordinal names which one ("the first film"), it is said of no verb
        match = reading.matched(verb.i)
        if match is None or match.pos_ not in ("VERB", "AUX"):
            return
        theirs = _verb_above(ours)
        if theirs is None or lemma(theirs) in _SKIP_VERBS:
            return  # said in a naming clause ("The February 1969 nor'easter was ...")
        candidates = [
            reading.passage[m.passage]
            for m in reading.candidates.get(verb.i, [Match(verb.i, match.i, "same")])
            if m.passage is not None
        ]
        if any(_governs(c, theirs, ours) for c in candidates):
            return
        yield Finding(
            self.id,
            "unconfirmed",
            f"{verb.text} … {reading.claim[i].text}",
            f"{theirs.text} … {_phrase(ours)}",
            f"the passage gives “{_phrase(ours)}” for “{theirs.text}”, not “{verb.text}”",
        )


_SKIP_VERBS = frozenset({"be", "have", "carry", "get", "make", "do"})


def _governs(match: Token, theirs: Token, ours: Token) -> bool:
    """Whether the passage verb ``match`` is the one the figure ``ours`` hangs from
    (``theirs``): the same, one predicate with it, its non-finite complement, or a relative
    clause on the figure ("we offered 3%, which they accepted")."""
    if match.pos_ not in ("VERB", "AUX"):
        return False
    return (
        theirs.i == match.i
        or _joined(theirs, match)
        or _complement_of(theirs, match)  # "may end the employment by giving three months'"
        or (match.dep_ in ("relcl", "acl") and match.head.i in own(ours))
    )


def _left_out_conjunct(reading: Reading, i: int, ours: Token) -> Token | None:
    """A noun joined by "and" to a passage word the claim matches, in the sentence of the
    claim's figure ``i`` (matched at ``ours``), that no word of the claim matches and that
    has no figure of its own (a count aside: "the two desks"): the figure is said of both
    ("the price of the six chairs and the two desks, £2,068 in total"), not of the one the
    claim names."""
    sentence = ours.sent
    for j in reading.content:
        if j == i or reading.figure("claim", j) is not None:
            continue
        anchor = reading.matched(j)
        if anchor is None or anchor.sent != sentence or anchor.pos_ not in ("NOUN", "PROPN"):
            continue
        for other in anchor.conjuncts:
            head = other if other.dep_ == "conj" else anchor
            if not any(c.dep_ == "cc" and c.lower_ == "and" for c in head.head.children):
                continue
            if other.pos_ not in ("NOUN", "PROPN"):
                continue
            if any(x.i in reading.placed for x in other.subtree):
                continue
            if any(reading.units.get(("passage", x.i)) for x in other.subtree):
                continue  # its own figure: "£412 for short-wheelbase vans and £468 for ..."
            return other
    return None


def _other_figures_phrases(reading: Reading, key: str | None) -> set[int]:
    """The claim's words inside the phrase of one of its figures other than ``key``."""
    out: set[int] = set()
    for top in _figure_tops(reading, "claim"):
        if reading.figure("claim", top.i) not in (key, None):
            out |= own(top)
    return out


def _joined(a: Token, b: Token) -> bool:
    """Whether two verbs are one predicate: coordinated, or one the other's complement."""
    chain = {a.i}
    for t in (a, b):
        head = t
        while head.dep_ in ("conj", "xcomp", "ccomp", "advcl") and head.head.i != head.i:
            head = head.head
            chain.add(head.i)
    return b.i in chain or a.head.i == b.i or b.head.i == a.i


def _complement_of(verb: Token, above: Token) -> bool:
    """Whether ``verb`` is a non-finite complement inside ``above``'s clause ("by giving",
    "to pay"): no subject of its own between them."""
    node = verb
    while node.head.i != node.i:
        if any(c.dep_ in ("nsubj", "nsubjpass") for c in node.children) and node is not verb:
            return False
        node = node.head
        if node.i == above.i:
            return not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children)
    return False


def _verb_above(token: Token) -> Token | None:
    for t in _path_up(token):
        tok = token.doc[t]
        if tok.pos_ in ("VERB", "AUX") and tok.i != token.i:
            return tok
    return None


def _path_up(token: Token) -> list[int]:
    out = [token.i]
    while token.head.i != token.i:
        token = token.head
        out.append(token.i)
    return out


def _top(reading: Reading, side: str, token: Token) -> Token:
    """The head of a figure's phrase: climbs while the head is in the same figure, or is
    the noun the number counts ("2.75" → "%", "30" → "days")."""
    key = reading.figure(side, token.i)
    while token.head.i != token.i and (
        reading.figure(side, token.head.i) == key
        or (token.dep_ in ("nummod", "compound") and token.head.pos_ in ("NOUN", "SYM", "PROPN"))
    ):
        token = token.head
    return token


def _named_amount(reading: Reading, rival: Token, ours: Token) -> set[int]:
    """The words of the noun another figure of the sentence is the amount "of", where the
    claim's figure is the amount of a noun of its own ("an upfront fee of £120,000, and a
    milestone payment of £80,000"): "milestone payment" is said of £80,000 only."""
    theirs, mine = _amount_of(reading, "passage", rival), _amount_of(reading, "passage", ours)
    if theirs is None or mine is None or theirs.i == mine.i or rival.sent != ours.sent:
        return set()
    return own(theirs) - own(mine)


def _amount_of(reading: Reading, side: str, top: Token) -> Token | None:
    """The noun a figure's phrase (``top``, its `_top`) is the amount "of" ("a milestone
    payment of £80,000": "payment"), or None."""
    of = top.head
    if (
        top.dep_ == "pobj"
        and of.lower_ == "of"
        and of.head.pos_ in ("NOUN", "PROPN")
        and reading.figure(side, of.head.i) is None
    ):
        return of.head
    return None


def _said_of_in_claim(reading: Reading, i: int) -> set[int]:
    """The claim's words its figure at ``i`` is said of: its phrase, the noun it is the
    amount "of", less an apposition ("£10,000,000, twice the minimum ...")."""
    top = _top(reading, "claim", reading.claim[i])
    return own(_amount_of(reading, "claim", top) or top, _ASIDE)


_ASIDE = frozenset({"appos", "relcl"})


def _figure_tops(reading: Reading, side: str) -> list[Token]:
    doc = reading.claim if side == "claim" else reading.passage
    tops: dict[int, Token] = {}
    for t in doc:
        if reading.figure(side, t.i) is not None:
            top = _top(reading, side, t)
            tops.setdefault(top.i, top)
    return list(tops.values())


class ConditionKept:
    id = "condition.kept"
    checks = (
        "A condition or exception the passage attaches to the matched statement (unless, "
        "except, provided that, subject to, if, only if, other than, apart from, excluding, "
        "notwithstanding; a deduction: “less its costs”) is kept by the claim: the claim "
        "states a condition too (for an exception, an exception, or a denial where the "
        "passage's statement is no denial itself, nor an item under a lead-in that denies: "
        "an “if” of the claim's own restates no “other than”) and matches some of its "
        "words, or matches at least half of them; and no phrase of the condition's verb is "
        "left out whole (“because of a mechanical fault”). A deduction is kept only by the "
        "claim's own (“plus 15%” keeps no “less 15%”); an exception that opens a list "
        "(“other than:”) "
        "only by an exception or a denial. A condition that is enough (“if A or B”) is kept "
        "by a claim that keeps one of its alternatives; a phrase the statement is limited to "
        "by “only” (“only with the Lender's written consent”) is a condition too. An "
        "exception after a comma that "
        "closes the sentence is read of the sentence's statement too; a sentence right after "
        "the statement that points back at it and says it does not apply (“The discount does "
        "not apply to ...”, “This right does not apply if ...”) is an exception as well."
    )
    example = (
        "The Recipient must destroy every copy of the Confidential Information.",
        "The Recipient shall return or destroy all Confidential Information, except that it "
        "may keep one archival copy.",
        "the claim leaves out the passage's condition “except that it may keep one archival copy”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        sentences = _matched_sentences(reading)
        targets = _answered(reading)
        stated = {lemma(t) for t in reading.claim} | {
            key for (side, _), key in reading.figures.items() if side == "claim"
        }
        # The claim states a condition of its own ("when uptime is under 99.9%"): the
        # passage's may be said in its words.
        claim_conditions = any(
            _opens_condition(t) or t.lower_ in _CLAIM_CONDITIONS for t in reading.claim
        )
        # An exception ("other than", "unless") is restated only by an exception or a
        # denial: the claim's "if" is a condition of its own, not the passage's exception.
        claim_exceptions = any(
            _opens_condition(t) and t.lower_ in EXCEPTIONS for t in reading.claim
        )
        claim_denies = any(t.lower_ in NEGATORS for t in reading.claim)
        for t in reading.passage:
            if t.sent.start not in sentences or not _opens_condition(t):
                continue
            restates = (
                claim_exceptions or (claim_denies and not _statement_denied(t))
                if t.lower_ in EXCEPTIONS
                else claim_conditions
            )
            clause = _condition_clause(t)
            if not _said_of_the_claim(reading, t, clause, targets):
                continue  # a condition of another statement in the same sentence
            words = _condition_words(reading.passage, clause)
            kept: set[str] = stated if restates else set()
            hit = sum(1 for w in words if _restated(reading, w, targets, kept))
            if not words:
                if not _opens_list(t, clause) or restates:
                    continue
                left, says = clause, _LEFT_OUT_WITH_LIST
            elif (hit * 2 >= len(words) or (restates and hit)) and (
                restates or t.lower_ not in _DEDUCTIONS  # "plus 15%" keeps no "less 15%"
            ):
                dropped = _dropped_phrase(reading, clause, targets, kept, _enough(t))
                if dropped is None:
                    continue
                left, says = dropped, "the claim leaves out “{}” of the passage's condition"
            else:
                left, says = clause, "the claim leaves out the passage's condition “{}”"
            said = _stretch(reading.passage, left)
            yield Finding(self.id, "unconfirmed", "", said, says.format(said))
        yield from _only_phrases(reading, sentences, targets, stated)
        for sentence, restated in carve_outs(reading):
            if restated:
                continue
            said = sentence.text.strip().rstrip(".")
            yield Finding(
                self.id,
                "unconfirmed",
                "",
                said,
                f"the claim leaves out the passage's exception “{said}”",
            )


def carve_outs(reading: Reading) -> Iterator[tuple[Span, bool]]:
    """Each passage sentence that carves an exception out of a matched statement right
    before it (`_carves_out`), and whether the claim keeps it: the claim states an exception
    or a denial and matches one of its words, or matches half of them."""
    sentences = _matched_sentences(reading)
    targets = _answered(reading)
    excepts = any(
        (_opens_condition(t) and t.lower_ in EXCEPTIONS) or t.lower_ in NEGATORS
        for t in reading.claim
    )
    stated = {lemma(t) for t in reading.claim} if excepts else set()
    for sentence in reading.passage.sents:
        if not _carves_out(reading, sentence, sentences, targets):
            continue
        root = sentence.root
        carved = sorted(
            x.i for child in root.children if child.dep_ in ("prep", "advcl") for x in child.subtree
        )
        words = _condition_words(reading.passage, carved)
        if not words:
            continue
        hit = sum(1 for w in words if _restated(reading, w, targets, stated))
        yield sentence, (excepts and hit > 0) or hit * 2 >= len(words)


def _carves_out(reading: Reading, sentence: Span, matched: set[int], targets: set[int]) -> bool:
    """Whether ``sentence`` lifts the statement of the matched sentence right before it for
    some cases, in a sentence of its own: its verb one of `CARVING_OUT`, denied, its subject
    that statement ("This right does not apply if ...") or a word of it the claim matches
    ("The discount does not apply to Health and Safety Leadership")."""
    root = sentence.root
    if lemma(root) not in CARVING_OUT or not negated(root) or not sentence.start:
        return False
    before = reading.passage[sentence.start - 1].sent
    if before.start not in matched:
        return False
    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None:
        return False
    if subject.lower_ in _POINTING:  # "This does not apply ..."
        return True
    determiners = {c.lower_ for c in subject.children if c.dep_ == "det"}
    if determiners & _POINTING:  # "This right does not apply ..."
        return True
    said = {lemma(reading.passage[k]) for k in targets if before.start <= k < before.end}
    return bool(determiners & {"the", "that", "those"}) and lemma(subject) in said


_POINTING = frozenset({"this", "these", "such", "it", "they"})
"""Words by which a sentence points back at the statement before it."""


_LEFT_OUT_WITH_LIST = "the claim leaves out the passage's condition “{}” and the list it opens"


class RestrictionKept:
    id = "restriction.kept"
    checks = (
        "A bounded figure (“less than”, “at least”, “up to” ...) inside a restrictive clause "
        "of a word the claim matches (a relative clause or participle with no comma before "
        "it: “stock that is less than nine months old”; also a participle the parse took for "
        "the sentence's verb, with the real verb its conjunct: “Equipment hired for more "
        "than 6 weeks will be serviced ...”) is matched by the claim: leaving it out says the "
        "statement of more than the passage does."
    )
    example = (
        "On termination the Supplier must buy back the Distributor's unsold stock that is in "
        "its original packaging.",
        "On termination the Supplier shall buy back the Distributor's unsold stock that is in "
        "its original packaging and less than nine months old.",
        "the claim leaves out the passage's restriction “nine months”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        targets = _answered(reading)
        for t in reading.passage:
            region = _restrictive(t, targets)
            if region is None:
                continue
            left = [
                x
                for x in region
                if reading.figure("passage", x.i) is not None and x.i not in targets and _bounded(x)
            ]
            if left:
                words = _words(_with_compounds(left))
                yield Finding(
                    self.id,
                    "unconfirmed",
                    "",
                    words,
                    f"the claim leaves out the passage's restriction “{words}”",
                )


def _restrictive(t: Token, targets: set[int]) -> list[Token] | None:
    """The words of the restrictive clause ``t`` heads, said of a word the claim matches (a
    relative clause or participle with no comma before it), or None. A participle the parse
    took for the sentence's verb, its subject before it and the real verb a conjunct
    ("Equipment hired for more than 6 weeks will be serviced ..."), is one too: the clause
    is the participle's words before that verb."""
    if t.dep_ in ("relcl", "acl") and t.head.i in targets:
        region = list(t.subtree)
    elif _reduced_relative(t) and any(c.i in targets for c in t.lefts):
        verb = next(c for c in t.rights if c.dep_ == "conj")
        region = [x for x in t.subtree if t.i <= x.i < verb.left_edge.i]
    else:
        return None
    first = min(x.i for x in region)
    if first and t.doc[first - 1].text in (",", "(", ";"):
        return None  # "..., which grew 8%": said of it, not a restriction
    return region


def _reduced_relative(t: Token) -> bool:
    """Whether the parse made a participle after its subject the sentence's verb, and the
    verb after it, with an auxiliary of its own, a conjunct: "Equipment hired for more than
    6 weeks will be serviced"."""
    if t.dep_ != "ROOT" or t.tag_ != "VBN" or any(c.dep_.startswith("aux") for c in t.lefts):
        return False
    if not any(c.dep_ == "nsubj" and c.i == t.i - 1 for c in t.lefts):
        return False
    return any(
        c.dep_ == "conj"
        and c.pos_ == "VERB"
        and not any(x.dep_ == "cc" for x in t.children)
        and any(a.dep_.startswith("aux") for a in c.lefts)
        for c in t.rights
    )


def _bounded(figure: Token) -> bool:
    """Whether a word of direction or quantity bounds ``figure`` from the three tokens before
    it ("less than nine months", "at least 20 days", "up to £5,000"): a limit, not a date
    or a count that only says which ("released in 1990", "the two engines")."""
    doc = figure.doc
    for k in range(max(figure.sent.start, figure.i - 3), figure.i):
        word, before = lemma(doc[k]), doc[k - 1].lower_ if k else ""
        if direction_of(word) is not None or quantifier_of(word, before) is not None:
            return True
    return False


_CLAIM_CONDITIONS = frozenset({"when", "whenever", "once", "where"})


def _stretch(doc: Doc, indices: list[int]) -> str:
    """The words at ``indices`` as the text writes them ("less 10%"), a gap as "..."."""
    parts, start = [], indices[0]
    for before, k in itertools.pairwise([*indices, -1]):
        if k != before + 1:
            parts.append(doc[start : before + 1].text)
            start = k
    return " ... ".join(parts)


def _opens_list(marker: Token, clause: list[int]) -> bool:
    """Whether the condition ``marker`` opens is a list that follows its sentence's closing
    colon ("... arising out of the Dispute, other than:"), its words not in the clause."""
    sentence = marker.sent
    last = max(clause, default=marker.i)
    rest = [t for t in marker.doc[last + 1 : sentence.end] if not t.is_space]
    return sentence.text.rstrip().endswith(":") and all(t.text == ":" for t in rest)


_DEDUCTIONS = frozenset({"less", "minus"})


def _deducts(t: Token) -> bool:
    """Whether "less" or "minus" takes something off what comes before it ("all fees paid,
    less its documented costs", "list price less 15%"): followed by a determiner, a
    possessive or a figure, not "than", and not after "or", "no" or "much" ("£50 or less")."""
    doc = t.doc
    if t.i == 0 or t.i + 1 >= len(doc):
        return False
    before, after = doc[t.i - 1], doc[t.i + 1]
    if before.lower_ in ("or", "no", "much", "far", "even", "any", "a", "the", "and"):
        return False
    return after.lower_ != "than" and (after.pos_ in ("DET", "PRON") or after.like_num)


def _dropped_phrase(
    reading: Reading,
    clause: list[int],
    targets: set[int],
    stated: set[str],
    enough: bool = False,
) -> list[int] | None:
    """A prepositional phrase of a condition the claim keeps, said of its verb, none of whose
    words the claim matches ("because of a mechanical fault" in "if a vehicle is off the road
    for more than 48 hours because of a mechanical fault"): the claim's condition is the wider
    one. A condition that is ``enough`` for the statement (`_enough`: "if the Licensor sells
    the Car Park or needs it for redevelopment") holds in each of its alternatives: a phrase
    of a verb joined by "or" may be left out with it."""
    inside = set(clause)
    for t in (reading.passage[k] for k in clause):
        if t.dep_ != "prep" or t.head.i not in inside or t.head.pos_ not in ("VERB", "AUX"):
            continue  # "of employment" in "the first three months of employment" names them
        if enough and _alternative(t.head):
            continue
        phrase = sorted(x.i for x in t.subtree)
        words = _condition_words(reading.passage, phrase)
        if words and not any(_restated(reading, w, targets, stated) for w in words):
            return phrase
    return None


def _enough(marker: Token) -> bool:
    """Whether the condition ``marker`` opens is enough for the statement ("if", "when",
    "where"), not one it needs ("only if", "provided that") nor an exception ("unless")."""
    before = marker.doc[marker.i - 1].lower_ if marker.i else ""
    return marker.lower_ in ("if", "when", "where") and before != "only"


def _alternative(verb: Token) -> bool:
    """Whether ``verb`` is one of verbs joined by "or" ("sells ... or needs ...")."""
    head = verb.head if verb.dep_ == "conj" else verb
    joined = verb.dep_ == "conj" or any(c.dep_ == "conj" for c in verb.children)
    return joined and any(c.dep_ == "cc" and c.lower_ == "or" for c in head.children)


def _condition_words(doc: Doc, indices: list[int]) -> list[Token]:
    """The words of a condition the claim must keep: nouns, names, verbs, adjectives and
    figures, less stop words."""
    return [
        doc[k]
        for k in indices
        if doc[k].pos_ in ("NOUN", "PROPN", "VERB", "ADJ", "NUM")
        and doc[k].lower_ not in STOP_WORDS
    ]


def _restated(reading: Reading, word: Token, targets: set[int], stated: set[str]) -> bool:
    """Whether the claim keeps a word of the passage's condition: it is matched, or (where
    the claim states a condition of its own, ``stated`` its lemmas and figures) the claim
    says its lemma or its figure."""
    return word.i in targets or lemma(word) in stated or reading.figure("passage", word.i) in stated


def _opens_condition(t: Token) -> bool:
    low = t.lower_
    if low in _DEDUCTIONS:
        return _deducts(t)
    if low in CONDITIONS and t.dep_ in ("mark", "prep", "advmod", "cc", "ROOT", "advcl", "conj"):
        return not (low == "save" and t.pos_ == "VERB")
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    if nxt is None:
        return False
    return (low, nxt.lower_) in CONDITION_PAIRS or low in CONDITION_WORDS


def _only_phrases(
    reading: Reading, sentences: set[int], targets: set[int], stated: set[str]
) -> Iterator[Finding]:
    """A phrase the passage limits its statement to with "only" ("may use images of the
    Works on merchandise only with the Lender's written consent"), hung from a verb the claim
    matches: a condition the claim keeps by an "only" of its own or by at least half of the
    phrase's words."""
    if any(t.lower_ in ("only", "solely") for t in reading.claim):
        return
    for t in reading.passage:
        phrase_head = t.head
        if (
            t.sent.start not in sentences
            or t.lower_ != "only"
            or t.dep_ != "advmod"
            or phrase_head.dep_ != "prep"
            or phrase_head.head.i not in targets
        ):
            continue
        phrase = sorted({t.i, *(x.i for x in phrase_head.subtree)})
        words = _condition_words(reading.passage, phrase)
        hit = sum(1 for w in words if _restated(reading, w, targets, stated))
        if words and hit * 2 < len(words):
            said = _stretch(reading.passage, phrase)
            yield Finding(
                ConditionKept.id,
                "unconfirmed",
                "",
                said,
                f"the claim leaves out the passage's condition “{said}”",
            )


def _said_of_the_claim(
    reading: Reading, marker: Token, clause: list[int], targets: set[int]
) -> bool:
    """Whether the condition opened by ``marker`` hangs from what the claim states: the
    statement it modifies holds one of the claim's figures (or, for a claim without figures,
    one of its words) outside the condition itself."""
    if marker.lower_ in _DEDUCTIONS:  # "list price less 15%": said of what it follows
        before = [t for t in marker.doc[marker.sent.start : marker.i] if not t.is_punct]
        return bool(before) and before[-1].i in targets
    statement = own(_modified(marker)) - set(clause)
    if _trailing_exception(marker, clause):
        # ", except to a member of its group" closing "X may not transfer ... after the
        # plant starts operation": the parse hangs it from the nearest verb, a reader may
        # read it of the sentence's statement.
        statement |= own(marker.sent.root) - set(clause)
    figures = {
        m.passage for i, m in reading.matches.items() if m.how == "figure" and m.passage is not None
    }
    if figures:
        return bool(figures & statement)
    return bool(targets & statement)


def _trailing_exception(marker: Token, clause: list[int]) -> bool:
    """Whether ``marker`` opens an exception after a comma that closes its sentence: every
    word after it is in its ``clause``."""
    if marker.lower_ not in EXCEPTIONS or marker.i == marker.sent.start:
        return False
    if marker.doc[marker.i - 1].text != ",":
        return False
    inside = {*clause, marker.i}
    after = marker.doc[marker.i : marker.sent.end]
    return all(t.i in inside for t in after if not (t.is_punct or t.is_space))


def _statement_denied(marker: Token) -> bool:
    """Whether the statement the condition ``marker`` opens hangs from is a denial, by its
    own verb or, in an item of a list, by its lead-in's ("The Goods will not include: -
    electrical items, unless ...")."""
    modified = _modified(marker)
    if _denied(modified):
        return True
    lead = lead_in(modified)
    return lead is not None and negated(lead.root)


def _modified(marker: Token) -> Token:
    """The statement the condition ``marker`` opens hangs from: its verb."""
    return marker.head.head if marker.dep_ == "mark" else marker.head


def _condition_clause(t: Token) -> list[int]:
    if t.dep_ == "mark" and t.head.i != t.i:
        clause = sorted(x.i for x in t.head.subtree)
        if t.doc[clause[-1]].dep_ == "cc":  # "unless A and B": the parse hung B elsewhere
            rest = range(clause[-1] + 1, t.sent.end)
            clause += [k for k in rest if not t.doc[k].is_punct]
        return clause
    return sorted(x.i for x in t.subtree) if len(list(t.subtree)) > 1 else _rest(t)


def _rest(t: Token) -> list[int]:
    """The marker and what follows it to the end of its sentence or the next comma."""
    out = []
    for k in range(t.i, t.sent.end):
        if k > t.i and t.doc[k].text in (",", ";", "."):
            break
        out.append(k)
    return out


RULES: tuple[Rule, ...] = (
    PredicateMatched(),
    EveryWordMatched(),
    SameStatement(),
    NotAsked(),
    OppositeWord(),
    SameDirection(),
    SameModality(),
    SamePolarity(),
    SameQuantity(),
    SameRoles(),
    FigureAttached(),
    ConditionKept(),
    RestrictionKept(),
)
"""Every rule, in the order their findings are reported."""


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


_EXCEPTIONS_PROPER = EXCEPTIONS - _DEDUCTIONS  # "other than", "unless"; not "less 15%"
_DENIALS = frozenset({"prohibition", "no_obligation"})


def denial_kept(reading: Reading) -> bool:
    """Whether every denied verb of the claim is matched to a verb the passage denies too
    ("are not covered by the warranty" and "The warranty does not cover: ... (c) tools used
    in a hire fleet"; "cannot be resolved" for "is not resolved"): the parse reads the denial
    where the fact layer's alignment did not; and no verb the passage denies is matched to one
    the claim states. False when the claim denies nothing."""
    denied = [
        t
        for t in reading.claim
        if t.pos_ in ("VERB", "AUX", "ADJ") and _denies(t) and not _quoted(reading, t.i)
    ]
    if not denied:
        return False
    for verb in denied:
        theirs = reading.matched(verb.i)
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
