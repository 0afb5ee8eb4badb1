"""The service's edge guards and authentication, run in the test's own process: the real
application `create_app` builds for `citeproof serve` (its real configuration, a data folder
of the test's own), called through httpx's ASGI transport. What a caller sees is asserted:
the status, the problem's fields and message, the headers, and what is let through to the
application.

The body limits (the declared length and the bytes counted while the body is read, the larger
limit of upload paths), the cut-off for a body that stops arriving, the security headers and
request metrics (`citeproof.server.EdgeMiddleware`), the bearer token and review cookie, dev
mode, and the per-principal rate limit with its ``Retry-After``. The same rules are exercised
over a real socket by ``test_limits_and_auth.py`` and ``test_security_headers.py``.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import httpx
import pytest
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families

from citeproof.server import (
    PROBLEM_TYPE,
    EdgeMiddleware,
    Limits,
    Metrics,
    ServiceConfig,
    ServiceState,
    create_app,
)
from tests.server.csp import DOCS_CSP, STRICT_CSP

FIXED_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}
BODY_BYTES = 1_000
UPLOAD_BYTES = 3_000
READ_SECONDS = 0.25
LIMIT_SECONDS = 20  # a guard that never answers fails the test instead of hanging it
MISSING = "send Authorization: Bearer TOKEN (made with `citeproof token add`)"
MALFORMED = "the Authorization header must be 'Bearer TOKEN'"
UNKNOWN = "the token is not known (or was replaced)"


@dataclass
class Service:
    """The application of one configuration, and its tokens."""

    app: FastAPI
    state: ServiceState

    def token(self, name: str) -> str:
        return self.state.add_token(name, replace=True)

    def bearer(self, name: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(name)}"}

    def call(
        self,
        talk: Callable[[httpx.AsyncClient], Awaitable[Any]],
        cookies: dict[str, str] | None = None,
    ) -> Any:
        """``talk(client)`` against the application, with a bound on how long it may take."""

        async def main() -> Any:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(
                transport=transport,
                base_url="http://127.0.0.1",
                timeout=LIMIT_SECONDS,
                cookies=cookies,
            ) as client:
                with anyio.fail_after(LIMIT_SECONDS):
                    return await talk(client)

        return anyio.run(main)

    def get(self, path: str, **settings: Any) -> httpx.Response:
        return self.call(lambda client: client.get(path, **settings))

    def post(self, path: str, **settings: Any) -> httpx.Response:
        return self.call(lambda client: client.post(path, **settings))


@contextmanager
def service(folder: Path, *, dev: bool = False, **limits: Any) -> Iterator[Service]:
    settings = {
        "body_bytes": BODY_BYTES,
        "upload_bytes": UPLOAD_BYTES,
        "body_read_seconds": READ_SECONDS,
        **limits,
    }
    config = ServiceConfig(data=folder / "data", dev=dev, limits=Limits.from_json(settings))
    app = create_app(config)
    try:
        yield Service(app, ServiceState(config.service_db))
    finally:
        app.state.service.close()


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Service]:
    """A service with tokens required and small body limits, built for each test (so that
    mutation testing sees each test build it)."""
    with service(tmp_path) as running:
        yield running


def problem_of(
    response: httpx.Response, status: int, title: str, detail: str, field: str | None
) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    expected: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
    }
    if field is not None:
        expected["field"] = field
    assert response.json() == expected


def reached_the_app(response: httpx.Response) -> None:
    """The body got past the edge: the application read it (and found it was not JSON)."""
    assert response.status_code == 422, response.text
    assert response.json()["title"] == "Invalid input"


async def chunks(*parts: bytes) -> AsyncIterator[bytes]:
    """A body sent in pieces, with no Content-Length (chunked)."""
    for part in parts:
        yield part


# --- body limits -----------------------------------------------------------------------------


def test_a_body_declared_over_the_limit_is_refused_before_the_app_runs(guarded: Service) -> None:
    # No token: the application would answer 401, but it never runs.
    refused = guarded.post("/v1/verify", content=b"x" * (BODY_BYTES + 1))
    problem_of(
        refused, 413, "Request too large", f"the request body is over {BODY_BYTES} bytes", "body"
    )
    assert "www-authenticate" not in refused.headers


def test_a_body_of_exactly_the_limit_is_let_through(guarded: Service) -> None:
    bearer = guarded.bearer("alice")
    reached_the_app(guarded.post("/v1/verify", content=b"x" * BODY_BYTES, headers=bearer))
    streamed = chunks(b"x" * (BODY_BYTES - 10), b"y" * 10)
    reached_the_app(guarded.post("/v1/verify", content=streamed, headers=bearer))


def test_a_body_without_a_length_is_counted_while_it_arrives(guarded: Service) -> None:
    bearer = guarded.bearer("alice")
    # Many small pieces, none over the limit: their sum is.
    pieces = chunks(*[b"z" * 100 for _ in range(BODY_BYTES // 100)], b"z")
    refused = guarded.post("/v1/verify", content=pieces, headers=bearer)
    problem_of(
        refused, 413, "Request too large", f"the request body is over {BODY_BYTES} bytes", "body"
    )


def test_a_length_that_is_not_a_number_does_not_lift_the_count(guarded: Service) -> None:
    bearer = guarded.bearer("alice")
    headers = {**bearer, "Content-Length": "lots"}
    refused = guarded.post("/v1/verify", content=chunks(b"x" * (BODY_BYTES + 1)), headers=headers)
    problem_of(
        refused, 413, "Request too large", f"the request body is over {BODY_BYTES} bytes", "body"
    )


def test_upload_paths_take_the_larger_upload_limit(guarded: Service) -> None:
    bearer = guarded.bearer("alice")
    lines = b"\n".join(b'{"id": "u%d"}' % n for n in range(150))
    assert BODY_BYTES < len(lines) <= UPLOAD_BYTES
    created = guarded.post("/v1/batches", content=lines, headers=bearer)
    assert created.status_code == 202, created.text
    assert created.json()["total"] == 150
    over = b"x" * (UPLOAD_BYTES + 1)
    for sent in (over, chunks(over[:UPLOAD_BYTES], over[UPLOAD_BYTES:])):
        refused = guarded.post("/v1/batches", content=sent, headers=bearer)
        problem_of(
            refused,
            413,
            "Request too large",
            f"the request body is over {UPLOAD_BYTES} bytes",
            "body",
        )
    # The upload limit is for upload paths only.
    problem_of(
        guarded.post("/v1/verify", content=lines, headers=bearer),
        413,
        "Request too large",
        f"the request body is over {BODY_BYTES} bytes",
        "body",
    )


def test_a_body_that_stops_arriving_is_cut_off_with_408(guarded: Service) -> None:
    bearer = guarded.bearer("alice")

    async def stalls() -> AsyncIterator[bytes]:
        yield b'{"id": '
        await anyio.sleep_forever()

    refused = guarded.post("/v1/verify", content=stalls(), headers=bearer)
    problem_of(
        refused,
        408,
        "Request timeout",
        f"the request body did not arrive within {READ_SECONDS:g} s",
        "body",
    )
    assert refused.headers["connection"] == "close"


def test_a_slow_body_whose_pieces_keep_arriving_is_not_cut_off(guarded: Service) -> None:
    bearer = guarded.bearer("alice")

    async def slow() -> AsyncIterator[bytes]:
        for _ in range(3):  # longer in all than the cut-off, each piece within it
            yield b"x"
            await anyio.sleep(READ_SECONDS / 5)

    reached_the_app(guarded.post("/v1/verify", content=slow(), headers=bearer))


# --- security headers and metrics ------------------------------------------------------------


def test_every_response_carries_the_security_headers_and_a_fresh_nonce(guarded: Service) -> None:
    bearer = guarded.bearer("alice")
    got = {
        "API JSON": guarded.get("/v1/audit/verify", headers=bearer),
        "problem from the app": guarded.get("/v1/audit/verify"),
        "refused at the edge": guarded.post("/v1/verify", content=b"x" * (BODY_BYTES + 1)),
        "page": guarded.get("/review", headers=bearer),
        "docs document": guarded.get("/docs/openapi-3.0.json"),
        "API docs page": guarded.get("/docs"),
    }
    assert [r.status_code for r in got.values()] == [200, 401, 413, 200, 200, 200]
    nonces = []
    for name, response in got.items():
        for header, value in FIXED_HEADERS.items():
            assert response.headers.get(header) == value, (name, header)
        policy = DOCS_CSP if name == "API docs page" else STRICT_CSP
        found = policy.fullmatch(response.headers["content-security-policy"])
        assert found is not None, (name, response.headers["content-security-policy"])
        nonces.append(found["nonce"])
    assert len(set(nonces)) == len(nonces)
    for name in ("page", "API docs page"):  # the page signs its scripts with its policy's nonce
        tags = re.findall(r"<script\b[^>]*>", got[name].text)
        nonce = nonces[list(got).index(name)]
        assert tags and all(f'nonce="{nonce}"' in tag for tag in tags), (name, tags)


def requests_counted(text: str) -> dict[tuple[str, str, str], float]:
    counted = {}
    for family in text_string_to_metric_families(text):
        if family.name == "citeproof_http_requests":
            for sample in family.samples:
                if sample.name.endswith("_total"):
                    labels = sample.labels
                    key = (labels["method"], labels["route"], labels["status"])
                    counted[key] = sample.value
    return counted


def latency_sum(text: str, route: str) -> float:
    for family in text_string_to_metric_families(text):
        if family.name == "citeproof_http_request_seconds":
            for sample in family.samples:
                if sample.name.endswith("_sum") and sample.labels["route"] == route:
                    return float(sample.value)
    raise AssertionError(f"no latency for {route}")


def test_metrics_count_each_request_by_method_route_and_status(tmp_path: Path) -> None:
    with service(tmp_path) as running:
        bearer = running.bearer("alice")
        started = time.perf_counter()
        assert running.get("/v1/audit/verify", headers=bearer).status_code == 200
        assert running.get("/v1/audit/verify").status_code == 401
        took = time.perf_counter() - started
        running.get("/no/such/page")
        running.post("/v1/verify", content=b"x" * (BODY_BYTES + 1))
        text = running.get("/metrics").text
    assert requests_counted(text) == {
        ("GET", "/v1/audit/verify", "200"): 1.0,
        ("GET", "/v1/audit/verify", "401"): 1.0,
        ("GET", "unmatched", "404"): 1.0,
        ("POST", "unmatched", "413"): 1.0,  # refused before any route was matched
    }
    # Each request is timed within the client's own wait for it.
    assert 0 < latency_sum(text, "/v1/audit/verify") <= took


# --- authentication --------------------------------------------------------------------------


def test_a_request_without_a_token_is_asked_for_one(guarded: Service) -> None:
    response = guarded.get("/v1/audit/verify")
    problem_of(response, 401, "Unauthorized", MISSING, "Authorization")
    assert response.headers["www-authenticate"] == 'Bearer realm="citeproof"'


def test_an_unknown_token_is_refused_as_invalid(guarded: Service) -> None:
    guarded.token("alice")
    response = guarded.get("/v1/audit/verify", headers={"Authorization": "Bearer cpt_forged"})
    problem_of(response, 401, "Unauthorized", UNKNOWN, "Authorization")
    assert response.headers["www-authenticate"] == (
        'Bearer realm="citeproof", error="invalid_token"'
    )


@pytest.mark.parametrize("header", ["Basic YWxpY2U6c2VjcmV0", "Bearer", "Bearer ", "Bearer    "])
def test_an_authorization_header_that_is_not_bearer_token_is_refused(
    guarded: Service, header: str
) -> None:
    response = guarded.get("/v1/audit/verify", headers={"Authorization": header})
    problem_of(response, 401, "Unauthorized", MALFORMED, "Authorization")
    assert response.headers["www-authenticate"] == 'Bearer realm="citeproof"'


def test_the_bearer_scheme_ignores_case_and_the_token_its_spaces(guarded: Service) -> None:
    token = guarded.token("alice")
    for header in (f"bearer {token}", f"BEARER {token}", f"Bearer  {token}  "):
        response = guarded.get("/v1/audit/verify", headers={"Authorization": header})
        assert response.status_code == 200, (header, response.text)


def test_the_review_cookie_signs_in_to_the_pages_but_not_the_api(guarded: Service) -> None:
    cookie = {"citeproof_token": guarded.token("carol")}
    page = guarded.call(lambda client: client.get("/review"), cookie)
    assert page.status_code == 200
    assert '<span class="principal">carol</span>' in page.text
    api = guarded.call(lambda client: client.get("/v1/audit/verify"), cookie)
    problem_of(api, 401, "Unauthorized", MISSING, "Authorization")
    # The pages take a bearer token too, and a wrong cookie is a sign-in form.
    by_header = guarded.get("/review", headers=guarded.bearer("dora"))
    assert '<span class="principal">dora</span>' in by_header.text
    wrong = guarded.call(lambda client: client.get("/review"), {"citeproof_token": "x"})
    assert wrong.status_code == 401 and "Sign in" in wrong.text


def test_dev_mode_calls_a_request_without_a_token_dev(tmp_path: Path) -> None:
    with service(tmp_path, dev=True) as running:
        page = running.get("/review")
        assert page.status_code == 200
        assert '<span class="principal">dev</span>' in page.text
        assert running.get("/v1/audit/verify").status_code == 200
        # A token still names its principal, and a wrong one is still refused.
        named = running.get("/review", headers=running.bearer("erin"))
        assert '<span class="principal">erin</span>' in named.text
        forged = running.get("/v1/audit/verify", headers={"Authorization": "Bearer cpt_forged"})
        problem_of(forged, 401, "Unauthorized", UNKNOWN, "Authorization")


# --- the rate limit --------------------------------------------------------------------------


class Clock:
    """The rate limiter's wall clock (its buckets are in the service database), moved by hand."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moved = Clock()
    monkeypatch.setattr("citeproof.server._auth.time", SimpleNamespace(time=moved.time))
    return moved


