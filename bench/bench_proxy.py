"""The verifying proxy: per-sentence verdict latency in a stream, and what it adds to a call.

Run: ``.venv/bin/python bench/bench_proxy.py`` (options: ``--clients`` 32, ``--seconds`` 30,
``--interval`` 0.02, ``--audit``, ``--workers`` 1). Starts an OpenAI-compatible upstream (this
script with ``--upstream PORT``, a process of its own) and ``citeproof proxy`` in front of it,
both on loopback ports, then:

1. Streaming: a 10-sentence answer, each sentence with a quote and its marker, streamed as
   Chat Completions chunks of a few words every ``--interval`` seconds (50 chunks a second,
   a model's pace). For each sentence: the time from the arrival, at the client, of the chunk
   that ends it (its marker) to the arrival of its verdict event, and from the chunk that let
   the proxy know it was complete (the next sentence's first chunk, or the end) to the verdict.
   The first is the latency a user sees; it includes one chunk interval, since a sentence is
   complete only once the next begins (its markers may follow its full stop).
2. Non-streamed: a 5-quote answer (three verbatim, one changed word, one not in the sources)
   over 5 sources of ~10 KB (50 KB, the request of ``bench_service.py``, sent as
   ``citeproof.sources``), from ``--clients`` concurrent keep-alive clients for
   ``--seconds``: p50/p95/p99 through the proxy beside the same calls made directly to the
   upstream, and the difference (what the proxy adds). Twice: with an upstream that answers at
   once (every client is always waiting on the proxy, so this measures the proxy's cost when
   nothing else limits the rate: on two cores shared with the upstream and the load generator,
   mostly queueing) and with one that answers after ``--think`` seconds (2 by default: a
   model writing the answer; the clients start spread over those seconds, so answers come
   back spread out, as a model's answers to many users do, not all at the same moment).
   ``--audit`` appends every answer to a SQLite audit log, as ``--audit DB`` does.

Targets on the development machine: each verdict within 50 ms of its sentence's last chunk;
the proxy adds at most 20 ms p95. Prints the load average beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
from bench_service import drive, free_port, request_line

from citeproof.testing._sockets import listening_sockets

CITEPROOF = str(Path(sys.executable).parent / "citeproof")
POLICY = "Credit policy, section 4.\n\n" + "\n\n".join(
    f"Rule {n}: an application of type {n} above {50 + n}% loan-to-value is referred to "
    f"underwriter team {n} within {n + 1} working days."
    for n in range(1, 11)
)

POLICY_SOURCE = {"id": "policy", "kind": "document", "text": POLICY}


def streamed_sentences() -> list[str]:
    """Ten sentences, each quoting one rule of the policy and citing it."""
    sentences = []
    for n in range(1, 11):
        rule = (
            f"an application of type {n} above {50 + n}% loan-to-value is referred to "
            f"underwriter team {n} within {n + 1} working days"
        )
        sentences.append(f'Rule {n} says "{rule}." [policy] ')
    return sentences


def chunks_of(sentence: str) -> list[str]:
    """A sentence as a model streams it: a few words per chunk, its marker the last one."""
    body, marker = sentence.rsplit(" [", 1)
    words = body.split(" ")
    pieces = [" ".join(words[i : i + 3]) + " " for i in range(0, len(words), 3)]
    pieces[-1] = pieces[-1].rstrip(" ")
    return [*pieces, " [" + marker]


# --- the upstream, a process of its own ----------------------------------------------------
THINK_HEADER = "x-bench-think-seconds"
"""How long the upstream takes before it answers a non-streamed request (a model writing its
answer); the proxy passes the caller's headers on, so direct and proxied calls both wait."""


def serve_upstream(port: int, interval: float) -> None:
    """An OpenAI-compatible upstream: the 5-quote answer as a chat completion, or the
    10-sentence answer streamed chunk by chunk every ``interval`` seconds."""
    answer = request_line()["answer"]
    completion = json.dumps(
        {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 0,
            "model": "bench",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": answer},
                    "finish_reason": "stop",
                }
            ],
        }
    ).encode()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes; without TCP_NODELAY the body waits for the
        # client's delayed ACK, 40 ms a response (the proxy's calls and the direct ones alike).
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            if not body.get("stream"):
                time.sleep(float(self.headers.get(THINK_HEADER, "0")))  # the model writing
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(completion)))
                self.end_headers()
                self.wfile.write(completion)
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            for sentence in streamed_sentences():
                for piece in chunks_of(sentence):
                    chunk = {
                        "id": "chatcmpl-stream",
                        "object": "chat.completion.chunk",
                        "created": 0,
                        "model": "bench",
                        "choices": [{"index": 0, "delta": {"content": piece}}],
                    }
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                    time.sleep(interval)
            self.wfile.write(b"data: [DONE]\n\n")
            self.close_connection = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer.request_queue_size = 256
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


