"""Two phases of the soak bench about work that outlives its welcome (`bench_soak.py`).

4. **deadline storm**: the service started with ``deadline_seconds`` 2; as one principal,
   three rounds of one heavy verify (1,200 claims over a fresh 900,000-character source)
   followed 0.05 s later by 20 one-quote verifies at once. Then: how long until a one-quote
   verify is answered 200 again, how long until the workers' CPU is idle after the last
   deadline passed, and the abandoned work started and finished (from ``/metrics``).
   Targets: answered within 1 s, idle within 2 s, started = finished.
5. **two principals**: bob's one-quote verify in a closed loop, alone, then while alice sends
   heavy verifies (400 claims each) in a closed loop of her own: bob's p50/p95 beside each
   other. Target: bob's p95 with alice at most three times his p95 alone.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx

STORM_DEADLINE = 2.0
IDLE_SHARE = 0.1
"""The workers are idle when they use less than this share of one core."""


def heavy_line(line_id: str, claims: int, seed: int) -> bytes:
    """``claims`` cited claims over a fresh 900,000-character source (its own per seed)."""
    pick = random.Random(seed)
    words = [
        "".join(pick.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(pick.randint(2, 9)))
        for _ in range(5_000)
    ]
    text = " ".join(pick.choice(words) for _ in range(150_000))[:900_000]
    chosen = text.split()
    sentences = []
    for _ in range(claims):
        start = pick.randrange(0, len(chosen) - 12)
        sentences.append(" ".join(chosen[start : start + 10]).capitalize() + " [S1].")
    line = {"id": line_id, "answer": " ".join(sentences), "sources": [
        {"id": "S1", "kind": "document", "text": text}]}  # fmt: skip
    return json.dumps(line).encode()


def one_quote_line(line_id: str) -> bytes:
    """One quote over one short source: what a chat backend sends most."""
    text = (
        "The Borrower shall deliver audited accounts within 120 days of each financial year "
        "end. Any exception to the covenant requires the approval of a senior underwriter."
    )
    answer = 'Accounts are due "within 120 days of each financial year end" [S1].'
    line = {"id": line_id, "answer": answer, "sources": [
        {"id": "S1", "kind": "document", "text": text}]}  # fmt: skip
    return json.dumps(line).encode()


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of ``pids`` so far."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / 100.0  # utime, stime in clock ticks
    return total


def abandoned(http: httpx.Client) -> dict[str, float]:
    text = http.get("/metrics").text
    return {
        event: float(found.group(1)) if found else 0.0
        for event in ("started", "finished")
        for found in [re.search(rf'citeproof_abandoned_work_total{{event="{event}"}} (\S+)', text)]
    }


def storm(url: str, token: str, pids: list[int]) -> dict[str, Any]:
    """Phase 4 against a service whose deadline is `STORM_DEADLINE`."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    quick = one_quote_line("quick")
    statuses: dict[int, int] = {}

    async def rounds() -> float:
        last_deadline = 0.0
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with httpx.AsyncClient(
            base_url=url, headers=headers, timeout=120, limits=limits
        ) as http:
            for round_ in range(3):
                heavy = asyncio.create_task(
                    http.post("/v1/verify", content=heavy_line(f"storm-{round_}", 1_200, round_))
                )
                await asyncio.sleep(0.05)
                quick_ones = [http.post("/v1/verify", content=quick) for _ in range(20)]
                for reply in await asyncio.gather(heavy, *quick_ones):
                    statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1
                last_deadline = time.monotonic()
        return last_deadline

    last_deadline = asyncio.run(rounds())
    with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
        answered = _until(lambda: http.post("/v1/verify", content=quick).status_code == 200)
        idle = _until_idle(pids)
        settled = _until(lambda: len(set(abandoned(http).values())) == 1, most=120)
        counts = abandoned(http)
        live = http.get("/healthz").status_code
    return {
        "statuses": statuses,
        "answered_s": answered - last_deadline,
        "idle_s": idle - last_deadline,
        "settled_s": settled - last_deadline,
        "abandoned": counts,
        "healthz": live,
    }


def _until(done: Any, most: float = 60.0) -> float:
    """The time ``done()`` first held (polled every 50 ms, at most ``most`` seconds)."""
    stop = time.monotonic() + most
    while time.monotonic() < stop:
        if done():
            return time.monotonic()
        time.sleep(0.05)
    return float("inf")


def _until_idle(pids: list[int], window: float = 0.5) -> float:
    """The end of the first ``window`` in which the workers used under `IDLE_SHARE` of a
    core (the time the idle window began, less the window's own length)."""
    stop = time.monotonic() + 120
    while time.monotonic() < stop:
        began = time.monotonic()
        used = cpu_seconds(pids)
        time.sleep(window)
        if cpu_seconds(pids) - used < IDLE_SHARE * window:
            return began
    return float("inf")


def two_principals(url: str, tokens: dict[str, str], seconds: float) -> dict[str, Any]:
    """Phase 5: bob alone, then bob while alice sends heavy work."""

    async def bob_loop(stop: float) -> list[float]:
        latencies: list[float] = []
        headers = {"Authorization": f"Bearer {tokens['bob']}", "Content-Type": "application/json"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120) as http:
            number = 0
            while time.monotonic() < stop:
                number += 1
                started = time.perf_counter()
                reply = await http.post("/v1/verify", content=one_quote_line(f"bob-{number}"))
                if reply.status_code == 200:
                    latencies.append(time.perf_counter() - started)
                await asyncio.sleep(0.05)
        return latencies

    async def alice_loop(stop: float) -> int:
        sent = 0
        headers = {
            "Authorization": f"Bearer {tokens['alice']}",
            "Content-Type": "application/json",
        }
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=300) as http:
            while time.monotonic() < stop:
                body = await asyncio.to_thread(heavy_line, f"alice-{sent}", 400, 100 + sent)
                await http.post("/v1/verify", content=body)
                sent += 1
        return sent

    async def together() -> tuple[list[float], int]:
        stop = time.monotonic() + seconds
        alice = asyncio.create_task(alice_loop(stop))
        await asyncio.sleep(2.0)  # alice's first heavy answer is being verified
        bob = await bob_loop(stop)
        return bob, await alice

    alone = asyncio.run(bob_loop(time.monotonic() + seconds))
    with_alice, heavy_sent = asyncio.run(together())
    return {
        "alone": _percentiles(alone),
        "with_alice": _percentiles(with_alice),
        "alice_heavy_answers": heavy_sent,
    }


def _percentiles(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    if not ordered:
        return {"requests": 0, "p50_ms": float("nan"), "p95_ms": float("nan")}
    return {
        "requests": len(ordered),
        "p50_ms": ordered[len(ordered) // 2] * 1000,
        "p95_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000,
    }


def add_token(citeproof: str, data: Path, name: str) -> str:
    return subprocess.run(
        [citeproof, "token", "add", name, "--data", str(data)],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
