"""uvicorn's supervisor over several worker processes, for ``citeproof serve`` and
``citeproof proxy``: each worker listens on a socket of its own where the kernel balances
connections over them (`citeproof.server.BALANCED`), else on one socket they share."""

from __future__ import annotations

from typing import Any

import click


def run_workers(config: Any, host: str, port: int) -> None:
    """uvicorn's supervisor over ``config.workers`` workers, each listening on its own socket
    where the kernel balances them (see citeproof.server._listen), else on uvicorn's shared one."""
    from uvicorn.supervisors import Multiprocess

    from citeproof.server import BALANCED, reserve

    held = None
    sockets: list[Any]  # a WorkerListener stands in for a socket (it becomes one in the worker)
    try:
        if BALANCED:
            held, listener = reserve(host, port)
            sockets = [listener]
        else:
            sockets = [config.bind_socket()]
    except OSError as error:
        raise click.ClickException(f"cannot listen on {host}:{port}: {error}") from None
    try:
        Multiprocess(config, sockets=sockets).run()
    finally:
        if held is not None:
            held.close()
