"""One question through `citeproof proxy` to the embedded model, asked with the OpenAI SDK.

Run: ``.venv/bin/python examples/proxy/demo.py`` (what ``make demo`` does last). The embedded
model's OpenAI-compatible server starts on a loopback port; ``citeproof proxy --upstream`` starts
in front of it, appending to ``out/audit.db``. The OpenAI SDK is pointed at the proxy (the only
change a team makes: the base URL) and asks one question, the credit policy given in the
request's ``citeproof.sources``; the answer comes back as the model wrote it, with the verdicts
in its ``citeproof`` member and the ``X-Citeproof-*`` headers, which this prints.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from openai import OpenAI

from citeproof.providers import EmbeddedModel
from citeproof.sources import read_source_file

ROOT = Path(__file__).resolve().parents[2]
POLICY = ROOT / "examples" / "lending" / "credit-policy.md"
QUESTION = "When must an application be referred to a senior underwriter?"
INSTRUCTIONS = (
    "Answer from the credit policy only, in one or two sentences. Quote its exact words in "
    'double quotes and put [policy] after each quote, e.g. The policy says "..." [policy].'
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_proxy(upstream: str, port: int, audit: Path) -> subprocess.Popen[bytes]:
    citeproof = str(Path(sys.executable).parent / "citeproof")
    command = [citeproof, "proxy", "--upstream", upstream, "--port", str(port)]
    process = subprocess.Popen([*command, "--audit", str(audit)])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the proxy did not start")


def main() -> None:
    policy = read_source_file(POLICY, source_id="policy")
    source = {"id": "policy", "kind": "document", "text": policy.text, "title": policy.title}
    (ROOT / "out").mkdir(exist_ok=True)
    with EmbeddedModel() as model:
        port = free_port()
        proxy = start_proxy(model.base_url, port, ROOT / "out" / "audit.db")
        try:
            client = OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="local", timeout=900)
            raw = client.chat.completions.with_raw_response.create(
                model=model.name,
                messages=[
                    {"role": "system", "content": INSTRUCTIONS},
                    {"role": "user", "content": f"Credit policy:\n\n{policy.text}\n\n{QUESTION}"},
                ],
                max_tokens=160,
                temperature=0,
                extra_body={"citeproof": {"sources": [source]}},
            )
        finally:
            proxy.send_signal(signal.SIGTERM)
            proxy.wait(timeout=30)
    completion = raw.parse()
    record = raw.http_response.json()["citeproof"]
    print(f"Q: {QUESTION}")
    print(f"A: {completion.choices[0].message.content}")
    print(f"quotes: {raw.headers['x-citeproof-quotes']}")
    print(f"claims: {raw.headers['x-citeproof-claims']}")
    for quote in record["quotes"]:
        print(f"  {quote['id']} {quote['status']}: {quote['text']!r}")
    print(f"outcome: {record['outcome']}; audit record {record.get('request_id')} in out/audit.db")


if __name__ == "__main__":
    main()
