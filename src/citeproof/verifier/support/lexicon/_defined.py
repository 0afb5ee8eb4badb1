"""The names a source defines: a party and the term the source calls it by.

Contracts, policies and notices name their parties once and then use a defined term:
``**Franchisee:** Amberley Foods Ltd`` or ``**Harrowgate Freight Services Ltd**, Unit 9,
Bradford (the "Licensee")``, and every clause after says "the Licensee". An answer says
"Harrowgate". `defined_terms` reads those definitions from the whole source, so that the
claim's "Harrowgate" and the passage's "Licensee" are one party (and "Tessellate", the
Licensor, is not). Two forms are read:

- a heading line ``Role: Name`` (bold or not; mail headers such as From and Subject are
  not definitions), the name starting with a capital letter;
- a parenthesis ``(the "Term")`` / ``("Term")`` / ``("the Term")`` / ``(together, the
  "Parties")``, after the name it defines: the last bold name since the previous
  definition on its line, else
  the capitalised words right before it ("Corvane Group plc ("Corvane")"); a parenthesis
  may give more than one term (``("Ashcombe", "we")``), and a first-person term ("we",
  "us", "our") makes each of those words name the party, as a second-person one ("you",
  "your") does the party the source is addressed to (``(the "Client", "you")``, or
  ``("you")`` alone).

A name the party trades under (``Gareth and Elin Probert, trading in partnership as
Cleddau Dairies``, "t/a") names it too, beside the name the definition reads.

Only capitalised words of two letters or more count, folded to lower case; company suffixes
(Ltd, plc, LLP, ...) define nothing. A short name taken from the full one (``Thornleigh Farms
LLP ("Thornleigh")``) makes the full name's other words stand for it. A Markdown heading
(``# Fellbrook Tools: Returns``) is a title, not a definition, with one exception: a source
that opens with such a title, writes "we" or "our" and defines no first-person term is
written by the organisation the title names before its colon, and the words of that name no
dictionary knows ("Fellbrook", not "Tools") name the writer as "we" does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from citeproof.verifier.support.lexicon._wordnet import wordnet

MAIL_HEADERS = frozenset(
    {
        "from", "to", "cc", "bcc", "subject", "date", "sent", "re", "fw", "fwd", "reply-to",
        "attachments", "attachment", "tel", "telephone", "phone", "fax", "email", "e-mail",
        "web", "website", "address", "ref", "reference", "version", "page", "signed",
    }
)  # fmt: skip
"""Heading labels that are not a party's role."""

SUFFIXES = frozenset(
    {
        "ltd", "ltd.", "limited", "plc", "llp", "lp", "inc", "inc.", "llc", "gmbh", "ag", "sa",
        "bv", "nv", "pty", "co", "co.", "corp", "corp.", "the", "and", "of", "&",
    }
)  # fmt: skip
"""Words of a company's name that name no one in particular."""

_HEADING = re.compile(
    r"^[ \t>*_-]*\**\s*(?P<role>[A-Z][A-Za-z-]+(?: [A-Z][A-Za-z-]+)?)\s*\**\s*:\s*\**\s*"
    r"(?P<name>[A-Z][^\n]*)$",
    re.MULTILINE,
)
_DEFINITION = re.compile(
    r"\(\s*(?:together,?\s+|each\s+(?:a|an)\s+|hereinafter\s+|jointly\s+)?(?:the\s+)?"
    r"[\"“”'‘’](?:the\s+)?(?P<term>[A-Z][^\"“”'‘’()\n]{0,40}|we|you)[\"“”'‘’]"
    r"(?P<more>(?:\s*(?:,|\bor\b|\band\b)\s*(?:the\s+)?"
    r"[\"“”'‘’][A-Za-z][^\"“”'‘’()\n]{0,40}[\"“”'‘’])*)\s*\)"
)
_MORE = re.compile(r"[\"“”'‘’](?:the\s+)?(?P<term>[A-Za-z][^\"“”'‘’()\n]{0,40})[\"“”'‘’]")
"""Each further term of a parenthesis that defines more than one: ``("Ashcombe", "we")``."""
FIRST_PERSON = frozenset({"we", "us", "our", "ours"})
"""A first-person term a source may define its writer by (``("Ashcombe", "we")``): any of
these words then names that party."""
SECOND_PERSON = frozenset({"you", "your", "yours"})
"""A second-person term a source may define its reader by (``(the "Borrower", "you")``): any
of these words then names that party."""
_PRONOUNS = (FIRST_PERSON, SECOND_PERSON)
_TITLE = re.compile(r"\A\s*#[ \t]+(?P<name>[^:\n]{2,60}):")
_FIRST_PERSON_USED = re.compile(r"\b(?:we|our|us)\b", re.IGNORECASE)
_BOLD = re.compile(r"\*\*(?P<name>[^*\n]{2,80})\*\*")
_WORD = re.compile(r"[A-Za-z][\w&'’.-]*")
_NAME_END = re.compile(r"[,(<;\[]| - | – ")
CACHED = 8
"""Sources whose reading is kept (the last used): each keeps its text alive, so few."""
_LOOK_BACK = 200
"""How far before a parenthesis its name may stand, in characters."""


