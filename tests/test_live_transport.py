"""How live values travel (SPEC D, ADR 2): the URLs allowed, what is sent, what is read and
where its limits fall, and the errors a person sees, naming the URL or file and the field.

A scripted HTTP server on 127.0.0.1 answers each test's request as the test says: status,
headers, the body in chunks, or a body shorter than it declared."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from citeproof.errors import InputError, LiveValueError
from citeproof.outcome import FileLiveValues, HttpLiveValues
from citeproof.outcome._live import MAX_PAYLOAD_BYTES, LiveResponse, read_payload

PAYLOAD = b'{"values": {"base_rate": 4.25, "currency": "GBP"}}'
NOON = datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC)


@dataclass
class Script:
    """What the server answers next, and what it was sent."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "application/json"})
    chunks: list[bytes] = field(default_factory=lambda: [PAYLOAD])
    declared: int | None = None  # a Content-Length other than the body's own; -1: none
    seen: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def served() -> Iterator[tuple[str, Script]]:
    script = Script()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            url = urlparse(self.path)
            script.seen.append(
                {"path": url.path, "query": parse_qs(url.query), "headers": dict(self.headers)}
            )
            body = b"".join(script.chunks)
            self.send_response(script.status)
            for name, value in script.headers.items():
                self.send_header(name, value)
            length = script.declared if script.declared is not None else len(body)
            if length >= 0:  # else the body ends where the connection closes
                self.send_header("Content-Length", str(length))
            self.send_header("Connection", "close")
            self.end_headers()
            for chunk in script.chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
                if len(script.chunks) > 1:
                    time.sleep(0.01)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/rates", script
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


# --- which URLs ------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["ftp://rates.example/today", "file:///etc/rates.json"])
def test_only_http_and_https_urls_are_taken(url: str) -> None:
    with pytest.raises(InputError) as caught:
        HttpLiveValues(url)
    assert caught.value.field == "live"
    assert caught.value.detail == f"expected an https:// URL, got {url!r}"


def test_a_url_without_a_host_is_refused() -> None:
    with pytest.raises(InputError, match="expected an https:// URL") as caught:
        HttpLiveValues("https:///today")
    assert caught.value.field == "live"


def test_plain_http_elsewhere_is_refused_naming_the_way_out() -> None:
    with pytest.raises(InputError) as caught:
        HttpLiveValues("http://rates.example/today")
    assert caught.value.field == "live"
    assert caught.value.detail == (
        "http://rates.example/today: live values must come over https:// (plain http only to "
        "this machine, or with CITEPROOF_ALLOW_HTTP_LIVE=1)"
    )


def test_a_malformed_url_names_the_field() -> None:
    with pytest.raises(InputError, match="not a valid URL") as caught:
        HttpLiveValues("http://[::1")
    assert caught.value.field == "live"


@pytest.mark.parametrize(("timeout", "total"), [(0, 30.0), (-1, 30.0), (5.0, 0), (5.0, -1)])
def test_timeouts_must_be_positive(timeout: float, total: float) -> None:
    with pytest.raises(InputError) as caught:
        HttpLiveValues("https://rates.example/today", timeout=timeout, total_timeout=total)
    assert (caught.value.field, caught.value.detail) == ("timeout", "must be positive")


def test_the_default_limits() -> None:
    provider = HttpLiveValues("https://rates.example/today")
    assert (provider.timeout, provider.total_timeout, provider.max_bytes) == (
        5.0,
        30.0,
        MAX_PAYLOAD_BYTES,
    )


# --- what is sent ----------------------------------------------------------------------------


def test_the_request_names_every_value_and_asks_for_json(served: tuple[str, Script]) -> None:
    url, script = served
    provider = HttpLiveValues(
        url, headers={"Authorization": "Bearer rates-token"}, clock=lambda: NOON
    )
    response = provider.fetch(["base_rate", "currency"], request_id="req-7")
    (request,) = script.seen
    assert request["path"] == "/rates"
    assert request["query"] == {"names": ["base_rate,currency"]}
    headers = {k.lower(): v for k, v in request["headers"].items()}
    assert headers["accept"] == "application/json"
    assert headers["x-request-id"] == "req-7"
    assert headers["authorization"] == "Bearer rates-token"
    assert response.fetched_at == "2026-11-30T12:00:05+00:00"
    assert response.source == url and response.request_id == "req-7"
    assert response.raw == PAYLOAD.decode()


