"""Who "we", "I" and "you" are in each message of a mail thread, or in a letter.

An answer says "Tillpoint declined to compensate the stores"; the message says "we cannot
compensate you", and it is from owen.ashby@tillpoint.example, signed "Support Team Lead,
Tillpoint". `speakers` reads each message of a thread (a ``From:`` header to the next) and the
words that name its writer (the sender's name, the organisation of the sender's address and of
the signature under the name) and its readers (the ``To:`` header's), so that a claim's
"Tillpoint" and the passage's "we" are one party in that message, and only in that message.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

from citeproof.verifier.support.lexicon._defined import FIRST_PERSON, SECOND_PERSON, SUFFIXES

WRITER = FIRST_PERSON | {"i", "me", "my"}
"""The pronouns that name a message's writer (and the organisation the writer speaks for)."""
READER = SECOND_PERSON
"""The pronouns that name a message's readers."""

CACHED = 8
"""Sources whose reading is kept (the last used): each keeps its text alive, so few."""
_FROM = re.compile(
    r"^(?P<bold>\*\*)?From:(?(bold)\*\*)[ \t]*(?P<who>[^\n]*)$", re.MULTILINE | re.IGNORECASE
)
_TO = re.compile(
    r"^(?P<bold>\*\*)?To:(?(bold)\*\*)[ \t]*(?P<who>[^\n]*)$", re.MULTILINE | re.IGNORECASE
)
"""A message's headers: a mail's ``From:`` and ``To:``, or a letter's or a quotation's
letterhead lines written in bold (``**From:** Halloran Pike LLP, ..., 9 Tanner's Row ... (the
"Auditor")``)."""
_ADDRESS = re.compile(r"[\w.+-]+@(?P<domain>[\w-]+(?:\.[\w-]+)+)")
_WORD = re.compile(r"[A-Za-z][\w&'’-]*")
_PUBLIC = frozenset(
    {
        "com", "org", "net", "io", "co", "uk", "us", "de", "fr", "eu", "biz", "info",
        "example", "test", "local", "ac", "gov", "edu", "ltd", "plc",
    }
)  # fmt: skip
"""Labels of a domain that say where it is registered, not whose it is."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a thread: where it starts and ends in the source, and the folded words
    that name its writer and its readers."""

    start: int
    end: int
    writer: frozenset[str]
    readers: frozenset[str]
    writer_domains: frozenset[str] = frozenset()  # "corvanefreight" of corvanefreight.example
    reader_domains: frozenset[str] = frozenset()

    def named(self, pronoun: str) -> frozenset[str]:
        """The words ``pronoun`` (folded) stands for in this message."""
        if pronoun in WRITER:
            return self.writer
        if pronoun in READER:
            return self.readers
        return frozenset()

    def stands_for(self, pronoun: str, word: str) -> bool:
        """Whether ``pronoun`` (folded) names ``word`` (a folded word of a name) here: one of
        its words, or the start of its address's domain, where a firm's name is often written
        as one word ("corvane" of corvanefreight.example; four letters at least)."""
        if word in self.named(pronoun):
            return True
        domains = self.writer_domains if pronoun in WRITER else self.reader_domains
        return (
            len(word) >= 4
            and pronoun in WRITER | READER
            and any(d.startswith(word) for d in domains)
        )


@dataclass(frozen=True, slots=True)
class Speakers:
    """The messages of a source, in order (none: it is not a mail thread)."""

    messages: tuple[Message, ...]
    starts: tuple[int, ...] = field(init=False, default=())  # each message's, in order

    def __post_init__(self) -> None:
        object.__setattr__(self, "starts", tuple(m.start for m in self.messages))

    def at(self, offset: int) -> Message | None:
        """The message the source's character ``offset`` is in, or None."""
        k = bisect.bisect_right(self.starts, offset) - 1
        if k < 0 or offset >= self.messages[k].end:
            return None
        return self.messages[k]

    def names(self, pronoun: str, offset: int, word: str) -> bool:
        """Whether ``pronoun`` at ``offset`` of the source stands for ``word`` (a folded word
        of a name: "tillpoint" for the "we" of a message from tillpoint.example)."""
        message = self.at(offset)
        return message is not None and message.stands_for(pronoun.casefold(), word)


NO_SPEAKERS = Speakers(())
"""A source that is not a mail thread."""


@lru_cache(maxsize=CACHED)
def speakers(text: str) -> Speakers:
    """The messages of ``text``, each from a ``From:`` header line to the next (a letter's
    letterhead: one message)."""
    heads = list(_FROM.finditer(text))
    if not heads:
        return NO_SPEAKERS
    found = []
    known: dict[str, set[str]] = {}  # an organisation's address → every word it is named by
    for k, head in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else len(text)
        body = text[head.start() : end]
        writer, where = _party(_header(head))
        organisation = _signature(body, head.group("who"))
        writer |= organisation
        for label in where:  # the organisation's, never its people's names
            known.setdefault(label, set()).update(organisation | where)
        to = _TO.search(body)
        readers, theirs = _party(_header(to)) if to else (set(), set())
        found.append((head.start(), end, writer, where, readers, theirs))
    # A signature once in the thread names its writer's organisation in every message of it
    # from the same organisation's address.
    out = [
        Message(
            start,
            end,
            frozenset(writer.union(*(known.get(x, ()) for x in where))),
            frozenset(readers.union(*(known.get(x, ()) for x in theirs))),
            frozenset(where),
            frozenset(theirs),
        )
        for start, end, writer, where, readers, theirs in found
    ]
    return Speakers(tuple(out))


def _header(line: re.Match[str]) -> str:
    """Who a header names. A letterhead line names its party, then the address, then the
    terms it is defined by: its parts up to the first with a figure in it ("9 Tanner's
    Row"), and the quoted terms at its end ("Halloran Pike LLP, Chartered Accountants ...
    (the "Auditor")")."""
    who = line.group("who")
    if not line.group("bold"):
        return who
    parts = []
    for part in who.split(","):
        if any(c.isdigit() for c in part):
            break
        parts.append(part)
    return " ".join([*parts, *_QUOTED.findall(who)])


_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")


def _party(header: str) -> tuple[set[str], set[str]]:
    """The words of a header's display names and its addresses' organisations, and those
    organisations (the address's domain, less the labels of where it is registered)."""
    words = set(_name_words(_ADDRESS.sub(" ", header).replace("<", " ").replace(">", " ")))
    labels = set()
    for address in _ADDRESS.finditer(header):
        own = [x for x in address.group("domain").casefold().split(".") if x not in _PUBLIC]
        if own:
            labels.add(own[-1])
    return words | labels, labels


def _signature(body: str, who: str) -> frozenset[str]:
    """The organisation in the line under the writer's name at the foot of the message
    ("Dara Quigley" / "Operations Manager, Marlowe & Finch Opticians"): the words after its
    last comma."""
    name = _ADDRESS.sub("", who).strip(" <>\"'")
    if not name:
        return frozenset()
    lines = [line.strip() for line in body.splitlines()]
    for k, line in enumerate(lines[:-1]):
        below = lines[k + 1]
        if line == name and "," in below and len(below.split()) <= 10:
            return frozenset(_name_words(below.rsplit(",", 1)[1]))
    return frozenset()


def _name_words(text: str) -> list[str]:
    return [
        w.casefold()
        for w in (m.group().rstrip("'’") for m in _WORD.finditer(text))
        if len(w) > 1 and w[0].isupper() and w.casefold() not in SUFFIXES
    ]
