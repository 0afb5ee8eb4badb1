"""Claim support accuracy: ``make eval`` runs it after the quote table.

1. Every held-out set, judged as `citeproof.verify` judges a claim citing its source (the
   cited source is the pair's whole reference text, the passage located by the judge):
   AttributionBench dev and WiCE dev (their held-out halves: eval/support_data.py),
   Factcheck-GPT (the held-out half of its claims) and SummEdits (the sales-call domain,
   never trained on, whole; and the held-out halves of the five trained domains: summary
   level, consistent or not). None of these halves trained the entailment model
   (train/nli_data.py) or picked a threshold. Macro-F1 of `supported` vs not, balanced
   accuracy on SummEdits (its paper's metric); on WiCE also the 3-class figure.
2. Two judges: the lexical head (``Policy(support_judge="lexical")``, the scores the strict
   default judge reads before its rules: eval/claim_table.py measures the strict judge),
   and the entailment model (``support_judge="model"``); beside them the word-overlap
   baseline (content-word recall of the claim in the cited text plus "every number present",
   its threshold tuned on each set's tune half).
3. How far each figure can be trusted: a 95% bootstrap interval (`RESAMPLES` resamples,
   seeded) of each figure and of each judge's gain over the baseline on the same resamples
   (paired); a "false claims called supported" row over every held-out unsupported case.
4. QuoteSum-derived claims, through `citeproof.verify`: every quote of five words or more
   written as a plain sentence citing its source (no quotation marks) must be `supported`;
   the same claim with one number, one name, or its negation changed must be `contradicted`
   or `unsupported`.

Exits 1 when the QuoteSum table misses its target, or when a held-out target is missed and the
figure is below what `support_reached.json` records the default judge reached when those
targets were set aside (docs/claim-support.md, "How far this can go"): a missed target is
printed as missed either way, and a figure that falls fails the run.

Run: ``.venv/bin/python eval/support_eval.py``. About 5 minutes on 2 cores.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support_data import DATA, macro_f1
from support_sets import HELD_OUT_DOMAIN, Case, every

from citeproof import Policy, Source, verify
from citeproof.verifier.support import SupportJudge
from citeproof.verifier.support._text import STOP_WORDS, tokenize

Scorer = Callable[[list[bool], list[bool]], float]
SEED = 20261130
RESAMPLES = 2000
GAIN = 0.05
DATASETS = (
    "attributionbench",
    "wice",
    "factcheckgpt",
    f"summedits:{HELD_OUT_DOMAIN}",
    "summedits:other",
)
LABELS = {
    "attributionbench": "AttributionBench dev",
    "wice": "WiCE dev",
    "factcheckgpt": "Factcheck-GPT",
    f"summedits:{HELD_OUT_DOMAIN}": f"SummEdits {HELD_OUT_DOMAIN} (domain never trained on)",
    "summedits:other": "SummEdits, five trained domains",
}
TARGETS = {"attributionbench": 0.75, "wice": 0.72, f"summedits:{HELD_OUT_DOMAIN}": 0.80}
REACHED = Path(__file__).with_name("support_reached.json")
QUOTE = re.compile(r"\[\s*(\d+)\s+([^\[\]]*?)\s*\]")
AUX = re.compile(r"\b(is|are|was|were|has|have|had|can|will|would|could|should|does|did|do)\b")
NEGATED = re.compile(r"\s(not|never)\b")
WORD = re.compile(r"[A-Za-z]+|\d+(?:[.,]\d+)*")


# --- the baseline ---------------------------------------------------------------------


def overlap(claim: str, text: str) -> tuple[float, bool]:
    """Content-word recall of ``claim`` in ``text`` (case folded, stop words out), and
    whether every number of the claim is in the text."""
    words = {w.casefold() for w in WORD.findall(claim)} - STOP_WORDS
    have = {w.casefold() for w in WORD.findall(text)}
    numbers = {w for w in words if w[0].isdigit()}
    recall = len(words & have) / len(words) if words else 1.0
    return recall, numbers <= have


def tune_baseline(cases: list[Case], score: Scorer) -> float:
    """The recall threshold (with "every number present") that maximises ``score`` on
    ``cases`` (a tune half)."""
    cached = [(c, *overlap(c.claim, c.source.text)) for c in cases]
    gold = [c.supported for c in cases]
    best = (-1.0, 0.5)
    for t in [i / 50 for i in range(51)]:
        value = score(gold, [r >= t and n for _, r, n in cached])
        if value > best[0]:
            best = (value, t)
    return best[1]


def binary_f1(gold: list[bool], predicted: list[bool]) -> float:
    """Macro-F1 of supported vs not."""
    return macro_f1(gold, predicted)  # type: ignore[arg-type]


def balanced_accuracy(gold: list[bool], predicted: list[bool]) -> float:
    rates = []
    for cls in (True, False):
        picked = [p for g, p in zip(gold, predicted, strict=True) if g == cls]
        if picked:
            rates.append(sum(p == cls for p in picked) / len(picked))
    return sum(rates) / len(rates) if rates else 0.0


# --- the held-out sets ------------------------------------------------------------------


def judge_cases(cases: list[Case], policy: Policy) -> list[str]:
    """The verdict for each case, as `citeproof.verify` judges a claim citing its source
    (one judge per case: every case's source has the same id)."""
    verdicts = []
    shared = SupportJudge(policy)
    for case in cases:
        judge = SupportJudge(policy, encoder=shared.encoder, model=shared.model)
        verdicts.append(judge.judge(case.claim, case.source).verdict)
    return verdicts


def bootstrap(
    gold: list[bool], guesses: list[list[bool]], score: Scorer
) -> list[tuple[float, float]]:
    """The 95% interval of ``score`` for each list of ``guesses`` and, last, of the first
    minus the second, over `RESAMPLES` resamples of the cases (the same for all)."""
    rng = random.Random(SEED)
    samples: list[list[float]] = [[] for _ in range(len(guesses) + 1)]
    n = len(gold)
    for _ in range(RESAMPLES):
        picked = [rng.randrange(n) for _ in range(n)]
        g = [gold[i] for i in picked]
        scores = [score(g, [guess[i] for i in picked]) for guess in guesses]
        for k, value in enumerate(scores):
            samples[k].append(value)
        samples[-1].append(scores[0] - scores[1])
    intervals = []
    for values in samples:
        values.sort()
        intervals.append((values[int(0.025 * RESAMPLES)], values[int(0.975 * RESAMPLES) - 1]))
    return intervals


JUDGES = ("lexical", "model")
JUDGE_LABELS = {
    "lexical": "lexical head (the strict default's scores)",
    "model": "entailment model (support_judge=model)",
}


@dataclass(frozen=True)
class Figure:
    """One judge on one set: its figure, its 95% interval, and its gain over the baseline
    with the paired interval of that gain."""

    value: float
    ci: tuple[float, float]
    gain: float
    gain_ci: tuple[float, float]


@dataclass(frozen=True)
class Row:
    dataset: str
    n: int
    metric: str
    judges: dict[str, Figure]
    baseline: float
    baseline_ci: tuple[float, float]
    target: float | None

    def met(self, judge: str) -> bool:
        figure = self.judges[judge]
        gain_ok = figure.gain >= GAIN and figure.gain_ci[0] > 0
        return gain_ok and (self.target is None or figure.value >= self.target)


def metric_of(dataset: str) -> tuple[str, Scorer]:
    if dataset.startswith("summedits"):
        return "balanced accuracy", balanced_accuracy
    return "macro-F1", binary_f1


def held_out_table(policy: Policy) -> tuple[list[Row], dict[str, object]]:
    """Every held-out set: the lexical head (the default judge), the entailment model and
    the word-overlap baseline, each set's baseline threshold tuned on its tune half."""
    tune, held = every("tune"), every("held_out")
    verdicts: dict[str, dict[str, str]] = {}
    seconds: dict[str, float] = {}
    for judge in JUDGES:
        started = time.monotonic()
        judged = judge_cases(held, dataclasses.replace(policy, support_judge=judge))
        seconds[judge] = time.monotonic() - started
        verdicts[judge] = dict(zip((c.id for c in held), judged, strict=True))
    rows = []
    false_supported = dict.fromkeys((*JUDGES, "baseline"), 0)
    false_n = 0
    wice3: dict[str, float] = {}
    for dataset in DATASETS:
        cases = [c for c in held if c.dataset == dataset]
        name, score = metric_of(dataset)
        family = dataset.split(":")[0]
        tuned_on = [c for c in tune if c.dataset.split(":")[0] == family]
        threshold = tune_baseline(tuned_on, score)
        gold = [c.supported for c in cases]
        base = [
            (lambda r, n: r >= threshold and n)(*overlap(c.claim, c.source.text)) for c in cases
        ]
        figures = {}
        base_ci = (0.0, 0.0)
        for judge in JUDGES:
            guess = [verdicts[judge][c.id] == "supported" for c in cases]
            ci, base_ci, gain_ci = bootstrap(gold, [guess, base], score)
            value = score(gold, guess)
            figures[judge] = Figure(value, ci, value - score(gold, base), gain_ci)
            false_supported[judge] += sum(
                g for c, g in zip(cases, guess, strict=True) if not c.supported
            )
        false_supported["baseline"] += sum(
            b for c, b in zip(cases, base, strict=True) if not c.supported
        )
        false_n += sum(not c.supported for c in cases)
        rows.append(
            Row(
                dataset, len(cases), name, figures, score(gold, base), base_ci, TARGETS.get(dataset)
            )
        )
        if dataset == "wice":
            wice3 = {
                j: macro_f1([c.label for c in cases], [verdicts[j][c.id] for c in cases])
                for j in JUDGES
            }
    extra = {
        "false_supported": false_supported,
        "false_n": false_n,
        "wice_3class": wice3,
        "seconds": seconds,
        "cases": len(held),
    }
    return rows, extra


def reached() -> dict[str, Any]:
    """What the default judge reached when its held-out targets were set aside."""
    recorded: dict[str, Any] = json.loads(REACHED.read_text(encoding="utf-8"))
    return recorded


def standing(row: Row, floor: dict[str, float] | None) -> str:
    """``met``; ``missed`` (no lower than ``floor``, the figure and gain recorded as reached);
    or ``fell`` (missed, and below the floor or with none recorded). Compared at the three
    decimals the table prints."""
    if row.met(JUDGES[0]):
        return "met"
    figure = row.judges[JUDGES[0]]
    if floor is not None and (
        round(figure.value, 3) >= floor["value"] and round(figure.gain, 3) >= floor["gain"]
    ):
        return "missed"
    return "fell"


def print_held_out(rows: list[Row], extra: dict[str, Any]) -> bool:
    """The table, one pair of columns per judge (its figure; its gain over the baseline),
    then each target's standing; False when a figure of the default judge fell (below what
    `support_reached.json` records, or short of a target with nothing recorded)."""
    heads = " | ".join(f"{JUDGE_LABELS[j]} | its gain (95% interval)" for j in JUDGES)
    print(f"| set (held out) | n | metric | {heads} | word-overlap baseline | target |")
    print("|---|---|---|" + "---|---|" * len(JUDGES) + "---|---|")
    ok = True
    for r in rows:
        target = f">= {r.target}" if r.target is not None else ""
        target += f"{', ' if target else ''}gain >= {GAIN}"
        cells = " | ".join(
            f"{f.value:.3f} [{f.ci[0]:.3f}, {f.ci[1]:.3f}] | {f.gain:+.3f} "
            f"[{f.gain_ci[0]:+.3f}, {f.gain_ci[1]:+.3f}]"
            for f in (r.judges[j] for j in JUDGES)
        )
        print(
            f"| {LABELS[r.dataset]} | {r.n} | {r.metric} | {cells} | {r.baseline:.3f} "
            f"[{r.baseline_ci[0]:.3f}, {r.baseline_ci[1]:.3f}] | {target} |"
        )
    false, n = extra["false_supported"], extra["false_n"]
    cells = " | ".join(
        f"{false[j] / n:.1%} | {(false[j] - false['baseline']) / n:+.1%}" for j in JUDGES
    )
    print(
        f"| false claims called supported (all held-out sets) | {n} | share, lower is "
        f"better | {cells} | {false['baseline'] / n:.1%} | |"
    )
    wice3 = ", ".join(f"{JUDGE_LABELS[j]} {v:.3f}" for j, v in extra["wice_3class"].items())
    print(f"WiCE 3-class macro-F1 (supported / partial / not): {wice3}")
    timing = ", ".join(f"{JUDGE_LABELS[j]} {s:.0f} s" for j, s in extra["seconds"].items())
    print(f"{extra['cases']} held-out cases judged: {timing}")
    print()
    recorded = reached()
    print(f"targets of the default judge; what it reached when they were set aside: {REACHED.name}")
    for r in rows:
        figure, floor = r.judges[JUDGES[0]], recorded["held_out"].get(r.dataset)
        state = standing(r, floor)
        ok = ok and state != "fell"
        aim = f"at least {r.target}, " if r.target is not None else ""
        was = f"; reached {floor['value']:.3f}, gain {floor['gain']:+.3f}" if floor else ""
        print(
            f"  {LABELS[r.dataset]}: {state.upper()} ({figure.value:.3f}, gain {figure.gain:+.3f} "
            f"[{figure.gain_ci[0]:+.3f}, {figure.gain_ci[1]:+.3f}]; target {aim}gain at least "
            f"{GAIN} with its interval above zero{was})"
        )
    share, ceiling = false[JUDGES[0]] / n, recorded["false_supported"]
    held = round(share, 3) <= ceiling
    ok = ok and held
    print(
        f"  false claims called supported: {share:.1%} ({'HELD' if held else 'FELL'}: "
        f"at most {ceiling:.1%} recorded)"
    )
    return ok


# --- QuoteSum-derived claims ------------------------------------------------------------


def quotesum_claims() -> list[tuple[str, int, dict[int, str]]]:
    rows = []
    path = DATA / "quotesum" / "dev_half.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        sources = {
            k: f"{row[f'title{k}']}\n{row[f'source{k}']}"
            for k in range(1, 9)
            if row.get(f"source{k}")
        }
        for found in QUOTE.finditer(row["summary"]):
            k, text = int(found.group(1)), found.group(2).strip()
            # Text with quotation marks would be checked as a quote, not as a claim.
            plain = not any(mark in text for mark in '"“”')
            if k in sources and len(text.split()) >= 5 and text in sources[k] and plain:
                rows.append((text, k, sources))
    return rows


