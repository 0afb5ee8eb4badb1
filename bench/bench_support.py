"""Claim support speed: a 10-claim answer over 50 KB of sources through `citeproof.verify`.

Run: ``.venv/bin/python bench/bench_support.py``. Sources: five documents of ~10 KB, each
made of distinct QuoteSum source paragraphs (``$CITEPROOF_DATA/quotesum/dev_half.jsonl``,
default ``../shared/data`` beside the checkout). Each answer: ten claims, each a QuoteSum
quote of five words or more written as a plain sentence (no quotation marks) citing its
document, every other one with a number or word changed. Five different answers, each timed
with the entailment model's cache emptied first (no passage seen before), median reported.

First the default, strict judge (the head, then the parse and the confirmation rules, then the
entailment model on the words the lexicon missed), with its parse cache emptied too.
Beside it: the same answers judged by the lexical head (``support_judge="lexical"``, with and
without the MiniLM encoder, and overruled by the model: ``"lexical+model"``), the word-overlap
baseline (content-word recall + every number present) over the cited document, which is what
the eval's baseline column runs, and the model's own cost per (passage, claim) pair, measured
on the pairs the judge sent it.
"""

from __future__ import annotations

import dataclasses
import json
import re
import statistics
import sys
import time
from pathlib import Path

from citeproof import Policy, Source, verify
from citeproof.verifier.support._learned import Encoder
from citeproof.verifier.support._nli import NliModel
from citeproof.verifier.support.confirm._parse import _CACHE as parsed
from citeproof.verifier.support.confirm._parse import parse
from citeproof.verifier.support.lexicon import wordnet

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "eval"))
from support_data import DATA  # noqa: E402
from support_eval import overlap  # noqa: E402

QUOTE = re.compile(r"\[\s*(\d+)\s+([^\[\]]*?)\s*\]")
DOCUMENTS = 5
DOCUMENT_CHARS = 10_000
ANSWERS = 5
CLAIMS = 10


def data_path() -> Path:
    return DATA / "quotesum" / "dev_half.jsonl"


def corpus() -> tuple[list[Source], list[list[tuple[str, str]]]]:
    """Five ~10 KB documents and, per answer, ten (claim, document id) pairs."""
    texts: list[list[str]] = [[] for _ in range(DOCUMENTS)]
    sizes = [0] * DOCUMENTS
    quotes: list[tuple[str, int]] = []
    seen: set[str] = set()
    for line in data_path().read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for found in QUOTE.finditer(row["summary"]):
            k, quote = int(found.group(1)), found.group(2).strip()
            paragraph = row.get(f"source{k}", "").strip()
            if len(quote.split()) < 5 or quote not in paragraph:
                continue
            if re.search(r"[.!?]\s|[\"“”]", quote):
                continue  # one plain sentence each, so every claim carries its marker
            target = sizes.index(min(sizes))
            if sizes[target] >= DOCUMENT_CHARS:
                break
            if paragraph not in seen:
                seen.add(paragraph)
                texts[target].append(paragraph)
                sizes[target] += len(paragraph) + 2
            quotes.append((quote, next(i for i, t in enumerate(texts) if paragraph in t)))
    documents = [
        Source(id=f"D{i + 1}", kind="document", text="\n\n".join(t)) for i, t in enumerate(texts)
    ]
    answers = []
    for a in range(ANSWERS):
        chosen = quotes[a * CLAIMS : (a + 1) * CLAIMS]
        claims = []
        for n, (quote, doc) in enumerate(chosen):
            text = quote if n % 2 == 0 else re.sub(r"\b(\w+)$", "elsewhere", quote, count=1)
            claims.append((text[0].upper() + text[1:], f"D{doc + 1}"))
        answers.append(claims)
    return documents, answers


def main() -> None:
    documents, answers = corpus()
    total = sum(len(d.text) for d in documents)
    print(f"{len(documents)} documents, {total / 1000:.1f} KB; {len(answers)} answers")
    started = time.perf_counter()
    model = NliModel.get()
    print(
        f"entailment model load and check (once per process): {time.perf_counter() - started:.2f} s"
    )
    started = time.perf_counter()
    encoder = Encoder.get()
    print(f"encoder load (once per process): {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    wordnet()
    parse("The parser loads once.")
    print(f"parser and lexicon load (once per process): {time.perf_counter() - started:.2f} s")
    texts = [" ".join(f"{c.rstrip('.')} [{d}]." for c, d in claims) for claims in answers]
    lexical = Policy(support_judge="lexical")
    verify(texts[0], documents, policy=dataclasses.replace(lexical, support_embeddings="off"))
    rows = []
    pairs_sent: list[tuple[str, str]] = []
    for name, policy in (
        ("verify, the strict judge (the default: parse, rules, model)", Policy()),
        ("verify, claim support by the entailment model", Policy(support_judge="model")),
        ("verify, lexical head features+minilm (the strict judge's scores)", lexical),
        (
            "verify, the lexical head overruled by the entailment model",
            Policy(support_judge="lexical+model"),
        ),
        (
            "verify, lexical head features only",
            dataclasses.replace(lexical, support_embeddings="off"),
        ),
    ):
        timings = []
        judged = []
        for text in texts:
            if encoder is not None:
                encoder._cache.clear()  # every passage new: the honest, cold case
            if model is not None:
                model._cache.clear()
            parsed.clear()  # every claim and passage parsed anew
            started = time.perf_counter()
            answer = verify(text, documents, policy=policy)
            timings.append(time.perf_counter() - started)
            judged.append(sum(1 for c in answer.claims if c.support))
        if model is not None and policy.support_judge == "model":
            pairs_sent = list(model._cache)
        rows.append((name, statistics.median(timings), max(timings)))
        print(f"  {name}: claims judged per answer {judged}")
    by_id = {d.id: d.text for d in documents}
    timings = []
    for claims in answers:
        started = time.perf_counter()
        for claim, doc in claims:
            overlap(claim, by_id[doc])
        timings.append(time.perf_counter() - started)
    rows.append(("word-overlap baseline (claims only)", statistics.median(timings), max(timings)))
    if model is not None and pairs_sent:
        model._cache.clear()
        started = time.perf_counter()
        model.score(pairs_sent)
        seconds = time.perf_counter() - started
        per = seconds / len(pairs_sent)
        print(
            f"  entailment model: {len(pairs_sent)} pairs (the last answer's) in "
            f"{seconds * 1000:.0f} ms, {per * 1000:.2f} ms a pair"
        )
    print()
    print("| what | median per answer | slowest | target |")
    print("|---|---|---|---|")
    for name, median, worst in rows:
        target = "<= 500 ms" if "strict" in name and "default" in name else ""
        print(f"| {name} | {median * 1000:.0f} ms | {worst * 1000:.0f} ms | {target} |")


if __name__ == "__main__":
    main()
