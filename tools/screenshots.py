"""Screenshots of what a reader sees, at a desktop (1366 px) and a phone (390 px) width.

Run: ``.venv/bin/python tools/screenshots.py`` (the last step of ``make demo``). It starts
``citeproof serve --dev`` on a free loopback port with its data in ``out/shots-service/``, posts
the lending example answer, and writes PNGs to ``out/shots/``: the review queue, the review page
(closed, with a claim's panel open, with a quote's panel open), ``/docs``, the example's answer
page (closed, with a panel open), and the pages ``make demo`` wrote to ``out/``
(``report.html``, the ``ask`` pages) when they are there. ``--docs`` writes the review app's
and the answer page's shots to ``docs/screenshots/`` instead, the ones the docs show. It needs
playwright and the system Chromium (``/usr/bin/chromium``); without them it says so and exits
0, since the pages themselves were written.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "service"))

from demo import batch_line  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    citeproof = str(Path(sys.executable).parent / "citeproof")
    server = subprocess.Popen(
        [citeproof, "serve", "--dev", "--port", str(port), "--data", str(data)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("screenshots: the service stopped at start")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return server, url
        except httpx.TransportError:
            time.sleep(0.2)
    server.send_signal(signal.SIGTERM)
    raise SystemExit("screenshots: the service did not start within 180 s")


def _shoot(browser: Any, url: str, path: Path, width: int, height: int, click: str = "") -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(url, wait_until="load")
        if click and page.locator(click).count():
            page.locator(click).first.click()
            page.wait_for_timeout(300)
        page.screenshot(path=str(path), full_page=not click)
    finally:
        context.close()


def _answer_page(out: Path) -> Path:
    """The example answer's own page (what ``citeproof verify --format html`` writes)."""
    from citeproof import Source, verify
    from citeproof.render import render_html

    line = batch_line()
    sources = [Source(**source) for source in line["sources"]]  # type: ignore[attr-defined]
    answer = verify(str(line["answer"]), sources, answer_id=str(line["id"]))
    path = out / "shots-answer.html"
    path.write_text(render_html(answer), encoding="utf-8")
    return path


def main() -> int:
    to_docs = "--docs" in sys.argv[1:]
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("screenshots: skipped (install the `server` extra for playwright)")
        return 0
    if not CHROMIUM.exists():
        print("screenshots: skipped (no /usr/bin/chromium)")
        return 0
    out = ROOT / "out"
    shots = ROOT / "docs" / "screenshots" if to_docs else out / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    data = out / "shots-service"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    server, url = _start(data)
    written: list[str] = []
    try:
        posted = httpx.post(
            f"{url}/v1/verify",
            content=json.dumps(batch_line()),
            headers={"content-type": "application/json"},
            timeout=120,
        )
        posted.raise_for_status()
        review = f"{url}/review/{posted.json()['id']}"
        answer = _answer_page(out).as_uri()
        pages: list[tuple[str, str, str]] = [
            ("review-list", f"{url}/review", ""),
            ("review", review, ""),
            ("review-claim", review, "a.marker.tone-bad"),
            ("review-quote", review, "a.quote-link"),
            ("answer", answer, ""),
            ("answer-panel", answer, "a.marker.tone-bad"),
            ("answer-quote", answer, "a.quote-link"),
        ]
        if not to_docs:
            pages.append(("docs", f"{url}/docs", ""))
            for name in ("ask-referral", "ask-hartley", "report", "review-hartley"):
                if (out / f"{name}.html").exists():
                    pages.append((name, (out / f"{name}.html").as_uri(), ""))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM),
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            try:
                for name, address, click in pages:
                    for device, (width, height) in WIDTHS.items():
                        path = shots / f"{name}-{device}.png"
                        _shoot(browser, address, path, width, height, click)
                        written.append(path.name)
            finally:
                browser.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    print(f"screenshots: {len(written)} written to {shots.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