def change_number(text: str, source: str, rng: random.Random) -> str | None:
    numbers = [t for t in tokenize(text)[1:] if t.kind in ("number", "date") and t.value]
    digits = [t for t in numbers if re.search(r"\d", t.text)]
    if not digits:
        return None
    token = rng.choice(digits)
    found = re.search(r"\d+", token.text)
    assert found is not None
    new_digits = str(int(found.group(0)) + rng.choice((1, 2, 3)))
    new = token.text[: found.start()] + new_digits + token.text[found.end() :]
    if re.search(r"(?<!\d)" + re.escape(new) + r"(?!\d)", source):
        return None
    return text[: token.span[0]] + new + text[token.span[1] :]


def change_name(text: str, source: str, pool: list[str], rng: random.Random) -> str | None:
    names = [t for t in tokenize(text)[1:] if t.kind == "name" and t.text[:1].isupper()]
    if not names:
        return None
    token = rng.choice(names)
    folded = source.casefold()
    choices = [n for n in pool if n.casefold() not in folded]
    if not choices:
        return None
    return text[: token.span[0]] + rng.choice(choices) + text[token.span[1] :]


def negate(text: str) -> str | None:
    found = NEGATED.search(text)
    if found:
        return text[: found.start()] + text[found.end() :]
    aux = AUX.search(text, 1)
    if aux is None:
        return None
    return text[: aux.end()] + " not" + text[aux.end() :]


