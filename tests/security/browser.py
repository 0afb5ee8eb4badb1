"""Load a page in headless Chromium and count what hostile content managed to do there:
script executions (every payload calls ``alert``) and requests to a logging server on the
loopback interface (every payload URL points at it).

Uses the system Chromium through its command line; never downloads a browser. Without
Chromium the tests skip with a message, unless CITEPROOF_REQUIRE_BROWSER is set.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")

# Runs before anything from the page: each call of alert/confirm/prompt/print by a payload is
# counted on the root element, where --dump-dom shows it.
_COUNTER = """<script>
(function () {
  var hits = 0;
  function hit() { hits += 1; document.documentElement.setAttribute('data-executed', hits); }
  window.alert = hit; window.confirm = hit; window.prompt = hit; window.print = hit;
})();
</script>"""


def require_chromium() -> None:
    if not CHROMIUM.exists():
        if os.environ.get("CITEPROOF_REQUIRE_BROWSER"):
            pytest.fail("CITEPROOF_REQUIRE_BROWSER is set but /usr/bin/chromium is missing")
        pytest.skip("install chromium (apt-get install chromium) to run the browser test")


@dataclass
class RequestLog:
    """Paths requested from the logging server."""

    paths: list[str] = field(default_factory=list)
    port: int = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def request_logger() -> Iterator[RequestLog]:
    log = RequestLog()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            log.paths.append(self.path)
            self.send_response(204)
            self.end_headers()

        do_POST = do_GET

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    log.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield log
    finally:
        server.shutdown()
        server.server_close()


@dataclass(frozen=True)
class PageEffects:
    executions: int
    dom: str


def load_in_chromium(body_html: str, folder: Path, name: str) -> PageEffects:
    """Load ``body_html`` (a fragment, as a Markdown renderer produces) as a page; count the
    payload executions. Requests are counted by the caller's `request_logger`."""
    page = folder / f"{name}.html"
    page.write_text(
        f"<!DOCTYPE html><html><head><meta charset='utf-8'>{_COUNTER}</head>"
        f"<body>{body_html}</body></html>",
        "utf-8",
    )
    run = subprocess.run(
        [
            str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", f"--user-data-dir={folder / 'profile'}",
            "--virtual-time-budget=3000", "--dump-dom", page.as_uri(),
        ],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    counted = re.search(r'<html[^>]*\sdata-executed="(\d+)"', run.stdout)
    executions = int(counted.group(1)) if counted else 0
    return PageEffects(executions, run.stdout)
