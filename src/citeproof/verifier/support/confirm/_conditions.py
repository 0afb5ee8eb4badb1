"""The rules that the claim keeps what the passage attaches to the statement it matches: a
condition or exception (`ConditionKept`; `carve_outs`, a sentence that carves an exception
out of the statement before it) and a bounded figure inside a restrictive clause
(`RestrictionKept`)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from citeproof.verifier.support._text import STOP_WORDS
from citeproof.verifier.support.confirm._clauses import (
    _answered,
    _denied,
    _matched_sentences,
    _with_compounds,
    _words,
    negated,
    own,
)
from citeproof.verifier.support.confirm._finding import Finding
from citeproof.verifier.support.confirm._reading import Reading, lead_in, lemma
from citeproof.verifier.support.lexicon import (
    CARVED_IF,
    CARVING_OUT,
    CONDITION_PAIRS,
    CONDITION_WORDS,
    CONDITIONS,
    EXCEPTIONS,
    NEGATORS,
    OR_BEYOND,
    direction_of,
    quantifier_of,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token


class ConditionKept:
    id = "condition.kept"
    checks = (
        "A condition or exception the passage attaches to the matched statement (unless, "
        "except, provided that, subject to, if, only if, other than, apart from, excluding, "
        "notwithstanding, a “where” that opens a clause: “waived where the delay was caused "
        "by the bank”; a deduction: “less its costs”) is kept by the claim: the claim "
        "states a condition too (for an exception, an exception, or a denial where the "
        "passage's statement is no denial itself, nor an item under a lead-in that denies: "
        "an “if” of the claim's own restates no “other than”) and matches some of its "
        "words, or matches at least half of them; and no phrase of the condition's verb is "
        "left out whole (“because of a mechanical fault”). A deduction is kept only by the "
        "claim's own (“plus 15%” keeps no “less 15%”); an exception that opens a list "
        "(“other than:”) "
        "only by an exception or a denial. A condition that is enough (“if A or B”) is kept "
        "by a claim that keeps one of its alternatives; a phrase the statement is limited to "
        "by “only” (“only with the Lender's written consent”, or closing its clause: “at "
        "the head office only”) is a condition too, kept where the claim matches its noun "
        "(“consent”; a party it names is not enough), and so is a clause it opens (“only "
        "before the allocation is registered”). A condition with no word of its own that "
        "points back (“If you do, the Artist will not voice ...”) is kept only by a claim "
        "that states a condition too. A claim with no exception or denial of its own that "
        "matches most of what a statement that is no denial excepts says of the excepted "
        "case what the passage says of the rest (“20% off their touch-and-go landings” for "
        "“20% off landing fees, except the touch-and-go rate”). An "
        "exception after a comma that "
        "closes the sentence is read of the sentence's statement too; a sentence right after "
        "the statement that points back at it and says it does not apply (“The discount does "
        "not apply to ...”, “This right does not apply if ...”), or denies it under a "
        "condition (“This fee is not payable if ...”), is an exception as well. "
        "A denial of the claim that restates the passage's own denial elsewhere (“a hazard "
        "the customer didn't mark” for “a hazard that was not marked”) restates no "
        "exception, and a condition of the claim matched only in another sentence restates "
        "none of this one's."
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
        claim_denies = any(
            t.lower_ in NEGATORS and not _passage_own_denial(reading, t) for t in reading.claim
        )
        for t in reading.passage:
            if t.sent.start not in sentences or not _opens_condition(t):
                continue
            restates = (
                claim_exceptions or (claim_denies and not _statement_denied(t))
                if t.lower_ in EXCEPTIONS
                else claim_conditions
            ) and not _another_statements(reading, t)
            clause = _condition_clause(t)
            if not _said_of_the_claim(reading, t, clause, targets):
                continue  # a condition of another statement in the same sentence
            words = _condition_words(reading.passage, clause)
            kept: set[str] = stated if restates else set()
            hit = sum(1 for w in words if _restated(reading, w, targets, kept))
            if (
                words
                and hit * 2 >= len(words)
                and t.lower_ in _EXCEPTIONS_PROPER
                and not (claim_exceptions or claim_denies)
                and not _statement_denied(t)
                and not _says_its_own(reading, clause)
            ):  # "20% off their touch-and-go landings" for "20% off, except the touch-and-go"
                said = _stretch(reading.passage, clause)
                yield Finding(
                    self.id,
                    "unconfirmed",
                    "",
                    said,
                    f"the claim says of what the passage excepts (“{said}”) what the passage "
                    "says of the rest",
                )
                continue
            if not words:
                if _opens_list(t, clause) and not restates:
                    left, says = clause, _LEFT_OUT_WITH_LIST
                elif _points_back(reading.passage, clause) and not claim_conditions:
                    # its case is said in the sentence before: the claim's own condition,
                    # matched there, may restate it
                    left, says = clause, "the claim leaves out the passage's condition “{}”"
                else:
                    continue  # "if any": no condition a claim could leave out
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


def _says_its_own(reading: Reading, clause: list[int]) -> bool:
    """Whether a figure or an adjective of the claim is matched inside the passage's
    exception ``clause``: the claim restates what the exception says of its own case ("...
    except the loading bay, which is rated at 3.0 kN/m²"; "unless the pupil is ill, in which
    case the first late cancellation is free")."""
    inside = set(clause)
    return any(
        m.passage in inside
        and (reading.figure("claim", i) is not None or reading.claim[i].pos_ == "ADJ")
        for i, m in reading.matches.items()
    )


def _points_back(passage: Doc, clause: list[int]) -> bool:
    """Whether a condition with no word of its own says its case by pointing back at what
    the passage said before ("If you do, the Artist will not voice ...", "if so"): a verb
    standing for the one before it, or "so"."""
    return any(passage[k].pos_ in ("VERB", "AUX") or passage[k].lower_ == "so" for k in clause)


def _another_statements(reading: Reading, marker: Token) -> bool:
    """Whether each condition the claim states is matched only in another sentence than the
    passage's condition ``marker``: the claim's condition is another statement's ("as long as
    they're 18 or over" of "You may join if you are ... aged 18 or over"), and restates none
    of "Employees on a fixed-term contract may join only if the contract runs ..."."""
    clauses = [
        _condition_clause(t)
        for t in reading.claim
        if _opens_condition(t) or t.lower_ in _CLAIM_CONDITIONS
    ]
    if not clauses:
        return False
    for clause in clauses:
        found = [reading.matched(k) for k in clause if k in reading.content]
        there = [f for f in found if f is not None]
        if not there or any(f.sent.start == marker.sent.start for f in there):
            return False
    return True


def _passage_own_denial(reading: Reading, negator: Token) -> bool:
    """Whether the claim's ``negator`` restates a denial the passage says itself: the word it
    denies is matched to a passage word that is denied too ("a hazard the customer didn't
    mark" for "a hazard that was not marked"). Such a denial restates no exception."""
    found = reading.matched(negator.head.i)
    return found is not None and negated(found)


def carve_outs(reading: Reading) -> Iterator[tuple[Span, bool]]:
    """Each passage sentence that carves an exception out of a matched statement right
    before it (`_carves_out`), and whether the claim keeps it: the claim states an exception
    or a denial and matches one of its words, or matches half of them."""
    sentences = _matched_sentences(reading)
    targets = _answered(reading)
    excepts = any(
        (_opens_condition(t) and t.lower_ in EXCEPTIONS)
        or (t.lower_ in NEGATORS and not _passage_own_denial(reading, t))
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
    some cases, in a sentence of its own: its verb one of `CARVING_OUT`, or any verb denied
    under a condition of its own ("This fee is not payable if the Locum had worked at the
    Practice ..."), denied, its subject that statement ("This right does not apply if ...")
    or a word of it the claim matches ("The discount does not apply to Health and Safety
    Leadership")."""
    root = sentence.root
    if not negated(root) or not sentence.start:
        return False
    if lemma(root) not in CARVING_OUT and not _denied_if(root):
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


def _denied_if(root: Token) -> bool:
    """Whether the denied ``root`` holds under a condition of its own: a clause hanging from it
    opened by a word of `CARVED_IF` ("This fee is not payable if ...")."""
    return any(
        child.dep_ == "advcl"
        and any(m.dep_ in ("mark", "advmod") and m.lower_ in CARVED_IF for m in child.children)
        for child in root.children
    )


_POINTING = frozenset({"this", "these", "such", "it", "they"})
"""Words by which a sentence points back at the statement before it."""


_LEFT_OUT_WITH_LIST = "the claim leaves out the passage's condition “{}” and the list it opens"


class RestrictionKept:
    id = "restriction.kept"
    checks = (
        "A bounded figure (“less than”, “at least”, “up to”, “between ... and”, “or more” "
        "...) inside a restrictive clause or phrase of a word the claim matches (a relative "
        "clause, participle or prepositional phrase with no comma before it: “stock that is "
        "less than nine months old”, “call-outs between 06:00 and 20:00”, “orders of 200 or "
        "more units”; also a participle the parse took for "
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
        said = {key for (side, _), key in reading.figures.items() if side == "claim"}
        for t in reading.passage:
            region = _restrictive(reading, t, targets)
            if region is None:
                continue
            left = [
                x
                for x in region
                if (key := reading.figure("passage", x.i)) is not None
                and key not in said  # "up to a year" keeps "up to 12 months"
                and x.i not in targets
                and _bounded(x)
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


def _restrictive(reading: Reading, t: Token, targets: set[int]) -> list[Token] | None:
    """The words of the restrictive clause ``t`` heads, said of a word the claim matches (a
    relative clause or participle with no comma before it), or None. A participle the parse
    took for the sentence's verb, its subject before it and the real verb a conjunct
    ("Equipment hired for more than 6 weeks will be serviced ..."), is one too: the clause
    is the participle's words before that verb."""
    if t.dep_ in ("relcl", "acl") and t.head.i in targets:
        region = list(t.subtree)
    elif t.dep_ == "prep" and t.head.pos_ in ("NOUN", "PROPN") and t.head.i in targets:
        # "call-outs between 06:00 and 20:00", "lines of 50 or more parts"; not the thing's
        # own amount: "insurance of at least £5,000,000", "plans of up to 12 months"
        amount = t.lower_ == "of" and any(
            c.dep_ == "pobj" and reading.figure("passage", c.i) is not None for c in t.children
        )
        if amount:
            return None
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
    it ("less than nine months", "at least 20 days", "up to £5,000", "between 06:00 and
    20:00") or after it ("50 or more"): a limit, not a date or a count that only says which
    ("released in 1990", "the two engines")."""
    doc = figure.doc
    for k in range(max(figure.sent.start, figure.i - 3), figure.i):
        if any(x.pos_ in ("NOUN", "PROPN") for x in doc[k + 1 : figure.i]):
            continue  # "under clause 7": a reference, not a bound
        word, before = lemma(doc[k]), doc[k - 1].lower_ if k else ""
        if direction_of(word) is not None or quantifier_of(word, before) in _BOUND_CLASSES:
            return True
        if word == "between" and any(c.dep_ == "conj" for c in figure.children):
            return True  # "between 06:00 and 20:00"
    after = [t.lower_ for t in doc[figure.i + 1 : min(figure.sent.end, figure.i + 3)]]
    return len(after) == 2 and after[0] in ("or", "and") and after[1] in OR_BEYOND  # "50 or more"


_BOUND_CLASSES = frozenset({"at_least", "at_most", "more", "less"})
"""The quantity classes that bound a figure: "one year" is no bound."""


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
_EXCEPTIONS_PROPER = EXCEPTIONS - _DEDUCTIONS  # "other than", "unless"; not "less 15%"


def _deducts(t: Token) -> bool:
    """Whether "less" or "minus" takes something off what comes before it ("all fees paid,
    less its documented costs", "list price less 15%"): followed by a determiner, a
    possessive or a figure ("less £150"), not "than", and not after "or", "no" or "much" ("£50
    or less")."""
    doc = t.doc
    if t.i == 0 or t.i + 1 >= len(doc):
        return False
    before, after = doc[t.i - 1], doc[t.i + 1]
    if before.lower_ in ("or", "no", "much", "far", "even", "any", "a", "the", "and"):
        return False
    sum_after = after.is_currency and t.i + 2 < len(doc) and doc[t.i + 2].like_num  # "less £150"
    return after.lower_ != "than" and (after.pos_ in ("DET", "PRON") or after.like_num or sum_after)


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
    if low == "where" and t.dep_ == "advmod":
        return _a_condition_where(t)
    if low in CONDITIONS and t.dep_ in ("mark", "prep", "advmod", "cc", "ROOT", "advcl", "conj"):
        return not (low == "save" and t.pos_ == "VERB")
    nxt = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    if nxt is None:
        return False
    return (low, nxt.lower_) in CONDITION_PAIRS or low in CONDITION_WORDS


def _a_condition_where(where: Token) -> bool:
    """Whether "where" opens a condition ("waived where the delay was caused by the bank"):
    its clause hangs from a verb, or from a figure the parse took it for a relative of
    ("up to £120 per room, where you cannot reach your destination"), not from a noun ("the
    office where the meeting takes place")."""
    verb = where.head
    if verb.dep_ == "advcl":
        return True
    return verb.dep_ == "relcl" and verb.head.pos_ not in ("NOUN", "PROPN", "PRON")


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
        if t.sent.start not in sentences or t.lower_ != "only" or t.dep_ != "advmod":
            continue
        phrase = _limited_to(t, targets)
        if phrase is None:
            continue
        words = _condition_words(reading.passage, phrase)
        hit = sum(1 for w in words if _restated(reading, w, targets, stated))
        main = [w for w in words if w.dep_ == "pobj"]  # "consent" of "only with ... consent"
        if words and (
            hit * 2 < len(words) or any(not _restated(reading, w, targets, stated) for w in main)
        ):
            said = _stretch(reading.passage, phrase)
            yield Finding(
                ConditionKept.id,
                "unconfirmed",
                "",
                said,
                f"the claim leaves out the passage's condition “{said}”",
            )


def _limited_to(only: Token, targets: set[int]) -> list[int] | None:
    """The phrase an "only" limits a statement to, hung from a verb the claim matches: the
    phrase or clause it opens ("only with the Lender's written consent", "only before the
    allocation is registered"), or the one it closes at the end of its clause ("on Track
    Lite and Track Plus vans only": from the phrase's preposition). None otherwise."""
    head = only.head
    if head.dep_ == "prep" and head.head.i in targets:
        return sorted({only.i, *(x.i for x in head.subtree)})
    if (
        head.dep_ == "advcl"
        and head.head.i in targets
        and not any(c.dep_ == "mark" and c.lower_ in CONDITIONS for c in head.children)
    ):  # "only before the allocation is registered": an "only if" is a condition's own
        return sorted({only.i, *(x.i for x in head.subtree)})
    doc = only.doc
    closes = only.i + 1 == only.sent.end or doc[only.i + 1].is_punct
    if not closes or head.pos_ not in ("VERB", "AUX") or head.i not in targets:
        return None
    start = next(
        (k for k in range(only.i - 1, head.i, -1) if doc[k].pos_ == "ADP"),
        None,
    )
    return None if start is None else list(range(start, only.i + 1))


def _said_of_the_claim(
    reading: Reading, marker: Token, clause: list[int], targets: set[int]
) -> bool:
    """Whether the condition opened by ``marker`` hangs from what the claim states: the
    statement it modifies holds one of the claim's figures (or, for a claim without figures,
    one of its words) outside the condition itself. Where the sentence states the claim's
    main verb too, only the figures matched in it count: "as long as they're 18 or over"
    matched in another sentence leaves "Employees on a fixed-term contract may join only if
    ..." the claim's statement."""
    if marker.lower_ in _DEDUCTIONS:  # "list price less 15%": said of what it follows
        before = [t for t in marker.doc[marker.sent.start : marker.i] if not t.is_punct]
        return bool(before) and before[-1].i in targets
    statement = own(_modified(marker)) - set(clause)
    if _trailing_exception(marker, clause):
        # ", except to a member of its group" closing "X may not transfer ... after the
        # plant starts operation": the parse hangs it from the nearest verb, a reader may
        # read it of the sentence's statement.
        statement |= own(marker.sent.root) - set(clause)
    here = _verb_stated_in(reading, marker.sent.start)
    figures = {
        m.passage
        for i, m in reading.matches.items()
        if m.how == "figure"
        and m.passage is not None
        and (not here or reading.passage[m.passage].sent.start == marker.sent.start)
    }
    if figures:
        return bool(figures & statement)
    return bool(targets & statement)


def _verb_stated_in(reading: Reading, sentence: int) -> bool:
    """Whether the claim's main verb has a match in the passage sentence starting at
    ``sentence``."""
    root = next((t for t in reading.claim if t.dep_ == "ROOT"), None)
    return root is not None and any(
        m.passage is not None and reading.passage[m.passage].sent.start == sentence
        for m in reading.candidates.get(root.i, ())
    )


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
    return marker.head.head if _marks(marker) else marker.head


def _marks(t: Token) -> bool:
    """Whether ``t`` opens the clause of its head as its marker: "if", "unless", or a
    "where" the parse hangs from the clause's verb as an adverb."""
    return t.dep_ == "mark" or (t.lower_ == "where" and t.dep_ == "advmod")


def _condition_clause(t: Token) -> list[int]:
    if _marks(t) and t.head.i != t.i:
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
