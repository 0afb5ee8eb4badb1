"""The HTTP service under load: ``POST /v1/verify`` beside ``GET /healthz`` as the floor.

Run: ``.venv/bin/python bench/bench_service.py`` (options: ``--clients`` 32, ``--seconds`` 60,
``--floor-seconds`` 15, ``--workers`` 2, ``--warmup-seconds`` 3, ``--httpx``). Starts
``citeproof serve`` on a free loopback port with a fresh data folder and a token, waits until
every worker listens, loads it for the warm-up seconds (each worker's first requests load what
it loads on first use), then drives it with ``wrk`` (a C load
generator, one thread; ``apt-get install wrk``) when it is installed, else with a bounded async
httpx load generator in this process, which spends much of the two cores itself (its floor is
several times lower; the output names the driver): ``--clients`` connections, each sending its
next request as soon as the last one is answered, for ``--seconds``.

Every request is a 5-quote answer (three verbatim, one with a changed word, one not in the
sources) over 5 sources of ~10 KB each (50 KB, QuoteSum paragraphs from
``$CITEPROOF_DATA/quotesum/dev_half.jsonl``), so every request verifies, judges its claims,
builds the evidence and appends a durable audit record. Reports throughput, p50/p95/p99 latency
and errors, and beside them the library's own cost per request (verify, evidence, audit append,
JSON) in-process, one at a time.
Target on the development machine: 0 errors, p95 at most 100 ms. ``--stages N``: only where
one request's time goes (parse, verify's quotes and claim support, evidence, audit append,
JSON), N requests in-process.

``--hosts 2``: the deployment of docs/deploy.md instead: one PostgreSQL (``CITEPROOF_PG_URL``, a
fresh schema), two ``serve`` hosts with a worker and a data folder each, docs/nginx.conf in
front with both in its upstream (its per-address ``limit_req``/``limit_conn`` left out: every
request comes from this one address); ``POST /v1/verify`` through nginx beside one host
straight, with the load average. On one machine of two cores this measures that the hosts
work together and what nginx and PostgreSQL cost, not how far more machines scale.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from citeproof.testing._sockets import listening_sockets

SOURCES = 5
SOURCE_BYTES = 10_000


def data_path() -> Path:
    default = Path(__file__).resolve().parents[2] / "shared" / "data"
    root = Path(os.environ.get("CITEPROOF_DATA", default))
    return root / "quotesum" / "dev_half.jsonl"


def request_line() -> dict[str, Any]:
    """The verify request: 5 quotes over 5 sources of ~10 KB."""
    paragraphs: list[str] = []
    seen: set[str] = set()
    for raw in data_path().read_text(encoding="utf-8").splitlines():
        row = json.loads(raw)
        for n in range(1, 9):
            text = str(row.get(f"source{n}", "")).strip()
            if len(text) > 200 and text not in seen:
                seen.add(text)
                paragraphs.append(text)
        if sum(map(len, paragraphs)) > SOURCES * SOURCE_BYTES * 1.2:
            break
    sources: list[dict[str, Any]] = []
    for number in range(1, SOURCES + 1):
        chunk: list[str] = []
        while sum(map(len, chunk)) < SOURCE_BYTES:
            chunk.append(paragraphs.pop(0))
        sources.append({"id": f"S{number}", "kind": "document", "text": "\n\n".join(chunk)})
    quotes = []
    for number, source in enumerate(sources, start=1):
        sentence = next(
            s
            for s in re.split(r"(?<=[.!?])\s+", source["text"])
            if 60 < len(s) < 200 and '"' not in s
        ).rstrip(".")
        if number == 4:  # a changed word: corrected
            words = sentence.split()
            words[len(words) // 2] = "purportedly"
            sentence = " ".join(words)
        if number == 5:  # not in any source
            sentence = "the committee approved the merger without further review"
        quotes.append(f'Source {number} says "{sentence}" [S{number}].')
    answer = "According to the sources:\n\n" + "\n".join(quotes)
    return {"id": "bench", "answer": answer, "sources": sources}


def in_process(line: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The library's own cost, one request at a time, no HTTP: verify, evidence, audit append
    (SQLite, durable) and the JSON of the record: what each request costs a worker's CPU."""
    from citeproof.audit import open_store
    from citeproof.outcome import conclude, read_batch_line
    from citeproof.verifier import verify

    raw = json.dumps(line)
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as folder, open_store(Path(folder) / "a.db") as log:
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            started = time.perf_counter()
            answer_id, answer, sources, _ = read_batch_line(raw, where="bench")
            verified = verify(answer, sources, answer_id=answer_id)
            outcome = conclude(verified, request={"command": "bench"}, log=log)
            json.dumps(outcome.payload["answer"])  # the service answers with the record logged
            latencies.append(time.perf_counter() - started)
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "requests": len(latencies),
        "throughput": len(latencies) / seconds,
        "p50_ms": pct(0.5),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "errors": 0,
        "error_kinds": {},
    }


