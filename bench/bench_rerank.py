"""Embedding re-ranking: embedding speed, and re-ranking latency and hit@1 beside plain BM25.

Run: ``.venv/bin/python bench/bench_rerank.py`` (needs the ``rerank`` extra). Passages: the
examples/mailbox store plus every distinct QuoteSum source paragraph
(``$CITEPROOF_DATA/quotesum/dev_half.jsonl``, default ``../shared/data`` beside the checkout);
queries: the QuoteSum questions. hit@1: the top passage is a source the reference summary cites.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from citeproof.embedding import TextEncoder
from citeproof.model import Passage
from citeproof.sources import SourceStore, ingest_paths
from citeproof.turn import RerankingRetriever, StoreRetriever

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 8
UNCACHED_QUERIES = 30


def data_path() -> Path:
    default = ROOT.parent / "shared" / "data"
    return Path(os.environ.get("CITEPROOF_DATA", default)) / "quotesum" / "dev_half.jsonl"


def write_sources(folder: Path) -> list[tuple[str, set[str]]]:
    """One .txt file per distinct QuoteSum source; the questions with their cited files."""
    names: dict[str, str] = {}
    questions: list[tuple[str, set[str]]] = []
    for line in data_path().read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for n in range(1, 9):
            text = row[f"source{n}"].strip()
            if text and text not in names:
                names[text] = f"qs-{len(names):04d}.txt"
                (folder / names[text]).write_text(text + "\n", encoding="utf-8")
        cited = {int(n) for n in re.findall(r"\[ (\d) ", row["summary"])}
        relevant = {names[row[f"source{n}"].strip()] for n in cited if row[f"source{n}"].strip()}
        questions.append((row["question"], relevant))
    return questions


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered) * 1e3:7.1f} ms   p95 {p95 * 1e3:7.1f} ms"


def run(
    retrieve: Callable[[str], list[Passage]],
    questions: list[tuple[str, set[str]]],
    titles: dict[str, str | None],
) -> tuple[list[float], float]:
    times, hits = [], 0
    for question, relevant in questions:
        start = time.perf_counter()
        found = retrieve(question)
        times.append(time.perf_counter() - start)
        hits += bool(found) and titles[found[0].source_id] in relevant
    return times, hits / len(questions)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-rerank-") as temp:
        folder = Path(temp) / "quotesum"
        folder.mkdir()
        questions = write_sources(folder)
        with SourceStore(Path(temp) / "sources.db") as store:
            ingest_paths(store, [ROOT / "examples" / "mailbox", folder])
            titles = {s.id: s.source.title for s in store.current()}
            print(f"{store.passage_count()} passages, {len(questions)} queries, limit {LIMIT}")

            start = time.perf_counter()
            reranker = TextEncoder()
            print(f"model load: {time.perf_counter() - start:.2f} s, {reranker.threads} thread(s)")

            bm25 = StoreRetriever(store)
            texts = sorted(
                {p.text for q, _ in questions for p in bm25.retrieve(q, limit=32)}, key=len
            )
            start = time.perf_counter()
            reranker.embed(texts)
            per_passage = (time.perf_counter() - start) / len(texts)
            chars = statistics.mean(len(t) for t in texts)
            print(
                f"embed: {per_passage * 1e3:.1f} ms/passage ({len(texts)} candidate passages, ",
                end="",
            )
            print(f"mean {chars:.0f} chars)")
            start = time.perf_counter()
            reranker.embed([q for q, _ in questions])
            per_query = (time.perf_counter() - start) / len(questions)
            print(f"embed: {per_query * 1e3:.1f} ms/query")

            cold = TextEncoder()  # empty cache, filled as passages are first seen
            uncached = TextEncoder(cache_size=0)  # every candidate embedded every time
            rows = [
                ("BM25 (StoreRetriever)", lambda q: bm25.retrieve(q, limit=LIMIT)),
                (
                    "rerank w=0.5, cache filling",
                    lambda q: RerankingRetriever(bm25, cold).retrieve(q, limit=LIMIT),
                ),
                (
                    "rerank w=0.5, warm (+query)",
                    lambda q: RerankingRetriever(bm25, reranker).retrieve(q, limit=LIMIT),
                ),
                (
                    "rerank w=0.2, warm (+query)",
                    lambda q: RerankingRetriever(bm25, reranker, weight=0.2).retrieve(
                        q, limit=LIMIT
                    ),
                ),
            ]
            for name, retrieve in rows:
                times, hit1 = run(retrieve, questions, titles)
                print(f"{name:28s} {ms(times)}   hit@1 {hit1:.2f}")
            times, _ = run(
                lambda q: RerankingRetriever(bm25, uncached).retrieve(q, limit=LIMIT),
                questions[:UNCACHED_QUERIES],
                titles,
            )
            print(f"{'rerank w=0.5, no cache':28s} {ms(times)}   ({UNCACHED_QUERIES} queries)")


if __name__ == "__main__":
    main()
