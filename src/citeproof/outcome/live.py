"""The live-value service (SPEC D, ADR 2): today's authoritative values, never evidence.

A provider answers `LiveValues.fetch` with a `LiveResponse`: the requested values, where and
when they came from, the payload exactly as received and the request id it was fetched
under. Live values are fetched after the evidence bundle is built and validated, go to the
rule engine and the audit record, and cannot enter an `citeproof.outcome.evidence.EvidenceBundle`
(its evidence objects hold only text and spans from the answer's sources).

The payload, over HTTP or in a file, is a JSON object with a ``values`` object::

    {"values": {"base_rate": 4.25, "currency": "GBP"}, "as_of": "2026-11-30"}

Numbers are read as exact `Decimal` (``4.25`` never becomes a binary float); text stays text.
Other keys are kept in the raw payload for the audit record.
"""

from __future__ import annotations

import json
import re
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
            raw = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise LiveValueError(f"{where}: cannot read the file: {error}") from None
        values = read_payload(raw, names, where=where)
        return LiveResponse(
            values, self.path.resolve().as_uri(), _stamp(self.clock), raw, request_id
        )


class HttpLiveValues:
    """Live values from an HTTP JSON service.

    ``GET url?names=a,b`` with the request id in the ``X-Request-ID`` header; TLS
    certificates are verified unless ``verify=False`` (or a CA bundle path) is given;
    ``timeout`` (seconds) bounds connecting and reading. A response that echoes a different
    ``X-Request-ID`` is rejected. ``transport`` lets tests substitute an httpx transport.
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
    ):
        if timeout <= 0:
            raise InputError("must be positive", field="timeout")
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
        try:
            with self.client() as client:
                response = client.get(self.url, params={"names": ",".join(names)}, headers=headers)
        except httpx.TimeoutException:
            raise LiveValueError(f"{self.url}: no answer within {self.timeout} s") from None
        except httpx.HTTPError as error:
            raise LiveValueError(f"{self.url}: request failed: {error}") from None
        if not response.is_success:
            raise LiveValueError(
                f"{self.url}: HTTP {response.status_code} {response.reason_phrase}: "
                f"{response.text[:200]}"
            )
        echoed = response.headers.get(REQUEST_ID_HEADER)
        if echoed is not None and echoed != request_id:
            raise LiveValueError(f"{self.url}: answered request {echoed!r}, not {request_id!r}")
        raw = response.text
        values = read_payload(raw, names, where=self.url)
        return LiveResponse(values, self.url, _stamp(self.clock), raw, request_id)