# --- measurements ---------------------------------------------------------------------------
def stream_latencies(proxy: str) -> list[tuple[float, float]]:
    """Per sentence: (ms from the chunk ending it to its verdict, ms from the chunk that
    completed it to its verdict), as the client sees them."""
    body = {
        "model": "bench",
        "stream": True,
        "messages": [{"role": "user", "content": "What do the rules say?"}],
        "citeproof": {"sources": [POLICY_SOURCE]},
    }
    sentences = streamed_sentences()
    ends: list[float] = []  # when each sentence's last chunk arrived
    arrivals: list[float] = []  # when each chunk of text arrived
    verdicts: list[tuple[float, float]] = []
    text = ""
    with httpx.stream("POST", proxy + "/v1/chat/completions", json=body, timeout=120) as answer:
        buffer = b""
        for raw in answer.iter_raw():
            buffer += raw
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                now = time.perf_counter()
                data = event.split(b"data: ", 1)[-1]
                if data.strip() == b"[DONE]":
                    continue
                chunk = json.loads(data)
                if chunk.get("citeproof", {}).get("type") == "citeproof.verdict":
                    index = chunk["citeproof"]["index"]
                    verdicts.append((now - ends[index], now - arrivals[-1]))
                elif chunk.get("choices"):
                    text += chunk["choices"][0]["delta"]["content"]
                    arrivals.append(now)
                    if len(text.rstrip()) >= len("".join(sentences[: len(ends) + 1]).rstrip()):
                        ends.append(now)
    return [(a * 1000, b * 1000) for a, b in verdicts]


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def start(command: list[str], url: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        try:
            httpx.get(url, timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"{' '.join(command)} did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=0.02)
    parser.add_argument(
        "--think", type=float, default=2.0, help="seconds the paced upstream takes to answer"
    )
    parser.add_argument("--audit", action="store_true", help="append every answer to a log")
    parser.add_argument("--workers", type=int, default=1, help="the proxy's worker processes")
    parser.add_argument("--upstream", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.upstream:
        serve_upstream(args.upstream, args.interval)
        return
    up_port, proxy_port = free_port(), free_port()
    upstream = f"http://127.0.0.1:{up_port}"
    proxy = f"http://127.0.0.1:{proxy_port}"
    line = request_line()
    body = {
        "model": "bench",
        "messages": [{"role": "user", "content": "What do the sources say?"}],
        "citeproof": {"sources": line["sources"]},
    }
    content = json.dumps(body).encode()
    headers = {"content-type": "application/json", "authorization": "Bearer sk-bench"}
    with tempfile.TemporaryDirectory(prefix="citeproof-bench-proxy-") as folder:
        audit = ["--audit", str(Path(folder) / "audit.db")] if args.audit else []
        processes = [
            start(
                [sys.executable, __file__, "--upstream", str(up_port),
                 "--interval", str(args.interval)],
                upstream,
            )
        ]  # fmt: skip
        try:
            processes.append(
                start(
                    [CITEPROOF, "proxy", "--upstream", upstream, "--port", str(proxy_port),
                     "--workers", str(args.workers), *audit],
                    proxy + "/healthz",
                )
            )  # fmt: skip
            # Every worker listens before the load starts (else the first takes every
            # connection), and builds what it builds on first use (the sources' indexes, the
            # policy's among them) before anything is timed: 32 connections reach them all.
            while sys.platform.startswith("linux") and listening_sockets(proxy_port) < args.workers:
                time.sleep(0.1)
            warm = {**body, "citeproof": {"sources": [*line["sources"], POLICY_SOURCE]}}
            asyncio.run(drive(proxy, "POST", "/v1/chat/completions", json.dumps(warm).encode(),
                              headers, args.clients, 2.0))  # fmt: skip
            check = httpx.post(
                proxy + "/v1/chat/completions", content=content, headers=headers, timeout=120
            )
            counts = check.json()["citeproof"]["counts"]
            stream_latencies(proxy)  # warm: the policy's index is built once
            streamed = stream_latencies(proxy)
            pace = f"a chunk every {args.interval * 1000:.0f} ms"
            print(f"streaming: 10 sentences, {pace}; {load_average()}")
            print(
                f"{'sentence':>8} {'after its last chunk ms':>24} {'after completing chunk ms':>26}"
            )
            for number, (after_end, after_known) in enumerate(streamed, start=1):
                print(f"{number:>8} {after_end:>24.1f} {after_known:>26.1f}")
            worst = max(a for a, _ in streamed)
            verdict = "met" if worst <= 50 else "NOT met"
            print(f"target (each within 50 ms of its last chunk): {verdict} (worst {worst:.1f} ms)")
            size = sum(len(s["text"].encode()) for s in line["sources"])
            print(
                f"\nnon-streamed: {len(content):,}-byte requests, 5 quotes ({counts}) over "
                f"{size:,} bytes of sources, {args.clients} clients, {args.seconds:g} s each, "
                f"the proxy with {args.workers} worker{'s' if args.workers > 1 else ''}"
                f"{', audit log on' if args.audit else ''}"
            )
            path = "/v1/chat/completions"
            rows = []
            for think in (0.0, args.think):
                paced = {**headers, THINK_HEADER: str(think)}
                load = (content, paced, args.clients, args.seconds)
                direct = asyncio.run(drive(upstream, "POST", path, *load, stagger=think))
                proxied = asyncio.run(drive(proxy, "POST", path, *load, stagger=think))
                rows.append((think, direct, proxied))
            print(f"({load_average()})")
        finally:
            for process in processes:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)
    for think, direct, proxied in rows:
        pace = (
            "the upstream answers at once (the proxy's cost when nothing else limits the rate)"
            if not think
            else f"the upstream answers after {think:g} s (a model writing the answer)"
        )
        print(f"\n{pace}")
        print(f"{'call':<16} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7}")
        for name, row in (("direct", direct), ("through proxy", proxied)):
            print(
                f"{name:<16} {row['throughput']:>8.1f} {row['p50_ms']:>8.1f} "
                f"{row['p95_ms']:>8.1f} {row['p99_ms']:>8.1f} {row['errors']:>7}"
                + (f"  {row['error_kinds']}" if row["errors"] else "")
            )
        added = proxied["p95_ms"] - direct["p95_ms"]
        verdict = "met" if added <= 20 else "NOT met"
        print(f"added p95: {added:.1f} ms; target (≤ 20 ms): {verdict}")
    mean = statistics.fmean(a for a, _ in streamed)
    print(f"mean verdict latency after the last chunk: {mean:.1f} ms")


if __name__ == "__main__":
    main()
