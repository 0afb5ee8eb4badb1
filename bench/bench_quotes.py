"""Quote matching speed and recall: citeproof vs rapidfuzz vs a plain `str.find` floor.

Run: ``.venv/bin/python bench/bench_quotes.py`` (reads ``$CITEPROOF_DATA/quotesum/dev_half.jsonl``,
default ``../shared/data`` beside the checkout). See bench/README.md.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

from citeproof.model import Source, Span
from citeproof.verifier.match import find_quote, normalise, prepare

SEED = 20240617
SIZES_MB = (1, 10, 40)
RAPIDFUZZ_MAX_MB = 10  # a full rapidfuzz scan per quote is too slow beyond this
N_QUOTES = 50
KINDS = ["exact"] * 15 + ["curly", "changed", "dropped", "typo", "ellipsis"] * 7
FILLERS = ["several", "notable", "certain", "large", "early", "formal"]


@dataclass(frozen=True)
class Planted:
    text: str  # the quote as a user would give it
    kind: str
    paragraph: int  # index into the paragraph list
    span: Span  # span of the original wording inside that paragraph
    check: Span  # what recall checks: the span, or for an elided quote its first segment


def data_path() -> Path:
    default = Path(__file__).resolve().parents[2] / "shared" / "data"
    root = Path(os.environ.get("CITEPROOF_DATA", default))
    return root / "quotesum" / "dev_half.jsonl"


def load() -> tuple[list[str], list[tuple[str, int, Span]]]:
    """Distinct source paragraphs, and summary quotes located in them."""
    rows = [json.loads(line) for line in data_path().read_text().splitlines() if line]
    paragraphs: list[str] = []
    seen: dict[str, int] = {}
    quotes: list[tuple[str, int, Span]] = []
    for row in rows:
        for n in range(1, 9):
            text = row[f"source{n}"].strip()
            if text and text not in seen:
                seen[text] = len(paragraphs)
                paragraphs.append(text)
        for n, quote in re.findall(r"\[ (\d) (.+?) \]", row["summary"]):
            text = row[f"source{n}"].strip()
            if text and len(quote.split()) >= 3:
                located = locate(quote, text)
                if located is not None:
                    quotes.append((quote, seen[text], located))
    unique = {(q, p): (q, p, s) for q, p, s in quotes}
    return paragraphs, list(unique.values())


def locate(quote: str, paragraph: str) -> Span | None:
    norm = normalise(paragraph)
    at = norm.text.find(normalise(quote).text.strip(" \"'"))
    if at < 0:
        return None
    return norm.original_span(at, at + len(normalise(quote).text.strip(" \"'")))


def perturb_quote(quote: str, kind: str, rng: random.Random) -> str:
    words = quote.split()
    middle = list(range(1, len(words) - 1))
    if kind == "curly":
        return "\u201c" + quote.replace("'", "\u2019").replace('"', "\u201d") + "\u201d"
    if kind == "changed":
        words[rng.choice(middle)] = rng.choice(FILLERS)
    elif kind == "dropped":
        del words[rng.choice(middle)]
    elif kind == "typo":
        long_words = [i for i in range(len(words)) if len(words[i]) >= 5] or [0]
        i = rng.choice(long_words)
        w = words[i]
        j = rng.randrange(1, max(2, len(w) - 2))
        words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :] if len(w) > 2 else w + "x"
    elif kind == "ellipsis":
        cut = max(1, len(words) // 3)
        start = max(1, (len(words) - cut) // 2)
        words = [*words[:start], "\u2026", *words[start + cut :]]
    return " ".join(words)


def pick_quotes(paragraphs: list[str], pool: list[tuple[str, int, Span]]) -> list[Planted]:
    rng = random.Random(SEED)
    long_pool = [q for q in pool if len(q[0].split()) >= 8]
    picked: list[Planted] = []
    used: set[str] = set()
    for kind in KINDS:
        candidates = [
            q for q in (pool if kind in ("exact", "curly") else long_pool) if q[0] not in used
        ]
        quote, para, span = rng.choice(candidates)
        used.add(quote)
        text = perturb_quote(quote, kind, rng)
        check = span
        if kind == "ellipsis":  # the elided middle may legitimately differ between copies
            head = locate(text.split(" \u2026 ")[0], paragraphs[para][span[0] :])
            check = span if head is None else (span[0] + head[0], span[0] + head[1])
        picked.append(Planted(text, kind, para, span, check))
    return picked


def mutate(word: str, rng: random.Random) -> str:
    """Double one character: never the same edit as a quote's typo (a swap)."""
    i = rng.randrange(len(word)) if word else 0
    return word[:i] + word[i : i + 1] * 2 + word[i + 1 :] if word else word


