"""What a claim puts the other way round in the source's own words, read by the fact layer
(`_facts.check_facts`) beside the alignment, each as one difference that conflicts:

- a range turned round: "moved from April to March" against "from March to April";
- one person's task given to another: "Tom will lead the migration" against "Sarah will lead
  the migration; Tom will handle testing";
- what the passage says of one thing said of another it names: "Title passes to the Buyer on
  delivery" against "Risk passes to the Buyer on delivery; title passes only when the Buyer
  has paid in full";
- no limit where the source sets one: "at any time" against "within 30 days";
- all of a thing where the source says one or some of it: "both charges" against "one of
  the two charges";
- who may do it, widened or narrowed: "Only the Customer may terminate" against "Either party
  may terminate", and "Either party may terminate for convenience" against "The Customer may
  terminate for convenience".

Each reads tokens only (`_text.tokenize`) and returns the claim's words with the passage's.
"""

from __future__ import annotations

from collections.abc import Sequence

from citeproof.model import ClaimDifference
from citeproof.verifier.support._text import Token, is_content, word_set


def range_turned(
    claim_text: str, claim: Sequence[Token], passage: Sequence[Token], judged: Sequence[bool]
) -> ClaimDifference | None:
    """The claim's "from A to B" where the passage says "from B to A": "The installation was
    moved from April to March" against "moved from March to April"."""
    theirs = {(a.key, b.key): (j, k) for a, b, j, k in _ranges(passage)}
    for a, b, i, k in _ranges(claim):
        if a.key == b.key or not all(judged[i : k + 1]) or (a.key, b.key) in theirs:
            continue
        turned = theirs.get((b.key, a.key))
        if turned is not None:
            start, end = claim[i].span[0], claim[k].span[1]
            said = " ".join(t.text for t in passage[turned[0] : turned[1] + 1])
            return ClaimDifference("word", claim_text[start:end], (start, end), said)
    return None


def time_limited(
    claim_text: str, claim: Sequence[Token], lead: Sequence[Token], judged: Sequence[bool]
) -> ClaimDifference | None:
    """The claim's "at any time" (or "anytime") where the best sentence sets a limit of time
    ("within 30 days", "by 14 February", "no later than 5 p.m.") or of how often ("once a
    year", "twice per month"): "Credits can be requested at any time" against "Credits must
    be requested within 30 days of the end of the month"."""
    words = [t.text.casefold() for t in claim]
    at = next(
        (
            (i, i + 2)
            for i in range(len(words) - 2)
            if words[i : i + 3] == ["at", "any", "time"] and all(judged[i : i + 3])
        ),
        None,
    )
    if at is None:
        at = next(((i, i) for i, w in enumerate(words) if w == "anytime" and judged[i]), None)
    if at is None:
        return None
    for j, token in enumerate(lead):
        often = _how_often(lead, j)
        if often is not None:
            start, end = claim[at[0]].span[0], claim[at[1]].span[1]
            said = " ".join(t.text for t in lead[j : often + 1])
            return ClaimDifference("word", claim_text[start:end], (start, end), said)
        if token.text.casefold() not in _LIMITS:
            continue
        figure = next(
            (k for k in range(j + 1, min(j + 3, len(lead))) if lead[k].kind in ("number", "date")),
            None,
        )
        if figure is not None:
            first = j - 1 if j > 0 and lead[j - 1].text.casefold() == "no" else j
            while figure + 1 < len(lead) and lead[figure + 1].kind in ("number", "date"):
                figure += 1  # "5 May"
            start, end = claim[at[0]].span[0], claim[at[1]].span[1]
            said = " ".join(t.text for t in lead[first : figure + 1])
            return ClaimDifference("word", claim_text[start:end], (start, end), said)
    return None


_LIMITS = frozenset({"within", "by", "before", "until", "later"})  # "no later than 5 May"
_TIMES = frozenset({"once", "twice"})
_EACH = frozenset({"a", "an", "per", "each", "every"})
_PERIODS = frozenset({"day", "week", "month", "quarter", "year", "annum"})


def _how_often(tokens: Sequence[Token], at: int) -> int | None:
    """Where a limit of how often that starts at ``tokens[at]`` ends ("once a year", "twice
    per month"), or None."""
    if tokens[at].text.casefold() not in _TIMES or at + 2 >= len(tokens):
        return None
    each, period = tokens[at + 1].text.casefold(), tokens[at + 2].text.casefold()
    return at + 2 if each in _EACH and period in _PERIODS else None


_TO = frozenset({"to", "until", "till", "through"})  # "between A and B" has no order


