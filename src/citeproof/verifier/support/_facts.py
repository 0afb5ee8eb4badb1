"""The fact layer: which tokens of a claim its passage backs, and where the passage says
something else instead. Deterministic and self-explaining: every judgement it feeds is a
list of `ClaimDifference` values a reader can check against the passage.

A claim token is backed when the passage holds the same key (stem, or number value and
unit); a word also when a passage word shares its first `PREFIX` letters (referral /
referred), a number when the values agree and one side has no unit (£412,000 / 412,000).
"What the passage says instead" comes from aligning the claim with the passage token by
token (difflib): a claim number, date, name or comparative replaced in the passage by
another of its kind is a conflict, as is a word replaced by one that excludes it
(`_opposites`: "last" for "first", "tenant" for "landlord") and a negation on one side only
of an aligned stretch.

Three readings do not depend on the alignment, so they hold whatever order the claim puts the
source's words in: a denial the claim drops (`_denied`: "approved by the Head of Credit, not
by branch managers" / "Branch managers can approve"), a point of time the passage puts
"after" and the claim "in" (`_time_turned`: "only after the first anniversary" / "in the
first year"), and two things put the other way round around "before" or "after"
(`_order_turned`: "referred ... before an offer is issued" / "an offer ... before the
referral").
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

from citeproof.model import ClaimDifference
from citeproof.verifier.support._fact_rules import (
    COMPARATIVE,
    DOER_SWAPPED,
    FIGURE_ELSEWHERE,
    NEGATION,
    ORDER_TURNED,
    PARTIES_SWAPPED,
    RANGE_TURNED,
    SCOPE_SWAPPED,
    SHARE_TURNED,
    SUBJECT_SWAPPED,
    TIME_LIMITED,
    TIME_TURNED,
    WORD,
)
from citeproof.verifier.support._opposites import (
    negated_by_prefix,
    opposites,
    prefix_negates,
    verdict_opposites,
)
from citeproof.verifier.support._swaps import (
    doer_swapped,
    range_turned,
    scope_swapped,
    share_turned,
    subject_swapped,
    time_limited,
)
from citeproof.verifier.support._text import (
    DURATION,
    ORDINAL,
    Token,
    direction,
    is_content,
    word_set,
)

PREFIX = 5
# Punctuation between two words ends a stretch of unbacked words, and so does a citation
# marker, which claim support reads blanked out: three spaces or more.
_BREAK = re.compile(r"[^\w\s'’-]|\s{3}")
NEIGHBOURS = 3
MAX_REPLACED = 8  # a longer replaced stretch is a rewording, not one fact for another
HARD_KINDS = ("number", "date", "name", "comparative")


@dataclass(frozen=True, slots=True)
class FactCheck:
    """What the fact layer found for one claim against one passage."""

    differences: tuple[ClaimDifference, ...]
    conflicts: int  # differences where the passage states something else
    recall: float  # share of content tokens backed
    weighted_recall: float  # the same, idf-weighted
    anchor: float  # weighted recall of the tokens that are not in conflict
    pair_recall: float  # share of adjacent claim token pairs adjacent in the passage
    number_recall: float  # 1.0 when the claim has no number
    has_number: float
    name_recall: float  # 1.0 when the claim has no name
    negation_conflict: float
    longest_run: float  # longest aligned stretch / claim tokens
    content: int  # content tokens judged
    unbacked_words: int
    longest_gap: int  # words in the longest stretch of unbacked words ("a week": 2)
    unbacked_names: int
    # The same shares over the whole cited source: a token the passage does not back counts
    # when the source holds its key anywhere (a claim drawn from several places of a page).
    source_recall: float = 1.0
    source_weighted_recall: float = 1.0
    # The rule of `FACT_RULES` (its id) that found each difference: "" for a claim token
    # the passage is merely silent on.
    rules: tuple[str, ...] = ()

    def deciding(self, *, contradicted: bool) -> tuple[ClaimDifference, str] | None:
        """The difference a reader is told about first, and its rule: the first value or
        word the passage says instead, or a denial on one side only (the claim's own denial
        only when the verdict is ``contradicted``)."""
        for d, rule in zip(self.differences, self.rules, strict=True):
            if (d.instead is not None and d.text) or (d.kind == "negation" and d.instead):
                return d, rule
            if d.kind == "negation" and d.text and contradicted:
                return d, rule
        return None


@dataclass(frozen=True, slots=True)
class SourceKeys:
    """The token keys of a whole source, and the `PREFIX`-letter heads of its words."""

    keys: Collection[str]
    heads: frozenset[str]

    @classmethod
    def of(cls, keys: Collection[str]) -> SourceKeys:
        return cls(keys, frozenset(k[:PREFIX] for k in keys if len(k) >= PREFIX and k[0] != "#"))

    def holds(self, token: Token) -> bool:
        if token.key in self.keys:
            return True
        return (
            token.kind in ("word", "name")
            and len(token.key) >= PREFIX
            and token.key[:PREFIX] in self.heads
        )


def _backs(token: Token, passage: Sequence[Token], keys: frozenset[str]) -> bool:
    if token.key in keys:
        return True
    if token.kind in ("number", "date") and token.value is not None:
        return any(
            p.value is not None
            and math.isclose(p.value, token.value, rel_tol=1e-9)
            and (p.unit == ORDINAL) == (token.unit == ORDINAL)
            and (not p.unit or not token.unit or p.unit == token.unit)
            for p in passage
        )
    if token.kind == "comparative":
        own = direction(token.text)
        return any(p.kind == "comparative" and direction(p.text) == own for p in passage)
    if token.kind in ("word", "name") and len(token.key) >= PREFIX:
        head = token.key[:PREFIX]
        return any(len(k) >= PREFIX and k[:PREFIX] == head for k in keys if k[:1] != "#")
    return False


def check_facts(
    claim_text: str,
    claim: Sequence[Token],
    passage: Sequence[Token],
    weights: dict[str, float],
    judged: Sequence[bool],
    source: SourceKeys | None = None,
    lead: Sequence[Token] = (),
    sentence: Sequence[Token] = (),
) -> FactCheck:
    """Compare ``claim`` (tokens of ``claim_text``) with ``passage``. ``judged[i]`` is False
    for claim tokens already backed some other way (inside a verified quote). ``source``,
    the keys of the whole cited source, gives the ``source_*`` figures (else the passage's);
    ``lead``, the tokens of the passage's best sentence, is also read alone for words that
    exclude the claim's; ``sentence``, that whole sentence, for figures said of other things."""
    keys = frozenset(t.key for t in passage)
    has_negation = any(t.kind == "negation" for t in passage)
    backed = [
        (not judged[i])
        or (t.kind == "negation" and has_negation)
        or (t.kind != "negation" and _backs(t, passage, keys))
        for i, t in enumerate(claim)
    ]
    instead: dict[int, str] = {}
    why: dict[int, str] = {}  # the rule that put ``instead[i]`` there, when not the alignment
    negation_diffs: list[ClaimDifference] = []
    words = frozenset(t.text.casefold() for t in claim)
    together = _figures_together(claim, passage)
    superlatives = Superlatives(claim, passage)
    matcher = _aligned(claim, passage)
    opcodes = matcher.get_opcodes()
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    longest = max((b.size for b in blocks), default=0)
    last = len(opcodes) - 1
    for index, (op, i1, i2, j1, j2) in enumerate(opcodes):
        inner = 0 < index < last  # between two aligned stretches
        said = passage[j1:j2]
        if op == "equal" or i1 == i2:
            pass
        elif j2 - j1 > MAX_REPLACED:
            # A long passage stretch: only its tokens nearest the claim's aligned neighbour
            # stand in the claim's place ("came back at £420,000" / "... at £412,000, so").
            near = i2 - i1 + 1
            said = passage[j1 : j1 + near] if index == last else passage[j2 - near : j2]
        if op != "equal" and i1 < i2 and len(said) <= MAX_REPLACED:
            for i in range(i1, i2):
                token = claim[i]
                if not judged[i]:
                    continue
                if token.kind == "negation":
                    # A negation counts only where the passage negates the same stretch.
                    backed[i] = any(t.kind == "negation" for t in said)
                    continue
                if token.kind not in HARD_KINDS:
                    continue
                other = _counterpart(token, said, superlatives)
                if other is None:
                    continue
                if not backed[i]:
                    instead[i] = other.text
                elif (
                    token.kind in ("number", "date", "comparative")
                    and not _backs(token, [other], frozenset())
                    and i not in together
                    and not _restated_beside(token, other, passage)
                ):
                    # The value (or direction) is elsewhere in the passage, but another one
                    # stands here: "costs fell 3%; revenue rose 12%" against "revenue fell".
                    backed[i] = False
                    instead[i] = other.text
        elif op != "equal":
            for i in range(i1, i2):
                if claim[i].kind == "negation" and judged[i]:
                    backed[i] = False
        if op in ("replace", "insert") and inner and j2 - j1 <= MAX_REPLACED:
            denying = _denies(claim[i1:i2], passage[j1:j2])
            claim_negated = denying or any(t.kind == "negation" for t in claim[i1:i2])
            negation = next(
                (
                    t
                    for k, t in enumerate(passage[j1:j2], start=j1)
                    if _stands(passage, k, words)
                    and not _condition_restated(claim, passage, k)
                    # "without undue delay" denies its noun, not a claim that leaves it out;
                    # in the place of the claim's "with" it turns the claim round.
                    and (t.text.casefold() != "without" or _said(claim[i1:i2], "with"))
                ),
                None,
            )
            if denying and any(t.kind == "negation" for t in passage[j1:j2]):
                # "excludes" in the place of "does not cover": the verb restates the denial.
                for i in range(i1, i2):
                    if claim[i].text.casefold() in _DENYING:
                        backed[i] = True
            if negation is not None and negation.text.casefold() in _DENIED_SUBJECTS:
                # "No dividends may be paid" / "may not pay dividends": the claim's own "not"
                # right after the place of the passage's denied subject.
                claim_negated = claim_negated or any(
                    t.kind == "negation" for t in claim[i2 : i2 + 3]
                )
            if negation is not None and not claim_negated:
                at = claim[i1].span[0] if i1 < len(claim) else len(claim_text)
                negation_diffs.append(ClaimDifference("negation", "", (at, at), negation.text))
    # "the last working day" where the passage says "the first": the claim's word may be
    # elsewhere in the passage, but a word that excludes it stands in its place, in the
    # passage or in its best sentence alone (read alone, a claim's subject cannot align with
    # the same word in another sentence: "The tenant is responsible for repairs" against "The
    # landlord is responsible for repairs ...; the tenant pays rent").
    turned = _turned(claim, passage, opcodes, judged)
    if lead and tuple(lead) != tuple(passage):
        turned = {**_turned(claim, lead, _aligned(claim, lead).get_opcodes(), judged), **turned}
    turned = {**_verdict_turned(claim, passage, lead or passage, judged), **turned}
    turned = {**_prefix_turned(claim, passage, lead or passage, judged), **turned}
    turned = {**_comparative_turned(claim, lead or passage, judged), **turned}
    for i, other in turned.items():
        backed[i] = False
        instead[i] = other.text
        why[i] = COMPARATIVE if claim[i].kind == "comparative" else WORD
    for i, other in _figure_bound_elsewhere(claim, sentence, judged).items():
        if i not in instead and i not in together:
            backed[i] = False
            instead[i] = other.text
            why[i] = FIGURE_ELSEWHERE
    if lead and tuple(lead) != tuple(passage):
        for i, other in _competing_figures(claim, lead, judged, sentence).items():
            if i not in instead and i not in together:
                backed[i] = False
                instead[i] = other.text
                why[i] = FIGURE_ELSEWHERE
    for i in _kept_denials(claim, passage, lead, judged, words):
        backed[i] = True
    for i in _kept_by_prefix(claim, passage, judged):
        backed[i] = True
    for i in _denied_by_no_one(claim, passage, blocks, judged):
        backed[i] = True
    leading = _leading_negation(claim, passage, opcodes)
    if leading is not None:
        negation_diffs.append(leading)
    elif not negation_diffs:
        denied = _denied(claim, passage, judged, words)
        if denied is not None:
            negation_diffs.append(denied)
    # The readings that do not depend on the alignment, each with its rule.
    times: list[tuple[ClaimDifference, str]] = [
        (d, TIME_TURNED)
        for i, d in _time_turned(claim_text, claim, passage, judged).items()
        if i not in instead
    ]
    order = _order_turned(
        claim_text, claim, passage, [ok and i not in instead for i, ok in enumerate(judged)]
    )
    if order is not None:
        times.append((order, ORDER_TURNED))
    ranged = range_turned(claim_text, claim, passage, judged)
    if ranged is not None:
        times.append((ranged, RANGE_TURNED))
    limited = time_limited(claim_text, claim, lead or passage, judged)
    if limited is not None:
        times.append((limited, TIME_LIMITED))
    share = share_turned(claim_text, claim, lead or passage, judged)
    if share is not None:
        times.append((share, SHARE_TURNED))
    swapped = _parties_swapped(claim_text, claim, lead or passage, judged)
    swap_rule = PARTIES_SWAPPED
    if swapped is None:
        swapped, swap_rule = doer_swapped(claim_text, claim, passage, judged), DOER_SWAPPED
    if swapped is None:
        swapped, swap_rule = scope_swapped(claim_text, claim, passage, judged), SCOPE_SWAPPED
    if swapped is None and lead and not (instead or negation_diffs or times):
        # The last reading, where nothing more particular conflicts: "the passage says
        # “£500”", "“not”", "“landlord”" say better what is wrong than the subject does.
        swapped = subject_swapped(claim_text, claim, lead, passage, judged)
        swap_rule = SUBJECT_SWAPPED
    if swapped is not None:
        times.append((swapped, swap_rule))
    # A fact the alignment left without a counterpart ("game 4–3" / "game 3–3" aligns the 3s):
    # look beside its nearest aligned neighbour, within `NEIGHBOURS` tokens.
    aligned = {b.a + k: b.b + k for b in blocks for k in range(b.size)}
    for i, token in enumerate(claim):
        if backed[i] or i in instead or token.kind not in HARD_KINDS or not judged[i]:
            continue
        before = next((k for k in range(i - 1, i - NEIGHBOURS - 1, -1) if k in aligned), None)
        after = next((k for k in range(i + 1, i + NEIGHBOURS + 1) if k in aligned), None)
        if before is not None:
            start = aligned[before] + 1
            window = passage[start : start + (i - before)]
        elif after is not None:
            end = aligned[after]
            window = passage[max(0, end - (after - i)) : end]
        else:
            continue
        other = _counterpart(token, window, superlatives)
        if other is not None:
            instead[i] = other.text
    found: list[tuple[ClaimDifference, str]] = list(times)
    conflicts = len(negation_diffs) + len(times)
    negation_conflict = 1.0 if negation_diffs else 0.0
    run: list[Token] = []

    def flush() -> None:
        if run:
            start, end = run[0].span[0], run[-1].span[1]
            silent = ClaimDifference("word", claim_text[start:end], (start, end), None)
            found.append((silent, ""))
            run.clear()

    for i, token in enumerate(claim):
        if i in instead and token.kind in ("word", "stop"):  # a word turned round
            flush()
            conflicts += 1
            turned_word = ClaimDifference("word", token.text, token.span, instead[i])
            found.append((turned_word, why.get(i, WORD)))
            continue
        if backed[i] or not is_content(token):
            if not is_content(token) and run and token.kind == "stop":
                continue  # "loan of the bank": one stretch of unbacked words
            flush()
            continue
        if token.kind == "word":
            if run and _BREAK.search(claim_text, run[-1].span[1], token.span[0]):
                flush()  # punctuation or a marker between: another stretch
            run.append(token)
            continue
        flush()
        replaced = instead.get(i)
        if token.kind == "negation":
            negation_conflict = 1.0
            conflicts += 1
            found.append((ClaimDifference("negation", token.text, token.span, None), NEGATION))
            continue
        rule = ""
        if replaced is not None:
            conflicts += 1
            rule = why.get(i, f"facts.{token.kind}")
        found.append((ClaimDifference(token.kind, token.text, token.span, replaced), rule))  # type: ignore[arg-type]
    flush()
    found.extend((d, NEGATION) for d in negation_diffs)
    found.sort(key=lambda f: f[0].span)
    differences = [d for d, _ in found]

    content = [i for i, t in enumerate(claim) if judged[i] and is_content(t)]
    conflicting = set(instead)
    total_w = sum(weights.get(claim[i].key, 0.0) for i in content) or 1.0
    backed_w = sum(weights.get(claim[i].key, 0.0) for i in content if backed[i])
    anchor_total = (
        sum(weights.get(claim[i].key, 0.0) for i in content if i not in conflicting) or 1.0
    )
    numbers = [i for i in content if claim[i].kind in ("number", "date")]
    names = [i for i in content if claim[i].kind == "name"]
    # A conflict stays a conflict: the value the passage states instead outweighs the
    # same value elsewhere in the source.
    anywhere = [
        backed[i]
        or (
            source is not None
            and i not in conflicting
            and claim[i].kind != "negation"
            and source.holds(claim[i])
        )
        for i in range(len(claim))
    ]
    anywhere_w = sum(weights.get(claim[i].key, 0.0) for i in content if anywhere[i])
    pairs = [
        (claim[i].key, claim[i + 1].key)
        for i in range(len(claim) - 1)
        if judged[i] and judged[i + 1]
    ]
    passage_pairs = {(passage[j].key, passage[j + 1].key) for j in range(len(passage) - 1)}
    return FactCheck(
        differences=tuple(differences),
        conflicts=conflicts,
        recall=sum(backed[i] for i in content) / len(content) if content else 1.0,
        weighted_recall=backed_w / total_w if content else 1.0,
        anchor=backed_w / anchor_total if content else 1.0,
        pair_recall=sum(p in passage_pairs for p in pairs) / len(pairs) if pairs else 1.0,
        number_recall=sum(backed[i] for i in numbers) / len(numbers) if numbers else 1.0,
        has_number=1.0 if numbers else 0.0,
        name_recall=sum(backed[i] for i in names) / len(names) if names else 1.0,
        negation_conflict=negation_conflict,
        longest_run=longest / max(len(claim), 1),
        content=len(content),
        unbacked_words=sum(1 for i in content if not backed[i] and claim[i].kind == "word"),
        longest_gap=max((len(d.text.split()) for d in differences if d.kind == "word"), default=0),
        unbacked_names=sum(1 for i in names if not backed[i]),
        source_recall=sum(anywhere[i] for i in content) / len(content) if content else 1.0,
        source_weighted_recall=anywhere_w / total_w if content else 1.0,
        rules=tuple(rule for _, rule in found),
    )


def _said(tokens: Sequence[Token], word: str) -> bool:
    return any(t.text.casefold() == word for t in tokens)


def _leading_negation(
    claim: Sequence[Token],
    passage: Sequence[Token],
    opcodes: Sequence[tuple[str, int, int, int, int]],
) -> ClaimDifference | None:
    """A negation the passage puts right before the stretch it shares with the claim, where
    the claim has none: "we cannot accept the 7% uplift" / "Priya accepted the 7% uplift";
    past a modal and the "one" of "no one": "no one should discuss the deal" / "Staff may
    discuss the deal". Right before: each word one blank from the next, so the negation of a
    sentence that ends there ("was not built. The bridge opened") is not read into the
    claim. Never "without", which denies the noun after it ("without the Provider's consent"),
    not the claim that shares it."""
    if len(opcodes) < 2 or opcodes[0][0] not in ("replace", "insert") or opcodes[1][0] != "equal":
        return None
    _, i1, i2, j1, j2 = opcodes[0]
    if j2 == j1 or i2 >= len(claim):
        return None
    at = j2 - 1
    while at > j1 and passage[at].text.casefold() in _BEFORE_A_VERB:
        if passage[at + 1].span[0] - passage[at].span[1] > 1:
            return None
        at -= 1
    negation, first = passage[at], passage[at + 1]
    if negation.kind != "negation" or first.span[0] - negation.span[1] > 1:
        return None
    if negation.text.casefold() == "without":
        return None  # "without the Provider's consent, which shall not ...": a noun's, not a verb's
    if _condition_restated(claim, passage, at):
        return None
    own = claim[i1:i2] if at == j2 - 1 else claim
    if negation.text.casefold() in _NO_ONE:
        # "nobody should send" / "The team should not send": the claim's "not" after the
        # subject that "nobody" stands in the place of.
        own = claim[i1 : i2 + 3]
    if any(t.kind == "negation" for t in own) or _denies(own, passage):
        return None  # past a modal, the claim's own negation may stand after it
    at = claim[i2].span[0]
    return ClaimDifference("negation", "", (at, at), negation.text)


def _kept_by_prefix(
    claim: Sequence[Token], passage: Sequence[Token], judged: Sequence[bool]
) -> list[int]:
    """The claim's negations, and the words they negate, that the passage says as one word
    with a prefix that negates it: "The tenancy cannot be assigned" against "The tenancy is
    non-assignable" (`prefix_negates`): the first content word within three tokens after the
    negation."""
    joined = (_non_joined(passage, j) for j in range(len(passage)))
    said = [t.text for t in passage] + [text for text in joined if text is not None]
    out: list[int] = []
    for i, token in enumerate(claim):
        if token.kind != "negation" or not judged[i]:
            continue
        word = next((k for k in range(i + 1, min(i + 4, len(claim))) if is_content(claim[k])), None)
        if (
            word is not None
            and claim[word].kind == "word"
            and any(prefix_negates(text, claim[word]) for text in said)
        ):
            out.extend((i, word))
    return out


def _condition_restated(claim: Sequence[Token], passage: Sequence[Token], at: int) -> bool:
    """Whether the claim, with no negation of its own, states the condition that lifts the
    passage's denial at ``at`` (or is that denial: "without") as what it takes: "Pets need
    the Landlord's written consent" against "No pets may be kept at the property without the
    Landlord's prior written consent". The lifting word (`_LIFTED_BY`) within
    `_DENIAL_REACH` tokens of the denial, and a content word of the claim among the
    `_DENIAL_SCOPE` after it. "Pets may be kept" states no condition, and "Pets may be kept
    without consent" has a negation of its own: both still leave the denial out."""
    if any(t.kind == "negation" for t in claim):
        return False
    if _lift(passage, at) and not any(
        t.kind == "negation" for t in passage[max(0, at - _DENIAL_REACH) : at]
    ):
        return False  # "learns without explicit supervision" lifts no denial: it is one
    reach = passage[at : at + 1 + _DENIAL_REACH]  # the denial itself may lift: "without"
    keys = {t.key for t in claim if is_content(t)}
    for n in range(len(reach)):
        if _lift(reach, n):
            condition = passage[at + 1 + n : at + 1 + n + _DENIAL_SCOPE]
            if any(is_content(t) and t.key in keys for t in condition):
                return True
    return False


# Between "no one" and its verb: "no one should discuss", "nobody may enter".
_BEFORE_A_VERB = frozenset({"one", "should", "shall", "must", "may", "can", "will", "would"})

# A denial negates what follows it ("not by branch managers", "Neither party excludes");
# these negate a noun ("no fee"), or come before words that lift the denial ("not only ...
# but ...", "not due until March", "cannot be raised without notice"): none is read as one.
_NOUN_NEGATIONS = frozenset({"no", "none", "nobody", "nothing", "without"})
_NOT_A_DENIAL = frozenset({"only", "just", "merely", "simply", "least", "necessarily", "yet"})
_LIFTED_BY = frozenset({"until", "unless", "without", "except", "before", "prior"})
_DENIAL_REACH = 8  # tokens after a denial where a word that lifts it is looked for
_DENIAL_SCOPE = 6  # tokens after a denial where the claim's words must be, two at least


def _denied(
    claim: Sequence[Token],
    passage: Sequence[Token],
    judged: Sequence[bool],
    claim_words: frozenset[str],
) -> ClaimDifference | None:
    """A word the claim states plainly that the passage states only under a denial, in any
    order: "Branch managers can approve exceptions" against "approved by the Head of Credit,
    not by branch managers"; "Liability for fraud is excluded" against "Neither party
    excludes ... liability for fraud". Only for a claim with no negation of its own, where
    the passage never uses the word without one, and where another word of the claim is
    under the same denial. The claim's "without" is no negation of its own: "may assign the
    agreement without consent" against "may not assign this agreement without consent"."""
    own = [t for t in claim if t.kind == "negation" and t.text.casefold() != "without"]
    if own or _denies(claim, passage):
        return None
    plain: set[str] = set()
    verbs: set[str] = set()  # words denied by "nobody" or "no one" before them
    denied: dict[str, tuple[int, int]] = {}  # key: (the denial's index, the word's)
    for j, token in enumerate(passage):
        if token.kind not in ("word", "name"):
            continue
        negation = _denial_before(passage, j, claim_words)
        if negation is None and (subject := _no_one_before(passage, j)) is not None:
            negation = subject
            verbs.add(token.key)
        if negation is None:
            plain.add(token.key)
        else:
            denied.setdefault(token.key, (negation, j))
    keys = {t.key for i, t in enumerate(claim) if judged[i] and is_content(t)}
    for i, token in enumerate(claim):
        if not judged[i] or token.kind not in ("word", "name") or not is_content(token):
            continue
        if token.key in plain or token.key not in denied:
            continue
        start, end = denied[token.key]
        scope = {t.key for t in passage[start + 1 : start + 1 + _DENIAL_SCOPE]}
        if len(scope & keys) < 2 and token.key not in verbs:
            continue  # one shared word is no shared statement ("do not change the sequence")
        # "not by branch managers", "not approve the loan": the claim's words it covers.
        k = end + 1
        while k < len(passage) and (passage[k].key in keys or not is_content(passage[k])):
            end = k if passage[k].key in keys else end
            k += 1
        said = " ".join(t.text for t in passage[start : end + 1])
        return ClaimDifference("negation", "", (token.span[0], token.span[0]), said)
    return None


def _denied_by_no_one(
    claim: Sequence[Token],
    passage: Sequence[Token],
    blocks: Sequence[difflib.Match],
    judged: Sequence[bool],
) -> list[int]:
    """The claim's negations of a verb the passage denies by its subject: "The team should not
    send the contract" against "nobody should send the contract" (`_no_one_before`). The
    alignment leaves such a "not" without a counterpart; it is backed all the same."""
    aligned = {b.a + k: b.b + k for b in blocks for k in range(b.size)}
    out = []
    for i, token in enumerate(claim):
        if token.kind != "negation" or not judged[i]:
            continue
        verb = next((k for k in range(i + 1, min(i + 3, len(claim))) if k in aligned), None)
        if verb is None:
            continue
        at = aligned[verb]
        if _no_one_before(passage, at) is not None or _no_subject_before(passage, at):
            out.append(i)
    return out


def _no_subject_before(tokens: Sequence[Token], at: int) -> bool:
    """Whether a subject under "no" stands before the verb at ``at``, past a modal and "be":
    "No dividends may be paid" denies the paying as "may not pay dividends" does."""
    k = at - 1
    while k >= 0 and tokens[k].text.casefold() in _BEFORE_A_VERB | _BE:
        k -= 1
    if k == at - 1:
        return False  # no modal: "no dividends paid" is a noun's denial
    for _ in range(2):  # the subject: a word or two
        if k < 1 or not is_content(tokens[k]):
            return False
        k -= 1
        if tokens[k].text.casefold() == "no":
            return True
    return False


_BE = frozenset({"be", "been"})
_NO_ONE = frozenset({"nobody", "noone", "nothing"})
_DENIED_SUBJECTS = _NO_ONE | {"no"}  # "nobody should send", "No dividends may be paid"


def _no_one_before(tokens: Sequence[Token], at: int) -> int | None:
    """The index of "nobody", "nothing" or the "no" of "no one" right before ``tokens[at]``,
    past a modal ("nobody replied", "no one should discuss"): a denial of the verb at
    ``at``, which a claim that gives it a subject ("Support replied") leaves out."""
    k = at - 1
    while k >= 0 and tokens[k].text.casefold() in _BEFORE_A_VERB - {"one"}:
        k -= 1
    if k < 0:
        return None
    word = tokens[k].text.casefold()
    if word in _NO_ONE:
        return k
    if word == "one" and k > 0 and tokens[k - 1].text.casefold() == "no":
        return k - 1
    return None


def _stands(tokens: Sequence[Token], k: int, claim_words: frozenset[str]) -> bool:
    """Whether ``tokens[k]`` is a negation that denies what follows: not lifted by a word
    after it that the claim does not use ("not due until March" / "due in March"; "cannot
    be raised without notice" / "raised with notice"), nor the lifting word of such a
    denial (that "without"), nor the start of "not only". The claim's own "without" or
    "before" keeps the denial: "cannot be approved without a valuation" turns "can be
    approved without a valuation" round."""
    token = tokens[k]
    if token.kind != "negation":
        return False
    folded = token.text.casefold()
    after = tokens[k + 1 : k + 1 + _DENIAL_REACH]
    if folded not in _NOUN_NEGATIONS:
        if after and after[0].text.casefold() in _NOT_A_DENIAL:
            return False
        lifts = {_lift(after, n) for n in range(len(after))} - {""}
        return not lifts - claim_words
    if folded in _LIFTED_BY and folded not in claim_words:
        before = tokens[max(0, k - _DENIAL_REACH) : k]
        return not any(
            t.kind == "negation" and t.text.casefold() not in _NOUN_NEGATIONS for t in before
        )
    return True


def _lift(tokens: Sequence[Token], n: int) -> str:
    """``tokens[n]`` folded when it lifts a denial before it (`_LIFTED_BY`), else "": "prior"
    only as "prior to" ("not ... prior to approval"), never as in "prior written consent"."""
    word = tokens[n].text.casefold()
    if word not in _LIFTED_BY:
        return ""
    if word == "prior" and (n + 1 >= len(tokens) or tokens[n + 1].text.casefold() != "to"):
        return ""
    return word


def _kept_denials(
    claim: Sequence[Token],
    passage: Sequence[Token],
    lead: Sequence[Token],
    judged: Sequence[bool],
    claim_words: frozenset[str],
) -> list[int]:
    """The claim's negations the passage keeps, in any order: "Branch managers cannot approve
    exceptions" against "approved by the Head of Credit, not by branch managers". Kept: the
    claim has one negation; the passage's best sentence (``lead``) holds every content word of
    the claim and a standing denial (`_stands`) with at least two of them right after it; and
    the passage never states those two plainly elsewhere. The same sentence, so that "they
    weren't pork chop" keeps no denial of "A pork chop does not have any chromosomes" when the
    chromosomes are in the sentence before; the alignment reads such a claim's negation as
    unmatched."""
    negations = [i for i, t in enumerate(claim) if t.kind == "negation" and judged[i]]
    if len(negations) != 1:
        return []
    for covered, under in lead_denials(claim, lead, judged, claim_words):
        if not any(t.key in covered and t.span not in under for t in passage):
            return negations
    return []


def lead_denials(
    claim: Sequence[Token],
    lead: Sequence[Token],
    judged: Sequence[bool],
    claim_words: frozenset[str],
) -> list[tuple[frozenset[str], frozenset[tuple[int, int]]]]:
    """The standing denials of ``lead`` that may keep the claim's negation (`_kept_denials`):
    for each, the claim's keys right after it (two or more) and the spans it covers. None
    unless ``lead`` holds every judged content word of the claim."""
    keys = {
        t.key for i, t in enumerate(claim) if judged[i] and is_content(t) and t.kind != "negation"
    }
    if not keys <= {t.key for t in lead}:
        return []
    found = []
    for k, token in enumerate(lead):
        if token.kind != "negation" or not _stands(lead, k, claim_words):
            continue
        scope = lead[k + 1 : k + 1 + _DENIAL_SCOPE]
        covered = frozenset({t.key for t in scope} & keys)
        if len(covered) >= 2:
            found.append((covered, frozenset(t.span for t in scope)))
    return found


def states_plainly(
    tokens: Sequence[Token], keys: Collection[str], claim_words: frozenset[str]
) -> bool:
    """Whether ``tokens`` (one sentence) hold every one of ``keys`` outside the reach of a
    standing denial: "Since March, branch managers approve exceptions" states "branch
    managers approve" plainly; "not by branch managers" does not."""
    denied: set[int] = set()
    for k, token in enumerate(tokens):
        if token.kind == "negation" and _stands(tokens, k, claim_words):
            denied.update(range(k + 1, k + 1 + _DENIAL_SCOPE))
    plain = {t.key for j, t in enumerate(tokens) if j not in denied}
    return all(key in plain for key in keys)


def _denial_before(tokens: Sequence[Token], at: int, claim_words: frozenset[str]) -> int | None:
    """The index of a denial in the two tokens before ``tokens[at]`` (see `_NOUN_NEGATIONS`),
    past "able to", "allowed to" and the like (`_CARRY_A_DENIAL`: "was not able to waive the
    fee"), if one stands there (`_stands`)."""
    while (
        at >= 2
        and tokens[at - 1].text.casefold() == "to"
        and tokens[at - 2].text.casefold() in _CARRY_A_DENIAL
    ):
        at -= 2
    for k in range(at - 1, max(0, at - 2) - 1, -1):
        negation = tokens[k]
        if negation.kind != "negation" or negation.text.casefold() in _NOUN_NEGATIONS:
            continue
        return k if _stands(tokens, k, claim_words) else None
    return None


_CARRY_A_DENIAL = frozenset({"able", "going", "allowed", "permitted"})


# "only after the first anniversary" is no time "in the first year": what the passage puts
# after a point, the claim puts before or within it.
_AFTER = frozenset({"after", "following"})
_WITHIN = frozenset({"in", "during", "within", "before", "until", "by"})
_TIME_REACH = 3  # tokens after a preposition read as its point of time


# Verbs that say "not" in one word: "The policy excludes flood damage" restates "does not
# cover flood damage". Only where the passage's stretch in their place does not hold them too.
_DENYING = word_set(
    """exclude excludes excluded excluding lack lacks lacked omit omits omitted prohibit
    prohibits prohibited forbid forbids forbidden refuse refuses refused deny denies denied
    fail fails failed decline declines declined reject rejects rejected prevent prevents
    prevented unable"""
)


def _denies(ours: Sequence[Token], theirs: Sequence[Token]) -> bool:
    """Whether the claim's stretch ``ours`` says "not" with a denying verb (`_DENYING`) the
    passage's stretch ``theirs`` in its place does not use."""
    said = {t.key for t in theirs}
    return any(t.text.casefold() in _DENYING and t.key not in said for t in ours)


_TOGETHER = 8  # tokens within which two of the claim's figures stand together


def _figures_together(claim: Sequence[Token], passage: Sequence[Token]) -> frozenset[int]:
    """Claim figures the passage states in the claim's order beside another of the claim's
    figures, the next figure within `_TOGETHER` tokens: "below 99% the credit rises to 25%"
    backs "Below 99% the Customer gets a 25% credit" though "below 99.9%" stands where the
    claim's words align. "Below 99% the credit is 10%" is not backed so (the passage's 10%
    comes first), nor "Revenue rose 3% in March" by "Costs rose 3%; revenue rose 12% in
    March" (12% stands between)."""
    figures = [i for i, t in enumerate(claim) if t.kind in ("number", "date")]
    out: set[int] = set()
    for a, b in itertools.pairwise(figures):
        first, second = claim[a].key, claim[b].key
        if first == second:
            continue
        for j, token in enumerate(passage):
            if token.key != first:
                continue
            between = passage[j + 1 : j + 1 + _TOGETHER]
            at = next((k for k, t in enumerate(between) if t.kind in ("number", "date")), None)
            if at is not None and between[at].key == second:
                out.update((a, b))
                break
    return frozenset(out)


def _competing_figures(
    claim: Sequence[Token],
    lead: Sequence[Token],
    judged: Sequence[bool],
    sentence: Sequence[Token] = (),
) -> dict[int, Token]:
    """Claim figures the best sentence (``lead``) does not state, where it states another
    figure of the same unit after the same word ("reported within 30 days" against
    "reports it within 14 days"). The claim's figure stated elsewhere ("more than 30 days
    overdue" in another sentence) does not back it: the sentence the claim is about says
    otherwise. Not for bare numbers and ordinals (too common to stand in one place), nor
    after an article ("the 30 days"), nor where the best sentence is a part of ``sentence``
    that states the claim's figure in another part ("by 10:00 ...; one reported later
    must be put right by 12:00")."""
    held = frozenset(t.key for t in (*lead, *sentence))
    out: dict[int, Token] = {}
    for i, figure in enumerate(claim):
        if not judged[i] or figure.kind != "number" or figure.unit in ("", ORDINAL):
            continue
        if i == 0 or figure.key in held or claim[i - 1].text.casefold() in _ARTICLES:
            continue
        before = claim[i - 1].key
        other = next(
            (
                t
                for k, t in enumerate(lead)
                if k > 0
                and t.kind == "number"
                and t.unit == figure.unit
                and lead[k - 1].key == before
            ),
            None,
        )
        if other is not None:
            out[i] = other
    return out


def _restated_beside(figure: Token, other: Token, passage: Sequence[Token]) -> bool:
    """Whether the passage gives ``figure`` right after ``other``, a figure of another unit
    in its place, with no figure between: one amount said two ways ("half the crane's day
    rate, £620")."""
    if figure.kind != "number" or other.kind != "number" or figure.unit == other.unit:
        return False
    at = next(k for k, t in enumerate(passage) if t is other)
    after = next((t for t in passage[at + 1 : at + _APPOSED + 1] if t.kind == "number"), None)
    return after is not None and _backs(figure, [after], frozenset())


_APPOSED = 6  # tokens within which a figure may restate another ("half the day rate, £620")


_ARTICLES = word_set("the a an this that these those its their our your his her my")
_BESIDE = 4  # tokens within which a word is read as said of a figure


def _figure_bound_elsewhere(
    claim: Sequence[Token], passage: Sequence[Token], judged: Sequence[bool]
) -> dict[int, Token]:
    """Claim figures the passage states, but of other things, where a word the claim says of
    the figure stands in the passage only beside another figure of the same unit: "Orion
    accepted a 5% discount" against "They asked for a 5% discount; we offered 3%, which they
    accepted"; "The excess for subsidence claims is £250" against "the first £250 of every
    claim, or £1,000 for subsidence claims". Beside: within `_BESIDE` tokens. The other
    figure, nearest that word, is the passage's word for the claim's where the passage says
    more of the claim's words beside it than beside the claim's figure. Read in the best
    sentence alone: across sentences a word carries over ("Applications with a loan-to-value
    ratio above 80% must be referred ... Applications above 95% are declined" says the 95% of
    the loan-to-value too)."""
    figures = {t.key for t in claim if t.kind == "number"}
    out: dict[int, Token] = {}
    for i, figure in enumerate(claim):
        if not judged[i] or figure.kind != "number" or figure.unit in ("", ORDINAL):
            continue
        mine = [j for j, t in enumerate(passage) if t.key == figure.key]
        if not mine:
            continue
        near = range(max(0, i - _BESIDE), min(len(claim), i + 1 + _BESIDE))
        words = {claim[k].key for k in near if judged[k] and claim[k].kind in ("word", "name")}
        said_of_mine = max(len(words & _beside(passage, m)) for m in mine)
        for word in words:
            places = [j for j, t in enumerate(passage) if t.key == word]
            if not places or any(abs(j - m) <= _BESIDE for j in places for m in mine):
                continue
            others = [_nearest_figure(passage, j, figure.unit) for j in places]
            first = others[0]
            if first is None or any(o is None or o.key in figures for o in others):
                continue  # "the £40m facility": said of another figure the claim gives
            at = next(j for j, t in enumerate(passage) if t is first)
            if any(_one_range(passage, at, m) for m in mine):
                continue  # "rose from 4.25% to 4.5%": two ends of one change
            # the other figure is said with more of the claim's words than the claim's own
            # ("two months' written notice" keeps its figure against "the tenancy after the
            # first twelve months")
            if len(words & _beside(passage, at)) > said_of_mine:
                out[i] = first
                break
    return out


_RANGE_OPENS = frozenset({"from", "between"})
_RANGE_JOINS = frozenset({"to", "and", "until", "till", "through"})


def _one_range(tokens: Sequence[Token], a: int, b: int) -> bool:
    """Whether ``tokens[a]`` and ``tokens[b]`` are the two ends of one range: "from 4.25% to
    4.5%", "between £10 and £20"."""
    lo, hi = sorted((a, b))
    return (
        lo > 0
        and tokens[lo - 1].text.casefold() in _RANGE_OPENS
        and hi - lo >= 2
        and all(t.text.casefold() in _RANGE_JOINS for t in tokens[lo + 1 : hi])
    )


def _beside(tokens: Sequence[Token], at: int) -> set[str]:
    """The keys of the words and names within `_BESIDE` tokens of ``tokens[at]``."""
    around = range(max(0, at - _BESIDE), min(len(tokens), at + 1 + _BESIDE))
    return {tokens[k].key for k in around if k != at and tokens[k].kind in ("word", "name")}


def _nearest_figure(tokens: Sequence[Token], at: int, unit: str) -> Token | None:
    """The figure of ``unit`` nearest ``tokens[at]`` within `_BESIDE` tokens."""
    around = range(max(0, at - _BESIDE), min(len(tokens), at + 1 + _BESIDE))
    found = [k for k in around if tokens[k].kind == "number" and tokens[k].unit == unit]
    return tokens[min(found, key=lambda k: abs(k - at))] if found else None


def _time_turned(
    claim_text: str, claim: Sequence[Token], passage: Sequence[Token], judged: Sequence[bool]
) -> dict[int, ClaimDifference]:
    """By claim token index: where the passage says "after" a point of time and the claim
    "in", "within" or "before" it: "Fees can rise in the first year" against "only after
    the first anniversary". The point is the same when the first word after each
    preposition (past "the") is the same number, ordinal or date."""
    marks = {
        point.key: j
        for j, t in enumerate(passage)
        if t.text.casefold() in _AFTER
        and not _negated(passage, j)
        and (point := _point(passage, j)) is not None
    }
    out: dict[int, ClaimDifference] = {}
    for i, token in enumerate(claim):
        if not marks or not judged[i] or token.text.casefold() not in _WITHIN:
            continue
        point = _point(claim, i)
        if point is None or point.key not in marks:
            continue
        j = marks[point.key]
        said = " ".join(t.text for t in passage[j : j + 1 + _TIME_REACH])
        span = (token.span[0], claim[min(i + _TIME_REACH, len(claim) - 1)].span[1])
        out[i] = ClaimDifference("word", claim_text[span[0] : span[1]], span, said)
    return out


def _point(tokens: Sequence[Token], at: int) -> Token | None:
    """The number, ordinal or date right after the preposition ``tokens[at]`` (past stop
    words), if one stands there."""
    after = next((t for t in tokens[at + 1 : at + 1 + _TIME_REACH] if t.kind != "stop"), None)
    return after if after is not None and after.kind in ("number", "date") else None


# "X before Y": which of two things comes first. +1 reads left to right, -1 the other way.
_ORDER = {"before": 1, "after": -1, "then": 1}
_ORDER_REACH = 6  # tokens each side of "before" / "after" / "then" read as the two things
_NEXT = "then"
_STEP = frozenset({"and", "first"})
"""What stands in the two tokens before "then" where it is the next step of a sequence ("call
the police first and then tell", "and she then pays"), not a time ("by then", "still
unvested then vest")."""


def _way(tokens: Sequence[Token], at: int) -> int | None:
    """Which way ``tokens[at]`` orders the things either side of it (`_ORDER`), or None."""
    word = tokens[at].text.casefold()
    if word != _NEXT:
        return _ORDER.get(word)
    before = {t.text.casefold() for t in tokens[max(0, at - 2) : at]}
    return _ORDER[word] if before & _STEP else None


def _order_turned(
    claim_text: str, claim: Sequence[Token], passage: Sequence[Token], judged: Sequence[bool]
) -> ClaimDifference | None:
    """The claim puts two things the other way round from the passage: "An offer may be
    issued before the referral to a senior underwriter" against "must be referred to a
    senior underwriter before an offer is issued"; a sequence, "must tell the supervisor
    first and then call the police" against "must call the police first and then tell the
    supervisor". "Y after X" says what "X before Y" says; each side must share a word with
    the passage's opposite side. Only for ``judged`` claim tokens (not one already read as
    turned round: "before" where the passage says "after"), and not where the passage also
    puts them the claim's way: "Orders placed before 2 pm are dispatched the same day; orders
    placed after 2 pm within two days" says both."""
    if not any(t.text.casefold() in _ORDER for t in claim):
        return None  # most claims: the passage's orders are not read at all
    steps = [
        (j, passage[j].text.casefold() == _NEXT, _sides(passage, j, way))
        for j in range(len(passage))
        if (way := _way(passage, j)) is not None and not _negated(passage, j)
    ]
    for i in range(len(claim)):
        way = _way(claim, i)
        if way is None or not judged[i] or _negated(claim, i):
            continue
        # A sequence ("first ... and then") is set against a sequence only: "after the
        # invoice date" is a point of time, not the step before "have 30 days to pay".
        step = claim[i].text.casefold() == _NEXT
        orders = [(j, sides) for j, then, sides in steps if then == step]
        first, then = _sides(claim, i, way)
        if any(_shares(first, a) and _shares(then, b) for _, (a, b) in orders):
            continue  # the passage says it the claim's way too
        for j, (p_first, p_then) in orders:
            if _shares(first, p_then) and _shares(then, p_first):
                said = passage[max(0, j - _ORDER_REACH) : j + 1 + _ORDER_REACH]
                start = claim[max(0, i - _ORDER_REACH)].span[0]
                end = claim[min(len(claim) - 1, i + _ORDER_REACH)].span[1]
                instead = " ".join(t.text for t in said)
                return ClaimDifference("word", claim_text[start:end], (start, end), instead)
    return None


_PASSIVE = frozenset({"by"})


def _parties_swapped(
    claim_text: str, claim: Sequence[Token], lead: Sequence[Token], judged: Sequence[bool]
) -> ClaimDifference | None:
    """The claim names both sides of a pair that exclude each other (`_opposites`: a party
    and its counterparty) the other way round from the passage's best sentence, around the
    same words: "The Licensee may audit the Licensor's use" against "The Licensor may audit
    the Licensee's use"; "If the Licensor fails to pay ..., the Licensee may suspend" against
    the reverse. Not where "by" stands between them on either side (the passive says the same
    the other way round: "the Licensee's use may be audited by the Licensor")."""
    for i, token in enumerate(claim):
        if not judged[i] or token.kind not in ("word", "name"):
            continue
        excluded = opposites(token)
        k = next((k for k in range(i + 1, len(claim)) if claim[k].key in excluded), None)
        if k is None or not judged[k]:
            continue
        p_first = next((j for j, t in enumerate(lead) if t.key == claim[k].key), None)
        p_then = next((j for j, t in enumerate(lead) if t.key == token.key), None)
        if p_first is None or p_then is None or p_first > p_then:
            continue
        between = claim[i + 1 : k]
        said = lead[p_first + 1 : p_then]
        if any(t.text.casefold() in _PASSIVE for t in (*between, *said)):
            continue
        if not _shares([t for t in between if is_content(t)], said):
            continue
        start, end = token.span[0], claim[k].span[1]
        instead = " ".join(t.text for t in lead[p_first : p_then + 1])
        return ClaimDifference("word", claim_text[start:end], (start, end), instead)
    return None


def _sides(tokens: Sequence[Token], at: int, way: int) -> tuple[list[Token], list[Token]]:
    """The content tokens before and after ``tokens[at]``, as (what comes first, what comes
    then)."""
    left = [t for t in tokens[max(0, at - _ORDER_REACH) : at] if is_content(t)]
    right = [t for t in tokens[at + 1 : at + 1 + _ORDER_REACH] if is_content(t)]
    return (left, right) if way > 0 else (right, left)


def _shares(ours: Sequence[Token], theirs: Sequence[Token]) -> bool:
    keys = frozenset(t.key for t in theirs)
    return any(t.kind in ("word", "name") and _backs(t, theirs, keys) for t in ours)


def _turned(
    claim: Sequence[Token],
    passage: Sequence[Token],
    opcodes: Sequence[tuple[str, int, int, int, int]],
    judged: Sequence[bool],
) -> dict[int, Token]:
    """By claim token index: the word of ``passage`` standing in its place (a replaced
    stretch of ``opcodes``, the alignment of claim and passage, of at most `MAX_REPLACED`
    tokens) that excludes it (`_opposites`), unless the claim uses that word too ("from the
    first to the last day") or either word is negated ("not approved" says what "refused"
    says)."""
    keys = {t.key for t in claim}
    turnable = {
        i: excluded
        for i, t in enumerate(claim)
        if judged[i]
        and (excluded := opposites(t) or _weaker_modals(claim, i))
        and excluded.isdisjoint(keys)
        and not _negated(claim, i)
    }
    out: dict[int, Token] = {}
    for op, i1, i2, j1, j2 in opcodes if turnable else ():
        if op != "replace" or j2 - j1 > MAX_REPLACED:
            continue
        for i in (k for k in range(i1, i2) if k in turnable):
            other = next(
                (
                    passage[j]
                    for j in range(j1, j2)
                    if passage[j].key in turnable[i] and not _negated_around(passage, j)
                ),
                None,
            )
            if other is not None:
                out[i] = other
    return out


def _verdict_turned(
    claim: Sequence[Token],
    passage: Sequence[Token],
    lead: Sequence[Token],
    judged: Sequence[bool],
) -> dict[int, Token]:
    """By claim token index: a verdict word of the best sentence (``lead``) that excludes
    the claim's (`verdict_opposites`), wherever either stands: "The policy excludes water
    damage from burst pipes" against "Water damage from burst pipes is covered". Only where
    the passage never says the claim's word, the claim never says the passage's, and
    neither is negated ("is not covered" says what "excluded" says)."""
    said = {t.key for t in passage}
    keys = {t.key for t in claim}
    out: dict[int, Token] = {}
    for i, token in enumerate(claim):
        excluded = verdict_opposites(token)
        if not judged[i] or not excluded or token.key in said or _negated(claim, i):
            continue
        if not excluded.isdisjoint(keys):
            continue
        other = next(
            (t for j, t in enumerate(lead) if t.key in excluded and not _negated_around(lead, j)),
            None,
        )
        if other is not None:
            out[i] = other
    return out


def _prefix_turned(
    claim: Sequence[Token],
    passage: Sequence[Token],
    lead: Sequence[Token],
    judged: Sequence[bool],
) -> dict[int, Token]:
    """By claim token index: a word of the best sentence (``lead``) that is the claim's word
    negated by its prefix (`negated_by_prefix`), or the claim's word with the prefix the
    passage's lacks, wherever either stands: "if the Buyer disputes an invoice" against
    "fails to pay an undisputed invoice"; "the undertaking is revocable" against "is
    irrevocable". Only where the passage never says the claim's word, the claim never says
    the passage's, and neither is negated."""
    said = {t.key for t in passage}
    keys = {t.key for t in claim}
    out: dict[int, Token] = {}
    for i, token in enumerate(claim):
        if not judged[i] or token.kind != "word" or token.key in said or _negated(claim, i):
            continue
        near = _neighbours(claim, i)
        for j, t in enumerate(lead):
            if t.kind != "word" or t.key in keys or _negated_around(lead, j):
                continue
            turned = _prefix_negation_at(token, lead, j)
            if turned is None or near.isdisjoint(_neighbours(lead, j, also=1)):
                continue  # said of something else: "apps installed" against "uninstall TikTok"
            if _excepted(lead, j, keys):
                continue  # "undrawn apart from £7m used for ..." against "£7m has been drawn"
            out[i] = turned
            break
    return out


def _prefix_negation_at(word: Token, tokens: Sequence[Token], at: int) -> Token | None:
    """``tokens[at]`` read as ``word`` negated by a prefix (`negated_by_prefix`), itself or,
    for "non", with the word after it as one ("non-assignable"); None when it is not."""
    joined = _non_joined(tokens, at)
    if joined is not None and negated_by_prefix(word, tokens[at + 1], joined):
        return Token(joined, (tokens[at].span[0], tokens[at + 1].span[1]), joined, "word")
    return tokens[at] if negated_by_prefix(word, tokens[at]) else None


def _non_joined(tokens: Sequence[Token], at: int) -> str | None:
    """ "non-assignable" where ``tokens[at]`` is "non" and a word follows: the tokenizer cuts
    the hyphened word in two."""
    if tokens[at].text.casefold() != "non" or at + 1 >= len(tokens):
        return None
    return f"non-{tokens[at + 1].text}"


_NEAR = 3  # tokens each side of a word read as what it is said of
_EXCEPT = (("apart", "from"), ("except",), ("other", "than"), ("save", "for"), ("but", "for"))


def _excepted(tokens: Sequence[Token], at: int, keys: Collection[str]) -> bool:
    """Whether an exception follows ``tokens[at]`` within three tokens ("apart from",
    "except", "other than") and names something the claim says within six tokens after it:
    the word is not said of that."""
    words = [t.text.casefold() for t in tokens[: at + 6]]  # the phrase, three tokens on
    for k in range(at + 1, min(at + 4, len(tokens))):
        for phrase in _EXCEPT:
            if tuple(words[k : k + len(phrase)]) == phrase:
                after = tokens[k + len(phrase) : k + len(phrase) + 6]
                return any(is_content(t) and t.key in keys for t in after)
    return False


def _neighbours(tokens: Sequence[Token], at: int, also: int = 0) -> frozenset[str]:
    """The keys of the content tokens within `_NEAR` (and ``also`` more) each side of
    ``tokens[at]``."""
    reach = _NEAR + also
    around = [*tokens[max(0, at - reach) : at], *tokens[at + 1 : at + 1 + reach]]
    return frozenset(t.key for t in around if is_content(t))


def _comparative_turned(
    claim: Sequence[Token], lead: Sequence[Token], judged: Sequence[bool]
) -> dict[int, Token]:
    """By claim token index: the comparative of the best sentence (``lead``) that points the
    other way about the same thing, where the sentence has none pointing the claim's way:
    "by more than CPI" against "by no more than the rate of CPI". The same thing: the first
    content token after the claim's comparative stands within `_COMPARED_REACH` tokens
    after the passage's. Not where the claim states the condition that lifts the passage's
    bound ("can be covered above £2,500 if listed" against "up to £2,500 unless it is listed
    in the schedule"). Read for comparatives with no number beside them too, which the
    alignment leaves alone."""
    superlatives = Superlatives(claim, lead)
    theirs = [(j, t) for j, t in enumerate(lead) if superlatives.bound(t, claim=False)]
    ways = {direction(t.text) for _, t in theirs}
    out: dict[int, Token] = {}
    for i, token in enumerate(claim):
        own = direction(token.text) if superlatives.bound(token) and judged[i] else None
        if own is None or own[0] != "comparative" or own in ways or _negated(claim, i):
            continue
        compared = next((t.key for t in claim[i + 1 : i + 4] if is_content(t)), None)
        if compared is None:
            continue
        for j, other in theirs:
            after = {t.key for t in lead[j + 1 : j + 1 + _COMPARED_REACH]}
            if direction(other.text) != (own[0], -own[1]) or compared not in after:
                continue
            if not _condition_restated(claim, lead, j):  # "up to £2,500 unless it is listed"
                out[i] = other
            break
    return out


_COMPARED_REACH = 6


_OBLIGES = frozenset({"must", "shall"})
_ALLOWS = frozenset({"may", "can", "could", "might"})


def _weaker_modals(tokens: Sequence[Token], at: int) -> frozenset[str]:
    """For a "must" or "shall" not followed by a negation, the modals that only allow: a
    claim that something must be done where the passage says it may be says more than the
    passage ("The Licensor must audit" against "may audit"). "must not" and "may not" both
    forbid, and "may" where the passage says "must" is no conflict: not listed."""
    if tokens[at].text.casefold() not in _OBLIGES:
        return frozenset()
    if at + 1 < len(tokens) and tokens[at + 1].kind == "negation":
        return frozenset()
    return _ALLOWS


def _aligned(claim: Sequence[Token], passage: Sequence[Token]) -> difflib.SequenceMatcher[str]:
    """The token-key alignment of claim and passage the fact layer reads."""
    return difflib.SequenceMatcher(
        None, [t.key for t in claim], [t.key for t in passage], autojunk=False
    )


def _negated(tokens: Sequence[Token], at: int) -> bool:
    """Whether a negation stands in the two tokens before ``tokens[at]`` ("was not approved",
    "never approved")."""
    return any(t.kind == "negation" for t in tokens[max(0, at - 2) : at])


def _negated_around(tokens: Sequence[Token], at: int) -> bool:
    """Whether a negation stands in the two tokens before ``tokens[at]`` (`_negated`) or right
    after it ("covered not only ..."): the word is not said plainly there."""
    return _negated(tokens, at) or (at + 1 < len(tokens) and tokens[at + 1].kind == "negation")


class Superlatives:
    """Which "most" and "least" of a claim and a passage are superlatives ("the most
    points"), not bounds ("at most 45%", "at least two"): a superlative stands against the
    other superlative only ("the least bang" / "the most bang"), never against a bound
    ("the most points" / "60 or more points")."""

    TURNED: ClassVar[dict[str, str]] = {"most": "least", "least": "most"}

    def __init__(self, claim: Sequence[Token], passage: Sequence[Token]) -> None:
        self._claim = self._spans(claim)
        self._passage = self._spans(passage)

    @classmethod
    def _spans(cls, tokens: Sequence[Token]) -> frozenset[tuple[int, int]]:
        return frozenset(
            t.span
            for k, t in enumerate(tokens)
            if t.kind == "comparative"
            and t.text.casefold() in cls.TURNED
            and not (k > 0 and tokens[k - 1].text.casefold() == "at")
        )

    def bound(self, token: Token, *, claim: bool = True) -> bool:
        """Whether ``token`` (of the claim, or of the passage) is a comparative that bounds
        a value ("more than", "no more than", "at most")."""
        spans = self._claim if claim else self._passage
        return token.kind == "comparative" and token.span not in spans

    def turned(self, token: Token, said: Sequence[Token]) -> Token | None:
        """The superlative of ``said`` (the passage's) that turns round the claim's."""
        other = self.TURNED[token.text.casefold()]
        return next(
            (t for t in said if t.span in self._passage and t.text.casefold() == other), None
        )


_OWN_UNITS = frozenset({DURATION, ORDINAL})
"""Units a figure stands for only with its own: a length of time, an ordinal."""


def _comparable(a: Token, b: Token) -> bool:
    """Whether one figure may stand in the other's place: the same unit, or neither of a unit
    that stands only for its own ("£40" for "40%" may: the passage says another figure)."""
    if a.unit in _OWN_UNITS or b.unit in _OWN_UNITS:
        return a.unit == b.unit
    return True


def _counterpart(token: Token, said: Sequence[Token], superlatives: Superlatives) -> Token | None:
    """What the passage says in place of ``token`` in an aligned stretch, if of its kind."""
    if token.kind in ("number", "date"):
        # Of the same kind: "9 months" standing beside "October" in a reordered claim is
        # no other figure for the same thing.
        # A length of time stands only for a length of time ("500 euros" is no other figure
        # for "thirty days"), and an ordinal only for an ordinal ("the second instalment" is
        # no other figure for "the £48,000 instalment").
        other = next((t for t in said if t.kind == token.kind and _comparable(t, token)), None)
    elif token.kind == "comparative" and not superlatives.bound(token):
        other = superlatives.turned(token, said)
    elif token.kind == "comparative":
        own = direction(token.text)
        opposite = (own[0], -own[1]) if own is not None else None
        other = next(
            (
                t
                for t in said
                if superlatives.bound(t, claim=False) and direction(t.text) == opposite
            ),
            None,
        )
    else:
        other = next((t for t in said if t.kind == "name"), None)
    return other
