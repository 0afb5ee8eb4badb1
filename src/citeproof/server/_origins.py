"""Requests another website could make a visitor's browser send, refused before the app runs.

A page on another site can make a browser send a form POST (urlencoded, multipart or
``text/plain``) or a ``no-cors`` fetch without asking the server first, and a DNS-rebinding
host name can make a browser treat the service as that site. What callers may rely on:

- every request that changes something (any method but GET, HEAD and OPTIONS) that a browser
  says comes from another origin (``Sec-Fetch-Site`` other than ``same-origin`` or ``none``,
  or, from a browser that does not send it, an ``Origin`` that is ``null`` or whose host and
  port are not the request's ``Host``) is answered 403 and never reaches
  the application; clients that are not browsers send neither header and are not affected;
- with ``--dev`` (no tokens), a request whose ``Host`` is not a loopback name (``localhost``,
  ``127.0.0.1``..., ``[::1]``, any port) is answered 421, and a JSON endpoint refuses a body
  that is not ``application/json`` (``application/x-ndjson`` for batches) with 415: those are
  content types a cross-site form cannot send.

Outside ``--dev`` a cross-site page cannot send the ``Authorization`` header without a CORS
preflight, which the service never grants; the review app's cookie is also SameSite=Strict and
its form carries a CSRF token (see `citeproof.server._review`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from citeproof.server._problems import Problem

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
UPLOAD_FORM_PATHS = frozenset({"/v1/sources"})
"""Endpoints whose body is a multipart form: guarded by the origin checks alone."""
NDJSON_PATHS = frozenset({"/v1/batches"})


def is_loopback_name(host: str) -> bool:
    """True for ``localhost`` (and names under it), 127.0.0.0/8 and ``::1``, with or without a
    port; ``host`` is a ``Host`` header's value."""
    name = host.rsplit("]", 1)[0].lstrip("[") if host.startswith("[") else host.split(":")[0]
    name = name.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def cross_origin(method: str, headers: Mapping[str, str]) -> str | None:
    """Why a state-changing request came from another origin according to the browser that
    sent it, or None when it did not (or the client is not a browser)."""
    if method in SAFE_METHODS:
        return None
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"Sec-Fetch-Site is {site!r}: the request comes from another site's page"
    origin = headers.get("origin")
    if site is not None or origin is None:
        # Sec-Fetch-Site, when sent, is the browser's own word: "null" is what a page with
        # Referrer-Policy no-referrer (the review app's) sends for its own forms, and such a
        # browser says same-origin. Without it, "null" is a sandboxed frame, a data: URL or
        # a redirect from anywhere: nothing shows it is this service's own page.
        return None
    if origin == "null":
        return "Origin is 'null' and no Sec-Fetch-Site says the page is this service's own"
    if urlsplit(origin).netloc.lower() != headers.get("host", "").lower():
        return f"Origin {origin!r} is not this service"
    return None


class OriginGuard:
    """The checks of the module docstring, in front of the application."""

    def __init__(self, app: ASGIApp, *, dev: bool) -> None:
        self.app = app
        self.dev = dev

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            problem = self.refusal(scope)
            if problem is not None:
                await problem.response()(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> Problem | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if self.dev and not is_loopback_name(host):
            return Problem(
                421,
                "Misdirected request",
                f"Host {host!r} is not a loopback name: --dev answers localhost, 127.0.0.1 "
                "and [::1] only",
                field="Host",
            )
        method: str = scope["method"]
        why = cross_origin(method, headers)
        if why is not None:
            return Problem(403, "Forbidden", why, field="Origin")
        path: str = scope["path"]
        if self.dev and method not in SAFE_METHODS and path.startswith("/v1/"):
            if path in UPLOAD_FORM_PATHS:
                return None
            wanted = "application/x-ndjson" if path in NDJSON_PATHS else "application/json"
            given = headers.get("content-type", "").split(";")[0].strip().lower()
            if given not in (wanted, "application/json"):
                return Problem(
                    415,
                    "Unsupported media type",
                    f"send the body as {wanted} (Content-Type), not {given or 'no type'!r}",
                    field="Content-Type",
                )
        return None
