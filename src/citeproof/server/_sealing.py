"""Checkpoints on time as well as on count: a thread per worker process that signs a
checkpoint over the records logged since the last one, every ``checkpoint_seconds``, and once
more when the service stops. A record is then unsealed for at most that long, however slowly
records arrive; dropping it from the end of the log afterwards fails `citeproof audit verify`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger("citeproof.server")


class Sealer:
    """Calls ``seal`` every ``seconds`` until stopped, and once when stopped."""

    def __init__(self, seal: Callable[[], None], seconds: float) -> None:
        self._seal = seal
        self._seconds = seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="citeproof-sealer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        self._seal_logged()

    def _run(self) -> None:
        while not self._stop.wait(self._seconds):
            self._seal_logged()

    def _seal_logged(self) -> None:
        try:
            self._seal()
        except Exception:  # a failed checkpoint is retried next time; the service goes on
            log.exception("cannot sign an audit checkpoint")