def stages(line: dict[str, Any], requests: int) -> dict[str, list[float]]:
    """Where one request's time goes, in-process, one at a time, ``requests`` times: the
    service's own steps (`Service.verify_body` then the response's JSON), each timed alone.
    ``support`` and ``evidence`` are timed inside ``verify`` and ``record`` and taken out of
    them; ``audit append`` is the durable SQLite append; ``orjson`` (when installed) is the
    same record encoded by orjson instead of ``json``, for comparison."""
    import citeproof.outcome._recording as recording
    import citeproof.verifier._verification as verification
    from citeproof.audit import open_store
    from citeproof.outcome import conclude, read_batch_line
    from citeproof.server._service import dumps

    try:
        import orjson
    except ImportError:
        orjson = None
    spent: dict[str, list[float]] = {}

    def timing(name: str, function: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent.setdefault(name, []).append(time.perf_counter() - started)

        return timed

    body = json.dumps(line).encode()
    saved = (verification.attach_support, recording.build_evidence, recording.validate)
    verification.attach_support = timing("support", saved[0])
    recording.build_evidence = timing("evidence", saved[1])
    recording.validate = timing("evidence", saved[2])
    try:
        with tempfile.TemporaryDirectory() as folder, open_store(Path(folder) / "a.db") as log:
            append = log.append
            log.append = timing("audit append", append)  # type: ignore[method-assign]
            for _ in range(requests):
                started = time.perf_counter()
                answer_id, answer, sources, _ = read_batch_line(body.decode(), where="bench")
                parsed = time.perf_counter()
                verified = verification.verify(answer, sources, answer_id=answer_id)
                verified_at = time.perf_counter()
                outcome = conclude(verified, request={"command": "bench"}, log=log)
                recorded = time.perf_counter()
                record = outcome.payload["answer"]  # what the service answers: the record logged
                dumps(record).encode()
                encoded = time.perf_counter()
                if orjson is not None:
                    orjson.dumps(record)
                    spent.setdefault("orjson (instead of json)", []).append(
                        time.perf_counter() - encoded
                    )
                for name, seconds in (
                    ("parse request", parsed - started),
                    ("verify", verified_at - parsed),
                    ("record", recorded - verified_at),
                    ("json.dumps + encode", encoded - recorded),
                    ("total", encoded - started),
                ):
                    spent.setdefault(name, []).append(seconds)
    finally:
        verification.attach_support, recording.build_evidence, recording.validate = saved
    return spent


def print_stages(spent: dict[str, list[float]]) -> None:
    """The `stages` table: median and p95 per stage, share of the median total."""
    n = len(spent["total"])
    total = statistics.median(spent["total"])
    quotes = [v - s for v, s in zip(spent["verify"], spent["support"], strict=True)]
    evidence = [sum(spent["evidence"][2 * i : 2 * i + 2]) for i in range(n)]
    rest = [
        r - e - a for r, e, a in zip(spent["record"], evidence, spent["audit append"], strict=True)
    ]
    rows = [
        ("parse request (JSON, contract)", spent["parse request"]),
        ("verify: quotes", quotes),
        ("verify: claim support", spent["support"]),
        ("evidence + validation", evidence),
        ("audit append (SQLite, durable)", spent["audit append"]),
        ("record: payload, ids", rest),
        ("json.dumps + encode", spent["json.dumps + encode"]),
        ("total", spent["total"]),
    ]
    if "orjson (instead of json)" in spent:
        rows.append(("orjson.dumps (instead)", spent["orjson (instead of json)"]))
    busy = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"where a request's time goes: {n} requests in-process, one at a time, load {busy:.1f}")
    print(f"{'stage':<32} {'median ms':>10} {'p95 ms':>8} {'share':>6}")
    for name, values in rows:
        ordered = sorted(values)
        median = statistics.median(ordered)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(f"{name:<32} {median * 1e3:10.2f} {p95 * 1e3:8.2f} {median / total:6.0%}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def drive(
    url: str, method: str, path: str, content: bytes | None, headers: dict[str, str],
    clients: int, seconds: float, *, stagger: float = 0.0,
) -> dict[str, Any]:  # fmt: skip
    """``clients`` keep-alive connections, each sending its next request once the last is
    answered, for ``seconds``. ``stagger``: client ``i`` of ``n`` sends its first request
    ``i / n * stagger`` seconds in, so requests that each take about ``stagger`` seconds
    arrive spread out instead of all at once."""
    latencies: list[float] = []
    errors: dict[str, int] = {}
    stop = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, headers=headers, limits=limits, timeout=30) as http:

        async def client(position: int) -> None:
            await asyncio.sleep(position / clients * stagger)
            while time.perf_counter() < stop:
                started = time.perf_counter()
                try:
                    response = await http.request(method, path, content=content)
                    if response.status_code != 200:
                        key = f"HTTP {response.status_code}"
                        errors[key] = errors.get(key, 0) + 1
                        continue
                except httpx.HTTPError as error:
                    errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1
                    continue
                latencies.append(time.perf_counter() - started)

        began = time.perf_counter()
        await asyncio.gather(*(client(i) for i in range(clients)))
        elapsed = time.perf_counter() - began
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "requests": len(latencies),
        "throughput": len(latencies) / elapsed,
        "p50_ms": pct(0.50) if latencies else None,
        "p95_ms": pct(0.95) if latencies else None,
        "p99_ms": pct(0.99) if latencies else None,
        "mean_ms": statistics.fmean(latencies) * 1000 if latencies else None,
        "errors": sum(errors.values()),
        "error_kinds": errors,
    }


