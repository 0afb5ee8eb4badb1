"""A review page of a thousand quoted claims over a source of a million characters is built in
a thread, so other requests on the worker are answered meanwhile. Before, the page was built
on the event loop (2,500 claims over 990k characters stalled every request on that worker for
11.5 s)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from citeproof import Policy, Source, VerifiedAnswer, verify
from citeproof.audit import open_store
from citeproof.outcome import conclude
from citeproof.server import ServiceState
from tests.server.conftest import Server, start_server

QUOTES = 1_000


def heavy_answer() -> VerifiedAnswer:
    """A real verified answer: a thousand quoted claims over one long source with characters
    outside the BMP (two UTF-16 units each) all along it."""
    parts = [
        f"Policy clause \U0001f4c4 about lending rule {n} and ratio {n * 7}." for n in range(20_000)
    ]
    source = Source(id="S1", kind="document", text=" ".join(parts)[:990_000], title="Policy")
    answer = " ".join(
        f'Rule {n} says "about lending rule {n} and ratio {n * 7}" [S1].' for n in range(QUOTES)
    )
    return verify(answer, [source], policy=Policy(support_judge="lexical"), answer_id="heavy")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    for server in start_server(tmp_path_factory.mktemp("heavy"), "--dev"):
        with open_store(server.data / "audit.db") as log:
            logged = conclude(heavy_answer(), request={"command": "serve verify"}, log=log)
        assert logged.audit_sequence is not None
        ServiceState(server.data / "service.db").record_answer(
            answer_id="heavy",
            principal="dev",
            request_id=logged.payload["request_id"],
            audit_sequence=logged.audit_sequence,
            kind="verify",
            counts={"verified": QUOTES},
            text="Rule 0 says",
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
    assert page.text.count('class="quote-link"') >= QUOTES
