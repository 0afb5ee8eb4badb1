"""Claim support accuracy (issue 10): ``make eval`` runs it after the quote table.

1. AttributionBench dev and WiCE dev, each split by a fixed hash of the pair id into a
   tuning half (the head was trained and the thresholds picked on it: eval/train_support.py)
   and a held-out half (only measured here). Macro-F1 of `supported` vs not (binary) on both;
   on WiCE also the 3-class figure (supported / partial / not supported). The judge runs as
   `citeproof.verify` runs it: the cited source is the pair's whole reference text (WiCE: the
   whole page, one evidence sentence per paragraph), the passage located by the judge.
2. QuoteSum-derived claims, through `citeproof.verify`: every quote of five words or more
   written as a plain sentence citing its source (no quotation marks) must be `supported`;
   the same claim with one number, one name, or its negation changed must be `contradicted`
   or `unsupported` (the changed token is interior; cases whose change the source happens to
   hold are skipped, and so are quotes of several sentences, where the marker would cite only
   the last).
3. Beside it, the word-overlap baseline: content-word recall of the claim in the cited text
   plus "every number present", its recall threshold (and WiCE's partial threshold) tuned on
   the same tuning halves.
4. How far each held-out figure can be trusted: a 95% bootstrap interval of the macro-F1
   (`RESAMPLES` resamples of the held-out pairs, seeded), and of citeproof's gain over the
   baseline on the same resamples (paired). On 161 WiCE pairs the interval is about ±0.07.

Run: ``.venv/bin/python eval/support_eval.py`` (about 5 minutes on 2 shared cores).
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Callable

from support_data import DATA, Pair, all_pairs, macro_f1

from citeproof import Policy, Source, verify
from citeproof.verifier.support.judge import SupportJudge
from citeproof.verifier.support.text import STOP_WORDS, tokenize

SEED = 20261130
RESAMPLES = 2000
TARGETS = {"attributionbench": 0.75, "wice": 0.72}
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


def baseline_verdict(claim: str, text: str, t_support: float, t_partial: float) -> str:
    recall, numbers = overlap(claim, text)
    if recall >= t_support and numbers:
        return "supported"
    return "partial" if recall >= t_partial else "unsupported"


def tune_baseline(pairs: list[Pair]) -> tuple[float, float]:
    """The thresholds maximising mean macro-F1 over the tuning halves (binary AB and WiCE,
    plus half the WiCE 3-class figure, as for the head)."""
    tune = [p for p in pairs if p.half == "tune"]
    cached = [(p, *overlap(p.claim, p.source.text)) for p in tune]
    best = (-1.0, 0.5, 0.3)
    grid = [i / 50 for i in range(51)]
    for ts in grid:
        for tp in [g for g in grid if g <= ts]:
            total = 0.0
            for dataset in ("attributionbench", "wice"):
                sub = [(p, r, n) for p, r, n in cached if p.dataset == dataset]
                predicted = [
                    "supported" if r >= ts and n else "partial" if r >= tp else "unsupported"
                    for _, r, n in sub
                ]
                gold = [p.label for p, _, _ in sub]
                total += binary(gold, predicted)
                if dataset == "wice":
                    total += 0.5 * macro_f1(gold, predicted)
            if total > best[0]:
                best = (total, ts, tp)
    return best[1], best[2]


def binary(gold: list[str], predicted: list[str]) -> float:
    return macro_f1([g == "supported" for g in gold], [p == "supported" for p in predicted])


# --- AttributionBench and WiCE ----------------------------------------------------------


def judge_pairs(pairs: list[Pair], policy: Policy) -> list[str]:
    judge = SupportJudge(policy)
    verdicts = []
    for pair in pairs:
        judge = SupportJudge(policy, encoder=judge.encoder)
        support = judge.judge(pair.claim, pair.source)
        verdicts.append(support.verdict if support.verdict != "contradicted" else "unsupported")
    return verdicts


def bootstrap(
    gold: list[str], guesses: list[list[str]], score: Callable[[list[str], list[str]], float]
) -> list[tuple[float, float]]:
    """The 95% interval of ``score`` for each list of ``guesses`` and, last, of the first
    minus the second, over `RESAMPLES` resamples of the pairs (the same resamples for all)."""
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


def interval_table(pairs: list[Pair], predicted: dict[str, dict[str, str]]) -> None:
    """Held-out macro-F1 with its 95% interval, and citeproof's paired gain over the baseline."""
    ours, base = "citeproof (features+minilm)", "word-overlap baseline"
    print("| dataset | held-out n | citeproof | word-overlap baseline | gain (95% interval) |")
    print("|---|---|---|---|---|")
    for dataset in ("attributionbench", "wice"):
        sub = [p for p in pairs if p.dataset == dataset and p.half == "held_out"]
        gold = [p.label for p in sub]
        guesses = [[predicted[m][p.id] for p in sub] for m in (ours, base)]
        (lo1, hi1), (lo2, hi2), (lo, hi) = bootstrap(gold, guesses, binary)
        f1, f2 = binary(gold, guesses[0]), binary(gold, guesses[1])
        print(
            f"| {dataset} | {len(sub)} | {f1:.3f} [{lo1:.3f}, {hi1:.3f}] | "
            f"{f2:.3f} [{lo2:.3f}, {hi2:.3f}] | {f1 - f2:+.3f} [{lo:+.3f}, {hi:+.3f}] |"
        )


