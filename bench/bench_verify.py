"""What a user pays: one answer of 20 quotes over 2 MB of sources, through `citeproof.verify`.

Run: ``.venv/bin/python bench/bench_verify.py`` (reads ``$CITEPROOF_DATA/quotesum/dev_half.jsonl``,
default ``../shared/data`` beside the checkout). See bench/README.md.

The sources are 20 documents of about 100 KB, made of QuoteSum paragraphs (one verbatim copy of
each, the other copies with ~2% of their words altered, as in bench_quotes.py), shuffled anew for
every trial so each trial's first call sees text it has never indexed. The answer cites each quote
to the document holding its verbatim copy, but one in four to another (`MISCITED`): 8 exact
quotes, 2 of five words with one letter changed, and 10 otherwise perturbed (curly quotes, a
changed word, a dropped word, a typo, an ellipsis, a changed number). Timed: the first call over
the new sources, the same answer again over the same `Source` objects, and the same answer through
a `Verifier` kept for the corpus; then the first call and the repeat over other new sources
with ``Policy(support_judge="model")`` (the same budgets). Every quote must be found (verified
or corrected) every time.
Each claim is "The record says" and its quote, which only attributes the quote; a last row (no
target) times the first answer over other new sources when every claim has four more words to
judge ("The archived county record plainly shows"), so claim support searches every cited
source.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_quotes import load, perturb_quote, short_typo

from citeproof import Policy, Source, Verifier, verify

DOCS_SOURCES = 34
DOCS_KINDS = [
    "exact",
    "first-letter",  # a 5-word quote whose first word is misspelt: "Vhese are due to ..."
    "swap",
    "exact",
    "short-double",  # a 5-word quote with one letter doubled
    "drop",
    "exact",
    "swap",
    "first-letter",
    "short-double",
    "exact",
    "first-letter",
    "swap",
    "drop",
    "exact",
    "short-double",
    "swap",
    "first-letter",
    "drop",
    "exact",
]
DOCS_MISCITED = frozenset(range(1, len(DOCS_KINDS), 3))
"""Which quotes the answer cites to another source than the one holding them."""
_PROSE = re.compile(r"[A-Z][a-z]+(?: [A-Za-z][a-z]*,?)+\.")

SEED = 20261130
TRIALS = 5
DOCUMENTS = 20
TARGET_MB = 2.0
KINDS = ["exact"] * 8 + ["short-typo"] * 2
KINDS += ["curly", "changed", "dropped", "typo", "ellipsis", "number"] * 2
KINDS = KINDS[:20]
MISCITED = frozenset(range(3, len(KINDS), 4))
"""Which quotes (from 0) the answer cites to another document than the one holding them."""
TARGET_NEW_MS, TARGET_REPEAT_MS = 150, 20
FRAME = "The record says"  # only attributes the quote: claim support has nothing to search
# Four plain words the quote does not cover, beside "shows" (words that only attribute a quote,
# "states", "wrote", are no facts to judge): claim support locates a passage in every cited
# source (each 100 KB source cut into sentences) and scores it with the encoder.
JUDGED_FRAME = "The archived county record plainly shows"


def documents(paragraphs: list[str], rng: random.Random) -> tuple[list[Source], dict[int, str]]:
    """About 2 MB in ``DOCUMENTS`` documents; where each paragraph's verbatim copy went."""
    total = sum(len(p) + 2 for p in paragraphs)
    copies = max(1, round(TARGET_MB * 1_000_000 / total))
    items = [(p, c) for c in range(copies) for p in range(len(paragraphs))]
    rng.shuffle(items)
    per_doc = -(-len(items) // DOCUMENTS)
    sources: list[Source] = []
    home: dict[int, str] = {}
    for d in range(DOCUMENTS):
        parts = []
        for p, c in items[d * per_doc : (d + 1) * per_doc]:
            text = paragraphs[p]
            if c == 0:
                home[p] = f"D{d + 1}"
            else:
                words = text.split(" ")
                for i in rng.sample(range(len(words)), k=max(1, len(words) // 50)):
                    words[i] = words[i] + words[i][-1:]
                text = " ".join(words)
            parts.append(text)
        sources.append(Source(id=f"D{d + 1}", kind="document", text="\n\n".join(parts)))
    return sources, home


def change_number(quote: str, rng: random.Random) -> str:
    digits = [m.start() for m in re.finditer(r"\d", quote)]
    i = rng.choice(digits)
    return quote[:i] + rng.choice([d for d in "0123456789" if d != quote[i]]) + quote[i + 1 :]


def answer_for(
    pool: list[tuple[str, int]], home: dict[int, str], rng: random.Random, frame: str = FRAME
) -> str:
    lines = []
    used: set[str] = set()
    for n, kind in enumerate(KINDS, start=1):
        long_enough = [
            (q, p)
            for q, p in pool
            if q not in used
            and (kind == "exact" or len(q.split()) >= 8)
            and (kind != "number" or re.search(r"\d", q[1:-1]))
        ]
        while True:
            quote, paragraph = rng.choice(long_enough)
            written = ""
            if kind == "short-typo":  # five words, one letter of one changed
                words = quote.split()[:5]
                changed = short_typo(words, n % 2 == 0, rng)
                written = " ".join(changed) if changed else ""
            if kind != "short-typo" or written:
                break
        used.add(quote)
        cited = home[paragraph]
        if n - 1 in MISCITED:
            cited = rng.choice([f"D{d}" for d in range(1, DOCUMENTS + 1) if f"D{d}" != cited])
        if kind == "number":
            written = change_number(quote, rng)
        elif kind == "exact":
            written = quote
        elif kind != "short-typo":
            written = perturb_quote(quote, kind, rng)
        mark = "“" if '"' in written else '"'
        close = "”" if mark == "“" else '"'
        lines.append(f"{n}. {frame} {mark}{written}{close} [{cited}].")
    return "\n".join(lines) + "\n"


CPU: dict[str, list[float]] = {}


def timed(call, name: str):  # type: ignore[no-untyped-def]
    """Wall-clock milliseconds and the result; CPU milliseconds are kept in ``CPU[name]`` (on a
    shared machine the wall clock also counts the time other processes held the cores)."""
    cpu = time.process_time()
    start = time.perf_counter()
    result = call()
    CPU.setdefault(name, []).append((time.process_time() - cpu) * 1e3)
    return (time.perf_counter() - start) * 1e3, result


# -- one answer of block quotes over 2.1 MB of technical documentation --------------------


def docs_sources() -> list[Source]:
    """34 sources of technical documentation from this Python's own files, read offline: the
    language reference (``pydoc_data.topics``) in 9 parts, IDLE's NEWS.txt, and the 24
    largest standard-library modules under 95 KB (docstrings and code); about 2.1 MB."""
    import pydoc_data.topics
    import sysconfig

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    topics = [pydoc_data.topics.topics[k] for k in sorted(pydoc_data.topics.topics)]
    parts: list[list[str]] = [[] for _ in range(9)]
    for n, text in enumerate(topics):
        parts[n * 9 // len(topics)].append(text)
    texts = ["\n\n".join(p) for p in parts]
    news = stdlib / "idlelib" / "NEWS.txt"
    if news.exists():
        texts.append(news.read_text(encoding="utf-8"))
    modules = sorted(
        (f for f in stdlib.glob("*.py") if f.stat().st_size < 95_000),
        key=lambda f: (-f.stat().st_size, f.name),
    )
    for module in modules[: DOCS_SOURCES - len(texts)]:
        texts.append(module.read_text(encoding="utf-8"))
    return [Source(id=f"S{n}", kind="document", text=t) for n, t in enumerate(texts, start=1)]


def prose_sentences(text: str) -> list[str]:
    """Sentences of plain prose (letters, spaces, commas), each inside one paragraph, with
    its wrapped lines joined."""
    found = []
    for paragraph in text.split("\n\n"):
        if paragraph.startswith(" "):
            continue  # code and grammar
        flat = " ".join(paragraph.split())
        found += [m.group() for m in _PROSE.finditer(flat)]
    return found


def misspell(word: str, kind: str, rng: random.Random) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    if kind == "first-letter":
        first = rng.choice([c for c in letters if c != word[0].lower()])
        return (first.upper() if word[0].isupper() else first) + word[1:]
    i = rng.randrange(1, len(word) - 2)
    if kind == "swap":
        # Two different letters: swapping the "ll" of "called" changes nothing.
        i = rng.choice([j for j in range(1, len(word) - 2) if word[j] != word[j + 1]] or [i])
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == "drop":
        return word[:i] + word[i + 1 :]
    return word[:i] + word[i] + word[i:]  # "short-double"


def docs_answer(sources: list[Source], rng: random.Random) -> tuple[str, list[str]]:
    """An answer of block quotes (`DOCS_KINDS`), each cited to the source holding it but
    those of `DOCS_MISCITED`, cited to another; and the source's words for each quote (what
    a found quote is corrected to)."""
    whole = "\n".join(s.text for s in sources)
    blocks, truths = [], []
    used: set[str] = set()
    for kind in DOCS_KINDS:
        while True:
            source = rng.choice(sources[:10])  # the prose: reference and NEWS
            sentence = rng.choice(prose_sentences(source.text) or ["."])
            words = sentence.rstrip(".").split()
            short = kind in ("first-letter", "short-double")
            if short:
                words = words[:5]
            if len(words) < (5 if short else 12) or " ".join(words) in used:
                continue
            true = " ".join(words) if short else sentence
            pattern = rf"(?<!\w){re.escape(true)}(?!\w)"
            if short and len(re.findall(pattern, whole, flags=re.IGNORECASE)) != 1:
                continue  # a short quote must be this source's own words, whatever the case
            if kind == "exact":
                written = true
            else:
                at = (
                    0
                    if kind == "first-letter"
                    else rng.choice(
                        [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()] or [-1]
                    )
                )
                # One letter of a shorter word changed is often another word ("An", "In").
                if at < 0 or not words[at].isalpha() or len(words[at]) < 4:
                    continue
                words[at] = misspell(words[at], kind, rng)
                written = " ".join(words) + ("" if short else ".")
            used.add(" ".join(words))
            break
        truths.append(true)
        cited = source
        if len(truths) - 1 in DOCS_MISCITED:
            cited = rng.choice([s for s in sources if s is not source])
        blocks.append(f"The documentation says:\n\n> {written}\n> — [{cited.id}]\n")
    return "\n".join(blocks), truths


def docs_trial(seed: int) -> dict[str, object]:
    """One trial of the documentation answer in this (cold) process: the first call over
    the sources, then the same call again; whether every quote was found and each short
    misspelt quote corrected to the source's words (its line breaks aside) as a
    spelling difference only."""
    sources = docs_sources()
    answer, truths = docs_answer(sources, random.Random(seed))
    by_id = {source.id: source for source in sources}
    fresh_ms, first = timed(lambda: verify(answer, sources), "docs-new")
    again_ms, again = timed(lambda: verify(answer, sources), "docs-again")
    found = True
    for result in (first, again):
        for quote, kind, truth in zip(result.quotes, DOCS_KINDS, truths, strict=True):
            misspelt = kind != "exact"
            span = quote.source_span
            where = by_id[quote.source].text[slice(*span)] if quote.source and span else ""
            if (
                quote.status not in ("verified", "corrected")
                or " ".join(where.split()) != truth  # a source that holds the words
                or (
                    misspelt
                    and (
                        " ".join(quote.corrected_text.split()) != truth
                        or {d.kind for d in quote.differences} != {"spelling"}
                    )
                )
            ):
                found = False
    return {
        "fresh": fresh_ms,
        "fresh_cpu": CPU["docs-new"][-1],
        "again": again_ms,
        "again_cpu": CPU["docs-again"][-1],
        "found": found and len(first.quotes) == len(DOCS_KINDS),
        "mb": sum(len(s.text) for s in sources) / 1e6,
    }


def docs_rows() -> tuple[list[dict[str, object]], float]:
    """`TRIALS` trials of `docs_trial`, each in a fresh process (imports done, nothing
    indexed, no model loaded: where a user starts), and the load average meanwhile."""
    trials = []
    loads = []
    for n in range(TRIALS):
        done = subprocess.run(
            [sys.executable, __file__, "--docs-trial", str(SEED + n)],
            capture_output=True,
            text=True,
            check=True,
        )
        trials.append(json.loads(done.stdout.splitlines()[-1]))
        loads.append(os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"))
    return trials, statistics.mean(loads)


def main() -> int:
    paragraphs, located = load()
    # Quotes the annotators cut mid-word ("he Second Red Scare") are not exact quotes.
    pool = [
        (q, p) for q, p, _ in located if re.search(rf"(?<!\w){re.escape(q)}(?!\w)", paragraphs[p])
    ]
    rng = random.Random(SEED)
    new_ms, repeat_ms, kept_ms, judged_ms = [], [], [], []
    lexical_ms, model_ms = [], []
    model_new_ms, model_again_ms = [], []
    found_everywhere = True
    size = 0
    model = Policy(support_judge="model")
    verify('"x" [D1]', [Source(id="D1", kind="document", text="x")], policy=model)  # loaded
    for _ in range(TRIALS):
        sources, home = documents(paragraphs, rng)
        size = sum(len(s.text) for s in sources)
        answer = answer_for(pool, home, rng)
        first_ms, first = timed(lambda: verify(answer, sources), "new")  # noqa: B023
        again_ms, again = timed(lambda: verify(answer, sources), "again")  # noqa: B023
        verifier = Verifier(sources)
        verifier.verify(answer)
        kept, third = timed(lambda: verifier.verify(answer), "kept")  # noqa: B023
        sources, home = documents(paragraphs, rng)
        judged_answer = answer_for(pool, home, rng, JUDGED_FRAME)
        judged_ms.append(timed(lambda: verify(judged_answer, sources), "judged")[0])  # noqa: B023
        # The same answer over the same, now prepared, sources: by the lexical head, then by
        # the entailment model (its cost per claim is the difference).
        lexical_ms.append(timed(lambda: verify(judged_answer, sources), "lexical")[0])  # noqa: B023
        model_ms.append(
            timed(lambda: verify(judged_answer, sources, policy=model), "model")[0]  # noqa: B023
        )
        # The budget with the entailment judge on, over other new sources: claims that only
        # attribute their quotes need no model call, so it must hold as the default's does.
        sources, home = documents(paragraphs, rng)
        answer = answer_for(pool, home, rng)
        by_model_ms, by_model = timed(lambda: verify(answer, sources, policy=model), "model-new")  # noqa: B023
        model_new_ms.append(by_model_ms)
        by_model_again_ms, by_model_again = timed(
            lambda: verify(answer, sources, policy=model),  # noqa: B023
            "model-again",
        )
        model_again_ms.append(by_model_again_ms)
        new_ms.append(first_ms)
        repeat_ms.append(again_ms)
        kept_ms.append(kept)
        for result in (first, again, third, by_model, by_model_again):
            statuses = [q.status for q in result.quotes]
            if len(statuses) != len(KINDS) or any(
                s not in ("verified", "corrected") for s in statuses
            ):
                found_everywhere = False
                print(f"  not every quote found: {statuses}")
    print(
        f"one answer of {len(KINDS)} quotes ({KINDS.count('exact')} exact, "
        f"{len(KINDS) - KINDS.count('exact')} perturbed) over {size / 1e6:.1f} MB in "
        f"{DOCUMENTS} documents, {TRIALS} trials, through citeproof.verify"
    )
    busy = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at the end: {busy:.1f} on {os.cpu_count()} cores")
    header = f"{'call':<40} {'median ms':>10} {'max ms':>8} {'cpu ms':>8} {'target':>8}  ok"
    print(header)
    print("-" * len(header))
    rows = [
        ("first answer over new sources", new_ms, "new", TARGET_NEW_MS),
        ("same answer again, same Source objects", repeat_ms, "again", TARGET_REPEAT_MS),
        ("same answer through a kept Verifier", kept_ms, "kept", TARGET_REPEAT_MS),
        ("first answer, support_judge=model", model_new_ms, "model-new", TARGET_NEW_MS),
        ("  the same again, support_judge=model", model_again_ms, "model-again", TARGET_REPEAT_MS),
    ]
    all_ok = found_everywhere
    for name, times, key, target in rows:
        median = statistics.median(times)
        ok = median <= target
        all_ok &= ok
        print(
            f"{name:<40} {median:10.1f} {max(times):8.1f} {statistics.median(CPU[key]):8.1f} "
            f"{target:>6} ms  {'yes' if ok else 'NO'}"
        )
    print(
        f"{'first answer, every claim judged beyond':<40} {statistics.median(judged_ms):10.1f} "
        f"{max(judged_ms):8.1f} {statistics.median(CPU['judged']):8.1f} {'-':>9}  (no target)"
    )
    lexical, by_model = statistics.median(lexical_ms), statistics.median(model_ms)
    print(
        f"{'  again, sources prepared: lexical head':<40} {lexical:10.1f} "
        f"{max(lexical_ms):8.1f} {statistics.median(CPU['lexical']):8.1f} {'-':>9}  (no target)"
    )
    print(
        f"{'  again, support_judge=model':<40} {by_model:10.1f} {max(model_ms):8.1f} "
        f"{statistics.median(CPU['model']):8.1f} {'-':>9}  (no target)"
    )
    cpu_model = statistics.median(CPU["model"]) - statistics.median(CPU["lexical"])
    print(
        f"entailment model per judged claim: {(by_model - lexical) / len(KINDS):.1f} ms wall, "
        f"{cpu_model / len(KINDS):.1f} ms CPU (model row minus lexical row, {len(KINDS)} claims)"
    )
    print(f"every quote found in every call: {'yes' if found_everywhere else 'NO'}")

    trials, busy_docs = docs_rows()
    docs_ok = all(t["found"] for t in trials)
    fresh = [float(t["fresh"]) for t in trials]  # type: ignore[arg-type]
    again = [float(t["again"]) for t in trials]  # type: ignore[arg-type]
    cpu = [float(t["fresh_cpu"]) for t in trials]  # type: ignore[arg-type]
    again_cpu = [float(t["again_cpu"]) for t in trials]  # type: ignore[arg-type]
    print()
    print(
        f"one answer of {len(DOCS_KINDS)} block quotes ({DOCS_KINDS.count('exact')} exact, the "
        f"others misspelt, {DOCS_KINDS.count('first-letter') + DOCS_KINDS.count('short-double')}"
        f" of them 5-word quotes, {DOCS_KINDS.count('first-letter')} misspelt in their first "
        f"word; {len(DOCS_MISCITED)} cited to another source than the one holding them) over "
        f"{float(trials[0]['mb']):.1f} MB of technical documentation in {DOCS_SOURCES} sources "  # type: ignore[arg-type]
        f"(this Python's reference, NEWS and modules), {TRIALS} trials, each in a cold "
        f"process; load average meanwhile: {busy_docs:.1f}"
    )
    print(header)
    print("-" * len(header))
    for name, times, cpu_ms, target in (
        ("first answer, cold process", fresh, cpu, TARGET_NEW_MS),
        ("same answer again", again, again_cpu, TARGET_REPEAT_MS),
    ):
        median = statistics.median(times)
        ok = median <= target
        all_ok &= ok
        print(
            f"{name:<40} {median:10.1f} {max(times):8.1f} {statistics.median(cpu_ms):8.1f} "
            f"{target:>6} ms  {'yes' if ok else 'NO'}  ({median / target:.2f}x the target)"
        )
    print(
        "every quote found in the source holding it, each misspelt one corrected to the "
        f"source's words as a spelling difference: {'yes' if docs_ok else 'NO'}"
    )
    return 0 if all_ok and docs_ok else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--docs-trial"]:
        print(json.dumps(docs_trial(int(sys.argv[2]))))
        sys.exit(0)
    sys.exit(main())
