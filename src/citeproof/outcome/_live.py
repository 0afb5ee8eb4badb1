"""The live-value service (ADR 2): today's authoritative values, never evidence.

A provider answers `LiveValues.fetch` with a `LiveResponse`: the requested values, where and
when they came from, the payload exactly as received and the request id it was fetched
under. Live values are fetched after the evidence bundle is built and validated, go to the
rule engine and the audit record, and cannot enter an `citeproof.outcome._evidence.EvidenceBundle`
(its evidence objects hold only text and spans from the answer's sources).

The payload, over HTTP or in a file, is a JSON object with a ``values`` object::

    {"values": {"base_rate": 4.25, "currency": "GBP"}, "as_of": "2026-11-30"}

Numbers are read as exact `Decimal` (``4.25`` never becomes a binary float); text stays text.
Other keys are kept in the raw payload for the audit record.
"""

from __future__ import annotations

import ipaddress
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

import httpx

from citeproof.errors import InputError, LiveValueError
from citeproof.values import Value, as_value, values_from_json, values_to_json

REQUEST_ID_HEADER = "X-Request-ID"
MAX_PAYLOAD_BYTES = 1024 * 1024
"""Largest live-value payload accepted (it goes whole into the audit record)."""
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

Clock = Callable[[], datetime]


@dataclass(frozen=True, slots=True)
class LiveResponse:
    """The live values of one request, as fetched.

    ``values`` holds the requested names only; ``raw`` the payload text exactly as received;
    ``source`` the URL or file it came from; ``fetched_at`` an ISO 8601 UTC time.
    """

    values: Mapping[str, Value]
    source: str
    fetched_at: str
    raw: str
    request_id: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))

    def to_json(self) -> dict[str, Any]:
        """The response as logged: exact values, source, time, raw payload, request id."""
        return {
            "request_id": self.request_id,
            "source": self.source,
            "fetched_at": self.fetched_at,
            "values": values_to_json(self.values),
            "raw": self.raw,
        }

    @classmethod
    def from_json(cls, data: object) -> LiveResponse:
        """Read a logged response back (for replay)."""
        if not isinstance(data, Mapping):
            raise InputError("expected a JSON object", field="live")
        texts = {}
        for name in ("request_id", "source", "fetched_at", "raw"):
            if not isinstance(data.get(name), str):
                raise InputError("must be text", where="live", field=name)
            texts[name] = data[name]
        values = values_from_json(data.get("values"), where="live.values")
        return cls(values=values, **texts)


class LiveValues(Protocol):
    """A live-value provider: fetches named values for one request."""

    def fetch(self, names: Sequence[str], *, request_id: str) -> LiveResponse:
        """The values of ``names`` now; raises `LiveValueError` if any is unavailable."""
        ...


def read_payload(raw: str, names: Sequence[str], *, where: str) -> dict[str, Value]:
    """The requested values from a payload ``{"values": {...}}``; errors name what is wrong."""
    try:
        data = json.loads(raw, parse_float=Decimal, parse_int=Decimal)
    except RecursionError:
        raise LiveValueError(f"{where}: not valid JSON (nested too deeply)") from None
    except json.JSONDecodeError as error:
        raise LiveValueError(
            f"{where}: not valid JSON ({error.msg} at line {error.lineno})"
        ) from None
    values = data.get("values") if isinstance(data, dict) else None
    if not isinstance(values, dict):
        raise LiveValueError(f'{where}: expected a JSON object {{"values": {{...}}}}')
    missing = [name for name in names if name not in values]
    if missing:
        raise LiveValueError(f"{where}: no value for {', '.join(map(repr, missing))}")
    try:
        return {name: as_value(values[name], name=name, where=where) for name in names}
    except InputError as error:
        raise LiveValueError(str(error)) from None


def _check_request(names: Sequence[str], request_id: str) -> None:
    if isinstance(names, str) or not all(isinstance(n, str) and n for n in names):
        raise InputError("must be a sequence of non-empty names", field="names")
    if not isinstance(request_id, str) or not _REQUEST_ID.match(request_id):
        raise InputError(
            f"{request_id!r} must be 1-128 letters, digits or . _ : -", field="request_id"
        )


def _stamp(clock: Clock | None) -> str:
    now = clock() if clock else datetime.now(UTC)
    return now.astimezone(UTC).isoformat(timespec="seconds")


class FileLiveValues:
    """Live values from a JSON file, for offline use and tests.

    The file is re-read on every fetch, so replacing it changes the next answer.
    """

    def __init__(self, path: str | Path, *, clock: Clock | None = None):
        self.path = Path(path)
        self.clock = clock

    def fetch(self, names: Sequence[str], *, request_id: str) -> LiveResponse:
        """The values of ``names`` from the file."""
        _check_request(names, request_id)
        where = str(self.path)
        try:
            with self.path.open("rb") as handle:
                data = handle.read(MAX_PAYLOAD_BYTES + 1)
            raw = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise LiveValueError(f"{where}: cannot read the file: {error}") from None
        if len(data) > MAX_PAYLOAD_BYTES:
            raise LiveValueError(f"{where}: more than {MAX_PAYLOAD_BYTES:,} bytes")
        values = read_payload(raw, names, where=where)
        return LiveResponse(
            values, self.path.resolve().as_uri(), _stamp(self.clock), raw, request_id
        )


