"""Every kind of response the service sends carries its security headers (F.5): pages, API
JSON, problems, redirects, static files, health and metrics, the API docs, and responses
refused before the application ran. And the Content-Security-Policy does its job in a real
browser: an inline script the page did not sign with its nonce never runs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.browser import chromium
from tests.server.conftest import Server, start_server
from tests.server.csp import DOCS_CSP, STRICT_CSP
from tests.server.lines import body, lending_line
from tests.server.sign_in import form_token

FIXED = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}
ANSWER = "headers-1"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A service with tokens required and one answer of ``alice`` logged."""
    for server in start_server(
        tmp_path_factory.mktemp("headers"),
        "--provider",
        "extractive",
        limits={"body_bytes": 20_000},
    ):
        with server.client("alice") as http:
            response = http.post("/v1/verify", content=body(lending_line(ANSWER)))
            assert response.status_code == 200, response.text
        yield server


def responses(service: Server) -> dict[str, httpx.Response]:
    """One response of each kind, by a name saying what it is."""
    token = service.token("alice")
    bearer = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=service.url, timeout=60) as http:
        # Signing in takes the sign-in form's CSRF token (its cookie rides along).
        sign_in = http.get("/review")
        csrf = form_token(sign_in)
        return {
            "answer page": http.get(f"/review/{ANSWER}", headers=bearer),
            "list page": http.get("/review", headers=bearer),
            "sign-in page (401)": sign_in,
            "sign-in redirect (303)": http.post(
                "/review/login", data={"token": token, "csrf": csrf}
            ),
            "API JSON": http.get(f"/v1/answers/{ANSWER}", headers=bearer),
            "API problem: no token (401)": http.get(f"/v1/answers/{ANSWER}"),
            "API problem: unknown answer (404)": http.get("/v1/answers/nobody", headers=bearer),
            "API problem: invalid line (422)": http.post(
                "/v1/verify", content=b'{"id": "x"}', headers=bearer
            ),
            "API problem: wrong method (405)": http.get("/v1/verify", headers=bearer),
            "refused before the app: body over the limit (413)": http.post(
                "/v1/verify", content=b"x" * 30_000, headers=bearer
            ),
            "unknown path (404)": http.get("/no/such/page"),
            "static stylesheet": http.get("/static/review.css"),
            "static script": http.get("/static/review.js"),
            "favicon (204)": http.get("/favicon.ico"),
            "health": http.get("/healthz"),
            "readiness": http.get("/readyz"),
            "metrics": http.get("/metrics"),
            "OpenAPI document": http.get("/openapi.json"),
            "API docs page": http.get("/docs"),
        }


def test_every_kind_of_response_carries_the_security_headers_F_5(service: Server) -> None:
    got = responses(service)
    statuses = {name: r.status_code for name, r in got.items()}
    assert statuses == {
        "answer page": 200,
        "list page": 200,
        "sign-in page (401)": 401,
        "sign-in redirect (303)": 303,
        "API JSON": 200,
        "API problem: no token (401)": 401,
        "API problem: unknown answer (404)": 404,
        "API problem: invalid line (422)": 422,
        "API problem: wrong method (405)": 405,
        "refused before the app: body over the limit (413)": 413,
        "unknown path (404)": 404,
        "static stylesheet": 200,
        "static script": 200,
        "favicon (204)": 204,
        "health": 200,
        "readiness": 200,
        "metrics": 200,
        "OpenAPI document": 200,
        "API docs page": 200,
    }
    nonces = []
    for name, response in got.items():
        headers = response.headers
        for header, value in FIXED.items():
            assert headers.get(header) == value, (name, header, headers.get(header))
        assert "server" not in headers, name  # the server does not name itself
        policy = DOCS_CSP if name == "API docs page" else STRICT_CSP
        csp = headers.get("content-security-policy", "")
        found = policy.fullmatch(csp)
        assert found is not None, (name, csp)
        nonces.append(found["nonce"])
    assert len(set(nonces)) == len(nonces)  # a new nonce for every response


def test_the_pages_sign_their_own_scripts_with_the_nonce_of_their_policy_F_5(
    service: Server,
) -> None:
    got = responses(service)
    for name in ("answer page", "list page", "sign-in page (401)", "API docs page"):
        response = got[name]
        csp = response.headers["content-security-policy"]
        nonce = re.search(r"'nonce-([^']+)'", csp)
        assert nonce is not None, name
        scripts = re.findall(r"<script\b[^>]*>", response.text)
        assert scripts, name
        for tag in scripts:
            assert f'nonce="{nonce[1]}"' in tag and " src=" in tag, (name, tag)


# --- in a real browser ----------------------------------------------------------------------

INLINE = "<script>window.__inline_ran = true;</script>"
PROBE = """() => ({
  ran: window.__inline_ran === true,
  handler: window.__handler_ran === true,
  violations: window.__violations,
  ownScript: [...document.scripts].some((s) => s.getAttribute("src") === "/static/review.js"),
})"""
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective);
});
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.mark.browser
def test_an_inline_script_slipped_into_a_page_is_blocked_by_the_csp_F_5(
    browser: Any, service: Server
) -> None:
    # The page as the service sent it, headers and all, with an inline script and an event
    # handler added, as if the escaping had let them through: the policy must stop both.
    context = browser.new_context()
    context.add_init_script(WATCH)
    context.set_extra_http_headers({"Authorization": f"Bearer {service.token('alice')}"})
    injected: list[str] = []

    def inject(route: Any) -> None:
        response = route.fetch()
        html = response.text()
        assert "</main>" in html
        hostile = INLINE + '<img src="/favicon.ico" onload="window.__handler_ran = true">'
        injected.append(hostile)
        route.fulfill(response=response, body=html.replace("</main>", hostile + "</main>", 1))

    context.route(f"{service.url}/review/{ANSWER}", inject)
    page = context.new_page()
    try:
        response = page.goto(f"{service.url}/review/{ANSWER}")
        assert response is not None and response.status == 200
        assert injected  # the page really carried the script
        page.wait_for_load_state("load")
        found = page.evaluate(PROBE)
        assert found["ran"] is False
        assert found["handler"] is False
        assert found["ownScript"] is True  # the page's own, signed script still loads
        assert "script-src-elem" in found["violations"]  # the inline script, refused
        assert "script-src-attr" in found["violations"]  # the onload handler, refused
    finally:
        context.close()
