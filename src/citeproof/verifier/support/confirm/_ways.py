"""The rules that the passage says a matched statement the same way: the same direction
(`SameDirection`), modality (`SameModality`), polarity (`SamePolarity`) and quantity
(`SameQuantity`); with the words of direction and of a bound that `OppositeWord` reads too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from citeproof.verifier.support.confirm._clauses import (
    _denied,
    _holders,
    _introducing_modal,
    _light_roots,
    _matched_sentences,
    _predicates,
    _role,
    _words,
    deontic,
    negated,
)
from citeproof.verifier.support.confirm._finding import Effect, Finding
from citeproof.verifier.support.confirm._reading import Reading, lemma, looked_up
from citeproof.verifier.support.lexicon import (
    ANYONE,
    BOUND_BY_TIME,
    CONDITION_PAIRS,
    DIRECTIONS,
    EXCEPTIONS,
    MODALITY,
    NECESSARY_CONDITIONS,
    NEGATORS,
    OR_BEYOND,
    PER_PERIOD,
    TIME_OPENERS,
    Deontic,
    direction_of,
    quantifier_of,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def _opposite_in(reading: Reading, t: Token, sentences: set[int]) -> Token | None:
    ours = lemma(t)
    way = direction_of(ours)
    ours_side = _opens_time(t)
    lexicon = reading.lexicon
    said = {lemma(c) for c in reading.claim}
    # a clause of time against a direction of time: only where the passage says nothing on
    # the claim's side ("until everything owed is paid" beside "7 days after it is due")
    crossing = not any(
        (ours_side or way) in (_opens_time(p), direction_of(lemma(p))) for p in reading.passage
    )
    for p in (p for p in reading.passage if p.sent.start in sentences):
        theirs = lemma(p)
        if theirs in said:
            continue  # the claim says it too: "if Leverage is below 2.00:1"
        if _points_no_way(reading, p):
            continue
        side = _opens_time(p)
        if side and ours_side and side != ours_side:
            return p  # "until 12 instalments have been paid" against "once ..."
        if crossing and side and way and _opposed(way, side):
            return p  # "before the count" against "once the count has finished"
        if (
            crossing
            and ours_side
            and p.dep_ in ("mark", "prep")
            and _opposed(ours_side, direction_of(theirs) or "")
        ):
            return p  # "once test C has finished" against "before it starts"
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


def _opens_time(t: Token) -> str | None:
    """The side of an event a clause of time ``t`` opens speaks of (`TIME_OPENERS`), or
    None: "once" as a conjunction only ("once 12 instalments have been paid", not "once a
    year")."""
    if t.dep_ not in ("mark", "prep", "advmod") or (t.lower_ == "once" and not _opens(t)):
        return None
    return TIME_OPENERS.get(t.lower_)


def _opens(once: Token) -> bool:
    """Whether "once" opens a clause: its marker, or the adverb the parse hangs from the
    clause's verb before its subject ("once test C has finished")."""
    if once.dep_ == "mark":
        return True
    verb = once.head
    return (
        once.dep_ == "advmod"
        and verb.dep_ == "advcl"
        and any(c.dep_ in ("nsubj", "nsubjpass") and c.i > once.i for c in verb.children)
    )


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
    """Whether a passage sentence the claim matches gives the way the claim's ``t`` points, by
    a word that points a way (`_points_no_way`): "can increase ... by up to 10%" against "may
    reduce ... by up to 10%" says the other way."""
    way = direction_of(lemma(t))
    if way is None:
        return False
    return any(
        way in (direction_of(lemma(p)), _opens_time(p))  # "after" is the side "once" opens
        for p in reading.passage
        if p.sent.start in sentences and not _points_no_way(reading, p)
    )


def _points_no_way(reading: Reading, p: Token) -> bool:
    """Whether the passage's ``p`` is a word of a bound ("not more than £850,000", "up to
    10%") or the particle of a phrasal verb ("take over"): a direction word that says no way
    a figure moved."""
    return _bound_phrase(p) or _particle(reading, p)


_OPPOSED = {("up", "down"), ("before", "after")}


def _opposed(a: str, b: str) -> bool:
    return (a, b) in _OPPOSED or (b, a) in _OPPOSED


class SameDirection:
    id = "direction.kept"
    checks = (
        "Each direction the claim gives (up/down, before/after, above/below) is given the "
        "same way by the passage sentence it matches (“after” by a clause “once” opens); a "
        "word of a bound (“no less than”, "
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
        "(“The Directors must: (b) tell the auditor of any fraud ...”). So does a main verb "
        "no match reads, where it binds (a light verb: “must make the booking” against “if "
        "it's made”; not the “may” of “may include”). An obligation that only may arise "
        "(“may need to replace”) is no obligation (“will have to replace”)."
    )
    example = (
        "The Tenant may sublet the Premises.",
        "The Tenant shall not sublet the Premises.",
        "the passage says “shall not sublet”, the claim “may sublet”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        # A light verb's "may" is as often what can be ("may include") as a permission:
        # only its obligations and prohibitions are read ("must make" against "if it's made").
        light = [(a, b) for a, b in _light_roots(reading) if deontic(a) in _BINDING]
        for ours, theirs in [*_predicates(reading), *light]:
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
_BINDING = frozenset({"obligation", "prohibition"})


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


class SamePolarity:
    id = "polarity.kept"
    checks = (
        "A matched verb is denied on both sides or on neither: “not”, “never”, or a subject "
        "or object under “no” (“No Founder shall” = “Founders may not”); so is a main verb "
        "of the claim no match reads (a light verb: “applies”; “includes”) and the same verb "
        "of the passage's statement (“It does not apply to:”, “does not include”). A word "
        "matched in a phrase the passage denies on its own (“to the supplier, never to the "
        "haulier”; “at no charge”) is denied too, unless the claim denies it or its verb (in "
        "its own words too: “free of charge”); and so is a claim verb said of words matched in "
        "another passage statement that denies the same verb of them (“can change target "
        "rates ..., including the rate on money already lent” against “Rates on money already "
        "lent ... do not change”)."
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
        yield from _in_a_denied_phrase(reading)
        yield from _denied_of_its_words(reading)
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


def _in_a_denied_phrase(reading: Reading) -> Iterator[Finding]:
    """A claim word matched in a phrase the passage denies on its own ("invoiced to the
    supplier, never to the haulier"; "classic bikes, but not e-bikes"), where the claim
    denies neither the phrase nor its verb: the passage says it is not so. A denial with an
    exception after it is the condition rule's ("not the completion bonus, unless ...")."""
    for i, m in reading.matches.items():
        if m.passage is None:
            continue
        denier = _phrase_denier(reading.passage[m.passage])
        if denier is None or _claim_denies(reading, reading.claim[i]):
            continue
        if _denies_a_matched_verb(reading, denier):
            continue  # "No pets may be kept": the denial of "kept", read with the verbs
        if denier.lower_ == "no" and any(t.lower_ == "without" for t in denier.head.head.subtree):
            continue  # "No pets may be kept without consent": pets need consent
        if any(t.lower_ in EXCEPTIONS for t in denier.sent if t.i > denier.i):
            continue  # "but not the completion bonus, unless ...": `condition.kept` reads it
        phrase = _words(sorted(denier.head.subtree, key=lambda t: t.i))
        yield Finding(
            SamePolarity.id,
            "unconfirmed",
            reading.claim[i].text,
            phrase,
            f"the passage denies “{phrase}”; the claim does not",
        )
        return


def _denied_of_its_words(reading: Reading) -> Iterator[Finding]:
    """A claim verb said of words the passage matches in another statement that denies the
    same verb of them: "can change target rates on 30 days' notice, including the rate on
    money already lent" against "We may change the target rates for new money ... Rates on
    money already lent ... do not change": the claim's "change", matched in the first, is
    said of "money already lent", of which the second denies it."""
    for i, m in reading.matches.items():
        if m.passage is None:
            continue
        sentence = reading.passage[m.passage].sent
        # "do not change until the end of its term" denies it before then: `_denied`, not
        # `negated`, which reads such a denial as saying when
        denied = {lemma(p): p for p in sentence if p.pos_ == "VERB" and _denied(p)}
        ours = reading.claim[i]
        verb = next((a for a in ours.ancestors if a.pos_ == "VERB" and lemma(a) in denied), None)
        if verb is None or _denied(verb):
            continue
        theirs = reading.matched(verb.i)
        if theirs is None or theirs.sent.start == sentence.start:
            continue  # the same statement: read with the verbs
        said = denied[lemma(verb)]
        of = _words(
            t
            for t in verb.subtree
            if (n := reading.matches.get(t.i)) is not None
            and n.passage is not None
            and reading.passage[n.passage].sent.start == sentence.start
        )
        yield Finding(
            SamePolarity.id,
            "unconfirmed",
            verb.text,
            said.text,
            f"the passage denies “{said.text}” of “{of}”; the claim does not",
        )
        return


def _phrase_denier(token: Token) -> Token | None:
    """The "not" or "never" that denies a noun or prepositional phrase ``token`` stands in,
    below its clause's verb, or the "no" of its noun ("at no charge", "no charge is made");
    None where there is none."""
    node = token
    while node.pos_ in ("NOUN", "PROPN", "ADP", "ADJ") and node.head.i != node.i:
        if node.pos_ in ("NOUN", "PROPN", "ADP"):
            # a "no" denies its own noun, not the words of its phrase ("no overall charge to
            # a water molecule" says nothing against the molecule)
            denier = next(
                (c for c in node.children if _denies_a_phrase(c, own=node is token)), None
            )
            if denier is not None:
                return None if _in_a_condition(node) else denier
        node = node.head
    return None


def _denies_a_matched_verb(reading: Reading, denier: Token) -> bool:
    """Whether a "no" quantifies the doer or object of a passage verb the claim matches ("No
    pets may be kept"): it denies the verb, which the rule reads with the claim's."""
    noun = denier.head
    if denier.dep_ != "det" or noun.dep_ not in ("nsubj", "nsubjpass", "dobj"):
        return False
    return noun.head.i in {m.passage for m in reading.matches.values()}


def _in_a_condition(phrase: Token) -> bool:
    """Whether ``phrase`` stands in a clause that says when the statement holds ("Where
    ductwork has no access panels, we will fit them"): the "no" is the condition's."""
    verb = next((a for a in phrase.ancestors if a.pos_ in ("VERB", "AUX")), None)
    return verb is not None and verb.dep_ == "advcl"


def _claim_denies(reading: Reading, word: Token) -> bool:
    """Whether the claim denies ``word`` or another of its words of the same lemma ("comes
    back at no charge and halves the charge"), or its verb."""
    return any(
        _denied_on_the_way(t) for t in reading.claim if t.i == word.i or lemma(t) == lemma(word)
    )


_OWN_DENIAL = frozenset({"free", "without"})
"""Words by which a claim denies a phrase in its own words: "free of charge" for "at no
charge"."""


def _denies_a_phrase(token: Token, *, own: bool) -> bool:
    """A "not" or "never" under a phrase, or the "no" of the ``own`` noun, not of a
    comparison ("no fewer than 3 staff" bounds the number)."""
    if token.dep_ == "neg":
        return token.lower_ in ("not", "never")
    if not own or token.dep_ != "det" or token.lower_ != "no" or token.i + 1 >= len(token.doc):
        return False
    return token.doc[token.i + 1].tag_ not in ("JJR", "RBR")


def _denied_on_the_way(token: Token) -> bool:
    """Whether the claim denies ``token``'s phrase or its clause's verb, in its own words
    too ("free of charge", "without charge")."""
    for node in (token, *token.ancestors):
        if node.lower_ in _OWN_DENIAL or any(
            c.dep_ == "neg" or c.lower_ in NEGATORS or c.lower_ in _OWN_DENIAL or _no_doer(c)
            for c in node.children
        ):
            return True
        if node.pos_ in ("VERB", "AUX"):
            return False
    return False


def _no_doer(role: Token) -> bool:
    """Whether ``role`` is a verb's subject or object under "no": "when no shopper will
    visit" denies the visit."""
    return role.dep_ in ("nsubj", "nsubjpass", "dobj") and any(
        g.dep_ == "det" and g.lower_ == "no" for g in role.children
    )


class SameQuantity:
    id = "quantity.kept"
    checks = (
        "Each quantity word of the claim (all / every / each / any, some, only, at least, at "
        "most, more than, less than) is in the passage sentence it matches, in the same class "
        "(a comparative after the figure of a difference, “8% more than”, is a direction; a "
        "time bound of a length counted back from an event turns over: “no earlier than 7 "
        "days before” is at most 7 days); where the passage quantifies the thing the "
        "claim's word quantifies, in that noun phrase (“every one of the entries” against “a "
        "sample of at least one in ten of your entries”). “All” of a subject the passage "
        "narrows with a word the claim does not match is not said (“All members” against "
        "“Contractor members receive ...”), nor of a number of them (“All 50 cartons” against "
        "“Two of the 50 cartons”). “As many times as” and “as often as” set no limit (“all”); "
        "“any” of a period (“once in any 12 months”) says which period, not how many; “200 "
        "or more” and “200 and over” are at least 200, “18 or under” at most 18. Where the "
        "passage does not quantify what the claim quantifies, the sentence stating the "
        "claim's verb counts if it quantifies anything (“At least one of you must live in the "
        "parish”, not another line's “every couple”)."
    )
    example = (
        "The Landlord must give at least 30 days' notice.",
        "The Landlord must give 30 days' notice.",
        "the passage does not say “at least”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        sentences = _matched_sentences(reading)
        theirs = _quantities_in(reading, sentences)
        for t in reading.claim:
            q = _quantity(reading.claim, t)
            if q is None or t.i in reading.framing:
                continue
            if q in ("more", "less") and _difference(reading, t):
                continue  # "8% more than in Q2 2024": a change, `direction.kept`'s
            narrowed = _narrowed(reading, t) if q in _ALL else None
            if narrowed is not None:
                yield Finding(
                    self.id,
                    "unconfirmed",
                    _quantity_words(t),
                    narrowed,
                    f"the passage says it of “{narrowed}”, not of “{_quantity_words(t)}”",
                )
                continue
            near = _quantities_of(reading, t)  # the passage's, of what the claim quantifies
            said = near if near else (_stating_quantities(reading) or theirs)
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


def _stating_quantities(reading: Reading) -> set[str]:
    """The quantities of the passage sentence that states the claim's main verb ("At least
    one of you must live in the parish" for "both partners have to live in the parish"),
    where it has any: another sentence's "every couple" is said of something else."""
    root = next((t for t in reading.claim if t.dep_ == "ROOT"), None)
    verb = _main_verb(root) if root is not None else None
    found = reading.matched(verb.i) if verb is not None else None
    return set() if found is None else _quantities_in(reading, {found.sent.start})


def _quantities_in(reading: Reading, sentences: set[int]) -> set[str]:
    """The quantity classes the passage sentences starting at ``sentences`` say."""
    return {
        q
        for p in reading.passage
        if p.sent.start in sentences
        for q in [_quantity(reading.passage, p)]
        if q is not None
    }


def _main_verb(root: Token) -> Token:
    """The verb a root of "has to", "is required to" or a modal carries ("live" of "have to
    live"), else the root."""
    inner = next((c for c in root.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
    return inner if inner is not None and lemma(root) in MODALITY else root


def _narrowed(reading: Reading, t: Token) -> str | None:
    """The passage's subject where the claim's universal determiner ``t`` ("All members")
    quantifies a subject the passage narrows with a word the claim does not match
    ("Contractor members receive ..."), unquantified: the claim widens it. None otherwise."""
    noun = t.head
    if t.dep_ not in ("det", "predet") or noun.dep_ not in ("nsubj", "nsubjpass"):
        return None
    theirs = reading.matched(noun.i)
    if theirs is None or theirs.dep_ not in ("nsubj", "nsubjpass"):
        return None
    if any(_quantity(reading.passage, c) is not None for c in theirs.children):
        return None
    narrowing = [
        c
        for c in theirs.children
        if c.dep_ in ("compound", "amod")
        and c.pos_ in ("NOUN", "PROPN", "ADJ")
        and c.i not in reading.placed
    ]
    if not narrowing:
        return None
    return _words(sorted([*narrowing, theirs], key=lambda w: w.i))


def _quantities_of(reading: Reading, t: Token) -> set[str]:
    """The quantity classes the passage says of the thing the claim's quantity word ``t``
    quantifies ("every one of Tillbrook's entries": the entries), in the noun phrase its
    match stands in ("a sample of at least one in ten of your entries"; a number of them is
    some: "Two of the 50 cartons"); none where that thing is not matched or the phrase has no
    quantity word."""
    quantified = t.head if t.dep_ in ("det", "amod", "advmod", "nummod", "quantmod") else t
    if quantified.pos_ == "NUM" and quantified.dep_ == "nummod":
        quantified = quantified.head  # "All 50 cartons": the cartons
    of = next((c for c in quantified.children if c.dep_ == "prep" and c.lower_ == "of"), None)
    if of is not None and (quantified.pos_ in ("NUM", "PRON") or lemma(quantified) in _ONES):
        quantified = next((c for c in of.children if c.dep_ == "pobj"), quantified)
    found = reading.matched(quantified.i)
    if found is None or found.pos_ not in ("NOUN", "PROPN"):
        return set()
    part = False
    while found.dep_ == "pobj" and found.head.dep_ == "prep":
        above = found.head.head  # "entries" of "one in ten of your entries", "a sample of"
        if above.pos_ not in ("NUM", "PRON") and not (
            found.head.lower_ == "of" and above.pos_ in ("NOUN", "PROPN")
        ):
            break
        part = part or (found.head.lower_ == "of" and above.pos_ == "NUM")  # "Two of the 50"
        found = above
    said = {q for p in found.subtree if (q := _quantity(reading.passage, p)) is not None}
    return said | {"some"} if part else said


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
    word = "fewer" if t.lower_ == "fewer" else lemma(t)  # not "few": "no fewer than 3"
    if before in ("or", "and") and t.i > 1 and doc[t.i - 2].like_num and word in OR_BEYOND:
        return OR_BEYOND[word]  # "200 or more", "8 and over": at least
    found = quantifier_of(word, before)
    if before == "be" and two in ("not", "no"):
        found = quantifier_of(word, "not be")  # "may not be more than"
    if found is None and lemma(t) in ("above", "below", "over", "under", "exceed"):
        # "over 50 miles", "above £100": a bound, as "more than" is
        return "more" if direction_of(lemma(t)) == "up" else "less"
    if lemma(t) in BOUND_BY_TIME and found in _TURNED and _counted_back(doc, t):
        return _TURNED[found]
    if found == "any" and _a_rolling_period(t):
        return None  # "once in any 12 months": which period, not how many of a thing
    return found


_TURNED = {"at_least": "at_most", "at_most": "at_least"}
_PERIODS = frozenset(PER_PERIOD.values()) | {"period"}


def _a_rolling_period(any_: Token) -> bool:
    """Whether "any" picks a length of time that a count is said over: "once in any 12
    months", "two uses in any one year". "In any week of the year" says every week."""
    period = any_.head
    return (
        any_.dep_ == "det"
        and lemma(period) in _PERIODS
        and any(c.dep_ == "nummod" for c in period.children)
    )


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
    if t.i > 0 and doc[t.i - 1].lower_ in ("at", "no", "not", "up", "as"):
        return f"{doc[t.i - 1].text} {t.text}"
    return t.text
