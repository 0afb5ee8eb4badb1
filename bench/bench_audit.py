"""Audit log throughput: appends and `audit verify` per second, beside a plain INSERT floor.

Run: ``.venv/bin/python bench/bench_audit.py`` (SQLite; PostgreSQL too when CITEPROOF_PG_URL is
set, e.g. ``export CITEPROOF_PG_URL=$(.ci/postgres.sh)``). Options: ``--records`` (default
100,000: batched appends and verify), ``--single`` (default 20,000: one committed append each).

For each backend, in the same database and one run:
- single: `store.append` (one durable transaction per record, checkpoint every 100) vs a plain
  ``INSERT`` of the same JSON, one committed transaction per row;
- batch: `store.append_many` in batches of 1,000 vs ``executemany`` INSERT, 1,000 per commit;
- verify: `verify_log` over the whole log (re-hash, Merkle root, checkpoint signatures) vs a plain
  ``SELECT`` of the same rows with ``json.loads`` of each body.
Ratios are audit / floor throughput (1.0 = as fast as the plain INSERT or read).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from citeproof.audit import AuditStore, open_store, verify_log

BATCH = 1000
CHUNK = 500


def payload(number: int) -> dict[str, Any]:
    """About 1.5 KB: a short answer, its correction, three evidence objects, a decision."""
    evidence = [
        {
            "doc_id": f"policy-{k}",
            "version": "2024-05-01",
            "url": f"https://intranet.example/policies/{k}",
            "excerpt": "Loans above 80 % loan-to-value are referred to a credit officer." * 2,
            "retrieved_at": "2024-05-01T12:00:00Z",
            "confidence": 0.93,
            "location": {"paragraph": 12, "span": [104, 231]},
        }
        for k in range(3)
    ]
    return {
        "request": {"answer_file": f"answer-{number}.md", "sources": ["policy", "memo"]},
        "response": {
            "original": f"Per the policy, \u201cloans above 80 % LTV are referred\u201d ({number})",
            "corrected": f"Per the policy, \u201cLoans above 80 % loan-to-value\u201d ({number}).",
        },
        "evidence": evidence,
        "verdicts": [{"quote": 0, "status": "corrected", "score": 0.91}],
        "live_values": {"base_rate": {"value": 5.25, "fetched_at": "2024-05-01T12:00:01Z"}},
        "rules": {"fired": ["refer-high-ltv"], "decision": "refer"},
    }


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def timed(action: Callable[[], None]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


class Floor:
    """Plain INSERT / SELECT of the same JSON into a plain table of the same database."""

    def __init__(self, store: AuditStore, kind: str) -> None:
        self.db: Any = store._db  # same connection, same durability settings
        self.kind = kind
        self.mark = "?" if kind == "sqlite" else "%s"
        blob = "BLOB" if kind == "sqlite" else "BYTEA"
        self.db.execute(f"CREATE TABLE bench_plain (id INTEGER PRIMARY KEY, body {blob} NOT NULL)")

    def insert_single(self, bodies: list[bytes], start: int, end: int) -> None:
        sql = f"INSERT INTO bench_plain VALUES ({self.mark}, {self.mark})"
        for number in range(start, end):
            self.db.execute(sql, (number, bodies[number]))  # autocommit: one transaction each

    def insert_batch(self, bodies: list[bytes], start: int, end: int) -> None:
        sql = f"INSERT INTO bench_plain VALUES ({self.mark}, {self.mark})"
        rows = [(number, bodies[number]) for number in range(start, end)]
        if self.kind == "sqlite":
            self.db.execute("BEGIN")
            self.db.executemany(sql, rows)
            self.db.execute("COMMIT")
        else:
            with self.db.transaction(), self.db.cursor() as cursor:
                cursor.executemany(sql, rows)

    def read_all(self) -> int:
        count = 0
        last = -1
        sql = f"SELECT id, body FROM bench_plain WHERE id > {self.mark} ORDER BY id LIMIT 2000"
        while rows := self.db.execute(sql, (last,)).fetchall():
            for ident, body in rows:
                json.loads(bytes(body))
                count += 1
                last = ident
        return count


def run_backend(name: str, target: str, checkpoints: Path, records: int, single: int) -> None:
    # The floor stores the same JSON text (sorted keys), without canonicalisation or hashing.
    bodies = [json.dumps(payload(n), sort_keys=True).encode() for n in range(records + single)]
    with open_store(target, checkpoint_dir=checkpoints, checkpoint_every=100) as store:
        floor = Floor(store, "sqlite" if name == "SQLite" else "pg")

        # Audit and floor run in alternating chunks so disk and load drift hit both alike.
        times = {"single": [0.0, 0.0], "batch": [0.0, 0.0]}
        for start in range(0, single, CHUNK):
            end = min(single, start + CHUNK)
            times["single"][0] += timed(
                lambda s=start, e=end: [store.append(payload(n), f"req-s{n}") for n in range(s, e)]
            )
            times["single"][1] += timed(lambda s=start, e=end: floor.insert_single(bodies, s, e))
        for start in range(single, single + records, BATCH):
            end = min(single + records, start + BATCH)
            items = [(payload(n), f"req-b{n}") for n in range(start, end)]
            times["batch"][0] += timed(lambda items=items: store.append_many(items))
            times["batch"][1] += timed(lambda s=start, e=end: floor.insert_batch(bodies, s, e))
        results = [
            ("append, single", single, *times["single"]),
            (f"append, batch {BATCH}", records, *times["batch"]),
        ]
        total = store.size()
        report_box: list[Any] = []
        verify_seconds = timed(lambda: report_box.append(verify_log(store)))
        read_seconds = timed(floor.read_all)
        report = report_box[0]
        assert report.ok and report.records == total, report
        results.append(("verify (re-hash all)", total, verify_seconds, read_seconds))
        entry_bytes = sum(len(r.entry) for r in store.records(0, 1000)) / 1000
    print(f"\n{name}: {total:,} records, {entry_bytes:,.0f} bytes per record entry")
    print(f"{'operation':24} {'records':>9} {'audit rec/s':>12} {'floor rec/s':>12} {'ratio':>6}")
    for label, count, audit_s, floor_s in results:
        audit_rate, floor_rate = rate(count, audit_s), rate(count, floor_s)
        print(
            f"{label:24} {count:>9,} {audit_rate:>12,.0f} {floor_rate:>12,.0f} "
            f"{audit_rate / floor_rate:>6.2f}"
        )


@contextmanager
def pg_schema(url: str) -> Iterator[str]:
    import psycopg

    name = f"bench_audit_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {name}".encode())
        try:
            separator = "&" if "?" in url else "?"
            yield f"{url}{separator}options={quote('-csearch_path=' + name)}"
        finally:
            admin.execute(f"DROP SCHEMA {name} CASCADE".encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--single", type=int, default=20_000)
    args = parser.parse_args()
    print(f"sqlite {sqlite3.sqlite_version}; batch {BATCH}; checkpoint every 100 appends")
    with tempfile.TemporaryDirectory(prefix="bench-audit-") as folder:
        target = Path(folder) / "audit.db"
        run_backend("SQLite", str(target), Path(folder) / "checkpoints", args.records, args.single)
        url = os.environ.get("CITEPROOF_PG_URL")
        if url:
            with pg_schema(url) as schema_url:
                run_backend(
                    "PostgreSQL", schema_url, Path(folder) / "pg-checkpoints", args.records,
                    args.single,
                )  # fmt: skip
        else:
            print("\nPostgreSQL: skipped (set CITEPROOF_PG_URL, see .ci/postgres.sh)")


if __name__ == "__main__":
    main()
