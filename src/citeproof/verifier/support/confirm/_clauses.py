"""What several families of rules read of the parse: a phrase's own words, whether a clause
is denied (`negated`) and the modality it carries (`deontic`), a verb's doer and object, and
which of the passage's words, sentences and verbs the claim's are matched to."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from citeproof.verifier.support.confirm._reading import Reading, lead_in, lemma, statement
from citeproof.verifier.support.lexicon import (
    ATTRIBUTION,
    LIGHT_VERBS,
    MODALITY,
    OBJECT_CONTROL,
    Deontic,
)

if TYPE_CHECKING:
    from spacy.tokens import Token


def _words(tokens: Iterable[Token]) -> str:
    return " ".join(t.text for t in sorted(tokens, key=lambda t: t.i))


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
            if kind == "obligation" and any(
                c.dep_ == "aux" and MODALITY.get(lemma(c)) == "permission" for c in holder.children
            ):
                kind = "permission"  # "may need to replace": no obligation said, a chance
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


def _with_compounds(tokens: list[Token]) -> list[Token]:
    out = {t.i: t for t in tokens}
    for t in tokens:
        for c in t.children:
            if c.dep_ == "compound":
                out[c.i] = c
    return list(out.values())


def _answered(reading: Reading) -> set[int]:
    """The passage's words the claim's words are matched to."""
    return {m.passage for m in reading.matches.values() if m.passage is not None}


def _matched_sentences(reading: Reading) -> set[int]:
    out = set()
    for m in reading.matches.values():
        if m.passage is not None:
            out.add(reading.passage[m.passage].sent.start)
    return out


def _predicates(reading: Reading) -> Iterator[tuple[Token, Token]]:
    """Claim verbs matched to passage verbs (and the claim's root to its match), and the light
    verbs that carry a matched word the same way on both sides: "make it available" says its
    modality with "make", which no match reads."""
    seen: set[tuple[int, int]] = set()
    for i, m in reading.matches.items():
        if m.passage is None:
            continue
        ours, theirs = reading.claim[i], reading.passage[m.passage]
        if (ours.pos_ in ("VERB", "AUX") or ours.dep_ == "ROOT") and theirs.pos_ in (
            "VERB",
            "AUX",
        ):  # the root the parser took for a noun is the claim's verb ("Renshaw transfers")
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


def _light_roots(reading: Reading) -> Iterator[tuple[Token, Token]]:
    """The claim's main verb where no match reads it (a light verb, a word of direction, a
    stop word: "The policy applies to purchases of energy", "The fee includes bar staff"), and each
    verb of the same lemma in the passage's statement that holds most of the claim's matches
    ("It does not apply to: ... (b) purchases of energy"): said, or denied, of what the
    claim matches; in a claim that reports a statement ("Gareth said Halden must make ..."),
    the reported clause's verb. Where the root's own clause has matches, only they count: "On those
    nights the rate doesn't apply, and Ostrander is offered 15% off" has its "apply" where
    "nights" and "rate" are, not where "offered" is."""
    root = next((t for t in reading.claim if t.dep_ == "ROOT"), None)
    if root is not None and lemma(root) in ATTRIBUTION:  # "Gareth said Halden must make ..."
        root = next((c for c in root.children if c.dep_ == "ccomp"), root)
    if root is None or root.pos_ not in ("VERB", "AUX") or root.i in reading.matches:
        return
    lem = lemma(root)
    if lem not in _CARRIERS and (root.i in reading.content or lem in MODALITY or lem == "be"):
        return
    counts: Counter[int] = Counter()
    own: Counter[int] = Counter()  # of the words of the root's own clause
    for i, m in reading.matches.items():
        if m.passage is not None:
            at = statement(reading.passage[m.passage])
            counts[at] += 1
            if _clause_head(reading.claim[i]).i == root.i:
                own[at] += 1
    counts = own or counts
    if not counts:
        return
    main = max(counts, key=lambda s: (counts[s], -s))
    for t in reading.passage:
        if lemma(t) == lemma(root) and t.pos_ in ("VERB", "AUX") and statement(t) == main:
            yield root, t


def _role(verb: Token, role: str) -> Token | None:
    found = _named_role(verb, role)
    return _focus(found) if found is not None else None


def _focus(token: Token) -> Token:
    """What a cleft sentence's "that" or "who" stands for, its focus ("It is the Manager that
    must tell the Council": the Manager), however the parser hangs the clause (on the focus,
    or on "is"); else ``token`` itself. Another relative is left as it is: "..., which is
    considered a violation" may be said of the whole clause before it."""
    verb = token.head
    if token.lower_ not in ("that", "who") or verb.dep_ not in ("ccomp", "relcl"):
        return token
    focus = verb.head if verb.dep_ == "relcl" else None
    copula = focus.head if focus is not None and focus.dep_ == "attr" else verb.head
    if lemma(copula) != "be" or not any(
        c.dep_ == "nsubj" and c.lower_ == "it" for c in copula.children
    ):
        return token
    if focus is not None:
        return focus
    return next((c for c in copula.children if c.dep_ == "attr"), token)


def _named_role(verb: Token, role: str) -> Token | None:
    holders = [verb]
    own_subject = any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children)
    if verb.dep_ == "conj" and not own_subject:
        holders.append(verb.head)  # "return or destroy": the subject of the first verb
    if verb.dep_ == "xcomp" and not own_subject and role == "doer":
        ruler = verb.head
        controller = next((c for c in ruler.children if c.dep_ == "dobj" and c.i < verb.i), None)
        if controller is not None and lemma(ruler) in OBJECT_CONTROL:
            return controller  # "asked Payroll to approve": the governing verb's object
        subject = next((c for c in ruler.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        # "Payroll has to approve", "Payroll is required to approve": its subject
        return subject if subject is not None else _named_role(ruler, role)
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