def statuses(running: Service, headers: dict[str, str], count: int) -> list[int]:
    async def send(client: httpx.AsyncClient) -> list[int]:
        return [
            (await client.get("/v1/audit/verify", headers=headers)).status_code
            for _ in range(count)
        ]

    return list(running.call(send))


def test_the_rate_limit_answers_429_with_the_seconds_until_a_request_is_allowed(
    tmp_path: Path, clock: Clock
) -> None:
    with service(tmp_path, rate_per_minute=15, rate_burst=3) as running:
        dave = running.bearer("dave")
        assert statuses(running, dave, 3) == [200, 200, 200]  # the burst
        refused = running.get("/v1/audit/verify", headers=dave)
        problem_of(
            refused,
            429,
            "Too many requests",
            "over 15 requests a minute for 'dave'",
            "Authorization",
        )
        assert refused.headers["retry-after"] == "4"  # one request every 4 s
        clock.now += 2.0
        assert running.get("/v1/audit/verify", headers=dave).headers["retry-after"] == "2"
        clock.now += 1.5
        assert running.get("/v1/audit/verify", headers=dave).headers["retry-after"] == "1"
        clock.now += 0.5
        assert statuses(running, dave, 2) == [200, 429]
        # Others are not held back by dave's requests.
        assert statuses(running, running.bearer("erin"), 3) == [200, 200, 200]
        # However long the wait, no more than the burst builds up.
        clock.now += 3_600.0
        assert statuses(running, dave, 4) == [200, 200, 200, 429]


