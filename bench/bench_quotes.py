"""Quote matching speed and recall: citeproof vs rapidfuzz vs a plain `str.find` floor.

Run: ``.venv/bin/python bench/bench_quotes.py`` (reads ``$CITEPROOF_DATA/quotesum/dev_half.jsonl``,
default ``../shared/data`` beside the checkout). See bench/README.md.
"""

from __future__ import annotations

import argparse
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
from citeproof.verifier.match import MatchSettings, find_quote, normalise, prepare

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
    return found is not None and holds_wording(found, corpus[true[0] : true[1]], corpus)


def holds_wording(found: Span | None, wording: str, corpus: str) -> bool:
    """An occurrence of ``wording`` in ``corpus`` overlaps at least half of ``found``."""
    if found is None:
        return False
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


# -- what users send: short, typo'd and mis-cited quotes over many sources ----------------

MANY_MB = 10
MANY_SOURCES = 168
# 50 quotes as a model writes them, and every other one cited to the wrong source.
MANY_KINDS = (
    ["exact"] * 8
    + ["short"] * 4  # five words, as they are
    + ["short-typo"] * 10  # five words, one letter changed (the first word's in 4 of them)
    + ["typo", "changed", "dropped", "curly", "ellipsis"] * 5
    + ["typo"] * 3
)
FABRICATED = 10  # quotes no source holds: two passages spliced together, 5 and 12 words
RAPIDFUZZ_QUOTES = 10  # rapidfuzz over every source is slow: timed on the first few quotes


@dataclass(frozen=True)
class Sent:
    """A quote of the many-sources answer: as written, the source cited, and where its
    words are (the source and span of the verbatim copy), None for a fabricated one."""

    text: str
    kind: str
    cited: int
    truth: tuple[int, Span] | None


def many_sources(paragraphs: list[str]) -> tuple[list[Source], dict[int, tuple[int, int]]]:
    """`build_corpus` of `MANY_MB` cut into `MANY_SOURCES` sources at paragraph breaks;
    where each paragraph's verbatim copy is (source, offset)."""
    corpus, verbatim = build_corpus(paragraphs, MANY_MB)
    per = len(corpus) / MANY_SOURCES
    cuts = [0]
    for k in range(1, MANY_SOURCES):
        at = corpus.find("\n\n", round(k * per))
        cuts.append(at + 2 if at >= 0 else len(corpus))
    cuts.append(len(corpus) + 2)
    sources = [
        Source(id=f"S{k + 1}", kind="document", text=corpus[cuts[k] : cuts[k + 1] - 2])
        for k in range(MANY_SOURCES)
    ]
    homes = {}
    for p, at in enumerate(verbatim):
        k = max(i for i in range(MANY_SOURCES) if cuts[i] <= at)
        homes[p] = (k, at - cuts[k])
    return sources, homes


def short_typo(words: list[str], first: bool, rng: random.Random) -> list[str] | None:
    """One letter of one word changed to another letter: the first word's, or a longer
    word's (so that the misspelling is no other word)."""
    at = 0 if first else rng.choice([i for i, w in enumerate(words) if len(w) >= 5] or [-1])
    if at < 0 or not words[at].isalpha() or len(words[at]) < 4:
        return None
    word = words[at]
    i = 0 if first else rng.randrange(1, len(word) - 1)
    letter = rng.choice([c for c in "bcdfghjklmnpqrstvwxz" if c != word[i].lower()])
    words = list(words)
    words[at] = word[:i] + (letter.upper() if word[i].isupper() else letter) + word[i + 1 :]
    return words


def sent_quotes(
    paragraphs: list[str],
    pool: list[tuple[str, int, Span]],
    homes: dict[int, tuple[int, int]],
) -> list[Sent]:
    rng = random.Random(SEED + 7)
    sent: list[Sent] = []
    used: set[str] = set()
    firsts = 0
    for n, kind in enumerate(MANY_KINDS):
        while True:
            quote, para, span = rng.choice(pool)
            words = quote.split()
            if quote in used or len(words) < (5 if kind.startswith("short") else 8):
                continue
            if kind.startswith("short"):
                start = rng.randrange(len(words) - 4)
                head = " ".join(words[:start])
                offset = len(head) + (1 if head else 0)
                words = words[start : start + 5]
                span = (span[0] + offset, span[0] + offset + len(" ".join(words)))
                if paragraphs[para][span[0] : span[1]] != " ".join(words):
                    continue
            if kind == "short-typo":
                changed = short_typo(words, firsts < 4, rng)
                if changed is None:
                    continue
                firsts += changed[0] != words[0]
                text = " ".join(changed)
            elif kind == "short":
                text = " ".join(words)
            else:
                text = perturb_quote(quote, kind, rng)
            used.add(quote)
            break
        check = span
        if kind == "ellipsis":
            head_span = locate(text.split(" \u2026 ")[0], paragraphs[para][span[0] :])
            check = span if head_span is None else (span[0] + head_span[0], span[0] + head_span[1])
        home, at = homes[para]
        cited = home if n % 2 == 0 else (home + 1 + rng.randrange(MANY_SOURCES - 1)) % MANY_SOURCES
        sent.append(Sent(text, kind, cited, (home, (at + check[0], at + check[1]))))
    for n in range(FABRICATED):
        size = 5 if n % 2 == 0 else 12
        a, b = rng.sample([q for q, _, _ in pool if len(q.split()) >= size], 2)
        half = size // 2 + 1
        text = " ".join(a.split()[:half] + b.split()[-(size - half) :])
        sent.append(Sent(text, "fabricated", rng.randrange(MANY_SOURCES), None))
    return sent


