"""Forwarding to the one configured upstream, with the caller's own credentials.

The request goes to ``UPSTREAM + /v1/...`` and nowhere else: the path is the API's, never one
the caller names. The caller's headers travel as they came (``Authorization``, ``x-api-key``,
``anthropic-version``, ``OpenAI-Organization``...), except those that describe one connection
(``Host``, ``Content-Length``, hop-by-hop headers); they are held only for the one request,
never stored or logged. The upstream's headers come back the same way, except its own
``X-Citeproof-*`` headers, in any case: only citeproof writes those (an upstream could forge a
verdict there, or a request id).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from citeproof.errors import InputError

_CONNECTION_HEADERS = frozenset(
    {
        "host",
        "content-length",
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "accept-encoding",
        "content-encoding",
    }
)


def upstream_base(url: str) -> str:
    """The upstream's origin and path prefix, ``/v1`` removed (the API paths carry it):
    ``https://api.openai.com/v1`` and ``https://api.openai.com`` are the same upstream.
    Raises `InputError` for a URL that is not http(s) with a host."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"expected an http(s) URL with a host, got {url!r}", field="upstream")
    if parts.query or parts.fragment:
        raise InputError("the upstream URL takes no query or fragment", field="upstream")
    path = parts.path.rstrip("/").removesuffix("/v1")
    return f"{parts.scheme}://{parts.netloc}{path}"


OWN_HEADERS = "x-citeproof-"
"""The prefix of citeproof's own headers (lower case)."""


def forwarded_headers(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The headers to pass on, either way: all but those of one connection."""
    return {name: value for name, value in headers if name.lower() not in _CONNECTION_HEADERS}


def answer_headers(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The upstream's headers to pass back to the caller: those `forwarded_headers` passes,
    less any ``X-Citeproof-*`` (whatever its case)."""
    passed = forwarded_headers(headers)
    return {name: value for name, value in passed.items() if not _own(name)}


def _own(name: str) -> bool:
    return name.lower().startswith(OWN_HEADERS)


@dataclass(frozen=True, slots=True)
class UpstreamTimeouts:
    """``connect``: to reach the upstream; ``read``: the longest wait for the next bytes of
    its answer (a model thinking before its first token, or between two)."""

    connect: float = 10.0
    read: float = 600.0


class Upstream:
    """The one upstream all requests go to (an ``httpx.AsyncClient`` with a base URL)."""

    def __init__(
        self,
        url: str,
        *,
        timeouts: UpstreamTimeouts | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        connections: int = 100,
    ) -> None:
        self.base = upstream_base(url)
        timeouts = timeouts or UpstreamTimeouts()
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeouts.read, connect=timeouts.connect),
            limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
            transport=transport,
            follow_redirects=False,  # a redirect could lead to another host
            trust_env=False,  # no proxy variables, no .netrc credentials
        )

    async def send(self, path: str, body: bytes, headers: dict[str, str]) -> httpx.Response:
        """POST ``body`` to ``path`` of the upstream; the response is streamed (the caller
        reads and closes it). Raises ``httpx.HTTPError`` when the upstream cannot be reached
        or stops answering."""
        request = self._client.build_request(
            "POST",
            self.base + path,
            content=body,
            headers={**headers, "accept-encoding": "identity"},
        )
        return await self._client.send(request, stream=True)

    async def close(self) -> None:
        await self._client.aclose()
