"""Pages of other sites driving the service through a visitor's browser, in real Chromium: a
login CSRF that would sign the reviewer in as the attacker, and a page (or a DNS-rebinding
host name) planting records in a `--dev` service on loopback. The attacker's pages are served
from ``localhost`` on another port: another site than ``127.0.0.1``, where the service is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import Any

import httpx
import pytest

from tests.server.browser import chromium
from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line
from tests.server.sign_in import form_token

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("csrf"))


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("dev"), "--dev")


class AttackerSite:
    """An HTTP server on ``localhost`` that serves one page, set by the test."""

    def __init__(self) -> None:
        self.page = ""
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                data = site.page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://localhost:{self.http.server_address[1]}/"
        Thread(target=self.http.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def attacker() -> Iterator[AttackerSite]:
    site = AttackerSite()
    yield site
    site.http.shutdown()
    site.http.server_close()


def test_a_page_on_another_site_cannot_sign_the_reviewer_in_as_the_attacker(
    browser: Any, server: Server, attacker: AttackerSite
) -> None:
    with server.client("mallory") as http:
        planted = http.post("/v1/verify", content=body(lending_line("mallorys-bait")))
        assert planted.status_code == 200
    attacker.page = (
        f'<form id="f" method="post" action="{server.url}/review/login">'
        f'<input name="token" value="{server.token("mallory")}"></form>'
        "<script>document.getElementById('f').submit()</script>"
    )
    context = browser.new_context()
    page = context.new_page()
    try:
        with page.expect_navigation(url=f"{server.url}/**"):
            page.goto(attacker.url)
        assert "citeproof_token" not in {c["name"] for c in context.cookies()}
        review = page.goto(f"{server.url}/review")
        assert review is not None and review.status == 401
        assert page.locator(".principal").count() == 0
        assert "mallorys-bait" not in page.content()
    finally:
        context.close()


def test_signing_in_needs_the_forms_csrf_token_even_without_a_browser(server: Server) -> None:
    with httpx.Client(base_url=server.url) as http:
        bare = http.post("/review/login", data={"token": server.token("mallory")})
        assert bare.status_code == 403 and "citeproof_token" not in bare.cookies
        form = http.get("/review")
        assert form.status_code == 401
        assert form.cookies["citeproof_csrf"]
        csrf = form_token(form)
        signed = http.post("/review/login", data={"token": server.token("mallory"), "csrf": csrf})
        assert signed.status_code == 303 and "citeproof_token" in signed.cookies


def test_a_page_on_another_site_cannot_plant_records_in_a_dev_service(
    browser: Any, dev: Server, attacker: AttackerSite
) -> None:
    line = json.dumps(lending_line("planted"))
    attacker.page = (
        "<script>"
        f"const line = {json.dumps(line)};"
        "window.done = Promise.allSettled(["
        f"fetch('{dev.url}/v1/verify', {{method: 'POST', mode: 'no-cors', body: line}}),"
        f"fetch('{dev.url}/v1/verify', {{method: 'POST', mode: 'no-cors', "
        "body: new Blob([line])}),"
        f"fetch('{dev.url}/v1/batches', {{method: 'POST', mode: 'no-cors', body: line}}),"
        "(() => { const f = new FormData();"
        "f.append('files', new Blob(['Planted text.'], {type: 'text/plain'}), 'planted.txt');"
        f"return fetch('{dev.url}/v1/sources', {{method: 'POST', mode: 'no-cors', body: f}});"
        "})()]).then(() => 'sent');"
        "</script>"
    )
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(attacker.url)
        assert page.evaluate("window.done") == "sent"
    finally:
        context.close()
    with dev.client() as http:
        assert http.get("/readyz").json()["audit_records"] == 0
        assert http.get("/readyz").json()["sources"] == 0
        assert http.get("/review").text.count("planted") == 0


def test_dev_answers_loopback_host_names_only_and_json_bodies_only(dev: Server) -> None:
    line = body(lending_line("direct"))
    with dev.client() as http:
        rebound = http.post("/v1/verify", content=line, headers={"Host": "attacker.example:8765"})
        assert (rebound.status_code, rebound.json()["field"]) == (421, "Host")
        assert http.get("/v1/audit/verify", headers={"Host": "rebind.example"}).status_code == 421
        plain = http.post("/v1/verify", content=line, headers={"Content-Type": "text/plain"})
        assert (plain.status_code, plain.json()["field"]) == (415, "Content-Type")
        untyped = http.post("/v1/verify", content=line)
        assert untyped.status_code == 415
        foreign = http.post(
            "/v1/verify",
            content=line,
            headers={"Content-Type": "application/json", "Origin": "http://attacker.example"},
        )
        assert (foreign.status_code, foreign.json()["field"]) == (403, "Origin")
        upload = http.post(
            "/v1/sources",
            files={"files": ("x.txt", b"text")},
            headers={"Sec-Fetch-Site": "cross-site"},
        )
        assert upload.status_code == 403
        assert http.get("/readyz").json()["audit_records"] == 0
        allowed = http.post(
            "/v1/verify", content=line, headers={"Content-Type": "application/json"}
        )
        assert allowed.status_code == 200
        local = http.get("/healthz", headers={"Host": "localhost:1"})
        assert local.status_code == 200