def run_many(paragraphs: list[str], pool: list[tuple[str, int, Span]]) -> None:
    """The quotes a user sends, each looked for as `verify` looks for it (`judge_quote`: the
    cited source, then the others) over the sources of a kept `Verifier` (indexed and
    searched once before: the preparation is a column of its own), beside one `str.find`
    pass over all the normalised sources (the floor) and rapidfuzz over each."""
    from citeproof import Verifier
    from citeproof.verifier._judgement import judge_quote
    from citeproof.verifier.parse import parse_answer

    sources, homes = many_sources(paragraphs)
    quotes = sent_quotes(paragraphs, pool, homes)
    size = sum(len(s.text) for s in sources)
    verifier = Verifier(sources)
    t0 = time.perf_counter()
    for source in sources:  # every source indexed, and the search over them all built
        verifier.index_for(source).build_candidate_index()
    verifier.verify("> zzqx unheard of words here\n> — [S1]\n")
    prep = time.perf_counter() - t0
    settings = MatchSettings()
    times: dict[str, list[float]] = {"citeproof": [], "floor": [], "rapidfuzz": []}
    found = refused = 0
    missed: list[str] = []
    norms = [verifier.index_for(s).text for s in sources]
    by_id = {s.id: s for s in sources}
    for n, q in enumerate(quotes):
        answer = f"The record says:\n\n> {q.text}\n> — [S{q.cited + 1}]\n"
        (parsed,) = parse_answer(answer, verifier.source_names).quotes
        t0 = time.perf_counter()
        verdict = judge_quote(
            parsed,
            verifier.catalog,
            verifier.index_for,
            settings,
            excerpt_context=80,
            now="",
            holds=verifier.may_hold,
        )
        times["citeproof"].append(time.perf_counter() - t0)
        needle = normalise(q.text).text.strip(" \"'")
        t0 = time.perf_counter()
        for norm in norms:
            norm.find(needle)
        times["floor"].append(time.perf_counter() - t0)
        if n < RAPIDFUZZ_QUOTES:
            t0 = time.perf_counter()
            max(
                (fuzz.partial_ratio_alignment(q.text, s.text) for s in sources),
                key=lambda r: r.score if r else 0.0,
            )
            times["rapidfuzz"].append(time.perf_counter() - t0)
        holder = verdict.holding_source
        if q.truth is None:
            refused += verdict.status == "not_found"
            if verdict.status != "not_found":
                missed.append(f"fabricated {q.text!r} found in {holder and holder.id}")
            continue
        home, truth = q.truth
        wording = sources[home].text[truth[0] : truth[1]]
        span = verdict.match.span if verdict.match is not None else None
        if holder is not None and holds_wording(span, wording, by_id[holder.id].text):
            found += 1
        else:
            missed.append(f"{q.kind} {q.text!r}: {verdict.status} {holder and holder.id}")
    med = {k: statistics.median(v) for k, v in times.items()}
    real = len(quotes) - FABRICATED
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    kinds = {k: MANY_KINDS.count(k) for k in dict.fromkeys(MANY_KINDS)}
    print()
    print(
        f"what users send: {real} quotes {kinds}, every other one cited to the wrong source, "
        f"and {FABRICATED} fabricated, over {size / 1e6:.1f} MB in {len(sources)} sources; "
        f"load average {load:.1f}"
    )
    print(
        "citeproof = the quote looked for as verify does (cited source, then the others); "
        "floor = one str.find "
        "of the normalised quote over every normalised source; rapidfuzz = "
        f"partial_ratio_alignment over every source (first {RAPIDFUZZ_QUOTES} quotes)"
    )
    header = f"{'method':<10} {'prep s':>8} {'median ms':>10} {'mean ms':>9} {'vs floor':>9}"
    print(header)
    print("-" * len(header))
    for method in ("citeproof", "floor", "rapidfuzz"):
        print(
            f"{method:<10} {prep if method == 'citeproof' else 0.0:8.2f} "
            f"{med[method] * 1e3:10.3f} {statistics.mean(times[method]) * 1e3:9.3f} "
            f"{med[method] / med['floor']:8.2f}x"
        )
    print(
        f"found at their place: {found}/{real} (target {real - 1}); fabricated refused: "
        f"{refused}/{FABRICATED} (target {FABRICATED}); citeproof per quote "
        f"{med['citeproof'] / med['floor']:.2f}x the floor (target 2), rapidfuzz "
        f"{med['rapidfuzz'] / med['citeproof']:.0f}x citeproof"
    )
    for line in missed:
        print(f"  missed: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES_MB)), help="MB, e.g. 1,10")
    sizes = [int(mb) for mb in parser.parse_args().sizes.split(",") if mb]
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
    for mb in sizes:
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
    run_many(paragraphs, pool)


if __name__ == "__main__":
    main()
