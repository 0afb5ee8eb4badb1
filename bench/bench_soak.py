"""The service under a connection flood, and its memory over a long run.

Run: ``.venv/bin/python bench/bench_soak.py`` (options: ``--clients`` 32, ``--seconds`` 60,
``--idle`` 1000, ``--slow`` 100, ``--rss-requests`` 10000, ``--workers`` 2; ``--short`` for a
quick check: 5 s per phase, 20 requests for memory). Starts ``citeproof serve`` on a free
loopback port (a fresh data folder, a token, the rate limit lifted), then:

1. **load**: ``--clients`` keep-alive clients (from 127.0.0.2) send the verify request of
   ``bench_service.py`` (5 quotes over 50 KB of sources), each its next as soon as the last is
   answered, for ``--seconds``: throughput, p50/p95/p99, errors;
2. **load under attack**: the same, while another process holds ``--idle`` connections that
   send nothing and ``--slow`` that send their headers a byte every 0.45 s, all from one
   address (127.0.0.1), opening a new one 0.2 s after the service closes one: the same figures
   beside the first, and what the attacker saw (connections refused at once with 503, closed
   by the header deadline);
3. **memory**: ``--rss-requests`` requests, each with a fresh source of ~1M characters never
   seen before; each worker's resident memory (VmRSS) before and after, and its peak (VmHWM);
4. **deadline storm** and 5. **two principals** (`soak_fairness.py`, on a second service
   whose deadline is 2 s; ``--fairness-seconds`` 30 per part of phase 5; ``--fairness-only``
   runs just these two).

Targets: the same error count with and without the attack (0), p95 under attack within 1.5x
of p95 without it, and worker RSS levelling off (bounded caches) rather than growing with the
requests. Timings on a loaded machine are not trustworthy: the output names the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_service import free_port, request_line, start_service
from soak_fairness import STORM_DEADLINE, add_token, storm, two_principals

LOAD_ADDRESS = "127.0.0.2"
ATTACK_ADDRESS = "127.0.0.1"
SLOW_BYTE_SECONDS = 0.45
RECONNECT_SECONDS = 0.2
"""How soon the attacker opens a new connection for one the service closed: it holds
connections; a flood of connects per second is for a firewall or proxy in front."""
FRESH_CHARS = 990_000


def start(data: Path, port: int, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """`citeproof serve` on ``port`` with a token and the rate limit lifted; waits for it."""
    return start_service(data, port, workers, name="soak", wait_seconds=180.0)


async def load(url: str, token: str, body: bytes, clients: int, seconds: float) -> dict[str, Any]:
    """``clients`` closed-loop clients from `LOAD_ADDRESS` for ``seconds``."""
    latencies: list[float] = []
    errors: dict[str, int] = {}
    transport = httpx.AsyncHTTPTransport(
        local_address=LOAD_ADDRESS,
        limits=httpx.Limits(max_connections=clients, max_keepalive_connections=clients),
    )
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    stop = time.perf_counter() + seconds
    async with httpx.AsyncClient(
        base_url=url, headers=headers, transport=transport, timeout=30
    ) as http:

        async def client() -> None:
            while time.perf_counter() < stop:
                started = time.perf_counter()
                try:
                    response = await http.post("/v1/verify", content=body)
                except httpx.HTTPError as error:
                    errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1
                    continue
                if response.status_code != 200:
                    key = f"HTTP {response.status_code}"
                    errors[key] = errors.get(key, 0) + 1
                    continue
                latencies.append(time.perf_counter() - started)

        began = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
        elapsed = time.perf_counter() - began
    latencies.sort()

    def pct(p: float) -> float | None:
        if not latencies:
            return None
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "requests": len(latencies),
        "throughput": len(latencies) / elapsed,
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "errors": sum(errors.values()),
        "error_kinds": errors,
    }


async def attack(port: int, idle: int, slow: int, seconds: float) -> dict[str, int]:
    """Hold ``idle`` silent and ``slow`` slowloris connections from `ATTACK_ADDRESS` for
    ``seconds``, opening a new one whenever one is closed; count what the service did."""
    seen = {"opened": 0, "refused_503": 0, "closed_by_server": 0, "connect_failed": 0}
    stop = time.monotonic() + seconds

    async def hold(slowly: bool) -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(ATTACK_ADDRESS, 0)
                )
            except OSError:
                seen["connect_failed"] += 1
                await asyncio.sleep(0.2)
                continue
            seen["opened"] += 1
            header = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 10_000
            sent = 0
            try:
                while time.monotonic() < stop:
                    if slowly and sent < len(header):
                        writer.write(header[sent : sent + 1])
                        sent += 1
                        await writer.drain()
                    try:
                        data = await asyncio.wait_for(reader.read(1024), SLOW_BYTE_SECONDS)
                    except TimeoutError:
                        continue
                    key = "refused_503" if data.startswith(b"HTTP/1.1 503") else "closed_by_server"
                    seen[key] += 1
                    break
            except OSError:
                seen["closed_by_server"] += 1
            finally:
                writer.close()
            await asyncio.sleep(RECONNECT_SECONDS)

    await asyncio.gather(*(hold(False) for _ in range(idle)), *(hold(True) for _ in range(slow)))
    return seen


def run_attack(port: int, idle: int, slow: int, seconds: float, out: Path) -> None:
    out.write_text(json.dumps(asyncio.run(attack(port, idle, slow, seconds))))


def worker_pids(server: subprocess.Popen[bytes]) -> list[int]:
    """The processes answering requests: the workers under uvicorn's supervisor, or the
    server process itself with one worker."""
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
    pids = [int(pid) for pid in children.read_text().split()] if children.exists() else []
    workers = []
    for pid in pids:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in command:
            workers.append(pid)
    return workers or [server.pid]


def memory(pid: int) -> dict[str, float]:
    figures = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            figures[name] = int(value.split()[0]) / 1024  # MiB
    return figures


def fresh_line(seed: int) -> bytes:
    """A verify request over a source of ~1M characters no request used before."""
    pick = random.Random(seed)
    words = [
        "".join(pick.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(pick.randint(2, 9)))
        for _ in range(5_000)
    ]
    parts: list[str] = []
    size = 0
    while size < FRESH_CHARS:
        parts.append(pick.choice(words) + ("\n\n" if pick.random() < 0.02 else " "))
        size += len(parts[-1])
    text = "".join(parts)[:FRESH_CHARS]
    start = pick.randrange(0, len(text) - 300)
    quoted = text[start : start + 100].split()[1:-1]
    changed = [*quoted[:2], "purportedly", *quoted[3:]]  # a changed word: corrected
    answer = f'The file says "{" ".join(quoted)}" [S1] and "{" ".join(changed)}" [S1].'
    line = {"id": f"fresh-{seed}", "answer": answer, "sources": [
        {"id": "S1", "kind": "document", "text": text}]}  # fmt: skip
    return json.dumps(line).encode()


async def fresh_requests(url: str, token: str, count: int, clients: int) -> dict[str, int]:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    outcome = {"ok": 0}  # and each kind of error: "status 503", "ReadError"
    queue = list(range(count))
    transport = httpx.AsyncHTTPTransport(local_address=LOAD_ADDRESS)
    async with httpx.AsyncClient(
        base_url=url, headers=headers, transport=transport, timeout=120
    ) as http:

        async def client() -> None:
            while queue:
                seed = queue.pop()
                body = await asyncio.to_thread(fresh_line, seed)
                try:
                    reply = await http.post("/v1/verify", content=body)
                    kind = "ok" if reply.status_code == 200 else f"status {reply.status_code}"
                except httpx.HTTPError as error:
                    kind = type(error).__name__
                outcome[kind] = outcome.get(kind, 0) + 1

        await asyncio.gather(*(client() for _ in range(clients)))
    return outcome


def show(name: str, figures: dict[str, Any]) -> None:
    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:8.1f}"

    print(
        f"{name:<26}{figures['requests']:>9}{figures['throughput']:>10.1f}"
        f"{ms(figures['p50_ms'])}{ms(figures['p95_ms'])}{ms(figures['p99_ms'])}"
        f"{figures['errors']:>8}  {figures['error_kinds'] or ''}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--slow", type=int, default=100)
    parser.add_argument("--rss-requests", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--short", action="store_true", help="5 s per phase, 20 fresh sources")
    parser.add_argument("--fairness-seconds", type=float, default=30.0)
    parser.add_argument("--fairness-only", action="store_true", help="phases 4 and 5 only")
    args = parser.parse_args()
    if args.short:
        args.seconds, args.rss_requests, args.fairness_seconds = 5.0, 20, 10.0
    if not args.fairness_only:
        flood_and_memory(args)
    fairness(args)


def stop(server: subprocess.Popen[bytes], folder: Path) -> None:
    """Stop the service (SIGTERM, then SIGKILL after 30 s) and remove its data folder."""
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
    shutil.rmtree(folder, ignore_errors=True)


def fairness(args: argparse.Namespace) -> None:
    """Phases 4 and 5, on a service of their own whose deadline is `STORM_DEADLINE`."""
    folder = Path(tempfile.mkdtemp(prefix="citeproof-soak-"))
    port = free_port()
    server, token = start_service(
        folder, port, args.workers, name="alice", wait_seconds=180.0,
        limits={"deadline_seconds": STORM_DEADLINE},
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        print(f"\nload average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at start")
        citeproof = str(Path(sys.executable).parent / "citeproof")
        tokens = {"alice": token, "bob": add_token(citeproof, folder, "bob")}
        pids = worker_pids(server)
        stormed = storm(url, token, pids)
        print(
            f"deadline storm ({STORM_DEADLINE:g} s): replies {stormed['statuses']}; after the "
            f"last deadline a one-quote verify answered 200 in {stormed['answered_s']:.2f} s, "
            f"CPU idle in {stormed['idle_s']:.2f} s, abandoned work {stormed['abandoned']} "
            f"(equal after {stormed['settled_s']:.2f} s), /healthz {stormed['healthz']}"
        )
        shared = two_principals(url, tokens, args.fairness_seconds)
        alone, with_alice = shared["alone"], shared["with_alice"]
        print(
            f"two principals: bob alone p50 {alone['p50_ms']:.1f} ms, p95 "
            f"{alone['p95_ms']:.1f} ms ({alone['requests']} requests); while alice sent "
            f"{shared['alice_heavy_answers']} heavy answers p50 {with_alice['p50_ms']:.1f} ms, "
            f"p95 {with_alice['p95_ms']:.1f} ms ({with_alice['requests']} requests): "
            f"{with_alice['p95_ms'] / alone['p95_ms']:.1f}x"
        )
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at end")
    finally:
        stop(server, folder)


def flood_and_memory(args: argparse.Namespace) -> None:
    """Phases 1 to 3."""
    folder = Path(tempfile.mkdtemp(prefix="citeproof-soak-"))
    port = free_port()
    server, token = start(folder, port, args.workers)
    url = f"http://127.0.0.1:{port}"
    body = json.dumps(request_line()).encode()
    try:
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at start")
        print(f"{'':<26}{'requests':>9}{'req/s':>10}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}"
              f"{'errors':>8}")  # fmt: skip
        quiet = asyncio.run(load(url, token, body, args.clients, args.seconds))
        show("load", quiet)
        seen_file = folder / "attack.json"
        attacker = subprocess.Popen(
            [sys.executable, "-c",
             "import sys; sys.path.insert(0, sys.argv[1]); import bench_soak as b; "
             "b.run_attack(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), "
             "float(sys.argv[5]), b.Path(sys.argv[6]))",
             str(Path(__file__).resolve().parent), str(port), str(args.idle), str(args.slow),
             str(args.seconds + 5), str(seen_file)],
        )  # fmt: skip
        time.sleep(3)  # let the flood build up before the load starts
        attacked = asyncio.run(load(url, token, body, args.clients, args.seconds))
        attacker.wait(timeout=args.seconds + 120)
        show(f"load, {args.idle} idle + {args.slow} slow", attacked)
        print(f"attacker: {json.loads(seen_file.read_text())}")

        pids = worker_pids(server)
        before = {pid: memory(pid) for pid in pids}
        started = time.perf_counter()
        done = asyncio.run(fresh_requests(url, token, args.rss_requests, min(8, args.clients)))
        elapsed = time.perf_counter() - started
        print(f"\n{args.rss_requests} requests with fresh ~1M-character sources in "
              f"{elapsed:.0f} s: {done}")  # fmt: skip
        for pid in pids:
            after = memory(pid)
            print(
                f"  worker {pid}: RSS {before[pid]['VmRSS']:.0f} -> {after['VmRSS']:.0f} MiB, "
                f"peak {after['VmHWM']:.0f} MiB"
            )
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at end")
    finally:
        stop(server, folder)


if __name__ == "__main__":
    main()