@dataclass(frozen=True, slots=True)
class DefinedTerms:
    """Each folded word of a defined name or term, and the words it stands for."""

    pairs: dict[str, frozenset[str]]
    terms: dict[str, frozenset[str]]  # a name's word → the defined terms it stands for
    spans: tuple[tuple[int, int], ...] = ()  # where the source defines them, in order

    def defines(self, at: int) -> bool:
        """Whether offset ``at`` of the source is in a definition (a heading line ``Role:
        Name``, a parenthesis ``(the "Term")``): where a term is defined, not used."""
        return any(start <= at < end for start, end in self.spans)

    def term_of(self, word: str) -> frozenset[str]:
        """The defined terms ``word`` (folded) is a word of the name of: for "harrowgate"
        the "licensee"; for "licensee" nothing (it is the term)."""
        return self.terms.get(self.named(word), frozenset())

    def aliases(self, word: str) -> frozenset[str]:
        """The words ``word`` (folded) is defined as, or defines: for "harrowgate" the
        "licensee"; for "licensee" "harrowgate", "freight", "services"."""
        return self.pairs.get(self.named(word), frozenset())

    def same(self, a: str, b: str) -> bool:
        """Whether words ``a`` and ``b`` name one party by its name and its defined term."""
        return self.named(b) in self.aliases(a)

    def named(self, word: str) -> str:
        """``word`` folded, and a family named in the plural as the name it defines ("the
        Atherleys" for ``Mr Geoffrey and Mrs Ruth Atherley (the "Owners")``, "the
        Hargreaveses" for Mr and Mrs Hargreaves)."""
        folded = word.casefold()
        if folded in self.pairs:
            return folded
        for plural in ("es", "s"):
            if folded.endswith(plural) and folded[: -len(plural)] in self.terms:
                return folded[: -len(plural)]
        return folded


NO_DEFINITIONS = DefinedTerms({}, {})
"""A source that defines nothing."""


_LABEL = re.compile(
    r"^[ \t>*_-]*\**\s*(?P<term>[A-Z][A-Za-z-]+(?: [A-Za-z0-9][A-Za-z0-9-]*){0,2})\s*\**\s*:"
)
"""A line's label: ``**Plan date:** 12 January 2026``, ``Product: ...``."""


def terms_defined_around(line: str, at: int) -> tuple[str, ...]:
    """The terms ``line`` defines with the words at offset ``at``: its label, before them
    (``Plan date: 12 January 2026`` defines the "Plan date" as 12 January 2026), or a
    parenthesis after them (``... air source heat pump, serial number AX28 (the
    "Product")``). A first- or second-person term ("we", "you") names a party, not a thing:
    it is never given, nor a mail header (``Date:``, ``To:``)."""
    terms: list[str] = []
    for found in _DEFINITION.finditer(line):
        if found.start() > at:
            terms.append(found.group("term"))
            terms += [more.group("term") for more in _MORE.finditer(found.group("more"))]
    label = _LABEL.match(line)
    if label is not None and label.end() <= at:
        terms.append(label.group("term"))
    return tuple(
        t for t in terms if t.casefold() not in FIRST_PERSON | SECOND_PERSON | MAIL_HEADERS
    )


@lru_cache(maxsize=CACHED)
def defined_terms(text: str) -> DefinedTerms:
    """Every definition of ``text`` (see the module), as pairs of words both ways."""
    found: list[tuple[str, str]] = []
    trades: list[tuple[str, str]] = []  # a name a party trades under, and its term
    spans: list[tuple[int, int]] = []
    together: list[tuple[str, ...]] = []  # the terms one parenthesis gives one party
    for m in _HEADING.finditer(text):
        role = m.group("role").strip()
        if role.casefold() in MAIL_HEADERS or role.split()[0].casefold() in MAIL_HEADERS:
            continue
        found.append((_heading_name(m), role))
        trades += [(trading, role) for trading in _trading_names(m.group("name"))]
        spans.append(m.span())
    for m in _DEFINITION.finditer(text):
        name = _defined_name(text, m.start())
        if name:
            more = [t.group("term") for t in _MORE.finditer(m.group("more"))]
            given = (m.group("term"), *more)
            found += [(name, term) for term in given]
            before = text[_since_last(text, m.start()) : m.start()]
            trades += [(trading, term) for trading in _trading_names(before) for term in given]
            together.append(given)
            spans.append(m.span())
    found += _traded(trades, together)
    if not any(term.casefold() in FIRST_PERSON for _, term in found):
        found += _titled_writer(text, spans)
    pairs: dict[str, set[str]] = {}
    named: dict[str, set[str]] = {}
    for name, term in found:
        names = _words(name)
        terms = _term_words(term)
        if not names or not terms:
            continue
        if names & terms:  # "Thornleigh Farms LLP ("Thornleigh")": the name's other words
            names -= terms  # stand for the term ("Thornleigh Farms" for "Thornleigh")
            if not names:
                continue
        for a in names:
            pairs.setdefault(a, set()).update(terms)
            named.setdefault(a, set()).update(terms)
        for b in terms:
            pairs.setdefault(b, set()).update(names)
    for group in together:  # (the "Nursery", "we"): "the nursery" is "we"
        if len(group) < 2:
            continue
        words = [_term_words(term) for term in group]
        every = frozenset().union(*words)
        for ours in words:
            for a in ours:
                pairs.setdefault(a, set()).update(every - ours)
    if not pairs:
        return NO_DEFINITIONS
    return DefinedTerms(
        {k: frozenset(v) for k, v in pairs.items()},
        {k: frozenset(v) for k, v in named.items()},
        tuple(sorted(spans)),
    )


