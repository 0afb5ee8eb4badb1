"""The labelled claim-support pairs of ../shared/data (or $CITEPROOF_DATA), split once by a
fixed hash of each pair's id into a tuning half and a held-out half.

Only the tuning halves ever train the head or pick thresholds (eval/train_support.py); the
held-out halves are only measured (eval/support_eval.py). The split is a pure function of the
id, so it never changes between runs or machines.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from citeproof import Source

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("CITEPROOF_DATA", ROOT.parent / "shared" / "data"))


@dataclass(frozen=True)
class Pair:
    """One claim, the source it cites, and the human label."""

    dataset: str  # "attributionbench" or "wice"
    id: str
    claim: str
    source: Source
    label: str  # supported | partial | unsupported
    group: str  # AttributionBench's src_dataset; "wice"

    @property
    def half(self) -> str:
        return split(self.id)

    @property
    def supported(self) -> int:
        return 1 if self.label == "supported" else 0


def split(identifier: str) -> str:
    """``tune`` or ``held_out``, by the first byte of the id's sha256."""
    return "tune" if hashlib.sha256(identifier.encode()).digest()[0] % 2 == 0 else "held_out"


def calibration(claim: str) -> bool:
    """A third of every tune half, by the claim (a SummEdits row by its summary): the
    entailment model trained with ``--leave-out-calibration`` never saw these claims, so its
    probabilities on them are what it gives on new text, and a head that reads them can be
    fitted here (tried and not shipped: docs/measurements-history.md, "A head over the model's
    probabilities")."""
    return hashlib.sha256(("calibration\0" + claim).encode()).digest()[0] % 3 == 0


def attributionbench() -> Iterator[Pair]:
    path = DATA / "attributionbench" / "dev_all_subset_balanced.jsonl"
    for line in path.open(encoding="utf-8"):
        row = json.loads(line)
        text = "\n\n".join(r.strip() for r in row["references"] if r and r.strip()) or "(empty)"
        label = "supported" if row["attribution_label"] == "attributable" else "unsupported"
        yield Pair(
            "attributionbench",
            row["id"],
            row["claim"],
            Source(id="ref", kind="document", text=text),
            label,
            row["src_dataset"],
        )


def wice() -> Iterator[Pair]:
    path = DATA / "wice" / "claim" / "dev.jsonl"
    for line in path.open(encoding="utf-8"):
        row = json.loads(line)
        label = {"not_supported": "unsupported", "partially_supported": "partial"}.get(
            row["label"], row["label"]
        )
        identifier = "wice-" + hashlib.sha256(row["claim"].encode()).hexdigest()[:16]
        text = "\n\n".join(e.strip() or "." for e in row["evidence"]) or "(empty)"
        yield Pair(
            "wice",
            identifier,
            row["claim"],
            Source(id="page", kind="document", text=text),
            label,
            "wice",
        )


def all_pairs() -> list[Pair]:
    return [*attributionbench(), *wice()]


def macro_f1(gold: list[str], predicted: list[str]) -> float:
    """Macro-averaged F1 over the gold classes."""
    classes = sorted(set(gold))
    scores = []
    for c in classes:
        tp = sum(g == c and p == c for g, p in zip(gold, predicted, strict=True))
        fp = sum(g != c and p == c for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == c and p != c for g, p in zip(gold, predicted, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(scores) / len(scores) if scores else 0.0
