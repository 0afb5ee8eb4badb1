"""The rules that the passage holds the claim's words: its main verb and every content word
matched (`PredicateMatched`, `EveryWordMatched`), the words of one clause in one statement
(`SameStatement`), a statement and not a question (`NotAsked`), and no opposite in the place
of a word no match reads (`OppositeWord`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from citeproof.verifier.support._opposites import opposites
from citeproof.verifier.support._text import LIST_ITEM, tokenize
from citeproof.verifier.support.confirm._clauses import (
    _answered,
    _clause_head,
    _light_roots,
    _matched_sentences,
    _predicates,
    _role,
    _with_compounds,
    _words,
)
from citeproof.verifier.support.confirm._conditions import _carves_out
from citeproof.verifier.support.confirm._finding import Finding
from citeproof.verifier.support.confirm._reading import (
    Reading,
    denied_by_prefix,
    lead_in,
    lemma,
    statement,
)
from citeproof.verifier.support.confirm._ways import (
    _bound_phrase,
    _opens_time,
    _opposite_in,
    _particle,
    _same_way_in,
)
from citeproof.verifier.support.lexicon import (
    ANYONE,
    ASKING,
    ATTRIBUTION,
    THIRD_PERSON,
    TIME_WORDS,
    direction_of,
    terms_defined_around,
)

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


class EveryWordMatched:
    id = "match.every_word"
    checks = (
        "Every content word of the claim (nouns, names, verbs, adjectives, adverbs, figures) "
        "is in the passage as the same word or lemma, the same figure, a WordNet synonym or a "
        "narrower word. A light verb (“be”, “have”, “carry”, “stay”: `lexicon.LIGHT_VERBS`) "
        "need not be, where a complement says what it carries (“stays valid”, “carries a "
        "Margin”); one with a particle (“carry on”) or with no complement (“has to stay”) is "
        "the statement's verb and must be."
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
        "statement compounds another (“the arrangement fee” for its “Valuation fee”). A "
        "word of a term's definition is said of the statement that uses the term (“12 "
        "January 2026” of “Plan date: 12 January 2026” in “within 30 days of the Plan date”). "
        "What the claim reports someone said is matched in the statement of the reporting "
        "verb it is matched to (“Gareth told Hannah that Fellside would pay ...” is not "
        "“you told me that the work would take 8 working days” and, in another message, "
        "“Fellside will pay ...”)."
    )
    example = (
        "A public official's entertainment needs the approval of the Compliance team and the "
        "Finance Director.",
        "Trips above £3,000 need the approval of the Finance Director. Entertaining a public "
        "official requires the approval of the Compliance team.",
        "“Finance Director” is in another sentence of the passage than the rest of its clause",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        yield from _reported_elsewhere(reading)
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
                and not _defines_a_term_of(reading, i, main)
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


def _reported_elsewhere(reading: Reading) -> Iterator[Finding]:
    """What the claim reports someone said ("Gareth told Hannah that Fellside would pay ..."),
    its reporting verb matched in the passage ("you told me then that the work would take 8
    working days"), but every word of it in another statement: the passage's report is of
    something else, and who said what the claim reports is not read there. A question the
    claim reports asked (`lexicon.ASKING`) is its own report."""
    for verb in reading.claim:
        clause = next((c for c in verb.children if c.dep_ == "ccomp"), None)
        theirs = reading.matched(verb.i)
        if clause is None or theirs is None:
            continue
        said = [
            (t, found)
            for t in clause.subtree
            if t.i in reading.content and (found := reading.matched(t.i)) is not None
        ]
        if not said or any(statement(found) == statement(theirs) for _, found in said):
            continue
        if lemma(verb) in ASKING and all(_question(found) for _, found in said):
            continue  # "Ruth asked whether ...": the question she wrote is her asking
        words = reading.claim[said[0][0].i : said[-1][0].i + 1].text
        yield Finding(
            SameStatement.id,
            "unconfirmed",
            words,
            theirs.text,
            f"“{words}” is in another sentence of the passage than the “{theirs.text}” "
            "that reports it",
        )
        return


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
    if found is not None and _heading(reading, found.sent) and found.sent.end == sentence:
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


def _defines_a_term_of(reading: Reading, i: int, main: int) -> bool:
    """Whether claim token ``i`` is matched in the definition of a term that the statement
    starting at ``main`` uses: "12 January 2026" in ``Plan date: 12 January 2026`` for "within
    30 days of the Plan date", "heat pump" in ``... air source heat pump (the "Product")`` for
    "the Product is covered". The term stands for what defines it."""
    found = reading.matched(i)
    if found is None:
        return False
    text = found.doc.text
    start = text.rfind("\n", 0, found.idx) + 1
    end = text.find("\n", found.idx)
    terms = terms_defined_around(text[start : end if end >= 0 else len(text)], found.idx - start)
    said = next(s for s in reading.passage.sents if s.start == main).text.casefold()
    return any(re.search(rf"\b{re.escape(t.casefold())}\b", said) for t in terms)


def _speaker_label(token: Token) -> bool:
    """Whether ``token`` labels who speaks: the first word of its line, followed by a colon
    ("Agent: I was not able to ...")."""
    doc = token.doc
    first = token.i == 0 or "\n" in doc[token.i - 1].text_with_ws
    return first and token.i + 1 < len(doc) and doc[token.i + 1].text == ":"


def _heading(reading: Reading, sentence: Span) -> bool:
    """A heading: a short run of words on a line of its own, with no verb, that names a thing
    ("3.3 Excess.") or a party with its role ("Employee: Daniel Achterberg"). None is the end
    of a line ("(the “Occupier”)."), a name alone (a signature: "Sunita Ravel"), a date or a
    figure alone ("20 January 2026."), or another label with its value (a definition:
    "Renewal date: 20 January 2026", `_defines_a_term_of`)."""
    words = [t for t in sentence if t.is_alpha]
    short = 0 < len(words) <= 4 and not any(t.pos_ in ("VERB", "AUX") for t in sentence)
    doc = sentence.doc
    own_line = sentence.start == 0 or "\n" in doc[sentence.start - 1].text_with_ws
    colon = next((t for t in sentence if t.text == ":"), None)
    if colon is not None and any(u.is_alpha or u.like_num for u in doc[colon.i + 1 : sentence.end]):
        label = doc[sentence.start : colon.i]
        if not any(reading.defined.aliases(t.lower_) for t in label if t.is_alpha):
            return False  # a label and its value, not a party's role
    return short and own_line and any(t.is_alpha and t.pos_ == "NOUN" for t in sentence)


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


class NotAsked:
    id = "match.question"
    checks = (
        "The passage sentence that holds the claim's main verb states it: a question "
        "(“And who applies for the road closure?”) says nothing of who does it. So does the "
        "one that holds the verb of what the claim reports someone said or confirmed "
        "(“Helen confirmed that the name would still be printed” against “Will my name still "
        "be printed?”)."
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
        reported = [
            reading.matched(c.i)
            for c in root.children
            if c.dep_ == "ccomp" and lemma(root) in ATTRIBUTION
        ]
        verbs = [reading.matched(root.i), *reported] + [b for a, b in _light_roots(reading)]
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
        "clause of time opened on the other side of its event (“until” or “before” against "
        "“once”). A "
        "word the passage denies by a prefix the claim does not write (“non-exclusive” for "
        "“exclusive”), or the other way round, says the other way where it describes the "
        "same noun, and holds the claim back elsewhere."
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
            if _bound_phrase(t):
                continue  # "up to 10%": a bound, `quantity.kept`'s
            other = _opposite_in(reading, t, sentences)
            if other is None and not matched and t.i in reading.content:
                denied = _denied_form_in(reading, t, sentences)
                if denied is not None:  # "exclusive" where it says "non-exclusive"
                    theirs, same_head = denied
                    ours = reading.claim[t.i - 2 : t.i + 1].text if denied_by_prefix(t) else t.text
                    yield Finding(
                        self.id,
                        "contradicted" if same_head else "unconfirmed",
                        ours,
                        theirs,
                        f"the passage says “{theirs}”, not “{ours}”",
                    )
                    continue
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


def _denied_form_in(reading: Reading, t: Token, sentences: set[int]) -> tuple[str, bool] | None:
    """The passage's form of the claim's unmatched word ``t`` with the prefix "non-" where
    the claim's has none, or without it where the claim's has it (`denied_by_prefix`), in a
    sentence the claim matches ("non-exclusive" for "exclusive"), and whether it describes
    the noun the claim's adjective describes ("licence"). None where there is none."""
    for p in reading.passage:
        if p.sent.start not in sentences or lemma(p) != lemma(t) or p.pos_ == "PUNCT":
            continue
        if denied_by_prefix(p) != denied_by_prefix(t):
            said = reading.passage[p.i - 2 : p.i + 1].text if denied_by_prefix(p) else p.text
            head = reading.matched(t.head.i)
            described = t.pos_ == "ADJ" and t.head.pos_ == "NOUN"  # "exclusive licence"
            return said, described and head is not None and head.i == p.head.i
    return None


def _said_of_anyone(reading: Reading) -> set[int]:
    """The claim's doer words where the passage says the same of anyone ("nobody should
    send the contract" backs "the team should not send the contract")."""
    out: set[int] = set()
    for ours, theirs in _predicates(reading):
        claim_role, passage_role = _role(ours, "doer"), _role(theirs, "doer")
        if claim_role is not None and passage_role is not None and (lemma(passage_role) in ANYONE):
            out.update(t.i for t in claim_role.subtree)
    return out


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
