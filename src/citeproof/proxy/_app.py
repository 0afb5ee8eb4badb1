"""The proxy's ASGI application: the three vendor APIs, each forwarded to the one upstream
and its answer verified on the way back (see `citeproof.proxy`).

The service's edge (`citeproof.server.EdgeMiddleware`) counts each request body while it
is read and cuts off a client that stops sending; verification of a non-streamed answer runs in
a worker thread under the service's request deadline. Errors citeproof makes about the request
(its ``citeproof`` member, its sources, a limit) are ``application/problem+json`` naming the
field; errors about the upstream (unreachable, too slow) come in the vendor's own shape; the
upstream's own errors pass through as it sent them.
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
from starlette.types import ASGIApp

from citeproof import compact_json
from citeproof.adapters import citation_report, from_anthropic
from citeproof.errors import CiteproofError, InputError
from citeproof.model import Policy
from citeproof.proxy._answers import (
    CheckedAnswer,
    OnFail,
    check,
    convert,
    corrected,
    failures,
    summary_headers,
)
from citeproof.proxy._apis import APIS, VendorApi
from citeproof.proxy._correcting import StreamCorrector
from citeproof.proxy._recording import Recorder, recorder_for
from citeproof.proxy._relay import Relay, relay_for
from citeproof.proxy._request_sources import ProxiedRequest, read_request
from citeproof.proxy._sse import EventSplitter, EventTooLarge
from citeproof.proxy._store_sources import StoreAccess
from citeproof.proxy._stream import RECORD_EVENT, AnswerVerdict, SentenceVerdict, StreamVerifier
from citeproof.proxy._upstream import (
    Upstream,
    UpstreamTimeouts,
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
    the source store a request's ``citeproof.store`` retrieves from, read as ``principal``."""

    upstream: str
    on_fail: OnFail = "annotate"
    policy: Policy = field(default_factory=Policy)
    limits: Limits = PROXY_LIMITS
    timeouts: UpstreamTimeouts = field(default_factory=UpstreamTimeouts)
    audit: str | None = None
    data: Path | None = None
    principal: str = "proxy"
    store: Path | None = None


def check_proxy_config(config: ProxyConfig) -> None:
    """Refuse what `create_proxy_app` would refuse, without keeping anything open: the
    upstream's URL, and the audit log or data folder (opened, then closed). ``citeproof proxy
    --workers N`` checks here before anything listens; each worker builds its own app."""
    upstream_base(config.upstream)
    recorder_for(config.audit, config.data, config.principal).close()


def create_proxy_app(
    config: ProxyConfig, *, transport: httpx.AsyncBaseTransport | None = None
) -> ASGIApp:
    """The proxy for ``config`` (an ASGI application); ``transport`` replaces the network."""
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
    )


