"""What every request passes through first: body limits counted while the body is read, a
cut-off for clients that stop sending, security headers with a per-request CSP nonce, and
the request metrics. A pure ASGI middleware, so nothing is buffered before it is counted.

An unexpected error is answered here too (500, logged), so that its reply carries the
security headers: Starlette would answer it outside every middleware, without them.
"""

from __future__ import annotations

import base64
import logging
import secrets
import time
from collections.abc import Collection

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from citeproof.server._metrics import Metrics
from citeproof.server._problems import Problem, too_large

log = logging.getLogger("citeproof.server")

STRICT_CSP = (
    "default-src 'none'; script-src 'self' 'nonce-{nonce}'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
DOCS_CSP = (
    # Swagger UI sets styles from its script and draws icons as data: images.
    "default-src 'none'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)


class BodyTimeout(Problem):
    def __init__(self, seconds: float, *, whole: bool = False) -> None:
        what = "the whole request body" if whole else "the request body"
        super().__init__(
            408,
            "Request timeout",
            f"{what} did not arrive within {seconds:g} s",
            field="body",
            headers={"Connection": "close"},
        )


def internal_error() -> Problem:
    """The reply to an unexpected error: it names nothing of the failure (see the log)."""
    return Problem(500, "Internal error", "the service failed; see its log")


class BodyTooLarge(Problem):
    def __init__(self, limit: int) -> None:
        problem = too_large(limit)
        super().__init__(problem.status, problem.title, problem.detail, field=problem.field)


class EdgeMiddleware:
    """Limits, security headers and metrics around the application."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        metrics: Metrics,
        body_bytes: int,
        upload_bytes: int,
        upload_paths: Collection[str],
        read_seconds: float,
        body_seconds: float,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.body_bytes = body_bytes
        self.upload_bytes = upload_bytes
        self.upload_paths = frozenset(upload_paths)
        self.read_seconds = read_seconds
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        nonce = base64.b64encode(secrets.token_bytes(16)).decode("ascii")
        scope.setdefault("state", {})["csp_nonce"] = nonce
        path: str = scope["path"]
        csp = (DOCS_CSP if path == "/docs" else STRICT_CSP).format(nonce=nonce)
        status = 500
        responded = False

        async def send_secured(message: Message) -> None:
            nonlocal status, responded
            if message["type"] == "http.response.start":
                status = int(message["status"])
                responded = True
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"server"]
                headers += [
                    (b"content-security-policy", csp.encode("ascii")),
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                    (b"cross-origin-resource-policy", b"same-origin"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        limit = self.upload_bytes if path in self.upload_paths else self.body_bytes
        try:
            declared = _content_length(scope)
            if declared is not None and declared > limit:
                await BodyTooLarge(limit).response()(scope, receive, send_secured)
                return
            await self.app(scope, self._limited(receive, limit), send_secured)
        except Exception:
            if responded:  # too late for another reply: the server closes the connection
                raise
            log.exception("unexpected error on %s %s", scope["method"], path)
            await internal_error().response()(scope, receive, send_secured)
        finally:
            route = scope.get("route")
            name = getattr(route, "path", "unmatched")
            self.metrics.observe_request(
                scope["method"], name, status, time.perf_counter() - started
            )

    def _limited(self, receive: Receive, limit: int) -> Receive:
        """``receive`` that counts body bytes and gives up on a client that stops sending, or
        sends so slowly that the whole body takes longer than ``body_seconds`` from when the
        request's headers arrived."""
        received = 0
        complete = False
        seconds = self.read_seconds
        whole = self.body_seconds
        deadline = time.monotonic() + whole

        async def limited() -> Message:
            nonlocal received, complete
            if complete:  # after the body only a disconnect can come: no cut-off
                return dict(await receive())
            wait = min(seconds, deadline - time.monotonic())
            with anyio.move_on_after(wait) as scope:
                message: Message = await receive()
            if scope.cancelled_caught:
                raise BodyTimeout(whole, whole=True) if wait < seconds else BodyTimeout(seconds)
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
                complete = not message.get("more_body", False)
            return message

        return limited


def _content_length(scope: Scope) -> int | None:
    for key, value in scope.get("headers", []):
        if key == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
