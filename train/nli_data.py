"""The training pairs of the claim-support model, and the held-out pairs that measure it.

Every set with a held-out use is split by a fixed hash of an id (eval/support_data.split), so
the halves never change: AttributionBench and WiCE by their pair ids (WiCE's oracle chunks
by the claim, so a claim never crosses halves), Factcheck-GPT and Climate-FEVER by the
claim, SummEdits by its row id, and one SummEdits domain (`HELD_OUT_DOMAIN`) is never
trained on at all. Only ``tune`` halves are trained on. ANLI dev and SICK have no held-out
use here and are trained on whole.
"""

from __future__ import annotations

import csv
import hashlib
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "eval"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from clauses import clause_pairs
from minimal_edits import CONTRADICTS, ENTAILS, NEITHER, Pair, pairs_from_documents
from support_data import DATA, calibration, split

NLI = DATA / "nli"
HELD_OUT_DOMAIN = "sales_call"
SUMMEDITS_DOMAINS = ("news", "podcast", "qmsumm", "sales_call", "samsum", "scitldr")
WINDOW_WORDS = 80

_WORD = re.compile(r"\w+")
_STOP_TEXT = (
    "the a an of to in on at for by with and or is are was were be been it its this that "
    "these those as from has have had not no he she they his her their which who what "
    "when where"
)
_STOP = frozenset(_STOP_TEXT.split(" "))
_SENT = re.compile(r"(?<=[.!?])\s+")


def _content(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP}


def window(premise: str, hypothesis: str, max_words: int = WINDOW_WORDS) -> str:
    """The run of ``premise``'s sentences, at most ``max_words`` words, that shares most
    content words with ``hypothesis`` (its best sentence, widened while it fits)."""
    sents = [s for s in _SENT.split(" ".join(premise.split())) if s]
    if not sents or len(premise.split()) <= max_words:
        return " ".join(premise.split())
    want = _content(hypothesis)
    scores = [len(want & _content(s)) for s in sents]
    best = max(range(len(sents)), key=lambda i: scores[i])
    lo = hi = best
    words = len(sents[best].split())
    while True:
        grown = False
        for j in (hi + 1, lo - 1):
            if 0 <= j < len(sents) and words + len(sents[j].split()) <= max_words:
                words += len(sents[j].split())
                lo, hi = min(lo, j), max(hi, j)
                grown = True
        if not grown:
            break
    text = " ".join(sents[lo : hi + 1])
    return " ".join(text.split()[: max_words * 2])


def claim_id(prefix: str, claim: str) -> str:
    return f"{prefix}-" + hashlib.sha256(claim.encode()).hexdigest()[:16]


# --- the held-out sets (each also gives its tune half for training) -------------------------


def factcheck(half: str) -> Iterator[Pair]:
    mapping = {
        "completely-support": ENTAILS,
        "refute": CONTRADICTS,
        "irrelevant": NEITHER,
        "partially-support": NEITHER,
    }
    path = NLI / "factcheckgpt_stance" / "subtask3_claim_evidence_stance.jsonl"
    for line in path.open(encoding="utf-8"):
        row = json.loads(line)
        if split(claim_id("fc", row["claim"])) != half:
            continue
        yield Pair(
            window(row["evidence"], row["claim"]),
            row["claim"],
            mapping[row["stance"]],
            "factcheckgpt",
        )


def summedits_rows(domain: str) -> list[dict[str, object]]:
    path = NLI / "summedits" / f"summedits_{domain}.json"
    return list(json.loads(path.read_text(encoding="utf-8")))


def summedits_half(row: dict[str, object]) -> str:
    return split(f"se-{row['id']}")


def summedits_train(rng: random.Random, *, calibrated: bool = False) -> Iterator[Pair]:
    """Sentence-level pairs from the tune halves of the trained domains: the edited sentence
    of an inconsistent summary against its best window of the document (contradicts, or
    neither for an inserted fact), one sentence of a consistent one (entails). ``calibrated``:
    without the rows of the calibration slice (support_data.calibration)."""
    for domain in SUMMEDITS_DOMAINS:
        if domain == HELD_OUT_DOMAIN:
            continue
        for row in summedits_rows(domain):
            if summedits_half(row) != "tune":
                continue
            doc, summary = str(row["doc"]), str(row["summary"])
            if calibrated and calibration(summary):
                continue
            sents = [s for s in _SENT.split(" ".join(summary.split())) if len(s.split()) > 3]
            if not sents:
                continue
            if row["label"] == 1:
                s = rng.choice(sents)
                yield Pair(window(doc, s), s, ENTAILS, f"summedits:{domain}")
                continue
            original = set(_SENT.split(" ".join(str(row["original_summary"]).split())))
            edited = [s for s in sents if s not in original]
            if not edited:
                continue
            kinds = set(row.get("edit_types") or [])  # type: ignore[call-overload]
            label = NEITHER if kinds == {"hallucinated_fact_insertion"} else CONTRADICTS
            for s in edited[:1]:
                yield Pair(window(doc, s), s, label, f"summedits:{domain}")