def _ranges(tokens: Sequence[Token]) -> list[tuple[Token, Token, int, int]]:
    """Each "from A to B" of ``tokens``, A and B the first content token after each word
    (past "the"): (A, B, the index of "from", the index of B)."""
    out = []
    for i, token in enumerate(tokens):
        if token.text.casefold() != "from":
            continue
        a = _next_content(tokens, i + 1)
        if a is None:
            continue
        to = next(
            (k for k in range(a + 1, min(a + 3, len(tokens))) if tokens[k].text.casefold() in _TO),
            None,
        )
        b = _next_content(tokens, to + 1) if to is not None else None
        if b is not None:
            out.append((tokens[a], tokens[b], i, b))
    return out


def _next_content(tokens: Sequence[Token], at: int) -> int | None:
    while at < len(tokens) and tokens[at].text.casefold() in ("the", "a", "an"):
        at += 1
    return at if at < len(tokens) and is_content(tokens[at]) else None


def doer_swapped(
    claim_text: str, claim: Sequence[Token], passage: Sequence[Token], judged: Sequence[bool]
) -> ClaimDifference | None:
    """The claim gives a named person's act to another the passage names: "Tom will lead the
    migration" against "Sarah will lead the migration; Tom will handle testing". Only where
    the passage names someone else right before the same verb, doing it to what the claim
    says (a content word of the claim's after the verb stands soon after the passage's),
    never the claim's name doing that, and names the claim's person elsewhere: "The
    Supplier may terminate only if ..." does not back "The Supplier may terminate for
    convenience", which the passage gives the Buyer."""
    said = frozenset(t.key for t in passage)
    for v, verb in enumerate(claim):
        if not judged[v] or verb.kind != "word":
            continue
        ours = _doer(claim, v)
        if not ours or not all(judged[k] for k in ours):
            continue
        names = frozenset(claim[k].key for k in ours)
        if not names <= said:
            continue  # a name the source never gives is the fact layer's own difference
        what = frozenset(t.key for t in claim[v + 1 : v + 1 + _OBJECT_WORDS] if is_content(t))
        if not what:
            continue  # "the cover Ambledown must hold": done to nothing the claim says after it
        other: list[int] = []
        for j, token in enumerate(passage):
            if token.key != verb.key:
                continue
            done_to = passage[j + 1 : j + 1 + _OBJECT_REACH]
            if what and what.isdisjoint(t.key for t in done_to):
                continue  # the same verb of something else
            theirs = _doer(passage, j)
            if names & {passage[k].key for k in theirs}:
                return None  # the passage says the claim's person does it
            if theirs and not other:
                other = [*theirs, j]
        if other:
            start, end = claim[ours[0]].span[0], verb.span[1]
            instead = " ".join(t.text for t in passage[other[0] : other[-1] + 1])
            return ClaimDifference("word", claim_text[start:end], (start, end), instead)
    return None


_OBJECT_WORDS = 6  # tokens after the claim's verb read as what it is done to
_OBJECT_REACH = 16  # tokens after the passage's verb where one of them must stand


def subject_swapped(
    claim_text: str,
    claim: Sequence[Token],
    lead: Sequence[Token],
    passage: Sequence[Token],
    judged: Sequence[bool],
) -> ClaimDifference | None:
    """The best clause (``lead``) says all the rest of the claim, but of another thing than
    the claim's subject, and the passage names the claim's subject elsewhere, saying
    something else of it: "Title passes to the Buyer on delivery" against "Risk in the Goods
    passes to the Buyer on delivery; title passes only when the Buyer has paid in full";
    "Interest is repaid monthly" against "Interest ... accrues daily; advances are repaid
    monthly". The claim must open with its subject (`_subject_before`) right before the
    first content token it shares with the clause; the rest, at least two content tokens,
    must all be in the clause, and there the same token must follow a subject of its own
    that shares nothing with the claim. A subject the passage never names is a rewording
    ("Ownership passes" for "Title passes"), not another thing."""
    said = frozenset(t.key for t in lead)
    content = [i for i, t in enumerate(claim) if is_content(t)]
    first = next((n for n, i in enumerate(content) if claim[i].key in said), None)
    if not first:
        return None
    rest = content[first:]
    ours = _subject_before(claim, rest[0])
    if not ours or ours[0] != content[0] or len(rest) < 2:
        return None
    elsewhere = frozenset(t.key for t in passage)
    subject = [claim[k] for k in ours if is_content(claim[k])]
    if not all(judged[k] for k in ours) or any(t.key not in elsewhere for t in subject):
        return None
    if any(t.key in said for t in subject) or any(claim[i].key not in said for i in rest):
        return None
    keys = frozenset(t.key for t in claim)
    at = next(j for j, t in enumerate(lead) if t.key == claim[rest[0]].key)
    theirs = _subject_before(lead, at)
    if not theirs or not _opens_clause(lead, theirs[0]):
        return None  # "you can conveniently carry": no subject of the clause's own
    if any(lead[k].key in keys for k in theirs if is_content(lead[k])):
        return None
    begin, end = claim[ours[0]].span[0], claim[rest[0]].span[1]
    instead = " ".join(t.text for t in lead[theirs[0] : at + 1])
    return ClaimDifference("word", claim_text[begin:end], (begin, end), instead)