async def _healthy(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


class _Proxy:
    def __init__(self, config: ProxyConfig, upstream: Upstream, recorder: Recorder) -> None:
        self.config = config
        self.upstream = upstream
        self.recorder = recorder
        self.limits = config.limits
        self.store = StoreAccess(config.store, config.principal) if config.store else None
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
        passed = forwarded_headers(answer.headers.items())
        streamed = "text/event-stream" in answer.headers.get("content-type", "")
        if answer.status_code != 200 or verifier is None:
            if verifier is None:
                passed["X-Citeproof-Outcome"] = "no-sources"
            return _passed_through(answer, passed)
        meta = self._metadata(api, proxied, answer, streamed=streamed)
        if streamed:
            events = self._relay(api, proxied, verifier, answer, meta)
            return StreamingResponse(events, status_code=200, headers=passed)
        return await self._whole(api, proxied, verifier, answer, passed, meta)

    async def _whole(
        self,
        api: VendorApi,
        proxied: ProxiedRequest,
        verifier: Verifier,
        answer: httpx.Response,
        passed: dict[str, str],
        meta: dict[str, Any],
    ) -> Response:
        try:
            raw = await _read_bounded(answer, MAX_RESPONSE_BYTES)
        except httpx.HTTPError:
            return _vendor_error(api, 502, "the upstream's answer was cut off")
        try:
            response = compact_json.loads(raw)
        except (ValueError, RecursionError):
            return _vendor_error(api, 502, "the upstream's answer is not JSON")
        if not isinstance(response, dict):
            return _vendor_error(api, 502, "the upstream's answer is not a JSON object")
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
            return Response(
                compact_json.dumps(payload), 422, headers=headers, media_type=PROBLEM_TYPE
            )
        if self.config.on_fail == "correct":
            response = corrected(api, response, checked)
        body = compact_json.dumps({**response, "citeproof": record})
        return Response(body, headers=headers, media_type="application/json")

    def _check_and_record(
        self,
        api: VendorApi,
        response: dict[str, Any],
        proxied: ProxiedRequest,
        verifier: Verifier,
        meta: Mapping[str, Any],
    ) -> tuple[CheckedAnswer, str | None, dict[str, Any]]:
        """The answer verified, recorded (its request id) and its ``citeproof`` member."""
        converted = convert(api, response, proxied)
        check_sizes(self.limits, converted.answer, ())
        checked = check(converted, response, verifier)
        request_id = self._record_now(checked, meta)
        return checked, request_id, checked.record(proxied, request_id)

    async def _relay(
        self,
        api: VendorApi,
        proxied: ProxiedRequest,
        verifier: Verifier,
        answer: httpx.Response,
        meta: dict[str, Any],
    ) -> AsyncIterator[bytes]:
        """The upstream's events as they come, each sentence's verdict after the event that
        completed it, and the record before the last event."""

        def convert_block(block: dict[str, Any]) -> str:
            converted = from_anthropic({"content": [block]}, proxied.forward, proxied.sources)
            return converted.answer

        relay = relay_for(api, convert_block)
        stream = StreamVerifier(verifier=verifier)
        corrector = StreamCorrector(relay, stream) if self.config.on_fail == "correct" else None

        def released(verdicts: list[SentenceVerdict], *, ended: bool = False) -> list[bytes]:
            """The judged sentences' held text, in the corrected wording (all that is held once
            the answer has ended), then their verdict events."""
            held = []
            if corrector is not None:
                held = corrector.judged(verdicts) + (corrector.finish() if ended else [])
            return held + [relay.ours(verdict.to_json()) for verdict in verdicts]

        splitter = EventSplitter()
        broken: str | None = None
        finished = False
        try:
            async for chunk in answer.aiter_bytes():
                for event in splitter.feed(chunk):
                    if relay.is_end(event) and not finished:
                        finished = True
                        if broken is None:  # the last sentence's verdict, before the record
                            for piece in released(await stream.aend(), ended=True):
                                yield piece
                        ours, blocked = await self._finish(
                            api, proxied, relay, stream, broken, meta
                        )
                        for piece in ours:
                            yield piece
                        if blocked:
                            return  # the error event ends the stream
                    before = len(stream.text)
                    text = relay.take(event)
                    if corrector is None:
                        yield event.raw
                    elif finished:
                        yield corrector.repeat_whole(event)
                    else:
                        span = (before, before + len(text)) if text else None
                        for piece in corrector.hold(event, span):
                            yield piece
                    if not text or broken is not None or finished:
                        continue
                    try:
                        if len(stream.text) + len(text) > self.limits.answer_chars:
                            raise InputError(
                                f"the answer is over {self.limits.answer_chars} characters",
                                field="answer",
                            )
                        for piece in released(await stream.afeed(text)):
                            yield piece
                    except CiteproofError as error:
                        broken = str(error)
                        if corrector is not None:
                            for piece in corrector.give_up():
                                yield piece
                        yield relay.ours({"type": "citeproof.error", "message": broken})
            if not finished:
                if broken is None:
                    for piece in released(await stream.aend(), ended=True):
                        yield piece
                ours, _ = await self._finish(api, proxied, relay, stream, broken, meta)
                for piece in ours:
                    yield piece
                yield splitter.rest()
        except httpx.HTTPError:
            yield relay.error("the upstream's stream was cut off")
        except EventTooLarge as error:
            yield relay.error(str(error))
        finally:
            await answer.aclose()

    async def _finish(
        self,
        api: VendorApi,
        proxied: ProxiedRequest,
        relay: Relay,
        stream: StreamVerifier,
        broken: str | None,
        meta: dict[str, Any],
    ) -> tuple[list[bytes], bool]:
        """The events that end a stream: the last sentences' verdicts, the record, and with
        ``block`` an error event for an answer that failed (True: the stream stops there)."""
        if broken is not None:
            return [], False
        try:
            converted = await self._in_thread(convert, api, relay.response(), proxied)
            stream.answer_id = relay.answer_id()
            events = await stream.aclose(answer=converted.answer)
        except CiteproofError as error:
            return [relay.ours({"type": "citeproof.error", "message": str(error)})], False
        ours = [relay.ours(e.to_json()) for e in events if isinstance(e, SentenceVerdict)]
        verified = next(e.verified for e in events if isinstance(e, AnswerVerdict))
        checked = CheckedAnswer(converted, verified, failures(verified))
        request_id = await self._in_thread(self._record_now, checked, meta)
        record = checked.record(proxied, request_id)
        ours.append(relay.ours({"type": RECORD_EVENT, "record": record}))
        if self.config.on_fail == "block" and checked.failures:
            ours.append(relay.error("citeproof blocked the answer: " + "; ".join(checked.failures)))
            return ours, True
        return ours, False

    def _record_now(self, checked: CheckedAnswer, meta: Mapping[str, Any]) -> str | None:
        """Record ``checked`` (in the verify lane); its request id, None when not kept."""
        request = {**meta, "vendor_citations": citation_report(checked.converted)}
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


async def _read_bounded(answer: httpx.Response, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in answer.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise Problem(502, "Upstream answer too large", f"over {limit:,} bytes")
            chunks.append(chunk)
    finally:
        await answer.aclose()
    return b"".join(chunks)


def _passed_through(answer: httpx.Response, headers: dict[str, str]) -> Response:
    """The upstream's answer as it came, bytes as they arrive."""

    async def body() -> AsyncIterator[bytes]:
        try:
            async for chunk in answer.aiter_bytes():
                yield chunk
        finally:
            await answer.aclose()

    return StreamingResponse(body(), status_code=answer.status_code, headers=headers)


def _vendor_error(api: VendorApi, status: int, message: str) -> Response:
    return JSONResponse(api.error_body(status, message), status_code=status)


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