def test_a_burst_of_one_allows_one_request_at_once(tmp_path: Path, clock: Clock) -> None:
    with service(tmp_path, rate_per_minute=120, rate_burst=1) as running:
        frank = running.bearer("frank")
        assert statuses(running, frank, 2) == [200, 429]
        refused = running.get("/v1/audit/verify", headers=frank)
        assert refused.json()["detail"] == "over 120 requests a minute for 'frank'"
        assert refused.headers["retry-after"] == "1"
        clock.now += 0.5  # two a second
        assert statuses(running, frank, 2) == [200, 429]


def test_requests_refused_before_the_token_is_known_do_not_count(
    tmp_path: Path, clock: Clock
) -> None:
    with service(tmp_path, rate_per_minute=1, rate_burst=1) as running:
        for _ in range(3):
            assert running.get("/v1/audit/verify").status_code == 401
        assert statuses(running, running.bearer("gina"), 2) == [200, 429]


# --- the middleware around any application ---------------------------------------------------


Message = dict[str, Any]


def edge(app: Callable[..., Awaitable[None]], metrics: Metrics, **limits: Any) -> EdgeMiddleware:
    settings: dict[str, Any] = {
        "body_bytes": 10,
        "upload_bytes": 20,
        "upload_paths": ["/upload"],
        "read_seconds": READ_SECONDS,
        "body_seconds": 60.0,
        **limits,
    }
    return EdgeMiddleware(app, metrics=metrics, **settings)