# Inside a subject ("Risk in the Goods", "The deposit of £2,000"); between it and its verb
# stands `_AUXILIARY`.
_INSIDE_SUBJECT = frozenset({"of", "in", "on", "the", "a", "an"})
_SUBJECT_TOKENS = 6


_OPENERS = word_set("and but while whereas that which who where so then")


def _opens_clause(tokens: Sequence[Token], at: int) -> bool:
    """Whether ``tokens[at]``, past the articles before it, opens its clause: the first
    token, one after punctuation, or one after a word that starts a clause ("and", "while",
    "which")."""
    k = at
    while k > 0 and tokens[k - 1].text.casefold() in ("the", "a", "an"):
        k -= 1
    if k == 0 or tokens[k].span[0] - tokens[k - 1].span[1] > 1:
        return True
    return tokens[k - 1].text.casefold() in _OPENERS


def _subject_before(tokens: Sequence[Token], at: int) -> list[int]:
    """The indices of the noun phrase right before ``tokens[at]``, past its auxiliaries:
    words, names and figures joined by `_INSIDE_SUBJECT`, within one stretch of text (no
    punctuation between), holding a word or name and opening on one; empty when there is
    none."""
    k = at - 1
    while k >= 0 and tokens[k].text.casefold() in _AUXILIARY:
        k -= 1
    out: list[int] = []
    while k >= 0 and len(out) < _SUBJECT_TOKENS:
        token = tokens[k]
        if tokens[k + 1].span[0] - token.span[1] > 1:
            break  # punctuation or a marker between: another clause
        if token.kind in ("word", "name", "number") or (
            out and token.text.casefold() in _INSIDE_SUBJECT
        ):
            out.insert(0, k)
            k -= 1
            continue
        break
    while out and not is_content(tokens[out[0]]):
        out.pop(0)  # "the deposit": opens on the noun
    if not out or tokens[out[0]].kind not in ("word", "name") or _adverb(tokens[out[-1]]):
        return []
    return out


def _adverb(token: Token) -> bool:
    """ "conveniently carry", "quickly approved": a word in "-ly" before the verb is no
    subject ("the family", "the supply" are lost with them)."""
    return token.kind == "word" and token.text.islower() and token.text.endswith("ly")


# Words between a doer and the verb: "Sarah will lead", "Tom has approved".
_BETWEEN_DOER = frozenset(
    {"will", "would", "shall", "should", "must", "may", "can", "could", "has", "have", "had"}
)
_AUXILIARY = _BETWEEN_DOER | word_set("is are was were be been")  # "advances are repaid"


def _doer(tokens: Sequence[Token], verb: int) -> list[int]:
    """The indices of the capitalised words right before ``tokens[verb]``, past at least one
    word of `_BETWEEN_DOER` (without one, "Dutch amateur" or "Japan reported" would read as a
    doer and a verb): the person who does what the verb says. None in capitals: "EC" may be
    the "European Commission"."""
    k = verb - 1
    while k >= 0 and tokens[k].text.casefold() in _BETWEEN_DOER:
        k -= 1
    if k == verb - 1:
        return []
    out: list[int] = []
    # A name opening a sentence is read as a word: capitalised is what it has.
    while k >= 0 and tokens[k].kind in ("name", "word") and tokens[k].text[:1].isupper():
        out.insert(0, k)
        k -= 1
    return [] if any(tokens[k].text.isupper() for k in out) else out


_WHOLE = frozenset({"both", "all", "every", "each"})
_SHARE = frozenset({"one", "some", "none", "neither", "few", "half", "most"})


