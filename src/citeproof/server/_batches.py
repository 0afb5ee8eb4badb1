"""The batch runner: a thread per worker process that takes unfinished batch lines from the
service database, one at a time, and verifies them, committing each result as it goes.

A line is held under a lease that a heartbeat renews while it is verified; when a process
(or a whole host) stops, its lease runs out and another worker, here or on another host of
the same PostgreSQL, takes the line over. Before verifying a line taken over, the worker
looks in the audit log for the record its stopped holder may have written: found, that
record is the line's result, so no line is verified into two records. A result is stored
only by the line's holder. A line that fails becomes an error record naming the field, as in
``verify --batch``.
"""

from __future__ import annotations

import json
import threading

from citeproof.errors import CiteproofError, InputError
from citeproof.server._problems import Problem
from citeproof.server._service import Service, dumps
from citeproof.server._state import BatchLine, holder_name

LEASE_SECONDS = 15.0
"""How long a line stays with a holder that stopped renewing it (it renews every third)."""
POLL_SECONDS = 0.5


class BatchRunner:
    def __init__(self, service: Service, *, lease_seconds: float = LEASE_SECONDS) -> None:
        self.service = service
        self.lease_seconds = lease_seconds
        self.holder = holder_name()
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
            try:
                line = state.claim_line(self.holder, self.lease_seconds, self.service.audit_size())
            except CiteproofError:
                line = None  # the database is away for now: try again after a pause
            if line is None:
                self._stop.wait(POLL_SECONDS)
                continue
            self._work(line)

    def _work(self, line: BatchLine) -> None:
        state = self.service.state
        done = threading.Event()
        beat = threading.Thread(target=self._renew, args=(line, done), daemon=True)
        beat.start()
        try:
            output, failed = self._result(line)
        finally:
            done.set()
            beat.join()
        state.finish_line(line, self.holder, output, failed=failed)

    def _renew(self, line: BatchLine, done: threading.Event) -> None:
        while not done.wait(self.lease_seconds / 3):
            try:
                if not self.service.state.renew_line(line, self.holder, self.lease_seconds):
                    return  # taken over: its result will not be stored
            except CiteproofError:
                continue

    def _result(self, line: BatchLine) -> tuple[str, bool]:
        if line.claims > 1:
            logged = self.service.logged_line(
                line.principal, line.batch_id, line.line, line.audit_from
            )
            if logged is not None:
                return dumps(logged), False
        return self._verify(line)

    def _verify(self, line: BatchLine) -> tuple[str, bool]:
        where = f"{line.batch_id}: line {line.line}"
        try:
            record = self.service.verify_body(
                line.input,
                line.principal,
                where=where,
                kind="batch",
                request={"batch": line.batch_id, "line": line.line},
            )
            return dumps(record), False
        except (InputError, Problem) as error:
            field = error.field
            message = str(error) if isinstance(error, InputError) else f"{where}: {error}"
            line_id = _line_id(line.input)
            error_record = {"field": field, "message": message}
            return dumps({"id": line_id, "line": line.line, "error": error_record}), True


def _line_id(raw: bytes) -> str | None:
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None