def test_the_fetch_time_is_utc_whatever_the_clock_or_the_machine_zone(
    served: tuple[str, Script], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _ = served
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    try:
        india = timezone(timedelta(hours=5, minutes=30))
        given = HttpLiveValues(url, clock=lambda: NOON.astimezone(india))
        assert given.fetch(["base_rate"], request_id="r").fetched_at == "2026-11-30T12:00:05+00:00"
        now = HttpLiveValues(url).fetch(["base_rate"], request_id="r").fetched_at
        assert now.endswith("+00:00")
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


@pytest.mark.parametrize("names", ["base_rate", ["base_rate", ""], [3]])
def test_names_must_be_a_sequence_of_names(names: Any) -> None:
    with pytest.raises(InputError) as caught:
        HttpLiveValues("https://rates.example/today").fetch(names, request_id="r")
    assert (caught.value.field, caught.value.detail) == (
        "names",
        "must be a sequence of non-empty names",
    )


def test_a_bad_request_id_is_named() -> None:
    with pytest.raises(InputError) as caught:
        HttpLiveValues("https://rates.example/today").fetch(["base_rate"], request_id="a b")
    assert caught.value.field == "request_id"
    assert caught.value.detail == "'a b' must be 1-128 letters, digits or . _ : -"


# --- what is read ----------------------------------------------------------------------------


def test_a_redirect_is_never_followed(served: tuple[str, Script]) -> None:
    # A redirect could send the request, its token and request id, to another host.
    url, script = served
    script.status, script.chunks = 302, [b""]
    script.headers["Location"] = url + "/elsewhere"
    with pytest.raises(LiveValueError, match=r"HTTP 302 Found"):
        HttpLiveValues(url).fetch(["base_rate"], request_id="r")
    assert len(script.seen) == 1


def test_a_body_in_many_chunks_is_read_whole(served: tuple[str, Script]) -> None:
    url, script = served
    script.chunks = [PAYLOAD[i : i + 7] for i in range(0, len(PAYLOAD), 7)]
    response = HttpLiveValues(url).fetch(["base_rate", "currency"], request_id="r")
    assert response.raw == PAYLOAD.decode()
    assert response.values["base_rate"] == Decimal("4.25")
    assert response.values["currency"] == "GBP"


@pytest.mark.parametrize("declared", [None, -1], ids=["length declared", "length not declared"])
def test_a_body_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(
    served: tuple[str, Script], declared: int | None
) -> None:
    url, script = served
    script.declared = declared
    limit = len(PAYLOAD) + 10
    script.chunks = [PAYLOAD + b" " * 10]
    assert HttpLiveValues(url, max_bytes=limit).fetch(["base_rate"], request_id="r").raw
    script.chunks = [PAYLOAD + b" " * 11]
    with pytest.raises(LiveValueError) as caught:
        HttpLiveValues(url, max_bytes=limit).fetch(["base_rate"], request_id="r")
    assert str(caught.value) == f"{url}: the answer is over {limit:,} bytes"


def test_a_declared_length_over_the_limit_is_refused_before_reading(
    served: tuple[str, Script],
) -> None:
    # The server announces a huge answer and sends a few bytes: refused on its word, not read.
    url, script = served
    script.declared = 10**9
    with pytest.raises(LiveValueError) as caught:
        HttpLiveValues(url, max_bytes=1000).fetch(["base_rate"], request_id="r")
    assert str(caught.value) == f"{url}: the answer is over 1,000 bytes"


def test_an_error_answer_is_quoted_to_200_characters_even_when_not_utf8(
    served: tuple[str, Script],
) -> None:
    url, script = served
    script.status = 503
    script.headers = {"Content-Type": "text/plain"}
    script.chunks = [b"\xff" + b"m" * 1000]
    with pytest.raises(LiveValueError) as caught:
        HttpLiveValues(url).fetch(["base_rate"], request_id="r")
    assert str(caught.value) == f"{url}: HTTP 503 Service Unavailable: \ufffd" + "m" * 199


def test_a_body_is_decoded_with_the_charset_it_declares(served: tuple[str, Script]) -> None:
    url, script = served
    script.headers = {"Content-Type": "application/json; charset=iso-8859-1"}
    script.chunks = ['{"values": {"branch": "Zürich"}}'.encode("iso-8859-1")]
    response = HttpLiveValues(url).fetch(["branch"], request_id="r")
    assert response.raw == '{"values": {"branch": "Zürich"}}'


def test_a_payload_error_over_http_names_the_url(served: tuple[str, Script]) -> None:
    url, _ = served
    with pytest.raises(LiveValueError) as caught:
        HttpLiveValues(url).fetch(["base_rate", "margin"], request_id="r")
    assert str(caught.value) == f"{url}: no value for 'margin'"


# --- the payload -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("[1, 2]", 'here: expected a JSON object {"values": {...}}'),
        ('{"values": [1]}', 'here: expected a JSON object {"values": {...}}'),
        ('{"values": {}}', "here: no value for 'a', 'b'"),
        ("{", "here: not valid JSON (Expecting property name enclosed in double quotes at line 1)"),
    ],
)
def test_a_payload_error_says_what_is_wrong_and_where(raw: str, message: str) -> None:
    with pytest.raises(LiveValueError) as caught:
        read_payload(raw, ["a", "b"], where="here")
    assert str(caught.value) == message