def climate_fever(half: str) -> Iterator[Pair]:
    mapping = {"SUPPORTS": ENTAILS, "REFUTES": CONTRADICTS, "NOT_ENOUGH_INFO": NEITHER}
    for line in (NLI / "climate_fever" / "climate-fever.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        if split(claim_id("cf", row["claim"])) != half:
            continue
        for ev in row["evidences"]:
            yield Pair(ev["evidence"], row["claim"], mapping[ev["evidence_label"]], "climate_fever")


def attributionbench_train() -> Iterator[Pair]:
    path = DATA / "attributionbench" / "dev_all_subset_balanced.jsonl"
    for line in path.open(encoding="utf-8"):
        row = json.loads(line)
        if split(row["id"]) != "tune":
            continue
        text = "\n\n".join(r.strip() for r in row["references"] if r and r.strip())
        if not text:
            continue
        label = ENTAILS if row["attribution_label"] == "attributable" else NEITHER
        yield Pair(window(text, row["claim"]), row["claim"], label, "attributionbench")


def wice_train() -> Iterator[Pair]:
    mapping = {"supported": ENTAILS, "partially_supported": NEITHER, "not_supported": NEITHER}
    for line in (NLI / "wice_oracle_chunks" / "dev.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        if split(claim_id("wice", row["claim"])) != "tune":
            continue
        evidence = row["evidence"]
        text = " ".join(evidence) if isinstance(evidence, list) else str(evidence)
        yield Pair(window(text, row["claim"]), row["claim"], mapping[row["label"]], "wice")


def anli() -> Iterator[Pair]:
    mapping = {"e": ENTAILS, "c": CONTRADICTS, "n": NEITHER}
    for r in (1, 2, 3):
        path = NLI / "anli_dev" / f"ANLI_analysis_r{r}_dev.csv"
        with path.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                yield Pair(row["context"], row["statement"], mapping[row["gold_label"]], "anli")


def sick() -> Iterator[Pair]:
    mapping = {"ENTAILMENT": ENTAILS, "CONTRADICTION": CONTRADICTS, "NEUTRAL": NEITHER}
    with (NLI / "sick" / "SICK_train.txt").open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            yield Pair(
                row["sentence_A"], row["sentence_B"], mapping[row["entailment_judgment"]], "sick"
            )


WIDER = {
    "vitaminc_test": 9000,
    "mnli_dev_binary": 7000,
    "cad_snli": 5000,
    "fever_nli_binary": 3000,
    "contractnli": 2000,
    "breaking_nli": 1500,
    "citation_integrity": 1500,
    "fever_symmetric": 1000,
    "factcc_sample": 1000,
    "scifact_rationales": 771,
    "fever_adversarial": 764,
}
"""The sets of ``../shared/data/nli/`` `wider` samples, and how many pairs of each: those
whose licence allows commercial use (CC BY-SA, CC BY, Apache-2.0, MIT, BSD-3, MNLI's OANC),
none of them evaluated on here. ContractNLI gives only its 50 training NDAs (its dev split
is a row of the claim table). Left out: the non-commercial AVeriTeC and ANLI test, and the
sets whose licence is not stated (COVID-Fact, HealthVer, RTE, QAGS)."""
_NLI_LABELS = {"entailment": ENTAILS, "contradiction": CONTRADICTS, "neutral": NEITHER}


def wider(rng: random.Random, total: int = sum(WIDER.values())) -> list[Pair]:
    """``total`` pairs sampled from the `WIDER` sets in their proportions, each with its own
    label (a binary set's "not entailed" is `NEITHER`: it holds contradictions too), the
    evidence cut to its best window of the claim."""
    out: list[Pair] = []
    scale = total / sum(WIDER.values())
    for name, full in WIDER.items():
        count = round(full * scale)
        rows = []
        for line in (NLI / name / "pairs.jsonl").open(encoding="utf-8"):
            row = json.loads(line)
            if name == "contractnli" and not str(row["id"]).startswith("train50/"):
                continue
            rows.append(row)
        for row in rng.sample(rows, min(count, len(rows))):
            premise = window(str(row["evidence"]), str(row["claim"]))
            out.append(Pair(premise, str(row["claim"]), _NLI_LABELS[row["label"]], name))
    return out


# --- real sentences for the generated minimal edits --------------------------------------------


def real_documents(*, noncommercial: bool = True, calibrated: bool = False) -> Iterator[str]:
    """Real text nobody here wrote, none of it from a held-out half: QuoteSum's sources, the
    Enron sample, ANLI's contexts, Climate-FEVER's tune-half evidence, AttributionBench's
    tune-half references (``calibrated``: but the calibration slice's), and the project's own
    example documents."""
    for line in (DATA / "quotesum" / "dev_half.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        for k in range(1, 9):
            if row.get(f"source{k}"):
                yield str(row[f"source{k}"])
    for path in sorted((DATA / "enron_sample").glob("*.eml")):
        body = path.read_text(encoding="utf-8", errors="replace").split("\n\n", 1)[-1]
        yield body
    root = Path(__file__).resolve().parent.parent / "examples"
    for path in sorted([*root.glob("lending/*.md"), *root.glob("lending/*.txt")]):
        yield path.read_text(encoding="utf-8")
    if noncommercial:
        for p in anli():
            yield p.premise
    for p in attributionbench_train():
        if not (calibrated and calibration(p.hypothesis)):
            yield p.premise
    for line in (NLI / "climate_fever" / "climate-fever.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        if split(claim_id("cf", row["claim"])) == "tune":
            yield " ".join(ev["evidence"] for ev in row["evidences"])


def training_pairs(
    seed: int = 13,
    *,
    generated: int = 11000,
    clauses: int = 3000,
    noncommercial: bool = True,
    balanced: bool = False,
    natural_repeats: int = 1,
    calibrated: bool = False,
    wider_pairs: int = 0,
    replay: int = 0,
) -> list[Pair]:
    """All training pairs, shuffled with ``seed``; without the non-commercial sets (ANLI,
    SICK, and ANLI's contexts as sentences to edit) when ``noncommercial`` is False.

    ``balanced``: as many entailments as contradictions among the pairs that share nearly
    every word (the generated edits, the clauses, SummEdits), contradictions sampled down and
    verbatim sentences of their premises added as entailments. A model trained on the
    unbalanced mix alone learns "nearly the same words, some difference: contradicts" and
    calls true restatements contradicted; the second stage of `make train-support-model`
    trains on this mix to undo that.

    ``natural_repeats``: each pair of the sets whose claims are people's own sentences about
    real text (Factcheck-GPT, AttributionBench, WiCE, SummEdits: their tune halves) that many
    times, so the ~14,000 generated pairs do not outweigh them.

    ``calibrated``: the claims of the calibration slice (support_data.calibration: a third of
    each of those sets' tune halves) left out, so a head reading the model's probabilities can
    be fitted on them (docs/measurements-history.md, "A head over the model's probabilities").

    ``wider_pairs``: that many pairs `wider` samples from the larger public sets added (after
    the balancing, which reads only the near-copy families). ``replay``: only that many pairs
    of the mix above kept, sampled (0: all): for a second stage that starts from a trained
    model and must not forget what the first taught it."""
    rng = random.Random(seed)
    pairs: list[Pair] = []
    pairs += factcheck("tune")
    pairs += summedits_train(rng, calibrated=calibrated)
    pairs += [p for p in climate_fever("tune") if p.label != NEITHER or rng.random() < 0.35]
    pairs += attributionbench_train()
    pairs += wice_train()
    if noncommercial:
        pairs += anli()
        pairs += rng.sample(list(sick()), 1500)
    if calibrated:
        pairs = [p for p in pairs if p.origin not in NATURAL or not calibration(p.hypothesis)]
    docs = list(real_documents(noncommercial=noncommercial, calibrated=calibrated))
    rng.shuffle(docs)
    pairs += pairs_from_documents(docs, seed, "real", generated)
    pairs += clause_pairs(rng, clauses)
    if balanced:
        pairs = _balanced(pairs, rng)
    natural = [p for p in pairs if p.origin.split(":")[0] in NATURAL]
    pairs += natural * (natural_repeats - 1)
    if replay:
        pairs = rng.sample(pairs, min(replay, len(pairs)))
    if wider_pairs:
        pairs += wider(rng, wider_pairs)
    rng.shuffle(pairs)
    return pairs


NATURAL = frozenset({"factcheckgpt", "attributionbench", "wice", "summedits"})
"""The origins whose claims people wrote about real text (see ``natural_repeats``)."""


def _balanced(pairs: list[Pair], rng: random.Random) -> list[Pair]:
    near = ("edit", "clause", "summedits")
    kept: list[Pair] = []
    for family in near:
        own = [p for p in pairs if p.origin.split(":")[0] == family]
        entails = [p for p in own if p.label == ENTAILS]
        contradicts = [p for p in own if p.label == CONTRADICTS]
        others = [p for p in own if p.label not in (ENTAILS, CONTRADICTS)]
        copies = [
            Pair(p.premise, s, ENTAILS, f"{family}:verbatim")
            for p in contradicts
            for s in [rng.choice(_SENT.split(p.premise))]
            if len(s.split()) >= 5
        ]
        entails += copies[: max(0, len(contradicts) - len(entails)) // 2]
        contradicts = rng.sample(contradicts, min(len(contradicts), len(entails)))
        kept += entails + contradicts + others
    return [p for p in pairs if p.origin.split(":")[0] not in near] + kept


if __name__ == "__main__":
    from collections import Counter

    got = training_pairs()
    print(len(got), "pairs")
    by = Counter((p.origin.split(":")[0], p.label) for p in got)
    for (origin, label), n in sorted(by.items()):
        print(f"{origin:18} {label} {n}")
    edits = Counter(p.origin for p in got if p.origin.startswith("edit"))
    print(edits.most_common())
    rng = random.Random(1)
    for p in rng.sample([p for p in got if p.origin.startswith(("edit", "clause"))], 12):
        print(p.label, p.origin, "|", p.premise[:150], "||", p.hypothesis)
