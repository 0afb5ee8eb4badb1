"""Operations at scale, through the commands a user runs: `citeproof revalidate` on the local
pool and on Ray over 100,000 logged answers, `citeproof report` over 1,000,000 records, and
`citeproof verify --batch` in one process, on the local pool and on Ray.

Run everything, one after the other, side by side with ratios::

    .venv/bin/python bench/bench_operations.py [--answers 100000] [--report-records 1000000]
        [--batch-lines 2000] [--workers 2]

or one figure at a time (each its own process, e.g. each under the heavy-work lock), keeping
the seeded logs in ``--work DIR`` between them, then the table::

    bench_operations.py --work DIR --step seed
    bench_operations.py --work DIR --step revalidate-local   (revalidate-ray, report,
                                                             batch-one, batch-local, batch-ray)
    bench_operations.py --work DIR --step summary

Every timed figure is one ``citeproof`` process started cold (interpreter, imports, a local
Ray instance for ``--engine ray``, reading the log, writing the output), timed from its start
to its exit, with its peak resident memory (`os.wait4`). Ray needs the extra
(``pip install 'citeproof[ray]'``); without it the Ray rows are skipped.

Seeding, not timed: four small source files are ingested into a source store, four real
answers quoting them are verified and concluded (evidence, validation, audit payload) by
citeproof. The logs hold copies of those four payloads under distinct request ids (in the
payload's ``request.request_id`` and the record's request id), appended through the audit
store's own `AuditStore.append_prepared`, 10,000 records per transaction: the canonical JSON of
each template is made once by `payload_json` and each copy's request id spliced into it,
which gives the very bytes `payload_json` gives for that copy (checked for the first copy of
each template); entries, hashes and the chain are built by the store as `append` builds them.
The re-validation log gets a signed checkpoint at its end, as citeproof writes them; the
1,000,000-record log is read only by `report`, which reads no checkpoint. Then one file
changes a quoted paragraph and another gets a new version, so re-validation finds the
outcomes holds, changed and superseded.

The batch file holds ``--batch-lines`` lines, each an answer with its own case number (so no
line is a repeat of another) quoting one of the four files, over the four files as document
sources and one email body.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from citeproof.audit import open_store, payload_json
from citeproof.canonical import canonical_json
from citeproof.outcome import conclude
from citeproof.sources import SourceStore
from citeproof.verifier import verify

SEED_BATCH = 10_000
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
EMAIL = (
    "Hi Priya,\n\nThe Hartley valuation came back at 412,000 pounds, so the loan-to-value is "
    "now 83%. I think we have to refer it to a senior underwriter.\n\nThanks,\nDan"
)
PLACEHOLDER = "req-bench-placeholder"
STEPS = (
    "seed",
    "revalidate-local",
    "revalidate-ray",
    "report",
    "batch-one",
    "batch-local",
    "batch-ray",
    "summary",
)


def citeproof() -> str:
    """The ``citeproof`` command of this interpreter's environment."""
    found = Path(sys.executable).with_name("citeproof")
    return str(found) if found.exists() else shutil.which("citeproof") or "citeproof"


