"""Ingestion throughput and retrieval latency: citeproof's store vs bm25s and rank_bm25.

Run: ``.venv/bin/python bench/bench_ingest.py [--messages 10000] [--queries 1000]``.

1. Generates a mailbox of ``--messages`` .eml files (seeded; written with
   ``email.message.EmailMessage``): plain-text bodies of 3-8 paragraphs, a third of them
   replies with ``>`` quoted history, ~15% with a PDF attachment (fpdf2), ~10% with a DOCX
   (python-docx), ~10% with a .txt attachment. Attachments come from small seeded pools so
   generation stays quick; each is still parsed on every message.
2. Ingests the folder into a fresh SQLite store (``ingest_paths``: parse, segment, id, store,
   FTS5 index) and reports MB/s (of .eml bytes) and messages/s, in wall time and per second of
   this process's CPU time (on a loaded machine the wall time counts other processes' turns),
   with the load average when ingestion ended.
3. Runs ``--queries`` queries (2-4 words drawn from a random passage, seeded) through
   `StoreRetriever` (BM25 over FTS5) and through bm25s and rank_bm25 over the very same
   passages (same word pattern, same stopwords). Reports median and p99 latency, the
   index build time of each alternative, and recall@8 of the passage each query was drawn
   from. rank_bm25 scores every passage per query, so it runs on the first
   ``--rank-bm25-queries`` queries only.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from email.message import EmailMessage
from pathlib import Path

import bm25s  # type: ignore[import-untyped]
import docx
from fpdf import FPDF
from rank_bm25 import BM25Okapi  # type: ignore[import-untyped]

from citeproof.sources import SourceStore, ingest_paths
from citeproof.turn import StoreRetriever
from citeproof.turn._retrieve import STOPWORDS, WORD, query_terms

SEED = 20260310
TARGET_MB_S = 3.0
TARGET_MESSAGES_S = 400
# Word lists read better as text.
SYLLABLES = "ka lo mi ren tu sa vel dor an pe qui ra sen tal ob fi nu ge mor lin".split()  # noqa: SIM905
LENDING = (  # noqa: SIM905
    "loan valuation underwriter referral mortgage borrower broker deposit affordability "
    "income policy exception offer completion repayment arrangement fee rate fixed tracker "
    "survey solicitor account statement arrears remortgage equity term product"
).split()
FILLER = "the a of and to in for is on that with as was it by at from this be are".split()  # noqa: SIM905


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    words = set(LENDING)
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def sentence(rng: random.Random, vocab: Sequence[str]) -> str:
    words = []
    for _ in range(rng.randint(8, 20)):
        if rng.random() < 0.35:
            words.append(rng.choice(FILLER))
        elif rng.random() < 0.5:  # Zipf-like: a few words are very common, as in real mail
            words.append(vocab[min(int(rng.paretovariate(1.1)) - 1, len(vocab) - 1)])
        else:
            words.append(rng.choice(vocab))
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random, vocab: Sequence[str]) -> str:
    return " ".join(sentence(rng, vocab) for _ in range(rng.randint(1, 4)))


def pdf_attachment(rng: random.Random, vocab: Sequence[str]) -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    for _ in range(rng.randint(2, 5)):
        pdf.multi_cell(0, 5, paragraph(rng, vocab))
        pdf.ln(3)
    return bytes(pdf.output())


def docx_attachment(rng: random.Random, vocab: Sequence[str]) -> bytes:
    document = docx.Document()
    for _ in range(rng.randint(2, 5)):
        document.add_paragraph(paragraph(rng, vocab))
    table = document.add_table(rows=3, cols=2)
    for r in range(3):
        for c in range(2):
            table.cell(r, c).text = rng.choice(vocab)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def generate(folder: Path, count: int, rng: random.Random) -> tuple[int, int]:
    """Write ``count`` messages; returns (total bytes, attachments)."""
    vocab = vocabulary(rng)
    pdfs = [pdf_attachment(rng, vocab) for _ in range(40)]
    docxs = [docx_attachment(rng, vocab) for _ in range(40)]
    total = attachments = 0
    for number in range(count):
        message = EmailMessage()
        message["From"] = f"user{rng.randint(1, 200)}@lending.example"
        message["To"] = f"user{rng.randint(1, 200)}@lending.example"
        message["Subject"] = " ".join(rng.choice(vocab) for _ in range(rng.randint(2, 6)))
        message["Message-ID"] = f"<bench-{number}@lending.example>"
        message["Date"] = "Tue, 10 Mar 2026 16:42:05 +0000"
        body = "\n\n".join(paragraph(rng, vocab) for _ in range(rng.randint(3, 8)))
        if rng.random() < 0.33:
            quoted = "\n".join("> " + line for line in paragraph(rng, vocab).split(". "))
            body += f"\n\nOn Mon, 9 Mar 2026, user{rng.randint(1, 200)} wrote:\n{quoted}"
        message.set_content(body + "\n")
        roll = rng.random()
        if roll < 0.15:
            message.add_attachment(
                rng.choice(pdfs),
                maintype="application",
                subtype="pdf",
                filename=f"doc-{number}.pdf",
            )
            attachments += 1
        elif roll < 0.25:
            message.add_attachment(
                rng.choice(docxs),
                maintype="application",
                subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
                filename=f"memo-{number}.docx",
            )
            attachments += 1
        elif roll < 0.35:
            message.add_attachment(paragraph(rng, vocab), filename=f"notes-{number}.txt")
            attachments += 1
        data = bytes(message)
        (folder / f"{number // 1000:03d}").mkdir(exist_ok=True)
        (folder / f"{number // 1000:03d}" / f"m{number:05d}.eml").write_bytes(data)
        total += len(data)
    return total, attachments


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(
    run: Callable[[str], list[int]], queries: Sequence[str]
) -> tuple[list[float], list[list[int]]]:
    latencies: list[float] = []
    results: list[list[int]] = []
    for query in queries:
        start = time.perf_counter()
        found = run(query)
        latencies.append(time.perf_counter() - start)
        results.append(found)
    return latencies, results


def target(mb: float, messages: int, seconds: float) -> str:
    """The ingestion target, and whether ``seconds`` for that mailbox meets it."""
    met = mb / seconds >= TARGET_MB_S and messages / seconds >= TARGET_MESSAGES_S
    return f"{TARGET_MB_S:g} MB/s, {TARGET_MESSAGES_S} messages/s: {'met' if met else 'missed'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--rank-bm25-queries", type=int, default=200)
    args = parser.parse_args()
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory(prefix="citeproof-bench-") as tmp:
        mail = Path(tmp) / "mail"
        mail.mkdir()
        start = time.perf_counter()
        size, attachments = generate(mail, args.messages, rng)
        print(
            f"generated {args.messages} messages ({attachments} attachments, "
            f"{size / 1e6:.1f} MB) in {time.perf_counter() - start:.1f} s"
        )

        db_path = Path(tmp) / "sources.db"
        store = SourceStore(db_path)
        start, cpu_start = time.perf_counter(), time.process_time()
        report = ingest_paths(store, [mail])
        ingest_s = time.perf_counter() - start
        ingest_cpu = time.process_time() - cpu_start
        load = os.getloadavg()[0]
        assert report.ok, report.failures[:3]
        sources = store.count()

        db = sqlite3.connect(db_path)
        rows = db.execute(
            'SELECT p.id, substr(s.text, p.start + 1, p."end" - p.start) FROM passages p '
            "JOIN sources s ON s.id = p.source_id WHERE s.superseded = 0 ORDER BY p.id"
        ).fetchall()
        passage_ids = [r[0] for r in rows]
        texts = [r[1] for r in rows]
        id_of = {
            (sid, first): pid
            for pid, sid, first in db.execute("SELECT id, source_id, first FROM passages")
        }
        qrng = random.Random(SEED + 1)
        queries: list[str] = []
        targets: list[int] = []
        while len(queries) < args.queries:
            index = qrng.randrange(len(texts))
            words = [w for w in WORD.findall(texts[index].lower()) if w not in STOPWORDS]
            if len(words) < 4:
                continue
            queries.append(" ".join(qrng.sample(words, qrng.randint(2, 4))))
            targets.append(passage_ids[index])

        retriever = StoreRetriever(store)

        def ours(query: str) -> list[int]:
            return [id_of[(p.source_id, p.paragraphs[0])] for p in retriever.retrieve(query)]

        ours_lat, ours_found = timed(ours, queries)

        def tokens(text: str) -> list[str]:
            return [w for w in WORD.findall(text.casefold()) if w not in STOPWORDS]

        start = time.perf_counter()
        corpus_tokens = [tokens(t) for t in texts]
        model = bm25s.BM25()
        model.index(corpus_tokens, show_progress=False)
        bm25s_build = time.perf_counter() - start

        def with_bm25s(query: str) -> list[int]:
            found, _ = model.retrieve([query_terms(query)], k=8, show_progress=False, n_threads=1)
            return [passage_ids[i] for i in found[0]]

        bm25s_lat, bm25s_found = timed(with_bm25s, queries)

        start = time.perf_counter()
        okapi = BM25Okapi(corpus_tokens)
        okapi_build = time.perf_counter() - start
        few = queries[: args.rank_bm25_queries]

        def with_rank_bm25(query: str) -> list[int]:
            scores = okapi.get_scores(query_terms(query))
            best = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:8]
            return [passage_ids[i] for i in best]

        okapi_lat, okapi_found = timed(with_rank_bm25, few)
        store.close()

    def recall(found: list[list[int]]) -> float:
        return sum(t in f for t, f in zip(targets, found, strict=False)) / len(found)

    mb = size / 1e6
    print(
        f"ingested {args.messages} messages -> {sources} sources, {len(texts)} passages "
        f"in {ingest_s:.1f} s ({ingest_cpu:.1f} s of CPU), load average {load:.2f}"
    )
    print(
        f"\n| ingestion | MB/s | messages/s |\n|---|---:|---:|\n"
        f"| citeproof ingest_paths (parse, segment, store, FTS5), wall | {mb / ingest_s:.2f} | "
        f"{args.messages / ingest_s:.0f} |\n"
        f"| the same, per CPU second | {mb / ingest_cpu:.2f} | "
        f"{args.messages / ingest_cpu:.0f} |"
    )
    ours_med = statistics.median(ours_lat)
    print(
        "\n| retrieval (top 8) | queries | index build s | median ms | p99 ms "
        "| median vs citeproof | recall@8 |\n|---|---:|---:|---:|---:|---:|---:|"
    )
    for name, lat, found, build in (
        ("citeproof StoreRetriever (FTS5 bm25)", ours_lat, ours_found, None),
        ("bm25s 0.3 (numpy, in memory)", bm25s_lat, bm25s_found, bm25s_build),
        ("rank_bm25 BM25Okapi (in memory)", okapi_lat, okapi_found, okapi_build),
    ):
        med = statistics.median(lat)
        built = "in ingest" if build is None else f"{build:.1f}"
        p99 = percentile(lat, 0.99)
        print(
            f"| {name} | {len(lat)} | {built} | {med * 1e3:.2f} | {p99 * 1e3:.2f} | "
            f"{med / ours_med:.2f}x | {recall(found):.3f} |"
        )
    # One table of the figures docs/measurements.md keeps (tools/measurements.py ingest).
    others = f"bm25s {statistics.median(bm25s_lat) * 1e3:.2f} ms, rank_bm25 "
    others += f"{statistics.median(okapi_lat) * 1e3:.2f} ms (median)"
    print(
        "\n| figure | citeproof | beside it | target |\n|---|---|---|---|\n"
        f"| ingestion ({args.messages:,} messages, {mb:.1f} MB), wall | {mb / ingest_s:.2f} MB/s, "
        f"{args.messages / ingest_s:.0f} messages/s | | {target(mb, args.messages, ingest_s)} |\n"
        f"| ingestion per CPU second | {mb / ingest_cpu:.2f} MB/s, "
        f"{args.messages / ingest_cpu:.0f} messages/s | | "
        f"{target(mb, args.messages, ingest_cpu)} |\n"
        f"| retrieval median / p99 | {ours_med * 1e3:.2f} / "
        f"{percentile(ours_lat, 0.99) * 1e3:.2f} ms | {others} | |\n"
        f"| retrieval recall@8 | {recall(ours_found):.3f} | bm25s {recall(bm25s_found):.3f}, "
        f"rank_bm25 {recall(okapi_found):.3f} | |"
    )


if __name__ == "__main__":
    main()
