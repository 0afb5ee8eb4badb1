"""The rule that each figure and date of the claim is said of the same thing in the passage
(`FigureAttached`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from citeproof.verifier.support.confirm._cells import beside_another, cell_at
from citeproof.verifier.support.confirm._clauses import _role, _words, own
from citeproof.verifier.support.confirm._finding import Finding
from citeproof.verifier.support.confirm._reading import Match, Reading, lemma
from citeproof.verifier.support.lexicon import BOUNDS

if TYPE_CHECKING:
    from spacy.tokens import Token


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


class FigureAttached:
    id = "figure.attached"
    checks = (
        "Each figure and date of the claim is said of the same thing in the passage: no word "
        "the claim attaches to it lies in the phrase of another figure of the passage, and the "
        "verb it hangs from in the claim governs it in the passage. An amount “of” a noun is "
        "said of that noun (“an upfront fee of £120,000 ..., and a milestone payment of "
        "£80,000”: not a “£120,000 milestone payment”). An amount said of two things joined "
        "by “and”, the other with no amount of its own, is not said of one of them (“the six "
        "chairs and the two desks, £2,068 in total”). A figure of a table row's cell stands "
        "under the column the claim names, whichever rule would confirm the claim (“£52 for "
        "250 copies” where £52 is under “500 copies”: `confirm.another_column`), in the "
        "row the claim names by its first cell (not “£160” for the rigid where £160 is the "
        "curtainsider's: `confirm.another_row`). A bound the passage counts over each of "
        "something (“no more than three times in any one heat”) is counted over the same."
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
            yield from self._of_an_antecedent(reading, i, passage[m.passage])
            yield from self._governed(reading, i, ours)
            yield from self._counted_over(reading, i, passage[m.passage])
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

    def _of_an_antecedent(self, reading: Reading, i: int, figure: Token) -> Iterator[Finding]:
        """A figure of a relative clause is said of the clause's antecedent ("except Annual
        accounts, which may have two"): the claim must say it of what it matches that
        antecedent to, not of another ("Any account can have two bikes")."""
        verb = _verb_above(figure)
        if verb is None or verb.dep_ != "relcl":
            return
        antecedent = verb.head
        doer = _verb_above(reading.claim[i])
        subject = None if doer is None else _role(doer, "doer")
        if subject is None:
            return
        theirs = reading.matched(subject.i)
        if theirs is None or theirs.i in own(antecedent) or antecedent.i in own(theirs):
            return
        phrase = sorted(own(antecedent, frozenset({"relcl", "punct"})))
        said = _words(antecedent.doc[k] for k in phrase)
        yield Finding(
            self.id,
            "unconfirmed",
            reading.claim[i].text,
            said,
            f"the passage gives “{figure.text}” of “{said}”, not of “{subject.text}”",
        )

    def _counted_over(self, reading: Reading, i: int, figure: Token) -> Iterator[Finding]:
        """A bound the passage counts over each of something ("no more than three times in
        any one heat", "up to 4 sessions in each month"): the claim must count it over the
        same, not over a whole ("three times during the whole covering season")."""
        doc = figure.doc
        if not any(doc[k].lower_ in BOUNDS for k in range(max(figure.i - 3, 0), figure.i)):
            return  # a rate ("2% of Net Sales for each month") is no count
        noun = figure.head if figure.dep_ in ("nummod", "quantmod") else figure
        verb = _verb_above(figure)
        for holder in (noun, verb):
            for prep in () if holder is None else holder.children:
                if prep.dep_ != "prep" or prep.i < figure.i or prep.lower_ not in _OVER:
                    continue
                each = next((c for c in prep.children if c.dep_ == "pobj"), None)
                if each is None or not any(
                    c.dep_ == "det" and c.lower_ in _EACH for c in each.children
                ):
                    continue
                if each.i in reading.placed:
                    continue
                said = _words(sorted(prep.subtree, key=lambda t: t.i))
                yield Finding(
                    self.id,
                    "unconfirmed",
                    reading.claim[i].text,
                    said,
                    f"the passage gives “{_phrase(noun)}” {said}, which the claim leaves out",
                )
                return

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
_OVER = frozenset({"in", "per", "for", "within"})
_EACH = frozenset({"any", "each", "every"})


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