class HttpLiveValues:
    """Live values from an HTTP JSON service.

    ``GET url?names=a,b`` with the request id in the ``X-Request-ID`` header; TLS
    certificates are verified unless ``verify=False`` (or a CA bundle path) is given;
    ``timeout`` (seconds) bounds connecting and each read, ``total_timeout`` the whole body
    however slowly it trickles in, ``max_bytes`` its size. The URL must be ``https://``, or
    ``http://`` to a loopback address, unless ``allow_http``: values that decide a loan are
    not taken from a connection anyone on the way can rewrite. A response that echoes a
    different ``X-Request-ID`` is rejected. ``transport`` lets tests substitute an httpx
    transport. Raises `InputError` at construction for a URL that is malformed or not allowed.
    """

    def __init__(
        self,
        url: str,
        timeout: float = 5.0,
        verify: bool | str = True,
        *,
        headers: Mapping[str, str] | None = None,
        clock: Clock | None = None,
        transport: httpx.BaseTransport | None = None,
        total_timeout: float = 30.0,
        max_bytes: int = MAX_PAYLOAD_BYTES,
        allow_http: bool = False,
    ):
        if timeout <= 0 or total_timeout <= 0:
            raise InputError("must be positive", field="timeout")
        _check_url(url, allow_http)
        self.total_timeout = total_timeout
        self.max_bytes = max_bytes
        self.url = url
        self.timeout = timeout
        self.verify = verify
        self.headers = dict(headers or {})
        self.clock = clock
        self.transport = transport

    def client(self) -> httpx.Client:
        """The httpx client of one fetch: TLS verification, timeout, no redirects."""
        return httpx.Client(
            timeout=httpx.Timeout(self.timeout),
            verify=self.verify,
            transport=self.transport,
            follow_redirects=False,
        )

    def fetch(self, names: Sequence[str], *, request_id: str) -> LiveResponse:
        """The values of ``names`` from the service."""
        _check_request(names, request_id)
        headers = {**self.headers, REQUEST_ID_HEADER: request_id, "Accept": "application/json"}
        params = {"names": ",".join(names)}
        try:
            with (
                self.client() as client,
                client.stream("GET", self.url, params=params, headers=headers) as response,
            ):
                body = self._body(response)
        except httpx.TimeoutException:
            raise LiveValueError(f"{self.url}: no answer within {self.timeout} s") from None
        except httpx.HTTPError as error:
            raise LiveValueError(f"{self.url}: request failed: {error}") from None
        text = body.decode(response.encoding or "utf-8", errors="replace")
        if not response.is_success:
            raise LiveValueError(
                f"{self.url}: HTTP {response.status_code} {response.reason_phrase}: {text[:200]}"
            )
        echoed = response.headers.get(REQUEST_ID_HEADER)
        if echoed is not None and echoed != request_id:
            raise LiveValueError(f"{self.url}: answered request {echoed!r}, not {request_id!r}")
        raw = text
        values = read_payload(raw, names, where=self.url)
        return LiveResponse(values, self.url, _stamp(self.clock), raw, request_id)

    def _body(self, response: httpx.Response) -> bytes:
        """The body, read within ``total_timeout`` seconds and ``max_bytes`` bytes."""
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise LiveValueError(f"{self.url}: the answer is over {self.max_bytes:,} bytes")
        deadline = time.monotonic() + self.total_timeout
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > self.max_bytes:
                raise LiveValueError(f"{self.url}: the answer is over {self.max_bytes:,} bytes")
            if time.monotonic() > deadline:
                raise LiveValueError(
                    f"{self.url}: the answer took longer than {self.total_timeout:g} s"
                )
            chunks.append(chunk)
        return b"".join(chunks)


def _check_url(url: str, allow_http: bool) -> None:
    """`InputError` for a live-value URL that is malformed, not https, or plain http to
    anything but this machine (unless ``allow_http``)."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError) as error:
        raise InputError(f"not a valid URL: {error}", field="live") from None
    if parsed.scheme not in ("https", "http") or not parsed.host:
        raise InputError(f"expected an https:// URL, got {url!r}", field="live")
    if parsed.scheme == "http" and not allow_http and not _loopback(parsed.host):
        raise InputError(
            f"{url}: live values must come over https:// (plain http only to this machine, "
            "or with CITEPROOF_ALLOW_HTTP_LIVE=1)",
            field="live",
        )


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