def labelled_table(
    pairs: list[Pair],
) -> tuple[list[dict[str, object]], dict[str, dict[str, str]]]:
    t_support, t_partial = tune_baseline(pairs)
    print(
        f"baseline thresholds (tuned on the tuning halves): recall >= {t_support} and every "
        f"number present -> supported; WiCE partial at recall >= {t_partial}"
    )
    results: list[dict[str, object]] = []
    every: dict[str, dict[str, str]] = {}
    methods: dict[str, Callable[[list[Pair]], list[str]]] = {
        "citeproof (features+minilm)": lambda ps: judge_pairs(ps, Policy()),
        "citeproof (features only)": lambda ps: judge_pairs(ps, Policy(support_embeddings="off")),
        "word-overlap baseline": lambda ps: [
            baseline_verdict(p.claim, p.source.text, t_support, t_partial) for p in ps
        ],
    }
    for name, run in methods.items():
        started = time.monotonic()
        predicted = dict(zip([p.id for p in pairs], run(pairs), strict=True))
        every[name] = predicted
        seconds = time.monotonic() - started
        for dataset in ("attributionbench", "wice"):
            for half in ("tune", "held_out"):
                sub = [p for p in pairs if p.dataset == dataset and p.half == half]
                gold = [p.label for p in sub]
                guess = [predicted[p.id] for p in sub]
                row: dict[str, object] = {
                    "method": name,
                    "dataset": dataset,
                    "half": half,
                    "n": len(sub),
                    "macro_f1": binary(gold, guess),
                }
                if dataset == "wice":
                    row["macro_f1_3class"] = macro_f1(gold, guess)
                else:
                    row["by_source"] = {
                        g: round(
                            binary(
                                [p.label for p in sub if p.group == g],
                                [predicted[p.id] for p in sub if p.group == g],
                            ),
                            3,
                        )
                        for g in sorted({p.group for p in sub})
                    }
                results.append(row)
        print(f"  {name}: {seconds:.0f} s for {len(pairs)} pairs", flush=True)
    return results, every


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
    pairs = all_pairs()
    print(f"claim support: {len(pairs)} labelled pairs from {DATA}")
    labelled, predicted = labelled_table(pairs)
    print()
    print("| method | dataset | half | n | macro-F1 (supported vs not) | 3-class | target |")
    print("|---|---|---|---|---|---|---|")
    ok = True
    for row in labelled:
        three = f"{row['macro_f1_3class']:.3f}" if "macro_f1_3class" in row else ""
        target = TARGETS[str(row["dataset"])]
        print(
            f"| {row['method']} | {row['dataset']} | {row['half']} | {row['n']} | "
            f"{row['macro_f1']:.3f} | {three} | {target} |"
        )
    for row in labelled:
        if "by_source" in row and row["half"] == "held_out":
            print(f"  {row['method']}, AttributionBench held out, by source: {row['by_source']}")
    ours = {
        (r["dataset"], r["half"]): r["macro_f1"]
        for r in labelled
        if r["method"] == "citeproof (features+minilm)"
    }
    base = {
        (r["dataset"], r["half"]): r["macro_f1"]
        for r in labelled
        if r["method"] == "word-overlap baseline"
    }
    for key, value in ours.items():
        if key[1] == "held_out" and (value <= base[key] or value < TARGETS[key[0]]):  # type: ignore[operator]
            ok = False
    print()
    interval_table(pairs, predicted)
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
    if "-v" in sys.argv:
        for row in qs:
            for failure in row["failures"]:  # type: ignore[attr-defined]
                print(f"  {row['scenario']}: {failure}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
