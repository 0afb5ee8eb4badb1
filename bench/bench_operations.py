"""Operations throughput: `citeproof revalidate` on the local pool and on Ray, and the time
`citeproof report` takes over the same log.

Run: ``.venv/bin/python bench/bench_operations.py [--answers 100000] [--workers 2]`` (Ray
needs the extra: ``pip install 'citeproof[ray]'``; without it the Ray row is skipped).

Setup, not timed: four small source files are ingested into a source store and four real
answers quoting them are verified and concluded (evidence, validation, audit payload). The log
is filled with ``--answers`` copies of those payloads (distinct request ids), appended in
batches of 1,000. Then one file changes a quoted paragraph and another gets a new version,
so re-validation finds all four outcomes.

Timed, each engine on its own copy of the log (a local Ray instance with ``--workers`` CPUs is
started before the clock starts; its start-up time is printed apart): `revalidate_log` end to
end (read the log, resolve the current sources, verify every answer again, append one outcome
record per answer in one transaction per chunk, write a checkpoint), then `build_report` over
the log holding the answers and their outcomes.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from citeproof.audit import open_store
from citeproof.operations.engines import Engine
from citeproof.operations.logged import logged_records
from citeproof.operations.report import build_report
from citeproof.operations.revalidate_log import RevalidationRun, revalidate_log
from citeproof.outcome.recording import conclude
from citeproof.sources.store import SourceStore
from citeproof.verifier.verification import verify

BATCH = 1000
NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
FILES = {
    "policy.md": "Credit policy\n\nApplications with a loan-to-value ratio above 80% must be "
    "referred to a senior underwriter.\n\nSelf-employed applicants provide two years of "
    "accounts.\n",
    "rates.md": "Rate sheet\n\nThe standard variable rate is reviewed on the first business "
    "day of each month.\n\nThe base rate today is 4.25%.\n",
    "memo.md": "Memo\n\nThe Hartley valuation came back at 412,000 pounds.\n",
    "guide.md": "Broker guide\n\nBrokers must submit every application through the portal.\n",
}
QUOTES = {
    "policy.md": "loan-to-value ratio above 80% must be referred",
    "rates.md": "reviewed on the first business day of each month",
    "memo.md": "The Hartley valuation came back at 412,000 pounds",
    "guide.md": "must submit every application through the portal",
}


def templates(folder: Path, store_path: Path) -> list[dict[str, Any]]:
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    with SourceStore(store_path) as store:
        for name in FILES:
            store.ingest_file(folder / name)
        sources = {Path(s.origin).name: s.source for s in store.current()}
    payloads = []
    for name, quote in QUOTES.items():
        answer = f'The file says "{quote}" [{sources[name].id}, ¶2].'
        verified = verify(answer, list(sources.values()), now=NOW)
        timings = {"retrieve": 0.002, "prompt": 0.001, "generate": 0.8, "verify": 0.004}
        request = {"command": "ask", "timings": timings}
        payloads.append(conclude(verified, request=request).payload)
    return payloads


def fill(audit: Path, payloads: list[dict[str, Any]], answers: int) -> None:
    with open_store(audit, checkpoint_every=0) as log:
        for start in range(0, answers, BATCH):
            batch = []
            for number in range(start, min(start + BATCH, answers)):
                template = payloads[number % len(payloads)]
                request_id = f"req-bench-{number}"
                payload = {**template, "request_id": request_id}
                batch.append((payload, request_id))
            log.append_many(batch)
        log.write_checkpoint()


def change_sources(folder: Path, store_path: Path) -> None:
    (folder / "policy.md").write_text(
        FILES["policy.md"].replace("above 80%", "above 85%"), encoding="utf-8"
    )
    (folder / "rates.md").write_text(FILES["rates.md"].replace("4.25", "4.50"), encoding="utf-8")
    (folder / "memo.md").unlink()  # stays current in the store: the store never deletes
    with SourceStore(store_path) as store:
        store.ingest_file(folder / "policy.md")
        store.ingest_file(folder / "rates.md")


def timed_revalidation(
    audit: Path, store_path: Path, engine: Engine, workers: int
) -> tuple[RevalidationRun, float]:
    with open_store(audit) as log, SourceStore(store_path) as store:
        started = time.perf_counter()
        run = revalidate_log(log, store, engine=engine, workers=workers, chunk_size=256)
        return run, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="citeproof-bench-") as tmp:
        root = Path(tmp)
        folder, store_path, base = root / "files", root / "sources.db", root / "base.db"
        folder.mkdir()
        payloads = templates(folder, store_path)
        started = time.perf_counter()
        fill(base, payloads, options.answers)
        print(f"log of {options.answers:,} answers filled in {time.perf_counter() - started:.1f} s")
        change_sources(folder, store_path)
        engines: list[Engine] = ["local"]
        try:
            import ray

            engines.append("ray")
        except ImportError:
            print("ray: not installed (pip install 'citeproof[ray]'), skipped")
        results = {}
        for engine in engines:
            audit = root / f"{engine}.db"
            shutil.copyfile(base, audit)
            shutil.copytree(root / "base.db.checkpoints", root / f"{engine}.db.checkpoints")
            if engine == "ray":
                started = time.perf_counter()
                ray.init(num_cpus=options.workers, include_dashboard=False, log_to_driver=False)
                print(f"ray: local instance started in {time.perf_counter() - started:.1f} s")
            run, seconds = timed_revalidation(audit, store_path, engine, options.workers)
            results[engine] = run.results
            print(
                f"revalidate --engine {engine} ({options.workers} workers): "
                f"{len(run.results):,} answers in {seconds:.1f} s = "
                f"{len(run.results) / seconds:,.0f} answers/s; {run.counts()}"
            )
        if "ray" in engines:
            ray.shutdown()
        if len(results) == 2:
            same = results["local"] == results["ray"]
            print(f"local and ray outcomes identical: {same}")
        with open_store(root / "local.db") as log:
            records = log.size()
            started = time.perf_counter()
            report = build_report(logged_records(log), now=datetime.now(UTC), since=None)
            seconds = time.perf_counter() - started
        print(
            f"report over {records:,} records ({report.answers:,} answers): {seconds:.1f} s = "
            f"{records / seconds:,.0f} records/s"
        )


if __name__ == "__main__":
    main()
