"""The rule that who does what to whom agrees (`SameRoles`): each matched verb's doer and
object, the speaker a statement is reported of, and a party the source names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from citeproof.verifier.support.confirm._clauses import (
    _light_roots,
    _predicates,
    _role,
    _words,
    own,
)
from citeproof.verifier.support.confirm._finding import Finding
from citeproof.verifier.support.confirm._reading import Reading, lemma, statement
from citeproof.verifier.support.lexicon import (
    ANYONE,
    ATTRIBUTION,
    READER,
    THIRD_PERSON,
    WRITER,
)

if TYPE_CHECKING:
    from spacy.tokens import Token


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
        "treasurer”), and of two subjects the parse gives a verb, the one beside it is. The "
        "doer of a verb after “has to”, “is required to” or “agreed to” is that verb's "
        "subject (“Payroll has to approve”), after “asked” or “allows” its object "
        "(`lexicon.OBJECT_CONTROL`). Who "
        "the claim says said something (“Raj Menon said that ...”) is who the passage's "
        "statement of it says said it, where it says so (a message's “I” or “we” is its "
        "writer: “I can confirm” in Tom Hale's message is not Anna Pryce's word). Where the "
        "claim's verb has no match, "
        "its doer and object are not the passage's object and doer of one verb (“The night "
        "desk has to contact the host” for “The host must tell the night desk”). What a "
        "message's writer or reader has is not what the message calls another's (“their "
        "£120 booking fee” is not “Brockhurst Manor's” in Brockhurst Manor's own message), "
        "nor is what the passage gives a party's possessor another party's (“Our own bull”, "
        "“we” being the Rearer, is not “Cleddau's own bull”). A cleft sentence's “that” or "
        "“who” stands for its focus (“It is the Manager that must tell”). Whom an adjective "
        "after “is” is said of is compared as a doer (“The Tenant is liable” against “The "
        "Landlord is liable”)."
    )
    example = (
        "The Landlord must pay the Tenant's legal costs.",
        "The Tenant must pay the Landlord's legal costs.",
        "the passage says “The Tenant” does this (“pay”), not “The Landlord”",
    )

    def check(self, reading: Reading) -> Iterator[Finding]:
        yield from _said_by(reading)
        yield from _crossed(reading)
        yield from _whose(reading)
        light = [pair for pair in _light_roots(reading) if _carries_the_same(reading, *pair)]
        said_of = list(_copular(reading))
        for ours, theirs in [*_predicates(reading), *light, *said_of]:
            # a light verb's doer only: its object is what the claim's words match; so for
            # "is" and its adjective
            roles = ("doer",) if (ours, theirs) in light + said_of else ("doer", "object")
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
                inside = _own_words(passage_role)
                placed = _placements(reading, claim_role)
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
                    f"(“{_predicate(theirs)}”), not “{_words(claim_role.subtree)}”",
                )


def _predicate(verb: Token) -> str:
    """A verb as the reason names it: "is" with its adjective ("is liable")."""
    said = next((c for c in verb.children if c.dep_ == "acomp"), None)
    return f"{verb.text} {said.text}" if lemma(verb) == "be" and said is not None else verb.text


def _copular(reading: Reading) -> Iterator[tuple[Token, Token]]:
    """The "is" of an adjective of the claim ("The Tenant is liable for repairs") and the
    "is" of the passage's adjective it is matched to ("The Landlord is liable"): whom the
    adjective is said of is the doer the rule compares. Where the passage says the adjective
    of several ("the landlord is responsible for ...; the tenant is responsible for ..."),
    one said of the claim's doer is the one read."""
    for i, m in reading.matches.items():
        ours = reading.claim[i]
        if m.passage is None or not _said_by_is(ours):
            continue
        said = [
            reading.passage[c.passage]
            for c in reading.candidates.get(i, [m])
            if c.passage is not None and _said_by_is(reading.passage[c.passage])
        ]
        if not said:
            continue
        doer = _role(ours.head, "doer")
        agreeing = [
            theirs
            for theirs in said
            if doer is not None
            and (who := _role(theirs.head, "doer")) is not None
            and _placed_in(reading, doer, who)
        ]
        if not agreeing:
            matched = reading.passage[m.passage]
            yield ours.head, (matched if _said_by_is(matched) else said[0]).head


def _said_by_is(adjective: Token) -> bool:
    """Whether ``adjective`` is said of its clause's subject by "is" ("is liable")."""
    return adjective.pos_ == "ADJ" and adjective.dep_ == "acomp" and lemma(adjective.head) == "be"