def templates(folder: Path, store_path: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Four audit payloads as citeproof concludes them, for answers quoting the four files, and
    the sources' texts they name by hash (the log keeps each once)."""
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    with SourceStore(store_path) as store:
        for name in FILES:
            store.ingest_file(folder / name)
        sources = {Path(s.origin).name: s.source for s in store.current()}
    payloads = []
    texts: dict[str, str] = {}
    for name, quote in QUOTES.items():
        answer = f'The file says "{quote}" [{sources[name].id}, ¶2].'
        verified = verify(answer, list(sources.values()))
        timings = {"retrieve": 0.002, "prompt": 0.001, "generate": 0.8, "verify": 0.004}
        request = {"command": "ask", "timings": timings}
        outcome = conclude(verified, request=request)
        outcome.payload["request"]["request_id"] = PLACEHOLDER
        payloads.append(outcome.payload)
        texts.update(outcome.texts)
    return payloads, texts


def seed(
    audit: Path,
    payloads: list[dict[str, Any]],
    texts: dict[str, str],
    records: int,
    checkpoint: bool,
) -> float:
    """Append ``records`` copies of the payloads (the texts with the first batch); the seconds
    it took."""
    started = time.perf_counter()
    halves = []
    for payload in payloads:
        body = payload_json(payload)
        marker = canonical_json(PLACEHOLDER)
        assert body.count(marker) == 1, "the placeholder must occur once"
        halves.append(body.split(marker))
    with open_store(audit, checkpoint_every=0) as log:
        for start in range(0, records, SEED_BATCH):
            items = []
            for number in range(start, min(start + SEED_BATCH, records)):
                request_id = f"req-bench-{number}"
                before, after = halves[number % len(halves)]
                items.append((before + canonical_json(request_id) + after, request_id))
            log.append_prepared(items, texts if start == 0 else None)
        for number, payload in enumerate(payloads):  # the splice gives payload_json's bytes
            copy = {
                **payload,
                "request": {**payload["request"], "request_id": f"req-bench-{number}"},
            }
            assert log.one(f"req-bench-{number}").entry.find(payload_json(copy)) > 0
        if checkpoint:
            log.write_checkpoint()
    return time.perf_counter() - started


def change_sources(folder: Path, store_path: Path) -> None:
    (folder / "policy.md").write_text(
        FILES["policy.md"].replace("above 80%", "above 85%"), encoding="utf-8"
    )
    (folder / "rates.md").write_text(FILES["rates.md"].replace("4.25", "4.50"), encoding="utf-8")
    with SourceStore(store_path) as store:
        store.ingest_file(folder / "policy.md")
        store.ingest_file(folder / "rates.md")


def write_batch(path: Path, lines: int) -> None:
    sources = [
        {"id": name.removesuffix(".md"), "kind": "document", "text": text, "title": name}
        for name, text in FILES.items()
    ]
    sources.append({"id": "email", "kind": "email_body", "text": EMAIL, "title": "Re: Hartley"})
    names = list(QUOTES)
    with path.open("w", encoding="utf-8") as sink:
        for number in range(lines):
            name = names[number % len(names)]
            answer = (
                f'For case {number}, the {name.removesuffix(".md")} file says "{QUOTES[name]}" '
                f"[{name.removesuffix('.md')}]; Dan's email agrees [email]."
            )
            line = {"id": f"case-{number}", "answer": answer, "sources": sources}
            sink.write(json.dumps(line, ensure_ascii=False) + "\n")


def seed_all(work: Path, options: argparse.Namespace) -> None:
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    folder, store_path = work / "files", work / "sources.db"
    folder.mkdir()
    payloads, texts = templates(folder, store_path)
    seconds = seed(work / "revalidate.db", payloads, texts, options.answers, checkpoint=True)
    print(f"seeded {options.answers:,} answers for revalidate in {seconds:.1f} s")
    seconds = seed(work / "report.db", payloads, texts, options.report_records, checkpoint=False)
    rate = options.report_records / seconds
    print(
        f"seeded {options.report_records:,} records for report in {seconds:.1f} s ({rate:,.0f}/s)"
    )
    change_sources(folder, store_path)
    write_batch(work / "batch.jsonl", options.batch_lines)
    seeded = {
        "answers": options.answers,
        "report_records": options.report_records,
        "batch_lines": options.batch_lines,
        "workers": options.workers,
    }
    save(work, "seed", seeded)


def run(command: list[str], stdout: Path) -> tuple[float, int, int, str]:
    """Seconds from start to exit of a cold ``citeproof`` process, its peak resident memory
    in MB (GNU time's, measured from a small process: a child forked from this one would
    report this one's size), its exit status and its standard error."""
    with tempfile.TemporaryDirectory() as tmp, stdout.open("wb") as out:
        peak, err = Path(tmp) / "peak", Path(tmp) / "err"
        started = time.perf_counter()
        with err.open("wb") as errors:
            status = subprocess.run(
                ["/usr/bin/time", "-f", "%M", "-o", str(peak), *command],
                stdout=out,
                stderr=errors,
                check=False,
            ).returncode
        seconds = time.perf_counter() - started
        kilobytes = int(peak.read_text().split()[-1])
        return seconds, kilobytes // 1024, status, err.read_text(errors="replace")


def has_ray() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def step(work: Path, name: str, workers: int) -> None:
    seeded = load(work)["seed"]
    if name.endswith("-ray") and not has_ray():
        print(f"{name}: ray is not installed (pip install 'citeproof[ray]'), skipped")
        return
    if name.startswith("revalidate-"):
        engine = name.removeprefix("revalidate-")
        audit = work / f"revalidate-{engine}.db"
        shutil.copyfile(work / "revalidate.db", audit)
        checkpoints = work / f"revalidate-{engine}.db.checkpoints"
        shutil.copytree(work / "revalidate.db.checkpoints", checkpoints, dirs_exist_ok=True)
        command = [citeproof(), "revalidate", "--audit", str(audit), "--store",
                   str(work / "sources.db"), "--json", "--engine", engine,
                   "--workers", str(workers)]  # fmt: skip
        seconds, memory, status, err = run(command, work / f"{name}.jsonl")
        count = seeded["answers"]
    elif name == "report":
        command = [citeproof(), "report", "--audit", str(work / "report.db"), "--since", "all",
                   "--format", "json", "--out", str(work / "report.json")]  # fmt: skip
        seconds, memory, status, err = run(command, work / "report.out")
        count = seeded["report_records"]
        figures = json.loads((work / "report.json").read_text(encoding="utf-8"))
        assert figures["window"]["records"] == count, figures["window"]
    else:
        engine = {"batch-one": ["--engine", "local", "--workers", "1"],
                  "batch-local": ["--engine", "local", "--workers", str(workers)],
                  "batch-ray": ["--engine", "ray", "--workers", str(workers)]}[name]  # fmt: skip
        command = [citeproof(), "verify", "--batch", str(work / "batch.jsonl"),
                   "--out", str(work / f"{name}.jsonl"), *engine]  # fmt: skip
        seconds, memory, status, err = run(command, work / f"{name}.out")
        count = seeded["batch_lines"]
    if status not in ((0,) if name == "report" else (0, 1)):
        raise SystemExit(f"{name} failed ({status}): {err}")
    load_now = os.getloadavg()[0]
    figure = {
        "seconds": seconds,
        "count": count,
        "per_second": count / seconds,
        "peak_mb": memory,
        "status": status,
        "load": load_now,
        "summary": err.strip()[-300:],
    }
    save(work, name, figure)
    print(f"{name}: {count:,} in {seconds:.1f} s = {count / seconds:,.0f}/s, peak {memory} MB, "
          f"load {load_now:.2f}")  # fmt: skip


def save(work: Path, name: str, figure: dict[str, Any]) -> None:
    figures = load(work)
    figures[name] = figure
    (work / "figures.json").write_text(json.dumps(figures, indent=2), encoding="utf-8")


def load(work: Path) -> dict[str, Any]:
    path = work / "figures.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def same_bytes(work: Path, first: str, second: str) -> str:
    a, b = work / f"{first}.jsonl", work / f"{second}.jsonl"
    if not (a.exists() and b.exists()):
        return "not compared"
    return "byte-identical" if a.read_bytes() == b.read_bytes() else "DIFFERENT"


def summary(work: Path) -> None:
    figures = load(work)
    seeded = figures.get("seed", {})
    rows = [
        ("revalidate --engine local", "revalidate-local", "answers"),
        ("revalidate --engine ray", "revalidate-ray", "answers"),
        ("report --since all", "report", "records"),
        ("verify --batch, 1 process", "batch-one", "lines"),
        ("verify --batch --engine local", "batch-local", "lines"),
        ("verify --batch --engine ray", "batch-ray", "lines"),
    ]
    print(f"\n{'command':<32}{'items':>12}{'seconds':>10}{'per s':>10}{'peak MB':>9}{'load':>6}")
    for label, name, unit in rows:
        if name in figures:
            f = figures[name]
            print(f"{label:<32}{f['count']:>12,}{f['seconds']:>10.1f}{f['per_second']:>10,.0f}"
                  f"{f['peak_mb']:>9}{f['load']:>6.2f}  {unit}")  # fmt: skip
    ratios = [
        ("revalidate: ray / local", "revalidate-ray", "revalidate-local"),
        ("verify --batch: local pool / 1 process", "batch-local", "batch-one"),
        ("verify --batch: ray / 1 process", "batch-ray", "batch-one"),
        ("verify --batch: ray / local pool", "batch-ray", "batch-local"),
    ]
    for label, top, bottom in ratios:
        if top in figures and bottom in figures:
            ratio = figures[top]["per_second"] / figures[bottom]["per_second"]
            print(f"{label}: {ratio:.2f}x throughput")
    workers = seeded.get("workers")
    print(f"workers: {workers}; outputs: revalidate local vs ray "
          f"{same_bytes(work, 'revalidate-local', 'revalidate-ray')}; verify --batch 1 process "
          f"vs local {same_bytes(work, 'batch-one', 'batch-local')}, vs ray "
          f"{same_bytes(work, 'batch-one', 'batch-ray')}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--report-records", type=int, default=1_000_000)
    parser.add_argument("--batch-lines", type=int, default=2_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work", type=Path, default=None, help="keep the seeded logs here")
    parser.add_argument("--step", choices=STEPS, default=None, help="one step (with --work)")
    options = parser.parse_args()
    if options.step is not None:
        if options.work is None:
            parser.error("--step needs --work DIR")
        if options.step == "seed":
            seed_all(options.work, options)
        elif options.step == "summary":
            summary(options.work)
        else:
            step(options.work, options.step, options.workers)
        return
    with tempfile.TemporaryDirectory(prefix="citeproof-bench-") as tmp:
        work = options.work or Path(tmp) / "work"
        seed_all(work, options)
        for name in STEPS[1:-1]:
            step(work, name, options.workers)
        summary(work)


if __name__ == "__main__":
    main()