def build_corpus(paragraphs: list[str], megabytes: int) -> tuple[str, list[int]]:
    """Copies of every paragraph, shuffled; copy 0 is verbatim, the others have ~2% of their
    words altered. Returns the text and where each paragraph's verbatim copy starts.
    """
    rng = random.Random(SEED + megabytes)
    base = sum(len(p) + 2 for p in paragraphs)
    reps = max(1, round(megabytes * 1_000_000 / base))
    items = [(p, r) for r in range(reps) for p in range(len(paragraphs))]
    rng.shuffle(items)
    parts: list[str] = []
    verbatim = [0] * len(paragraphs)
    at = 0
    for p, r in items:
        text = paragraphs[p]
        if r == 0:
            verbatim[p] = at
        else:
            words = text.split(" ")
            for i in rng.sample(range(len(words)), k=max(1, len(words) // 50)):
                words[i] = mutate(words[i], rng)
            text = " ".join(words)
        parts.append(text)
        at += len(text) + 2
    return "\n\n".join(parts), verbatim


def is_hit(found: Span | None, true: Span, corpus: str) -> bool:
    """Found at the planted copy, or at another copy with identical wording there (copies
    are indistinguishable): an occurrence of the true wording overlapping at least half of it.
    """
    if found is None:
        return False
    wording = corpus[true[0] : true[1]]
    lo = max(0, found[0] - len(wording))
    window = corpus[lo : found[1] + len(wording)]
    at = window.find(wording)
    while at >= 0:
        start, end = lo + at, lo + at + len(wording)
        if min(end, found[1]) - max(start, found[0]) >= len(wording) / 2:
            return True
        at = window.find(wording, at + 1)
    return False


@dataclass
class Row:
    method: str
    size: str
    prep: float
    times: list[float]
    hits: int
    total: int


def run_size(paragraphs: list[str], quotes: list[Planted], megabytes: int) -> list[Row]:
    corpus, verbatim = build_corpus(paragraphs, megabytes)
    size = f"{len(corpus) / 1e6:.1f} MB"

    truths = [
        (verbatim[q.paragraph] + q.check[0], verbatim[q.paragraph] + q.check[1]) for q in quotes
    ]
    rows: list[Row] = []

    t0 = time.perf_counter()
    # The whole index, candidate index included, prepared outside the per-quote timings
    # (bench_verify.py measures what an answer pays through the public API).
    index = prepare(Source(id="corpus", kind="document", text=corpus), cache=None)
    index.build_candidate_index()
    prep = time.perf_counter() - t0
    times, hits = [], 0
    for q, truth in zip(quotes, truths, strict=True):
        t0 = time.perf_counter()
        match = find_quote(q.text, index)
        times.append(time.perf_counter() - t0)
        hits += is_hit(match.span if match else None, truth, corpus)
    rows.append(Row("citeproof", size, prep, times, hits, len(quotes)))

    if megabytes <= RAPIDFUZZ_MAX_MB:
        times, hits = [], 0
        for q, truth in zip(quotes, truths, strict=True):
            t0 = time.perf_counter()
            found = fuzz.partial_ratio_alignment(q.text, corpus)
            times.append(time.perf_counter() - t0)
            span = (found.dest_start, found.dest_end) if found and found.score >= 85 else None
            hits += is_hit(span, truth, corpus)
        rows.append(Row("rapidfuzz", size, 0.0, times, hits, len(quotes)))

    t0 = time.perf_counter()
    norm = normalise(corpus)
    prep = time.perf_counter() - t0
    needles = [normalise(q.text).text.strip(" \"'") for q in quotes]
    times, hits = [], 0
    for needle, truth in zip(needles, truths, strict=True):
        t0 = time.perf_counter()
        at = norm.text.find(needle)
        times.append(time.perf_counter() - t0)
        span = norm.original_span(at, at + len(needle)) if at >= 0 else None
        hits += is_hit(span, truth, corpus)
    rows.append(Row("floor", size, prep, times, hits, len(quotes)))
    return rows


def main() -> None:
    paragraphs, pool = load()
    quotes = pick_quotes(paragraphs, pool)
    kinds = {k: KINDS.count(k) for k in dict.fromkeys(KINDS)}
    print(f"{len(paragraphs)} QuoteSum paragraphs; {len(quotes)} quotes: {kinds}")
    print(
        "recall = found at the planted verbatim copy, or at a copy with identical wording; "
        f"rapidfuzz = partial_ratio_alignment over the whole text, score >= 85, sizes <= "
        f"{RAPIDFUZZ_MAX_MB} MB only; floor = one str.find of the normalised quote "
        "(exact quotes only)."
    )
    header = (
        f"{'size':>8} {'method':<10} {'prep s':>8} {'median ms':>10} {'mean ms':>9} "
        f"{'recall':>8} {'rf/cp':>7} {'cp/floor':>9}"
    )
    print(header)
    print("-" * len(header))
    for mb in SIZES_MB:
        rows = run_size(paragraphs, quotes, mb)
        med = {r.method: statistics.median(r.times) for r in rows}
        for r in rows:
            ratio_rf = f"{med['rapidfuzz'] / med['citeproof']:.0f}x" if "rapidfuzz" in med else "-"
            ratio_floor = f"{med['citeproof'] / med['floor']:.2f}"
            print(
                f"{r.size:>8} {r.method:<10} {r.prep:8.2f} {med[r.method] * 1e3:10.3f} "
                f"{statistics.mean(r.times) * 1e3:9.3f} {r.hits:>4}/{r.total:<3} "
                f"{ratio_rf if r.method == 'citeproof' else '':>7} "
                f"{ratio_floor if r.method == 'citeproof' else '':>9}"
            )


if __name__ == "__main__":
    main()