def test_payload_numbers_are_exact_decimals_integers_too() -> None:
    values = read_payload('{"values": {"a": 3, "b": 4.25}}', ["a", "b"], where="here")
    assert values == {"a": Decimal(3), "b": Decimal("4.25")}
    assert all(type(v) is Decimal for v in values.values())


def test_a_value_of_the_wrong_kind_names_the_source_and_the_value() -> None:
    with pytest.raises(LiveValueError, match=r"^here: .*'a'"):
        read_payload('{"values": {"a": [1]}}', ["a"], where="here")


# --- from a file -----------------------------------------------------------------------------


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rates.json"
    path.write_bytes(PAYLOAD + b" " * (MAX_PAYLOAD_BYTES - len(PAYLOAD)))
    response = FileLiveValues(path, clock=lambda: NOON).fetch(["base_rate"], request_id="r")
    assert response.source == path.resolve().as_uri()
    assert response.fetched_at == "2026-11-30T12:00:05+00:00"
    path.write_bytes(PAYLOAD + b" " * (MAX_PAYLOAD_BYTES - len(PAYLOAD) + 1))
    with pytest.raises(LiveValueError) as caught:
        FileLiveValues(path).fetch(["base_rate"], request_id="r")
    assert str(caught.value) == f"{path}: more than {MAX_PAYLOAD_BYTES:,} bytes"


def test_a_file_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "rates.json"
    path.write_text('{"values": {}}', "utf-8")
    with pytest.raises(LiveValueError) as caught:
        FileLiveValues(path).fetch(["base_rate"], request_id="r")
    assert str(caught.value) == f"{path}: no value for 'base_rate'"


# --- the logged response ---------------------------------------------------------------------


def test_a_logged_response_reads_back_and_names_what_is_wrong() -> None:
    response = LiveResponse(
        read_payload(PAYLOAD.decode(), ["base_rate"], where="u"), "u", "t", PAYLOAD.decode(), "r"
    )
    assert LiveResponse.from_json(response.to_json()) == response
    with pytest.raises(InputError) as not_object:
        LiveResponse.from_json([1])
    assert (not_object.value.field, not_object.value.detail) == ("live", "expected a JSON object")
    for name in ("request_id", "source", "fetched_at", "raw"):
        broken = {**response.to_json(), name: 5}
        with pytest.raises(InputError) as caught:
            LiveResponse.from_json(broken)
        assert (caught.value.where, caught.value.field, caught.value.detail) == (
            "live",
            name,
            "must be text",
        )
    with pytest.raises(InputError) as bad_values:
        LiveResponse.from_json({**response.to_json(), "values": 5})
    assert bad_values.value.where == "live.values"
