"""Start `citeproof serve` briefly, post the example answer, save its review page, stop.

Run: ``.venv/bin/python examples/service/demo.py`` (what ``make demo`` does). The service runs
in dev mode (no token, loopback only) on a free port with its data in ``out/service/``; the
example answer is posted to ``POST /v1/verify`` as one line of the JSON contract, and the
reviewer's page ``/review/{id}`` is written to ``out/review-hartley.html`` with its style sheet
and script inlined, so the saved copy opens styled and working from the file alone.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from citeproof.sources import read_source_file

ROOT = Path(__file__).resolve().parents[2]
LENDING = ROOT / "examples" / "lending"
SOURCES = {
    "policy": LENDING / "credit-policy.md",
    "email": LENDING / "hartley-valuation.eml",
    "memo": LENDING / "hartley-memo.txt",
}


def batch_line() -> dict[str, object]:
    sources = []
    for source_id, path in SOURCES.items():
        source = read_source_file(path, source_id=source_id)
        sources.append(
            {"id": source.id, "kind": source.kind, "text": source.text, "title": source.title}
        )
    answer = (LENDING / "answer.md").read_text(encoding="utf-8")
    return {"id": "hartley-demo", "answer": answer, "sources": sources}


STYLES = ("/static/answer.css", "/static/review.css")


def self_contained(page: str, styles: dict[str, str], script: str) -> str:
    """The served review page with its own style sheets (by path) and script inlined (they are
    ours and fixed; answer and source text in the page stay escaped text)."""
    for path, css in styles.items():
        page = page.replace(f'<link rel="stylesheet" href="{path}">', f"<style>{css}</style>")
    start = page.find('<script src="/static/review.js"')
    end = page.find("</script>", start)
    if start >= 0 and end >= 0:
        safe = script.replace("</", "<\\/")
        page = page[:start] + f"<script>{safe}" + page[end:]
    return page


def main() -> None:
    out = ROOT / "out"
    data = out / "service"
    data.mkdir(parents=True, exist_ok=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    citeproof = str(Path(sys.executable).parent / "citeproof")
    server = subprocess.Popen(
        [citeproof, "serve", "--dev", "--port", str(port), "--data", str(data)],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(1200):
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            raise SystemExit("the service did not start")
        response = httpx.post(
            f"{url}/v1/verify",
            content=json.dumps(batch_line()),
            headers={"Content-Type": "application/json"},
            timeout=60,
        )
        response.raise_for_status()
        record = response.json()
        counts = ", ".join(f"{n} {status}" for status, n in record["counts"].items() if n)
        review = f"{url}/review/{record['id']}"
        page = httpx.get(review, timeout=60)
        page.raise_for_status()
        styles = {path: httpx.get(f"{url}{path}", timeout=60).text for path in STYLES}
        script = httpx.get(f"{url}/static/review.js", timeout=60).text
        saved = self_contained(page.text, styles, script)
        (out / "review-hartley.html").write_text(saved, encoding="utf-8")
        print(f"service: POST /v1/verify -> {record['id']} ({counts})")
        print(f"service: review page {review} saved to out/review-hartley.html")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
