"""Each worker of ``citeproof serve --workers N`` listens on its own socket: the kernel spreads
connections over the workers, and accepted connections send without waiting for delayed ACKs
(see citeproof.server._listen)."""

from __future__ import annotations

import asyncio
import pickle
import socket

from citeproof.server import BALANCED, reserve
from tests.conftest import skip_unless_required

if not BALANCED:
    skip_unless_required("REUSEPORT", "SO_REUSEPORT balancing is Linux-only", module=True)


def test_every_worker_binds_its_own_socket_on_the_reserved_port() -> None:
    held, listener = reserve("127.0.0.1", 0)
    with held:
        assert listener.port == held.getsockname()[1] != 0
        one, two = (pickle.loads(pickle.dumps(listener)) for _ in range(2))
        with one, two:
            assert one.fileno() != two.fileno()
            for sock in (one, two):
                assert sock.getsockname() == ("127.0.0.1", listener.port)
                assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
                assert sock.proto == socket.IPPROTO_TCP


def test_the_kernel_spreads_connections_over_the_workers_sockets() -> None:
    held, listener = reserve("127.0.0.1", 0)
    workers = [pickle.loads(pickle.dumps(listener)) for _ in range(2)]
    with held:
        for sock in workers:
            sock.listen(128)
            sock.setblocking(False)
        clients = [socket.create_connection(("127.0.0.1", listener.port)) for _ in range(64)]
        accepted = [0, 0]
        for number, sock in enumerate(workers):
            while True:
                try:
                    conn, _ = sock.accept()
                except BlockingIOError:
                    break
                conn.close()
                accepted[number] += 1
        for sock in workers + clients:
            sock.close()
    assert sum(accepted) == 64
    assert min(accepted) > 0  # all 64 on one socket: 2 chances in 2**64


def test_connections_accepted_on_a_worker_socket_have_tcp_nodelay() -> None:
    held, listener = reserve("127.0.0.1", 0)
    sock = pickle.loads(pickle.dumps(listener))

    async def accepted_nodelay() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            conn = writer.get_extra_info("socket")
            seen.set_result(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(on_connect, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", listener.port)
            value = await asyncio.wait_for(seen, 10)
            writer.close()
            return value

    with held:
        assert asyncio.run(accepted_nodelay()) != 0
