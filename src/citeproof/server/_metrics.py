"""Prometheus metrics of the service: requests, latencies per stage, verdicts.

With several workers, ``citeproof serve`` sets ``PROMETHEUS_MULTIPROC_DIR`` (unless it is set
already) before starting them: each worker's counters and histograms then live in files there,
and ``/metrics`` from any worker adds up every worker's (prometheus_client's multiprocess mode).
Without it, ``/metrics`` is the one process's own.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from citeproof import environment

MULTIPROCESS_DIR = environment.PROMETHEUS_MULTIPROC_DIR.name

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """The counters and histograms `/metrics` exposes (Prometheus text format)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "citeproof_http_requests",
            "HTTP requests answered, by route and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "citeproof_http_request_seconds",
            "Time to answer an HTTP request, by route.",
            ["route"],
            buckets=_BUCKETS,
            registry=self.registry,
        )
        self.stages = Histogram(
            "citeproof_stage_seconds",
            "Time spent in each stage of a request (verify, audit, retrieve, generate...).",
            ["stage"],
            buckets=_BUCKETS,
            registry=self.registry,
        )
        self.abandoned = Counter(
            "citeproof_abandoned_work",
            "Requests answered 503 past their deadline whose work was told to stop "
            "(event=started), and those whose thread has ended since (event=finished).",
            ["event"],
            registry=self.registry,
        )
        self.verdicts = Counter(
            "citeproof_quote_verdicts",
            "Quotes checked, by verdict.",
            ["status"],
            registry=self.registry,
        )

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(route).observe(seconds)

    def observe_stages(self, timings: Mapping[str, float]) -> None:
        for stage, seconds in timings.items():
            self.stages.labels(stage).observe(seconds)

    def count_abandoned(self, step: int) -> None:
        self.abandoned.labels("started" if step > 0 else "finished").inc()

    def count_verdicts(self, counts: Mapping[str, int]) -> None:
        for status, count in counts.items():
            if count:
                self.verdicts.labels(status).inc(count)

    def text(self) -> bytes:
        """The Prometheus text exposition: every worker's figures in multiprocess mode."""
        if os.environ.get(MULTIPROCESS_DIR):
            every_worker = CollectorRegistry()
            MultiProcessCollector(every_worker)  # type: ignore[no-untyped-call]
            return generate_latest(every_worker)
        return generate_latest(self.registry)
