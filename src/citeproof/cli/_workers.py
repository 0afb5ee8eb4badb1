"""uvicorn's supervisor over several worker processes, for ``citeproof serve`` and
``citeproof proxy``: each worker listens on a socket of its own where the kernel balances
connections over them (`citeproof.server.BALANCED`), and the workers keep their keep-alive
connections even over a shared table; else they listen on one socket they share."""

from __future__ import annotations

from typing import Any

import click


def run_workers(config: Any, host: str, port: int) -> None:
    """uvicorn's supervisor over ``config.workers`` workers, each listening on its own socket
    where the kernel balances them (see citeproof.server._listen), else on uvicorn's shared one."""
    from uvicorn.supervisors import Multiprocess

    from citeproof.server import BALANCED, create_table, reserve

    held = None
    table = None
    sockets: list[Any]  # a WorkerListener stands in for a socket (it becomes one in the worker)
    try:
        try:
            if BALANCED:
                table = create_table()
                held, listener = reserve(host, port, str(table))
                sockets = [listener]
            else:
                sockets = [config.bind_socket()]
        except OSError as error:
            raise click.ClickException(f"cannot listen on {host}:{port}: {error}") from None
        Multiprocess(config, sockets=sockets).run()
    finally:
        if held is not None:
            held.close()
        if table is not None:
            table.unlink(missing_ok=True)
