"""The held-out claim-support sets beside AttributionBench and WiCE: Factcheck-GPT,
SummEdits and ContractNLI, each as (claim, cited source, supported?) cases.

The halves are the ones the entailment model's training uses (train/nli_data.py): Factcheck-GPT
split by the claim, SummEdits by its row id, and the SummEdits domain `HELD_OUT_DOMAIN`
(sales calls) never trained on at all. Only the halves and the domain the model never saw are
returned here; ``tune`` gives the other halves, for picking thresholds (`every`).
ContractNLI (NDAs), never trained or tuned on, is apart (`contractnli`): the claim table reads
its dev split; its test split is kept for later.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from support_data import DATA, Pair, all_pairs, split

from citeproof import Source

NLI = DATA / "nli"
HELD_OUT_DOMAIN = "sales_call"
SUMMEDITS_DOMAINS = ("news", "podcast", "qmsumm", "sales_call", "samsum", "scitldr")


@dataclass(frozen=True)
class Case:
    """One claim, the source it cites, and whether a person judged it supported."""

    dataset: str
    id: str
    claim: str
    source: Source
    supported: bool
    label: str  # the set's own label, for the 3-class WiCE figure
    group: str


def _claim_id(prefix: str, claim: str) -> str:
    return f"{prefix}-" + hashlib.sha256(claim.encode()).hexdigest()[:16]


def factcheck(half: str) -> list[Case]:
    path = NLI / "factcheckgpt_stance" / "subtask3_claim_evidence_stance.jsonl"
    out = []
    for n, line in enumerate(path.open(encoding="utf-8")):
        row = json.loads(line)
        if split(_claim_id("fc", row["claim"])) != half:
            continue
        out.append(
            Case(
                "factcheckgpt",
                f"fc-{n}",
                row["claim"],
                Source(id="evidence", kind="document", text=row["evidence"] or "(empty)"),
                row["stance"] == "completely-support",
                row["stance"],
                row["stance"],
            )
        )
    return out


def summedits(half: str) -> list[Case]:
    """``held_out``: the left-out domain whole, and the other domains' held-out halves;
    ``tune``: the trained domains' tune halves."""
    out = []
    for domain in SUMMEDITS_DOMAINS:
        path = NLI / "summedits" / f"summedits_{domain}.json"
        for row in json.loads(path.read_text(encoding="utf-8")):
            left_out = domain == HELD_OUT_DOMAIN
            row_half = split(f"se-{row['id']}")
            if half == "held_out" and not (left_out or row_half == "held_out"):
                continue
            if half == "tune" and (left_out or row_half != "tune"):
                continue
            dataset = f"summedits:{HELD_OUT_DOMAIN}" if left_out else "summedits:other"
            out.append(
                Case(
                    dataset,
                    f"se-{row['id']}",
                    row["summary"],
                    Source(id="doc", kind="document", text=row["doc"]),
                    row["label"] == 1,
                    "supported" if row["label"] == 1 else "unsupported",
                    domain,
                )
            )
    return out


def contractnli(half: str) -> list[Case]:
    """ContractNLI's hypotheses against their NDAs' evidence spans (or, for NotMentioned, the
    three spans of the NDA nearest the hypothesis): ``held_out`` its dev split, ``tune`` its
    50 training NDAs."""
    split_name = {"held_out": "dev", "tune": "train50"}[half]
    out = []
    path = NLI / "contractnli" / "pairs.jsonl"
    for line in path.open(encoding="utf-8"):
        row = json.loads(line)
        if row["id"].split("/", 1)[0] != split_name:
            continue
        out.append(
            Case(
                "contractnli",
                row["id"],
                row["claim"],
                Source(id="nda", kind="document", text=row["evidence"]),
                row["label"] == "entailment",
                row["label"],
                row["orig_label"],
            )
        )
    return out


def labelled(half: str) -> list[Case]:
    """AttributionBench and WiCE (their halves: support_data), as cases."""
    return [_case(p) for p in all_pairs() if p.half == half]


def _case(pair: Pair) -> Case:
    return Case(
        pair.dataset, pair.id, pair.claim, pair.source, pair.supported == 1, pair.label, pair.group
    )


def every(half: str) -> list[Case]:
    return [*labelled(half), *factcheck(half), *summedits(half)]
