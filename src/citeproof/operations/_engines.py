"""Where chunks of work run: in this process, a local process pool, or a Ray cluster.

`ordered_map` applies a pure, module-level function to a stream of JSON-able chunks and yields
the results in the order of the chunks, whatever order the workers finish in, so the caller
can append them to the log in a deterministic order. At most a few chunks per worker are in
flight at once: memory stays bounded however long the stream is.

Ray is an optional extra (``pip install 'citeproof[ray]'``); `--engine ray` without it is a
clear error, not an import failure.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Literal, TypeVar

from citeproof.errors import InputError

Engine = Literal["local", "ray"]
ENGINES: tuple[Engine, ...] = ("local", "ray")

In = TypeVar("In")
Out = TypeVar("Out")

_IN_FLIGHT_PER_WORKER = 2


def default_workers() -> int:
    """One worker per CPU this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def ordered_map(
    function: Callable[[In], Out],
    chunks: Iterable[In],
    *,
    engine: Engine = "local",
    workers: int | None = None,
    address: str | None = None,
) -> Iterator[Out]:
    """``function(chunk)`` for every chunk, yielded in chunk order.

    ``engine="local"`` runs a process pool of ``workers`` processes (default: one per CPU; with
    one worker it runs in this process). ``engine="ray"`` runs each chunk as a Ray task on the
    cluster at ``address`` (default: a local Ray instance with ``workers`` CPUs). ``function``
    must be importable by name (a module-level function) and its chunks picklable.
    """
    count = workers or default_workers()
    if count < 1:
        raise InputError("must be at least 1", field="workers")
    if engine == "local":
        if count == 1:
            yield from map(function, chunks)
            return
        with ProcessPoolExecutor(max_workers=count) as pool:
            yield from _windowed(lambda chunk: pool.submit(function, chunk), _result, chunks, count)
        return
    if engine == "ray":
        yield from _ray_map(function, chunks, count, address)
        return
    raise InputError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")


def _result(future: Future[Out]) -> Out:
    return future.result()


def _windowed(
    submit: Callable[[In], Any],
    wait: Callable[[Any], Out],
    chunks: Iterable[In],
    workers: int,
) -> Iterator[Out]:
    pending: deque[Any] = deque()
    for chunk in chunks:
        pending.append(submit(chunk))
        if len(pending) >= workers * _IN_FLIGHT_PER_WORKER:
            yield wait(pending.popleft())
    while pending:
        yield wait(pending.popleft())


def _ray_map(
    function: Callable[[In], Out], chunks: Iterable[In], workers: int, address: str | None
) -> Iterator[Out]:
    try:
        import ray
    except ImportError:
        raise InputError(
            "--engine ray needs Ray: pip install 'citeproof[ray]'", field="engine"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(function)
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cluster_cpus = int(resources.get("CPU", workers))

        def wait(reference: Any) -> Out:
            result: Out = ray.get(reference)
            return result

        yield from _windowed(task.remote, wait, chunks, max(cluster_cpus, 1))
    finally:
        if started_here:
            ray.shutdown()