WRK_SCRIPT = """
local file = os.getenv("BENCH_BODY")
if file ~= nil then
  local handle = io.open(file, "rb")
  wrk.method = "POST"
  wrk.body = handle:read("*a")
  handle:close()
  wrk.headers["Content-Type"] = "application/json"
end
local token = os.getenv("BENCH_AUTH")
if token ~= nil then wrk.headers["Authorization"] = token end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH %d %d %d %d %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.mean,
    e.connect + e.read + e.write, e.status, e.timeout))
end
"""


def drive_wrk(
    url: str, path: str, content: bytes | None, headers: dict[str, str],
    clients: int, seconds: float, folder: Path,
) -> dict[str, Any]:  # fmt: skip
    """The same closed loop as `drive`, by wrk: ``clients`` connections on one thread."""
    script = folder / "bench.lua"
    script.write_text(WRK_SCRIPT)
    env = dict(os.environ)
    env.pop("BENCH_BODY", None)
    env.pop("BENCH_AUTH", None)
    if content is not None:
        body = folder / "body.json"
        body.write_bytes(content)
        env["BENCH_BODY"] = str(body)
    if "Authorization" in headers:
        env["BENCH_AUTH"] = headers["Authorization"]
    run = subprocess.run(
        ["wrk", "-t1", f"-c{clients}", f"-d{max(1, round(seconds))}s", "--timeout", "30s",
         "-s", str(script), url + path],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    figures = next(line for line in run.stdout.splitlines() if line.startswith("BENCH "))
    requests, duration, p50, p95, p99, mean, socket_errors, status, timeouts = (
        int(float(x)) for x in figures.split()[1:]
    )
    errors = {
        k: v
        for k, v in {
            "socket": socket_errors,
            "HTTP status >= 400": status,
            "timeout": timeouts,
        }.items()
        if v
    }
    answered = requests - status
    return {
        "requests": answered,
        "throughput": answered / (duration / 1e6),
        "p50_ms": p50 / 1000,
        "p95_ms": p95 / 1000,
        "p99_ms": p99 / 1000,
        "mean_ms": mean / 1000,
        "errors": sum(errors.values()),
        "error_kinds": errors,
    }


def start_service(
    data: Path,
    port: int,
    workers: int,
    *,
    name: str = "bench",
    wait_seconds: float = 60.0,
    limits: dict[str, float] | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """`citeproof serve` on ``port`` with a token named ``name`` and the rate limit lifted
    (the benches measure throughput, not the rate limit), and any other ``limits``; waits for
    ``/healthz``. Returns the process and the token."""
    citeproof = str(Path(sys.executable).parent / "citeproof")
    token = subprocess.run(
        [citeproof, "token", "add", name, "--data", str(data)],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    limits_file = data / "limits.json"
    limits_file.write_text(
        json.dumps({"rate_per_minute": 10_000_000, "rate_burst": 1_000_000, **(limits or {})})
    )
    process = subprocess.Popen(
        [citeproof, "serve", "--port", str(port), "--data", str(data),
         "--workers", str(workers), "--limits", str(limits_file)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(int(wait_seconds * 10)):
        try:
            answered = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200
        except httpx.TransportError:
            answered = False
        if answered and (
            not sys.platform.startswith("linux") or listening_sockets(port) >= workers
        ):
            return process, token
        time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def hosts_bench(args: argparse.Namespace, content: bytes) -> None:
    """``--hosts N``: N hosts of one worker on a fresh PostgreSQL schema, nginx in front."""
    import psycopg

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.conftest import schema_url
    from tests.security.test_nginx_front import main_config, site_config

    url, nginx = os.environ.get("CITEPROOF_PG_URL"), shutil.which("nginx") or "/usr/sbin/nginx"
    if not url or not os.access(nginx, os.X_OK):
        raise SystemExit("--hosts needs CITEPROOF_PG_URL (.ci/postgres.sh) and nginx")
    schema = f"bench_hosts_{os.getpid()}"
    citeproof = str(Path(sys.executable).parent / "citeproof")
    processes: list[subprocess.Popen[bytes]] = []
    with (
        psycopg.connect(url, autocommit=True) as admin,
        tempfile.TemporaryDirectory(prefix="citeproof-bench-hosts-") as name,
    ):
        admin.execute(f"CREATE SCHEMA {schema}".encode())
        folder, database = Path(name), schema_url(url, schema)
        try:
            token = subprocess.run(
                [citeproof, "token", "add", "bench", "--database", database],
                capture_output=True, text=True, check=True,
            ).stdout.strip()  # fmt: skip
            ports = [free_port() for _ in range(args.hosts)]
            limits = folder / "limits.json"
            limits.write_text(json.dumps(
                {"rate_per_minute": 10_000_000, "rate_burst": 1_000_000,
                 "connections_per_client": 1000}
            ))  # fmt: skip
            for n, port in enumerate(ports):
                (folder / f"host-{n}").mkdir()
                processes.append(subprocess.Popen(
                    [citeproof, "serve", "--port", str(port), "--data", str(folder / f"host-{n}"),
                     "--database", database, "--limits", str(limits)],
                    stdout=subprocess.DEVNULL,
                ))  # fmt: skip
            front = free_port()
            site = site_config(ports[0], front)
            upstream = "".join(f"    server 127.0.0.1:{port};\n" for port in ports)
            site = site.replace(f"    server 127.0.0.1:{ports[0]};\n", upstream)
            site = re.sub(r"(?m)^\s*limit_(req|conn) [^;]+;\n", "", site)
            site = site.replace("server_name citeproof.example.org;",
                                "server_name citeproof.example.org 127.0.0.1;")  # fmt: skip
            (folder / "site.conf").write_text(site)
            (folder / "nginx.conf").write_text(main_config(folder, folder / "site.conf"))
            processes.append(subprocess.Popen(
                [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr"],
                stdout=subprocess.DEVNULL,
            ))  # fmt: skip
            for port in [*ports, front]:
                for _ in range(600):
                    try:
                        if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).is_success:
                            break
                    except httpx.TransportError:
                        pass
                    time.sleep(0.1)
                else:
                    raise SystemExit(f"nothing answered on port {port}")
            headers = {"Authorization": f"Bearer {token}"}
            rows = []
            for label, port in (
                (f"{args.hosts} hosts via nginx", front),
                ("1 host, straight", ports[0]),
            ):
                address = f"http://127.0.0.1:{port}"
                asyncio.run(drive(address, "POST", "/v1/verify", content, headers, args.clients,
                                  args.warmup_seconds))  # fmt: skip
                row = asyncio.run(drive(address, "POST", "/v1/verify", content, headers,
                                        args.clients, args.seconds))  # fmt: skip
                rows.append((label, row, os.getloadavg()[0]))
        finally:
            for process in reversed(processes):  # nginx (graceful on SIGQUIT) first
                is_nginx = process.args[0] == nginx  # type: ignore[index]
                process.send_signal(signal.SIGQUIT if is_nginx else signal.SIGTERM)
                process.wait(timeout=30)
            admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE".encode())
    print(
        f"POST /v1/verify, {args.clients} clients (httpx in this process), {args.seconds:.0f} s "
        f"each, {args.hosts} hosts of 1 worker on PostgreSQL, {os.cpu_count()} cores: this "
        "measures correctness and overhead (nginx, PostgreSQL), not scale"
    )
    print(f"{'':<22} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7} {'load 1m':>8}")
    for label, row, load in rows:
        print(
            f"{label:<22} {row['throughput']:>8.1f} {row['p50_ms'] or 0:>8.1f} "
            f"{row['p95_ms'] or 0:>8.1f} {row['errors']:>7} {load:>8.1f}"
            + (f"  {row['error_kinds']}" if row["errors"] else "")
        )


def start(data: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    process, token = start_service(data, port, workers)
    os.environ["BENCH_TOKEN"] = token
    return process


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--floor-seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--warmup-seconds", type=float, default=3.0)
    parser.add_argument("--httpx", action="store_true", help="drive with httpx even if wrk is here")
    parser.add_argument(
        "--stages", type=int, metavar="N", help="only the per-stage profile of N requests"
    )
    parser.add_argument(
        "--hosts", type=int, default=1, help="2: two hosts on PostgreSQL behind nginx"
    )
    args = parser.parse_args()
    line = request_line()
    if args.hosts > 1:
        hosts_bench(args, json.dumps(line).encode())
        return
    if args.stages:
        print_stages(stages(line, args.stages))
        return
    library = in_process(line, args.floor_seconds)
    content = json.dumps(line).encode()
    size = sum(len(s["text"].encode()) for s in line["sources"])
    with tempfile.TemporaryDirectory(prefix="citeproof-bench-") as folder:
        port = free_port()
        process = start(Path(folder), port, args.workers)
        url = f"http://127.0.0.1:{port}"
        headers = {"Authorization": f"Bearer {os.environ['BENCH_TOKEN']}"}
        use_wrk = shutil.which("wrk") is not None and not args.httpx

        def load(method: str, path: str, body: bytes | None, auth: dict[str, str],
                 seconds: float) -> dict[str, Any]:  # fmt: skip
            if use_wrk:
                return drive_wrk(url, path, body, auth, args.clients, seconds, Path(folder))
            return asyncio.run(drive(url, method, path, body, auth, args.clients, seconds))

        try:
            check = httpx.post(f"{url}/v1/verify", content=content, headers=headers, timeout=30)
            counts = check.json()["counts"]
            print(
                f"citeproof serve, {args.workers} workers, {args.clients} clients, driven by "
                f"{'wrk' if use_wrk else 'httpx in this process'}; request: "
                f"{len(content):,} bytes, 5 quotes ({counts}) over {size:,} bytes of sources"
            )
            # Every worker's first requests load what it loads on first use (the claim
            # support encoder, the sources' indexes): the steady state is what is measured.
            load("POST", "/v1/verify", content, headers, args.warmup_seconds)
            rows = [
                ("POST /v1/verify", load("POST", "/v1/verify", content, headers, args.seconds)),
                ("GET /healthz (floor)", load("GET", "/healthz", None, {}, args.floor_seconds)),
                ("verify in-process, 1", library),
            ]  # fmt: skip
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
    print(f"{'endpoint':<22} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for name, row in rows:
        print(
            f"{name:<22} {row['throughput']:>8.1f} {row['p50_ms']:>8.1f} {row['p95_ms']:>8.1f} "
            f"{row['p99_ms']:>8.1f} {row['errors']:>7}"
            + (f"  {row['error_kinds']}" if row["errors"] else "")
        )
    verify = rows[0][1]
    met = verify["errors"] == 0 and verify["p95_ms"] <= 100
    print(f"target (0 errors, p95 ≤ 100 ms): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