def _crossed(reading: Reading) -> Iterator[Finding]:
    """A verb of the claim no match reads whose doer is matched in the object, and whose
    object in the doer, of one passage verb ("Eastbrook's line has to contact Carol" for
    "You must tell our 24-hour line", Carol being "you"): whatever the verb, the claim has
    the other party do it. A possessor is no object ("Thornleigh's shares"). The rule's
    check above reads the verbs the claim matches."""
    for ours in reading.claim:
        if ours.pos_ != "VERB" or ours.i not in reading.content or ours.i in reading.matches:
            continue
        doer, done_to = _role(ours, "doer"), _role(ours, "object")
        if doer is None or done_to is None:
            continue
        found_doer, found_object = reading.matched(doer.i), reading.matched(done_to.i)
        if found_doer is None or found_object is None:
            continue
        for theirs in reading.passage:
            if theirs.pos_ not in ("VERB", "AUX"):
                continue
            their_doer, their_object = _role(theirs, "doer"), _role(theirs, "object")
            if their_doer is None or their_object is None:
                continue
            if found_doer.i in _own_words(their_object) and found_object.i in {
                t.i for t in their_doer.subtree
            }:
                yield Finding(
                    SameRoles.id,
                    "unconfirmed",
                    _words(doer.subtree),
                    _words(their_doer.subtree),
                    f"the passage says “{_words(their_doer.subtree)}” does this "
                    f"(“{theirs.text}”) to “{_words(their_object.subtree)}”, not the other way",
                )
                return


_ANOTHERS = frozenset({"his", "her", "its", "their"})
"""Possessive pronouns that never name the writer or the reader of a message."""


def _whose(reading: Reading) -> Iterator[Finding]:
    """A possessor of the claim where the passage's matched noun is another's: matched to the
    writer or the reader of a message ("Brockhurst Manor's" for the "us" of its own message)
    against "their £180 booking fee"; or a party the source names ("Brantwood's own bull")
    against a possessor naming a party that no word of the claim's is matched in ("Our own
    bull", "we" being the Rearer). The claim says it is one party's, the passage another's."""
    for t in reading.claim:
        if t.dep_ != "poss" or t.head.i not in reading.matches:
            continue
        theirs, mine = reading.matched(t.head.i), reading.matched(t.i)
        if theirs is None:
            continue
        other = next((c for c in theirs.children if c.dep_ == "poss"), None)
        if other is None:
            continue
        if mine is not None and mine.lower_ in WRITER | READER:
            another = other.lower_ in _ANOTHERS
        else:
            another = (
                t.tag_ != "PRP$"  # "its", "my": a pronoun of the claim's own, no party named
                and t.lower_ != other.lower_
                and _a_name(reading, t)
                and _names_someone(reading, other)
                and not _placed_in(reading, t, other)
            )
        if another:
            yield Finding(
                SameRoles.id,
                "unconfirmed",
                _words(t.subtree),
                _words(other.subtree),
                f"the passage says it is “{_span(other)} {theirs.text}”, not "
                f"“{_span(t)} {t.head.text}”",
            )


def _span(token: Token) -> str:
    """``token``'s phrase as the text writes it ("Brantwood's")."""
    return token.doc[token.left_edge.i : token.right_edge.i + 1].text


def _placed_in(reading: Reading, ours: Token, theirs: Token) -> bool:
    """Whether a word of the claim's phrase ``ours`` is matched somewhere in the passage's
    phrase ``theirs``."""
    inside = {x.i for x in theirs.subtree}
    return any(k in inside for k in _placements(reading, ours))


def _placements(reading: Reading, phrase: Token) -> list[int]:
    """Every passage token a content word of the claim's ``phrase`` may be matched to."""
    return [
        m.passage
        for x in phrase.subtree
        if x.i in reading.content
        for m in reading.candidates.get(x.i, [])
        if m.passage is not None
    ]


def _own_words(role: Token) -> set[int]:
    """The words of ``role``'s phrase, less whose it is ("Our" of "Our treasurer")."""
    return {t.i for t in role.subtree} - _owners(role)


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
                or not (_a_name(reading, theirs) or theirs.i in reading.named)
            ):
                continue
            if _the_same_speaker(reading, speaker, theirs):
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


def _the_same_speaker(reading: Reading, ours: Token, theirs: Token) -> bool:
    """Whether the passage's speaker ``theirs`` is the claim's, ``ours``: its words hold the
    claim's, or a term the source defines it by; a message's "I" or "we" its writer, "you"
    its reader ("Claire Denby confirmed" is not "I can confirm" in Stefan Kowalczyk's
    message to her)."""
    if theirs.i in reading.named:
        message, pronoun = reading.named[theirs.i]
        names = {t.lower_ for t in ours.subtree if t.pos_ == "PROPN"} | {ours.lower_}
        return any(message.stands_for(pronoun, n) for n in names) or bool(
            reading.defined.aliases(ours.lower_) & message.named(pronoun)
        )
    words = {t.lower_ for t in theirs.subtree}
    return ours.lower_ in words or bool(reading.defined.aliases(ours.lower_) & words)


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
