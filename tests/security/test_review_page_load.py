"""A review page with thousands of chips over a source of a million characters: built in a
thread, in time linear in its size, so other requests on the worker are answered meanwhile.
Before, the page was built on the event loop re-encoding the whole source for every chip
(2,500 claims over 990k characters stalled every request on that worker for 11.5 s;
this page, 5,000 claims and 1,000 quotes, about 12 s here)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from citeproof.audit import open_store
from citeproof.server import ServiceState
from citeproof.server._views import answer_page, utf16
from tests.server.conftest import Server, start_server

CLAIMS, QUOTES = 5_000, 1_000


def heavy_payload() -> dict[str, Any]:
    """An audit payload as the service logs it, with every chip pointing into one long
    source that has characters outside the BMP (two UTF-16 units each) all along it."""
    text = ("Policy clause \U0001f4c4 about lending rules and ratios. " * 18_000)[:990_000]
    step = len(text) // CLAIMS
    sentence = "The ratio is fixed. "
    answer_text = sentence * CLAIMS
    claims = [
        {
            "id": f"c{n}",
            "text": sentence.strip(),
            "span": [n * len(sentence), (n + 1) * len(sentence) - 1],
            "verdict": "supported",
            "support": [
                {
                    "verdict": "supported",
                    "passage": {"source": "S1", "span": [n * step, n * step + 40]},
                    "score": 0.9,
                    "method": "lexical",
                }
            ],
        }
        for n in range(CLAIMS)
    ]
    quotes = [
        {
            "id": f"q{n}",
            "status": "verified",
            "text": text[n * step : n * step + 30],
            "source": "S1",
            "source_span": [n * step, n * step + 30],
            "corrected_span": [n * len(sentence), n * len(sentence) + 5],
        }
        for n in range(QUOTES)
    ]
    return {
        "schema": "citeproof/audit-payload/1",
        "answer": {"id": "heavy", "text": answer_text, "quotes": quotes, "claims": claims},
        "sources": [{"id": "S1", "kind": "document", "title": "Policy", "text": text}],
    }


def test_the_page_offsets_are_the_utf16_offsets_of_the_source() -> None:
    payload = heavy_payload()
    text = payload["sources"][0]["text"]
    page = answer_page(payload, request_id="r", created_at="now")
    for quote, raw in zip(page.quotes[:50], payload["answer"]["quotes"][:50], strict=True):
        start, end = raw["source_span"]
        assert (quote.chip.start16, quote.chip.end16) == (utf16(text, start), utf16(text, end))
    for claim, raw in zip(page.claims[-50:], payload["answer"]["claims"][-50:], strict=True):
        start, end = raw["support"][0]["passage"]["span"]
        assert (claim.chip.start16, claim.chip.end16) == (utf16(text, start), utf16(text, end))
    # Every claim's chip is drawn once, at the end of its own run of the answer.
    assert sum(run.claim is not None for run in page.runs) == CLAIMS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    for server in start_server(tmp_path_factory.mktemp("heavy"), "--dev"):
        with open_store(server.data / "audit.db") as log:
            appended = log.append(heavy_payload(), "req-heavy")
        ServiceState(server.data / "service.db").record_answer(
            answer_id="heavy",
            principal="dev",
            request_id="req-heavy",
            audit_sequence=appended.sequence,
            kind="verify",
            counts={"verified": QUOTES},
            text="The ratio is fixed.",
        )
        yield server


def test_other_requests_are_answered_while_a_heavy_page_is_built(server: Server) -> None:
    results: dict[str, Any] = {}

    def load_page() -> None:
        with httpx.Client(base_url=server.url, timeout=600) as http:
            results["page"] = http.get("/review/heavy")

    loader = threading.Thread(target=load_page)
    loader.start()
    with httpx.Client(base_url=server.url, timeout=3) as http:
        while loader.is_alive():
            # A worker whose event loop is held does not answer this within 3 s.
            assert http.get("/healthz").status_code == 200
    loader.join()
    page = results["page"]
    assert page.status_code == 200, page.text[:500]
    assert page.text.count('data-key="c') == CLAIMS
