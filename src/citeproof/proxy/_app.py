"""The proxy's ASGI application: the three vendor APIs, each forwarded to the one upstream
and its answer verified on the way back (see `citeproof.proxy`).

The service's edge (`citeproof.server.EdgeMiddleware`) counts each request body while it
is read and cuts off a client that stops sending; verification of a non-streamed answer runs in
a worker thread under the service's request deadline. Errors citeproof makes about the request
(its ``citeproof`` member, its sources, a limit) are ``application/problem+json`` naming the
field; errors about the upstream (unreachable, too slow, an answer past the buffer budget)
come in the vendor's own shape; the upstream's own errors pass through as it sent them.

What the upstream sends back is checked, never trusted: its JSON goes through one bounded,
total parse (`citeproof.proxy._parse`), its own ``X-Citeproof-*`` headers are dropped, the
answers all requests hold at once share one buffer budget (`citeproof.proxy._budget`), and
a stream is relayed so that nothing in it ends the caller's stream early
(`citeproof.proxy._relayed`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread
import httpx
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from citeproof import compact_json
from citeproof.adapters import citation_report
from citeproof.errors import CiteproofError, InputError
from citeproof.model import Policy
from citeproof.proxy._answers import (
    CheckedAnswer,
    OnFail,
    check,
    convert,
    corrected,
    summary_headers,
)
from citeproof.proxy._apis import APIS, VendorApi
from citeproof.proxy._budget import BUFFER_BYTES, BufferBudget, Held, OverBudget
from citeproof.proxy._parse import read_json
from citeproof.proxy._recording import Recorder, recorder_for
from citeproof.proxy._relayed import RelayedStream, StreamWork
from citeproof.proxy._request_sources import ProxiedRequest, read_request
from citeproof.proxy._store_sources import StoreAccess
from citeproof.proxy._upstream import (
    Upstream,
    UpstreamTimeouts,
    answer_headers,
    forwarded_headers,
    upstream_base,
)
from citeproof.server import PROBLEM_TYPE, EdgeMiddleware, Limits, Metrics, Problem, check_sizes
from citeproof.verifier import Verifier

log = logging.getLogger("citeproof.proxy")
T = TypeVar("T")

PROXY_LIMITS = Limits(body_bytes=Limits().upload_bytes)
"""The service's limits, but a request body as large as an upload: vendor requests carry
their documents (a PDF as base64)."""
MAX_RESPONSE_BYTES = 50_000_000
"""Largest non-streamed upstream response read."""


@dataclass(frozen=True, slots=True)
class ProxyConfig:
    """One proxy: the upstream it forwards to, what it does with a failing answer, the
    policy answers are verified under (a request's ``citeproof.policy`` changes it for that
    request), the limits, and where answers are recorded (``audit``: a log; ``data``: a
    service data folder, whose review app then lists them under ``principal``); ``store`` is
    the source store a request's ``citeproof.store`` retrieves from, read as ``principal``;
    ``buffer_bytes`` is the buffer budget: the bytes of upstream answers all requests of a
    process may hold at once."""

    upstream: str
    on_fail: OnFail = "annotate"
    policy: Policy = field(default_factory=Policy)
    limits: Limits = PROXY_LIMITS
    timeouts: UpstreamTimeouts = field(default_factory=UpstreamTimeouts)
    audit: str | None = None
    data: Path | None = None
    principal: str = "proxy"
    store: Path | None = None
    buffer_bytes: int = BUFFER_BYTES


def check_proxy_config(config: ProxyConfig) -> None:
    """Refuse what `create_proxy_app` would refuse, without keeping anything open: the
    upstream's URL, the buffer budget, and the audit log or data folder (opened, then
    closed). ``citeproof proxy --workers N`` checks here before anything listens; each worker
    builds its own app."""
    upstream_base(config.upstream)
    _check_budget(config.buffer_bytes)
    recorder_for(config.audit, config.data, config.principal).close()


def create_proxy_app(
    config: ProxyConfig, *, transport: httpx.AsyncBaseTransport | None = None
) -> ASGIApp:
    """The proxy for ``config`` (an ASGI application); ``transport`` replaces the network."""
    _check_budget(config.buffer_bytes)
    upstream = Upstream(config.upstream, timeouts=config.timeouts, transport=transport)
    recorder = recorder_for(config.audit, config.data, config.principal)
    proxy = _Proxy(config, upstream, recorder)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await upstream.close()
            recorder.close()

    routes = [
        Route(api.path, functools.partial(proxy.handle, api), methods=["POST"]) for api in APIS
    ]
    routes.append(Route("/healthz", _healthy, methods=["GET"]))
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=_HANDLERS)
    metrics = Metrics()
    return EdgeMiddleware(
        app,
        metrics=metrics,
        body_bytes=config.limits.body_bytes,
        upload_bytes=config.limits.upload_bytes,
        upload_paths=(),
        read_seconds=config.limits.body_read_seconds,
        body_seconds=config.limits.body_seconds,
    )


def _check_budget(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InputError(f"must be a positive whole number, got {value!r}", field="buffer_bytes")


async def _healthy(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


class _Proxy:
    def __init__(self, config: ProxyConfig, upstream: Upstream, recorder: Recorder) -> None:
        self.config = config
        self.upstream = upstream
        self.recorder = recorder
        self.limits = config.limits
        self.store = StoreAccess(config.store, config.principal) if config.store else None
        self.budget = BufferBudget(config.buffer_bytes)
        self._lane: anyio.CapacityLimiter | None = None

    async def handle(self, api: VendorApi, request: Request) -> Response:
        raw = await request.body()
        try:
            body = compact_json.loads(raw)
        except (ValueError, RecursionError):
            raise InputError("not valid JSON", where="request body") from None
        proxied = await self._in_thread(read_request, api, body, self.config.policy, self.store)
        check_sizes(self.limits, "", proxied.sources)
        verifier = None
        if proxied.sources:
            verifier = await self._in_thread(
                Verifier, proxied.sources, policy=proxied.policy, eligibility=proxied.eligibility
            )
        headers = forwarded_headers(request.headers.items())
        headers["content-type"] = "application/json"
        content = compact_json.dumps(proxied.forward)
        try:
            answer = await self.upstream.send(api.path, content, headers)
        except httpx.TimeoutException:
            return _vendor_error(api, 504, "the upstream did not answer in time")
        except httpx.HTTPError as error:
            return _vendor_error(api, 502, f"cannot reach the upstream ({type(error).__name__})")
        passed = answer_headers(answer.headers.items())
        streamed = "text/event-stream" in answer.headers.get("content-type", "")
        if answer.status_code != 200 or verifier is None:
            if verifier is None:
                passed["X-Citeproof-Outcome"] = "no-sources"
            return _passed_through(answer, passed)
        meta = self._metadata(api, proxied, answer, streamed=streamed)
        held = self.budget.hold()
        if streamed:
            work = StreamWork(
                api,
                proxied,
                verifier,
                self.config.on_fail,
                self.limits.answer_chars,
                meta,
                self._in_thread,
                self._record_now,
            )
            events = RelayedStream(work, held).events(answer)
            return StreamingResponse(events, status_code=200, headers=passed)
        try:
            return await self._whole(api, proxied, verifier, answer, passed, meta, held)
        except OverBudget as error:
            held.release()
            await answer.aclose()
            if error.retry:
                return _vendor_error(api, 503, str(error), headers={"Retry-After": "1"})
            return _vendor_error(api, 502, str(error))
        except BaseException:
            held.release()
            raise

    async def _whole(
        self,
        api: VendorApi,
        proxied: ProxiedRequest,
        verifier: Verifier,
        answer: httpx.Response,
        passed: dict[str, str],
        meta: dict[str, Any],
        held: Held,
    ) -> Response:
        """A non-streamed answer, read whole within ``held`` (its share of the buffer budget,
        given back once the reply has been sent), verified, and annotated."""
        try:
            raw = await _read_bounded(answer, MAX_RESPONSE_BYTES, held)
        except httpx.HTTPError:
            held.release()
            return _vendor_error(api, 502, "the upstream's answer was cut off")
        response, unreadable = await self._in_thread(read_json, raw)  # off the event loop
        del raw
        if unreadable is not None or not isinstance(response, dict):
            held.release()
            what = unreadable or ("not JSON" if response is None else "not a JSON object")
            return _vendor_error(api, 502, f"the upstream's answer cannot be read: {what}")
        # Verified, recorded and its record made in one turn of the verify lane.
        checked, request_id, record = await self._in_thread(
            self._check_and_record, api, response, proxied, verifier, meta
        )
        headers = {**passed, **summary_headers(checked)}
        if request_id is not None:
            headers["X-Citeproof-Request-Id"] = request_id
        headers.pop("content-type", None)
        if self.config.on_fail == "block" and checked.failures:
            problem = Problem(
                422,
                "Answer failed verification",
                "; ".join(checked.failures),
                field="citeproof.failures",
            )
            payload = {**problem.to_json(), "failures": list(checked.failures), "citeproof": record}
            return _HeldResponse(
                held, compact_json.dumps(payload), 422, headers=headers, media_type=PROBLEM_TYPE
            )
        if self.config.on_fail == "correct":
            response = corrected(api, response, checked)
        body = compact_json.dumps({**response, "citeproof": record})
        return _HeldResponse(held, body, headers=headers, media_type="application/json")

    def _check_and_record(
        self,
        api: VendorApi,
        response: dict[str, Any],
        proxied: ProxiedRequest,
        verifier: Verifier,
        meta: Mapping[str, Any],
    ) -> tuple[CheckedAnswer, str | None, dict[str, Any]]:
        """The answer verified, recorded (its request id) and its ``citeproof`` member."""
        converted, invalid = convert(api, response, proxied)
        check_sizes(self.limits, converted.answer, ())
        checked = check(converted, response, verifier, invalid)
        request_id = self._record_now(checked, meta)
        return checked, request_id, checked.record(proxied, request_id)

    def _record_now(self, checked: CheckedAnswer, meta: Mapping[str, Any]) -> str | None:
        """Record ``checked`` (in the verify lane); its request id, None when not kept."""
        request = {**meta, "vendor_citations": citation_report(checked.converted)}
        if checked.invalid:
            request["invalid_citations"] = [citation.to_json() for citation in checked.invalid]
        return self.recorder.record(checked.verified, request)

    def _metadata(
        self, api: VendorApi, proxied: ProxiedRequest, answer: httpx.Response, *, streamed: bool
    ) -> dict[str, Any]:
        """The request metadata of the audit record: no header but the vendor's request id."""
        vendor_id = answer.headers.get("request-id") or answer.headers.get("x-request-id")
        return {
            "command": "proxy",
            "api": api.name,
            "upstream": self.upstream.base,
            "model": proxied.model,
            "stream": streamed,
            "vendor_request_id": vendor_id,
            "on_fail": self.config.on_fail,
        }

    async def _in_thread(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function`` in the proxy's one work thread, in arrival order, under the request
        deadline. Its work is CPU under one interpreter lock, as the service's verification
        is (`citeproof.server`): threads side by side would only take the lock from each
        other, and the one appending to the audit log would hold its write lock meanwhile."""
        if self._lane is None:
            self._lane = anyio.CapacityLimiter(1)
        seconds = self.limits.deadline_seconds
        call = functools.partial(function, *args, **kwargs)
        try:
            with anyio.fail_after(seconds):
                return await anyio.to_thread.run_sync(
                    call, abandon_on_cancel=True, limiter=self._lane
                )
        except TimeoutError:
            raise Problem(
                503,
                "Deadline exceeded",
                f"verifying took over {seconds:g} s",
                headers={"Retry-After": "1"},
            ) from None


async def _read_bounded(answer: httpx.Response, limit: int, held: Held) -> bytes:
    """The whole answer, at most ``limit`` bytes, each byte taken from the buffer budget
    before it is kept (an announced length, before anything is read). Raises `OverBudget`."""
    chunks: list[bytes] = []
    size = 0
    try:
        declared = answer.headers.get("content-length", "")
        if declared.isdigit() and int(declared) <= limit:
            held.resize(int(declared))
        async for chunk in answer.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise Problem(502, "Upstream answer too large", f"over {limit:,} bytes")
            held.resize(max(size, held.size))
            chunks.append(chunk)
    finally:
        await answer.aclose()
    return b"".join(chunks)


class _HeldResponse(Response):
    """A reply built from a buffered answer: its share of the buffer budget is given back
    once the reply has been sent, or could not be."""

    def __init__(self, held: Held, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held = held

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._held.release()


def _passed_through(answer: httpx.Response, headers: dict[str, str]) -> Response:
    """The upstream's answer as it came, bytes as they arrive."""

    async def body() -> AsyncIterator[bytes]:
        try:
            async for chunk in answer.aiter_bytes():
                yield chunk
        finally:
            await answer.aclose()

    return StreamingResponse(body(), status_code=answer.status_code, headers=headers)


def _vendor_error(
    api: VendorApi, status: int, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    return JSONResponse(api.error_body(status, message), status_code=status, headers=headers)


async def _problem(request: Request, error: Exception) -> Response:
    assert isinstance(error, Problem)
    return error.response()


async def _bad_input(request: Request, error: Exception) -> Response:
    assert isinstance(error, InputError)
    return Problem(
        422, "Invalid input", error.detail, field=error.field, where=error.where
    ).response()


async def _refused(request: Request, error: Exception) -> Response:
    where = getattr(error, "where", None)
    field_name = getattr(error, "field", None)
    return Problem(422, "Cannot do that", str(error), field=field_name, where=where).response()


async def _client_left(request: Request, error: Exception) -> Response:
    log.info("client left during %s %s", request.method, request.url.path)
    return Problem(400, "Client disconnected", "the request body was cut off").response()


_HANDLERS: dict[Any, Callable[[Request, Exception], Any]] = {
    Problem: _problem,
    InputError: _bad_input,
    CiteproofError: _refused,
    ClientDisconnect: _client_left,
}