def http_scope(path: str = "/") -> dict[str, Any]:
    return {"type": "http", "method": "POST", "path": path}  # no headers: none are required


def test_the_server_header_an_application_sets_is_dropped() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"Server", b"inner/1.0"), (b"x-kept", b"yes")],
            }
        )
        await send({"type": "http.response.body", "body": b"ok"})

    async def main() -> httpx.Response:
        transport = httpx.ASGITransport(app=edge(app, Metrics()))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.get("/")

    response = anyio.run(main)
    assert response.text == "ok"
    assert "server" not in response.headers
    assert response.headers["x-kept"] == "yes"
    assert response.headers["x-frame-options"] == "DENY"


def test_a_reply_started_without_headers_gets_the_security_headers() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 204})  # headers are optional
        await send({"type": "http.response.body"})

    async def main() -> httpx.Response:
        transport = httpx.ASGITransport(app=edge(app, Metrics()))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.get("/")

    response = anyio.run(main)
    assert response.status_code == 204
    for header, value in FIXED_HEADERS.items():
        assert response.headers.get(header) == value, header
    assert STRICT_CSP.fullmatch(response.headers["content-security-policy"])


def test_an_unexpected_error_is_answered_500_with_the_security_headers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with service(tmp_path) as running:

        async def crash() -> None:
            raise RuntimeError("the database went away at /srv/secret")

        running.app.add_api_route("/v1/crash", crash)  # a route with a bug in it
        with caplog.at_level(logging.ERROR, logger="citeproof.server"):
            response = running.get("/v1/crash")
        text = running.get("/metrics").text
    problem_of(response, 500, "Internal error", "the service failed; see its log", None)
    for header, value in FIXED_HEADERS.items():
        assert response.headers.get(header) == value, header
    assert STRICT_CSP.fullmatch(response.headers["content-security-policy"])
    logged = [r for r in caplog.records if r.getMessage() == "unexpected error on GET /v1/crash"]
    assert len(logged) == 1 and logged[0].exc_info is not None
    assert "the database went away" in str(logged[0].exc_info[1])
    assert requests_counted(text)[("GET", "/v1/crash", "500")] == 1.0


