"""Minimal-edit pairs made from real sentences: the same words with the meaning moved, and
the same meaning in other words.

A model trained only on public NLI pairs reads shared words as support. These pairs teach
it the opposite lesson: a hypothesis that keeps nearly every word of its premise but swaps
two parties, drops or adds a negation, flips a direction, a modal or a quantifier, or changes
a figure is a contradiction; one that restates the premise in other words (a duration in
other units, a number spelled out, a synonym, conjuncts reordered, a trailing phrase
trimmed) is an entailment; one that adds a fact the premise does not hold is neither.
Every premise sentence gives both kinds, so shared words alone predict nothing.

Pure functions of the sentence and a seeded ``random.Random``: the same inputs and seed give
the same pairs on every machine.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

ENTAILS, CONTRADICTS, NEITHER = 0, 1, 2
LABELS = ("entails", "contradicts", "neither")


@dataclass(frozen=True)
class Pair:
    premise: str
    hypothesis: str
    label: int
    origin: str  # the data set, or "edit:<kind>" for a generated pair


# Words whose swap reverses what a sentence says. Both directions are used.
OPPOSITES: tuple[tuple[str, str], ...] = (
    ("above", "below"),
    ("before", "after"),
    ("more", "less"),
    ("higher", "lower"),
    ("increase", "decrease"),
    ("increased", "decreased"),
    ("increases", "decreases"),
    ("rose", "fell"),
    ("rise", "fall"),
    ("rises", "falls"),
    ("gained", "lost"),
    ("for", "against"),
    ("including", "excluding"),
    ("include", "exclude"),
    ("includes", "excludes"),
    ("included", "excluded"),
    ("over", "under"),
    ("first", "last"),
    ("earliest", "latest"),
    ("maximum", "minimum"),
    ("largest", "smallest"),
    ("larger", "smaller"),
    ("longest", "shortest"),
    ("early", "late"),
    ("earlier", "later"),
    ("accepted", "rejected"),
    ("approved", "rejected"),
    ("approve", "reject"),
    ("allowed", "forbidden"),
    ("permitted", "prohibited"),
    ("success", "failure"),
    ("successful", "unsuccessful"),
    ("won", "lost"),
    ("win", "lose"),
    ("buy", "sell"),
    ("bought", "sold"),
    ("open", "closed"),
    ("opened", "closed"),
    ("start", "end"),
    ("started", "ended"),
    ("began", "ended"),
    ("north", "south"),
    ("east", "west"),
    ("left", "right"),
    ("male", "female"),
    ("men", "women"),
    ("husband", "wife"),
    ("father", "mother"),
    ("son", "daughter"),
    ("brother", "sister"),
    ("king", "queen"),
    ("old", "new"),
    ("oldest", "newest"),
    ("young", "old"),
    ("youngest", "oldest"),
    ("positive", "negative"),
    ("strong", "weak"),
    ("stronger", "weaker"),
    ("high", "low"),
    ("rich", "poor"),
    ("heavy", "light"),
    ("hot", "cold"),
    ("warm", "cool"),
    ("wet", "dry"),
    ("fast", "slow"),
    ("faster", "slower"),
    ("cheap", "expensive"),
    ("cheaper", "more expensive"),
    ("true", "false"),
    ("legal", "illegal"),
    ("public", "private"),
    ("internal", "external"),
    ("inside", "outside"),
    ("import", "export"),
    ("imports", "exports"),
    ("supported", "opposed"),
    ("support", "oppose"),
    ("agreed", "refused"),
    ("agree", "refuse"),
    ("entered", "left"),
    ("arrived", "departed"),
    ("born", "died"),
    ("upper", "lower"),
    ("minor", "major"),
    ("majority", "minority"),
    ("profit", "loss"),
    ("profits", "losses"),
    ("surplus", "deficit"),
    ("credit", "debit"),
    ("lender", "borrower"),
    ("landlord", "tenant"),
    ("seller", "buyer"),
    ("employer", "employee"),
    ("plaintiff", "defendant"),
    ("winner", "loser"),
    ("inbound", "outbound"),
    ("secured", "unsecured"),
    ("fixed", "variable"),
    ("monthly", "annually"),
    ("daily", "weekly"),
    ("always", "never"),
    ("all", "none"),
    ("every", "no"),
    ("everyone", "no one"),
    ("must", "may"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("unlimited", "capped"),
    ("with", "without"),
    ("at least", "at most"),
    ("no more than", "no less than"),
    ("up to", "at least"),
    ("within", "after"),
    ("from", "to"),
    ("ahead of", "behind"),
    ("can", "cannot"),
    ("will", "will not"),
    ("is", "is not"),
    ("are", "are not"),
    ("was", "was not"),
    ("were", "were not"),
    ("has", "has not"),
    ("have", "have not"),
    ("did", "did not"),
    ("should", "should not"),
    ("would", "would not"),
    ("could", "could not"),
)
_OPPOSITE: dict[str, str] = {}
for _a, _b in OPPOSITES:
    _OPPOSITE.setdefault(_a, _b)
    _OPPOSITE.setdefault(_b, _a)

# The kind of each swapped word, for the generated pair's origin.
_KIND_WORDS = {
    "negation": {
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "did",
        "can",
        "will",
        "should",
        "would",
        "could",
        "cannot",
        "is not",
        "are not",
        "was not",
        "were not",
        "has not",
        "have not",
        "did not",
        "will not",
        "should not",
        "would not",
        "could not",
    },
    "modal": {"must", "may", "required", "optional", "mandatory"},
    "quantifier": {"all", "none", "every", "no", "always", "never", "everyone", "no one"},
    "direction": {
        "above",
        "below",
        "before",
        "after",
        "more",
        "less",
        "higher",
        "lower",
        "over",
        "under",
        "at least",
        "at most",
        "no more than",
        "no less than",
        "up to",
        "within",
        "from",
        "to",
        "increase",
        "decrease",
        "rose",
        "fell",
        "rise",
        "fall",
        "for",
        "against",
        "including",
        "excluding",
        "with",
        "without",
    },
}


def _kind(word: str) -> str:
    for kind, words in _KIND_WORDS.items():
        if word in words:
            return kind
    return "antonym"


SYNONYMS: tuple[tuple[str, str], ...] = (
    ("declined", "rejected"),
    ("begin", "start"),
    ("began", "started"),
    ("purchase", "buy"),
    ("purchased", "bought"),
    ("terminate", "end"),
    ("terminated", "ended"),
    ("approximately", "about"),
    ("roughly", "about"),
    ("commence", "begin"),
    ("commenced", "began"),
    ("large", "big"),
    ("small", "little"),
    ("obtain", "get"),
    ("obtained", "got"),
    ("assist", "help"),
    ("assisted", "helped"),
    ("require", "need"),
    ("requires", "needs"),
    ("received", "got"),
    ("additional", "extra"),
    ("sufficient", "enough"),
    ("prior to", "before"),
    ("subsequent to", "after"),
    ("following", "after"),
    ("numerous", "many"),
    ("individuals", "people"),
    ("automobile", "car"),
    ("residence", "home"),
    ("currently", "now"),
    ("initially", "at first"),
    ("frequently", "often"),
    ("rapidly", "quickly"),
    ("entire", "whole"),
    ("demonstrated", "showed"),
    ("indicates", "shows"),
    ("indicated", "showed"),
    ("utilise", "use"),
    ("utilize", "use"),
    ("employed", "used"),
    ("constructed", "built"),
    ("established", "founded"),
    ("permitted", "allowed"),
    ("prohibited", "forbidden"),
    ("deceased", "dead"),
    ("died", "passed away"),
    ("attempt", "try"),
    ("attempted", "tried"),
    ("inform", "tell"),
    ("informed", "told"),
    ("request", "ask for"),
    ("requested", "asked for"),
    ("reside", "live"),
    ("resides", "lives"),
    ("resided", "lived"),
    ("ill", "sick"),
    ("vehicle", "car"),
    ("physician", "doctor"),
    ("attorney", "lawyer"),
    ("funds", "money"),
    ("payment", "fee"),
    ("fees", "charges"),
    ("notify", "tell"),
    ("approximately", "around"),
    ("major", "main"),
    ("principal", "main"),
    ("significant", "substantial"),
    ("modify", "change"),
    ("modified", "changed"),
    ("amend", "change"),
    ("amended", "changed"),
    ("cease", "stop"),
    ("ceased", "stopped"),
    ("finish", "complete"),
    ("finished", "completed"),
    ("selected", "chosen"),
    ("select", "choose"),
    ("revenue", "income"),
    ("illustrate", "show"),
)
_SYNONYM: dict[str, str] = {}
for _a, _b in SYNONYMS:
    _SYNONYM.setdefault(_a, _b)
    _SYNONYM.setdefault(_b, _a)

NUMBER_WORDS = {
    "1": "one",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "10": "ten",
    "11": "eleven",
    "12": "twelve",
    "15": "fifteen",
    "20": "twenty",
    "30": "thirty",
    "40": "forty",
    "50": "fifty",
    "60": "sixty",
    "90": "ninety",
    "100": "one hundred",
}
# (amount, unit) -> the same length in another unit
DURATIONS: dict[tuple[int, str], str] = {
    (90, "days"): "three months",
    (60, "days"): "two months",
    (30, "days"): "one month",
    (180, "days"): "six months",
    (365, "days"): "one year",
    (12, "months"): "one year",
    (24, "months"): "two years",
    (36, "months"): "three years",
    (6, "months"): "half a year",
    (24, "hours"): "one day",
    (48, "hours"): "two days",
    (72, "hours"): "three days",
    (7, "days"): "one week",
    (14, "days"): "two weeks",
    (60, "minutes"): "one hour",
    (3, "months"): "ninety days",
    (1, "year"): "twelve months",
    (2, "years"): "24 months",
}
NEGATED_EQUIVALENTS: tuple[tuple[str, str], ...] = (
    ("is not permitted", "is prohibited"),
    ("is not allowed", "is forbidden"),
    ("are not permitted", "are prohibited"),
    ("did not accept", "rejected"),
    ("does not include", "excludes"),
    ("is not required", "is optional"),
    ("did not survive", "died"),
    ("was not successful", "failed"),
    ("is not available", "is unavailable"),
    ("did not pass", "failed"),
    ("not later than", "no later than"),
    ("did not win", "lost"),
    ("is not possible", "is impossible"),
    ("was not guilty", "was innocent"),
)

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\d,.]*%?")
_NAME = re.compile(r"\b(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})\b")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")
_NEG = re.compile(
    r"\b(?:(is|are|was|were|has|have|had|does|do|did|will|would|can|could|should|may|must)"
    r"\s+not|never|no longer|(?:is|are|was|were|does|do|did|has|have|had|would|could|should|"
    r"wo|ca)n['’]t|cannot)\b",
    re.IGNORECASE,
)
_AUX = re.compile(
    r"\b(is|are|was|were|has|have|had|does|do|did|will|would|can|could|should|may|must)\b"
    r"(?!\s+not\b)"
)
_STOP_NAMES = {
    "The",
    "A",
    "An",
    "In",
    "On",
    "At",
    "It",
    "He",
    "She",
    "They",
    "This",
    "That",
    "These",
    "Those",
    "There",
    "We",
    "I",
    "You",
    "His",
    "Her",
    "Its",
    "Their",
    "Our",
    "If",
    "When",
    "After",
    "Before",
    "As",
    "For",
    "But",
    "And",
    "Or",
    "Of",
    "By",
    "To",
    "From",
    "With",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
}


def _swap_word(text: str, old: str, new: str) -> str:
    """``text`` with the first whole-word ``old`` replaced by ``new`` (case of the first
    letter kept)."""
    pattern = re.compile(r"\b" + re.escape(old) + r"\b", re.IGNORECASE)
    found = pattern.search(text)
    if found is None:
        return text
    got = found.group(0)
    if got[:1].isupper():
        new = new[:1].upper() + new[1:]
    return text[: found.start()] + new + text[found.end() :]


def _present(text: str, table: dict[str, str]) -> list[str]:
    lowered = " " + re.sub(r"[^\w%' ]", " ", text.lower()) + " "
    return [w for w in table if f" {w} " in lowered]


def names(text: str) -> list[str]:
    """Capitalised names in ``text`` that are not the first word of a sentence alone."""
    found = []
    for m in _NAME.finditer(text):
        name = m.group(0)
        if any(w in _STOP_NAMES for w in name.split()[1:]):
            continue
        first = name.split()[0]
        if first in _STOP_NAMES:
            rest = name.split()[1:]
            if not rest:
                continue
            name = " ".join(rest)
        if m.start() == 0 and " " not in name:
            continue
        if name not in found:
            found.append(name)
    return found


# --- meaning moved: contradictions ---------------------------------------------------------


def flip_opposite(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    present = [w for w in _present(sentence, _OPPOSITE) if len(w) > 1]
    if not present:
        return None
    word = rng.choice(present)
    changed = _swap_word(sentence, word, _OPPOSITE[word])
    return (changed, _kind(word)) if changed != sentence else None


def drop_negation(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    found = list(_NEG.finditer(sentence))
    if not found:
        return None
    m = rng.choice(found)
    text = m.group(0)
    low = text.lower()
    if m.group(1):
        replacement = text.split()[0]
    elif low in ("never",):
        replacement = "always" if rng.random() < 0.5 else ""
    elif low == "no longer":
        replacement = "still"
    elif low == "cannot":
        replacement = "can"
    elif low.endswith(("n't", "n’t")):
        stem = text[:-3]
        replacement = {"wo": "will", "ca": "can", "Wo": "Will", "Ca": "Can"}.get(stem, stem)
    else:
        return None
    changed = (sentence[: m.start()] + replacement + sentence[m.end() :]).replace("  ", " ")
    return changed, "negation"


def add_negation(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    found = list(_AUX.finditer(sentence))
    if not found or _NEG.search(sentence):
        return None
    m = rng.choice(found)
    word = m.group(1)
    negated = "cannot" if word.lower() == "can" else f"{word} not"
    if word[:1].isupper():
        negated = negated[:1].upper() + negated[1:]
    return sentence[: m.start()] + negated + sentence[m.end() :], "negation"


def swap_names(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    found = names(sentence)
    if len(found) < 2:
        return None
    a, b = rng.sample(found, 2)
    if a in b or b in a:
        return None
    marker = "\x00"
    changed = sentence.replace(a, marker).replace(b, a).replace(marker, b)
    return (changed, "party") if changed != sentence else None


def replace_name(sentence: str, others: list[str], rng: random.Random) -> tuple[str, str] | None:
    found = names(sentence)
    pool = [o for o in others if o not in sentence]
    if not found or not pool:
        return None
    return sentence.replace(rng.choice(found), rng.choice(pool)), "name"


def change_number(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    found = list(_NUMBER.finditer(sentence))
    if not found:
        return None
    m = rng.choice(found)
    raw = m.group(0).replace(",", "")
    try:
        value = float(raw)
    except ValueError:
        return None
    if 1800 <= value <= 2100 and "." not in raw:
        new = str(int(value) + rng.choice((-3, -2, -1, 1, 2, 5, 10)))
    elif "." in raw:
        new = f"{value * rng.choice((0.5, 0.8, 1.25, 1.5, 2)):.{len(raw.split('.')[1])}f}"
    else:
        new = str(max(0, int(value) + rng.choice((-2, -1, 1, 2, 3, 10)) * max(1, int(value) // 10)))
    if new == raw:
        return None
    return sentence[: m.start()] + new + sentence[m.end() :], "figure"


# --- meaning kept: entailments ---------------------------------------------------------------


def restate(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    """Other words, the same meaning: synonyms, durations in other units, numbers spelled."""
    changed, kinds = sentence, []
    for (amount, unit), other in DURATIONS.items():
        pattern = re.compile(
            rf"\b(?:{amount}|{NUMBER_WORDS.get(str(amount), '#')})"
            rf"(?:\s*\(\d+\))?[\s-]+{unit[:-1]}s?\b",
            re.IGNORECASE,
        )
        if pattern.search(changed):
            changed = pattern.sub(other, changed, count=1)
            kinds.append("duration")
            break
    for old, new in NEGATED_EQUIVALENTS:
        if old in changed:
            changed = changed.replace(old, new, 1)
            kinds.append("negated-equivalent")
    words = _present(changed, _SYNONYM)
    rng.shuffle(words)
    for w in words[:2]:
        changed = _swap_word(changed, w, _SYNONYM[w])
        kinds.append("synonym")
    numbers = [m for m in _NUMBER.finditer(changed) if m.group(0) in NUMBER_WORDS]
    if numbers and rng.random() < 0.7:
        m = rng.choice(numbers)
        changed = changed[: m.start()] + NUMBER_WORDS[m.group(0)] + changed[m.end() :]
        kinds.append("spelled")
    if changed == sentence:
        return None
    return changed, "+".join(sorted(set(kinds)))


_TRAILING = re.compile(
    r",\s+(?:which|who|where|while|although|as|including)\b[^,]*[.]?$|"
    r"\s+\([^)]*\)"
)


def trim(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    """A trailing relative clause or a parenthetical left out: less said, nothing moved."""
    found = list(_TRAILING.finditer(sentence))
    if not found:
        return None
    m = rng.choice(found)
    changed = (sentence[: m.start()] + sentence[m.end() :]).rstrip(" ,")
    if not changed.endswith("."):
        changed += "."
    return (changed, "trim") if len(changed.split()) >= 5 else None


_LIST = re.compile(
    r"\b([A-Za-z][\w-]*(?: [a-z][\w-]*)?), ([A-Za-z][\w-]*(?: [a-z][\w-]*)?),? "
    r"and ([A-Za-z][\w-]*(?: [a-z][\w-]*)?)\b"
)


def reorder(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    m = _LIST.search(sentence)
    if m is None:
        return None
    items = [m.group(1), m.group(2), m.group(3)]
    shuffled = items[:]
    while shuffled == items:
        rng.shuffle(shuffled)
    joined = f"{shuffled[0]}, {shuffled[1]} and {shuffled[2]}"
    return sentence[: m.start()] + joined + sentence[m.end() :], "reorder"


CONTRADICTIONS: tuple[Callable[[str, random.Random], tuple[str, str] | None], ...] = (
    flip_opposite,
    drop_negation,
    add_negation,
    swap_names,
    change_number,
)
ENTAILMENTS: tuple[Callable[[str, random.Random], tuple[str, str] | None], ...] = (
    restate,
    trim,
    reorder,
)

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“])")


def sentences(text: str) -> list[str]:
    """Plain sentences of 6-45 words (a rough cut: good enough to make training pairs)."""
    out = []
    for part in _SENTENCE.split(" ".join(text.split())):
        words = len(part.split())
        if 6 <= words <= 45 and part[-1:] in ".!?" and not part.isupper():
            out.append(part)
    return out


def pairs_from_document(
    text: str, rng: random.Random, origin: str, *, context: bool = True
) -> Iterator[Pair]:
    """Pairs from each sentence of one document: one or two of each kind per sentence where
    an edit applies, the premise being the sentence with its neighbours (sometimes alone)."""
    sents = sentences(text)
    doc_names = names(text)
    for i, sentence in enumerate(sents):
        premise = sentence
        if context and rng.random() < 0.6:
            lo, hi = max(0, i - rng.randint(0, 2)), min(len(sents), i + 1 + rng.randint(0, 2))
            premise = " ".join(sents[lo:hi])
        made = 0
        for edit in rng.sample(CONTRADICTIONS, len(CONTRADICTIONS)):
            got = edit(sentence, rng)
            if got is not None:
                yield Pair(premise, got[0], CONTRADICTS, f"edit:{got[1]}")
                made += 1
                if made == 2 or rng.random() < 0.6:
                    break
        if made < 2 and rng.random() < 0.5:
            got = replace_name(sentence, doc_names, rng)
            if got is not None:
                yield Pair(premise, got[0], CONTRADICTS, f"edit:{got[1]}")
        positives = 0
        for entail in rng.sample(ENTAILMENTS, len(ENTAILMENTS)):
            got = entail(sentence, rng)
            if got is not None:
                yield Pair(premise, got[0], ENTAILS, f"edit:{got[1]}")
                positives += 1
                break
        if positives == 0 and premise != sentence:
            yield Pair(premise, sentence, ENTAILS, "edit:copy")
        if len(sents) > 3 and rng.random() < 0.5:
            # Neither: a sentence on the same topic that this premise does not state.
            far = [s for j, s in enumerate(sents) if abs(j - i) > 2]
            if far:
                yield Pair(sentence, rng.choice(far), NEITHER, "edit:unstated")
        if rng.random() < 0.25 and len(sents) > 1:
            other = rng.choice([s for s in sents if s != sentence])
            added = sentence.rstrip(".!?") + ", and " + other[:1].lower() + other[1:]
            yield Pair(sentence, added, NEITHER, "edit:added-fact")


def pairs_from_documents(texts: Iterable[str], seed: int, origin: str, limit: int) -> list[Pair]:
    rng = random.Random(seed)
    out: list[Pair] = []
    for text in texts:
        out.extend(pairs_from_document(text, rng, origin))
        if len(out) >= limit:
            break
    return out[:limit]