def quotesum_table() -> list[dict[str, object]]:
    claims = quotesum_claims()
    rng = random.Random(SEED)
    pool = sorted(
        {
            w
            for _, _, sources in claims
            for s in sources.values()
            for w in re.findall(r"(?<=[a-z,] )[A-Z][a-z]{3,}", s)
        }
    )
    scenarios: dict[str, list[str]] = {"original": [], "number": [], "name": [], "negation": []}
    failures: dict[str, list[str]] = {k: [] for k in scenarios}
    for text, k, sources in claims:
        docs = [Source(id=f"S{n}", kind="document", text=t) for n, t in sources.items()]
        variants = {
            "original": text,
            "number": change_number(text, sources[k], rng),
            "name": change_name(text, sources[k], pool, rng),
            "negation": negate(text),
        }
        if len(verify(f"{text.rstrip('.')} [S{k}].", docs).claims) != 1:
            continue  # a quote of several sentences: only its last one would carry the marker
        for scenario, claim in variants.items():
            if claim is None:
                continue
            answer = verify(f"{claim.rstrip('.')} [S{k}].", docs)
            claim_record = next(c for c in answer.claims if c.support)
            verdict = claim_record.verdict
            ok = (
                verdict == "supported"
                if scenario == "original"
                else verdict
                in (
                    "contradicted",
                    "unsupported",
                )
            )
            scenarios[scenario].append("ok" if ok else verdict)
            if not ok and len(failures[scenario]) < 5:
                failures[scenario].append(f"{verdict}: {claim[:100]}")
    table = []
    for scenario, outcomes in scenarios.items():
        passed = outcomes.count("ok")
        table.append(
            {
                "scenario": scenario,
                "n": len(outcomes),
                "rate": passed / len(outcomes) if outcomes else 0.0,
                "failures": failures[scenario],
            }
        )
    return table


def main() -> int:
    policy = Policy()
    print(f"claim support: held-out halves of {DATA}")
    rows, extra = held_out_table(policy)
    print()
    ok = print_held_out(rows, extra)
    print()
    started = time.monotonic()
    qs = quotesum_table()
    print(f"QuoteSum-derived claims (through citeproof.verify, {time.monotonic() - started:.0f} s)")
    print("| claim | expected | measured | n | target |")
    print("|---|---|---|---|---|")
    expected = {
        "original": "supported",
        "number": "contradicted / unsupported",
        "name": "contradicted / unsupported",
        "negation": "contradicted / unsupported",
    }
    for row in qs:
        print(
            f"| {row['scenario']} | {expected[str(row['scenario'])]} | "
            f"{float(row['rate']):.2%} | {row['n']} | 98% |"  # type: ignore[arg-type]
        )
        if float(row["rate"]) < 0.98:  # type: ignore[arg-type]
            ok = False
    print()
    print(
        "claim support: "
        + ("no figure fell below its target or what was reached" if ok else "a figure FELL")
    )
    if "-v" in sys.argv:
        for row in qs:
            for failure in row["failures"]:  # type: ignore[attr-defined]
                print(f"  {row['scenario']}: {failure}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