def _traded(
    trades: list[tuple[str, str]], together: list[tuple[str, ...]]
) -> list[tuple[str, str]]:
    """The names parties trade under, each with its party's term, less the words another
    party is defined by: "Deepa Marsh, trading as Little Strikers North Leeds ("the
    Licensee")" beside ``Little Strikers Sports Ltd ("Little Strikers", "we")`` makes "North
    Leeds" the Licensee, and leaves "Little Strikers" the franchisor's."""
    out: list[tuple[str, str]] = []
    for trading, term in trades:
        others = frozenset().union(
            *(
                _words(given)
                for group in together
                if term.casefold() not in {t.casefold() for t in group}
                for given in group
            )
        )
        kept = [w for w in _WORD.findall(trading) if w.casefold() not in others]
        if kept:
            out.append((" ".join(kept), term))
    return out


def _term_words(term: str) -> frozenset[str]:
    """The words a defined term is read by: a pronoun's person ("we", "us", "our"), else its
    own words."""
    person = next((p for p in _PRONOUNS if term.casefold() in p), None)
    return frozenset(person if person is not None else _words(term))


def _titled_writer(text: str, spans: list[tuple[int, int]]) -> list[tuple[str, str]]:
    """The writer a first-person source's title names (``# Northgate Commerce Bank: Terms``
    and "we may change our fees"): its words no dictionary knows, as "we"."""
    title = _TITLE.match(text)
    if title is None or not _FIRST_PERSON_USED.search(text, title.end()):
        return []
    known = wordnet().senses
    proper = [
        w
        for w in _words(title.group("name"))
        if not any(w in table or w.removesuffix("s") in table for table in known.values())
    ]
    if not proper:
        return []
    spans.append(title.span())
    return [(" ".join(w.capitalize() for w in proper), "we")]


def _defined_name(text: str, at: int) -> str:
    """The name a parenthesis at ``at`` defines: the last bold name on its line since the
    previous parenthesis (not a bold label ending in a colon), else the capitalised words
    right before it; for the first parenthesis of a heading line (``**Employer:** Ostrander
    Foods Ltd (the "Company")``), the heading's name: a later one defines what stands before
    it ("... which rents the site from Haverleigh Town Council (the "Council")")."""
    line_start = text.rfind("\n", 0, at) + 1
    window = text[max(_since_last(text, at), at - _LOOK_BACK) : at]
    heading = _HEADING.match(text, line_start, at)
    first = text.rfind(")", line_start, at) < 0  # the line's first parenthesis
    if heading and first:  # "**Employer:** Ostrander Foods Ltd (the "Company")": its name
        return _heading_name(heading)
    # A bold label is no name ("**Copy to:** Mr Dafydd Rowlands (the "Occupier")").
    bold = [b for b in _BOLD.finditer(window) if not b.group("name").rstrip().endswith(":")]
    if bold:
        return bold[-1].group("name")
    words = window.rstrip().split()
    run: list[str] = []
    for word in reversed(words):  # "Corvane Group plc", "Block A and Block B"
        bare = word.strip("*,")
        if not bare or not (bare[0].isupper() or bare.casefold() in SUFFIXES):
            break
        run.append(bare)
    return " ".join(reversed(run))


_TRADING = re.compile(
    r"\b(?:trading(?: [a-z]+){0,3}? as|t/a) (?P<name>[A-Z][\w&'’-]*(?: [A-Z&][\w&'’-]*)*)"
)
"""A name a party trades under: "Gareth and Elin Probert, trading in partnership as Brantwood
Dairies"."""


def _trading_names(text: str) -> list[str]:
    """The names ``text`` says a party trades under ("trading as", "t/a"): it is that party
    too."""
    return [m.group("name") for m in _TRADING.finditer(text.replace("**", ""))]


def _since_last(text: str, at: int) -> int:
    """Where the words a parenthesis at ``at`` may define start: after its line's start and
    after the last parenthesis before it."""
    return max(text.rfind("\n", 0, at) + 1, text.rfind(")", 0, at) + 1)


def _heading_name(heading: re.Match[str]) -> str:
    """The name of a heading line ``Role: Name, address (the "Term")``: up to its first
    comma, parenthesis or dash."""
    return _NAME_END.split(heading.group("name").replace("**", ""), maxsplit=1)[0]


def _words(text: str) -> frozenset[str]:
    return frozenset(
        w.casefold()
        for w in (m.group().rstrip(".'’") for m in _WORD.finditer(text))
        if len(w) > 1 and w[0].isupper() and w.casefold() not in SUFFIXES
    )