def share_turned(
    claim_text: str, claim: Sequence[Token], lead: Sequence[Token], judged: Sequence[bool]
) -> ClaimDifference | None:
    """The claim's "both N" or "all N" where the best sentence says "one of the (two) N" or
    "some of the N": "The agent refunded both charges" against "issued a refund for one of
    the two charges"."""
    for i, token in enumerate(claim):
        if token.text.casefold() not in _WHOLE or not judged[i]:
            continue
        noun = _next_content(claim, i + 1)
        if noun is None or claim[noun].text.casefold() == "of":
            continue
        for j, word in enumerate(lead):
            if word.text.casefold() not in _SHARE and word.key != "#1":
                continue
            if j + 1 >= len(lead) or lead[j + 1].text.casefold() != "of":
                continue
            # "one of the two charges": the noun within three tokens after "of"
            k = next(
                (k for k in range(j + 2, min(j + 5, len(lead))) if lead[k].key == claim[noun].key),
                None,
            )
            if k is not None:
                start, end = token.span[0], claim[noun].span[1]
                said = " ".join(t.text for t in lead[j : k + 1])
                return ClaimDifference("word", claim_text[start:end], (start, end), said)
    return None


_EVERY_ONE = frozenset({"either", "each", "both", "any"})
_PARTY = frozenset({"party", "side"})
_PARTIES = frozenset({"parties", "sides"})
_ONLY = frozenset({"only", "solely", "exclusively"})
_MODAL = frozenset({"may", "must", "can", "shall", "will", "could", "should", "might"})
_DOER_WORDS = 3


def scope_swapped(
    claim_text: str, claim: Sequence[Token], passage: Sequence[Token], judged: Sequence[bool]
) -> ClaimDifference | None:
    """Who may do a thing, widened or narrowed: the claim gives to either party what the
    passage gives to one ("Either party may terminate for convenience" against "The Customer
    may terminate for convenience"), or to one party alone what the passage gives to either
    ("Only the Customer may terminate" against "Either party may terminate"). Read where a
    modal stands before the same verb, followed by the same next word, in both."""
    for v in range(1, len(claim)):
        verb = claim[v]
        if not judged[v] or verb.kind != "word" or claim[v - 1].text.casefold() not in _MODAL:
            continue
        ours = _scope(claim, v - 1)
        if ours is None or ours[0] == "one":
            continue
        after = _object(claim, v + 1)
        theirs: list[tuple[str, int, int]] = []
        for j in range(1, len(passage)):
            if passage[j].key != verb.key or passage[j - 1].text.casefold() not in _MODAL:
                continue
            if after is not None:
                there = _object(passage, j + 1)
                if there is None or passage[there].key != claim[after].key:
                    continue
            found = _scope(passage, j - 1)
            if found is not None:
                theirs.append((found[0], found[1], j))
        if not theirs:
            continue
        scopes = {scope for scope, _, _ in theirs}
        if ours[0] == "every" and "every" not in scopes:
            said = theirs[0]
        elif ours[0] == "only" and "every" in scopes:
            said = next(t for t in theirs if t[0] == "every")
        else:
            continue
        start, end = claim[ours[1]].span[0], verb.span[1]
        instead = " ".join(t.text for t in passage[said[1] : said[2] + 1])
        return ClaimDifference("word", claim_text[start:end], (start, end), instead)
    return None


def _object(tokens: Sequence[Token], at: int) -> int | None:
    """What a verb is done to: the first content word of the next three tokens ("terminate
    for convenience": "convenience"), else the next token."""
    for k in range(at, min(at + 3, len(tokens))):
        if is_content(tokens[k]):
            return k
    return at if at < len(tokens) else None


def _scope(tokens: Sequence[Token], modal: int) -> tuple[str, int] | None:
    """Who the words before ``tokens[modal]`` say may do it, and where that doer starts:
    ``every`` for "either party", "both parties", "the parties"; ``only`` for "only the
    Customer"; ``one`` for another doer of at most `_DOER_WORDS` words; None for none."""
    last = tokens[modal - 1].text.casefold() if modal >= 1 else ""
    if last in _PARTIES:
        the = modal >= 2 and tokens[modal - 2].text.casefold() == "the"
        return "every", modal - 2 if the else modal - 1
    if last in _PARTY and modal >= 2 and tokens[modal - 2].text.casefold() in _EVERY_ONE:
        return "every", modal - 2
    start = modal
    for k in range(modal - 1, max(-1, modal - 1 - _DOER_WORDS), -1):
        word = tokens[k]
        if tokens[k + 1].span[0] - word.span[1] > 1:
            break  # more than a space between: punctuation, another clause or sentence
        if word.text.casefold() in _ONLY:
            return ("only", k) if start < modal else None
        if word.kind not in ("word", "name", "stop") or word.text.casefold() in _MODAL:
            break
        start = k
    return ("one", start) if start < modal else None