def test_a_request_cut_short_before_any_reply_is_counted_as_500() -> None:
    metrics = Metrics()
    entered = anyio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        entered.set()
        await anyio.sleep_forever()

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    async def send(message: Message) -> None:
        raise AssertionError(f"nothing is sent: {message}")

    async def main() -> None:
        async with anyio.create_task_group() as server:  # a server stopping cancels its work
            server.start_soon(edge(app, metrics), http_scope(), receive, send)
            await entered.wait()
            server.cancel_scope.cancel()

    anyio.run(main)
    assert requests_counted(metrics.text().decode()) == {("POST", "unmatched", "500"): 1.0}


def test_an_error_after_the_reply_began_is_not_answered_twice() -> None:
    sent: list[Message] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise RuntimeError("failed while streaming")

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    async def send(message: Message) -> None:
        sent.append(message)

    with pytest.raises(RuntimeError, match="failed while streaming"):
        anyio.run(edge(app, Metrics()), http_scope(), receive, send)
    assert [(m["type"], m["status"]) for m in sent] == [("http.response.start", 200)]


def test_scopes_other_than_http_pass_through_untouched() -> None:
    seen: list[tuple[Any, Any, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append((scope, receive, send))

    async def receive() -> Message:
        return {"type": "lifespan.startup"}

    async def send(message: Message) -> None:
        pass

    metrics = Metrics()
    for scope in ({"type": "lifespan"}, {"type": "websocket", "path": "/ws", "headers": []}):
        anyio.run(edge(app, metrics), scope, receive, send)
        assert seen.pop() == (scope, receive, send)
        assert "state" not in scope
    assert requests_counted(metrics.text().decode()) == {}


def test_after_the_whole_body_waiting_for_the_client_to_leave_is_not_cut_off() -> None:
    """Once the body is in, the application may wait for the disconnect as long as it likes
    (a streamed reply does): only the body's own arrival has a cut-off. A message without
    ``more_body`` is the last one (ASGI)."""
    got: list[Message] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        got.append(await receive())
        got.append(await receive())

    async def receive() -> Message:
        if not got:
            return {"type": "http.request", "body": b"all of it"}
        await anyio.sleep(READ_SECONDS * 3)
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        pass

    anyio.run(edge(app, Metrics()), http_scope(), receive, send)
    assert got == [{"type": "http.request", "body": b"all of it"}, {"type": "http.disconnect"}]


def test_a_request_message_without_a_body_counts_as_empty() -> None:
    got: list[Message] = []
    messages = [{"type": "http.request", "more_body": True}] * 5 + [{"type": "http.request"}]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        for _ in messages:
            got.append(await receive())

    async def receive() -> Message:
        return dict(messages[len(got)])

    async def send(message: Message) -> None:
        pass

    anyio.run(edge(app, Metrics(), body_bytes=3), http_scope(), receive, send)
    assert got == messages
