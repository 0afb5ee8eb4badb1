"""The batch runner: a thread per worker process that takes unfinished batches from the
service database and verifies their lines, committing each result as it goes.

A batch is held under a lease renewed after every line; when a process stops, its lease
runs out and another (or the restarted) process resumes the batch at its first unfinished
line. A line that fails becomes an error record naming the field, as in ``verify --batch``.
"""

from __future__ import annotations

import json
import threading

from citeproof.errors import InputError
from citeproof.server._problems import Problem
from citeproof.server._service import Service, dumps

LEASE_SECONDS = 5.0
POLL_SECONDS = 0.5


class BatchRunner:
    def __init__(self, service: Service) -> None:
        self.service = service
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="citeproof-batches", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        state = self.service.state
        while not self._stop.is_set():
            claimed = state.claim_batch(LEASE_SECONDS)
            if claimed is None:
                self._stop.wait(POLL_SECONDS)
                continue
            batch_id, principal = claimed
            for line, raw in state.pending_lines(batch_id):
                if self._stop.is_set():
                    return  # the lease runs out and the batch is resumed later
                output, failed = self._verify(batch_id, line, raw, principal)
                state.finish_line(batch_id, line, output, failed=failed)
                state.renew_lease(batch_id, LEASE_SECONDS)
            state.finish_batch(batch_id)

    def _verify(self, batch_id: str, line: int, raw: bytes, principal: str) -> tuple[str, bool]:
        where = f"{batch_id}: line {line}"
        try:
            record = self.service.verify_body(raw, principal, where=where, kind="batch")
            return dumps(record), False
        except (InputError, Problem) as error:
            field = error.field
            message = str(error) if isinstance(error, InputError) else f"{where}: {error}"
            line_id = _line_id(raw)
            error_record = {"field": field, "message": message}
            return dumps({"id": line_id, "line": line, "error": error_record}), True


def _line_id(raw: bytes) -> str | None:
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None
