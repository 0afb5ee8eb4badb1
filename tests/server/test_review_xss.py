"""The review pages treat answer and source text as data (issue 12): 125 XSS and
HTML-injection payloads placed in the answer, its quotes, the source text, titles, ids and
urls. In Chromium none runs, none becomes an element or attribute, no Content-Security-Policy
violation is even attempted, and no request leaves for another host while a page loads."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from tests.server.browser import chromium
from tests.server.conftest import Server, start_server
from tests.server.lines import body
from tests.server.xss_payloads import PAYLOADS

JSON = {"Content-Type": "application/json"}

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TRAPS = """
window.__fired = [];
for (const name of ["alert", "confirm", "prompt", "print"]) {
  window[name] = (...args) => { window.__fired.push(name + ":" + args.join(",")); };
}
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI);
});
"""

INSPECT = """() => {
  const all = [...document.querySelectorAll("*")];
  const allowed = new Set(["html", "head", "meta", "title", "link", "script", "body", "header",
    "a", "span", "main", "div", "article", "h1", "h2", "h3", "p", "code", "button", "ol", "ul",
    "li", "aside", "section", "dl", "dt", "dd", "del", "ins", "mark", "table", "thead", "tbody",
    "tr", "th", "td", "form", "label", "input", "select", "option", "nav", "time", "details",
    "summary", "figure", "figcaption", "blockquote", "strong", "em", "br", "footer", "hr",
    "h4", "h5", "h6", "pre", "s", "caption"]);
  return {
    fired: window.__fired, xss: window.__xss === undefined ? null : String(window.__xss),
    csp: window.__csp, scripts: [...document.scripts].map((s) => s.getAttribute("src")),
    elements: all.map((e) => e.localName).filter((name) => !allowed.has(name)),
    handlers: all.flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith("on"))
      .map((a) => e.localName + "[" + a.name + "]")),
    links: [...document.querySelectorAll("[href], [src], [action], [formaction]")]
      .map((e) => e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action")
        || e.getAttribute("formaction")),
    metas: document.querySelectorAll("meta[http-equiv]").length,
  };
}"""

OPEN_EVERY_NOTE = """() => [...document.querySelectorAll("a.marker, a.quote-link")].map((a) => {
  a.click();
  const panel = document.querySelector("section.panel:target");
  const marks = panel ? panel.querySelectorAll("mark.match") : [];
  return {
    open: Boolean(panel && getComputedStyle(panel).display !== "none"), marks: marks.length,
    marked: [...marks].map((m) => m.textContent).join(" "),
    diff: panel ? [...panel.querySelectorAll(".diff ins")].length > 0 : false,
  };
})"""

OWN_LINKS = {"/static/answer.css", "/static/review.css", "/static/review.js", "/review"}
ON_THE_PAGE = re.compile(r"#(?:note|ref)-\d+")


def hostile_line(number: int, payload: str) -> dict[str, Any]:
    """The payload as the answer's id, in its text and quotes, as a source's id, title, url
    and text; one quote verbatim (verified), one changed (corrected: a diff is shown)."""
    sentence = f"Applicants above 80% are referred, see note {payload} today"
    changed = f"Applicants over 80% are referred, see note {payload} today"
    answer = (
        f"{payload}\n\nThe note says “{sentence}” [S1] and “{changed}” [S1]. "
        f"![chart](http://xss.invalid/{number}.png) [more](javascript:alert({number}))\n"
    )
    return {
        "id": payload,
        "answer": answer,
        "sources": [
            {
                "id": "S1",
                "kind": "document",
                "text": f"Lending policy.\n\n{sentence}.\n\nEnd {payload}",
                "title": payload,
                "url": payload,
                "doc_id": payload,
                "version": payload,
            },
            {"id": payload, "kind": "email_body", "text": payload, "title": payload},
        ],
    }


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    for server in start_server(tmp_path_factory.mktemp("xss"), "--dev"):
        with server.client() as http:
            for number, payload in enumerate(PAYLOADS):
                response = http.post(
                    "/v1/verify", content=body(hostile_line(number, payload)), headers=JSON
                )
                assert response.status_code == 200, (payload, response.text)
        yield server


def _check(page: Any, server: Server, requests: list[str], where: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(INSPECT)
    assert found["fired"] == [] and found["xss"] is None, where
    assert found["csp"] == [], (where, found["csp"])
    assert found["scripts"] == ["/static/review.js"], where
    assert found["elements"] == [], (where, found["elements"])
    assert found["handlers"] == [], (where, found["handlers"])
    assert found["metas"] == 0, where
    for link in found["links"]:
        own = link in OWN_LINKS or link.startswith(("/review/", "/review?"))
        assert own or ON_THE_PAGE.fullmatch(link), (where, link)
    hosts = {urlsplit(url).hostname for url in requests}
    assert hosts <= {"127.0.0.1"}, (where, hosts)
    return found


def test_no_payload_runs_or_reaches_the_network_on_the_answer_pages_F_5(
    browser: Any, hostile: Server
) -> None:
    assert len(PAYLOADS) >= 100
    context = browser.new_context()
    context.add_init_script(TRAPS)
    requests: list[str] = []
    dialogs: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    context.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page = context.new_page()
    try:
        highlighted = diffs = 0
        for payload in PAYLOADS:
            requests.clear()
            response = page.goto(f"{hostile.url}/review/{quote(payload, safe='')}")
            assert response is not None and response.status == 200, payload
            # Open every note, by its marker and by its quotes' marks.
            opened_all = page.evaluate(OPEN_EVERY_NOTE)
            assert opened_all and all(opened["open"] for opened in opened_all), payload
            highlighted += any(payload in opened["marked"] for opened in opened_all)
            diffs += any(opened["diff"] for opened in opened_all)
            _check(page, hostile, requests, payload)
            assert payload in page.locator("section.sources").text_content(), payload
            assert payload in page.locator("details.record").text_content(), payload
        # The payloads went through verification like any text: most quotes were found,
        # highlighted in their source, and the changed one shown as a diff.
        assert highlighted >= len(PAYLOADS) * 9 // 10 and diffs >= len(PAYLOADS) // 2
        assert dialogs == []
    finally:
        context.close()


def test_no_payload_runs_on_the_list_page_F_5(browser: Any, hostile: Server) -> None:
    context = browser.new_context()
    context.add_init_script(TRAPS)
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    try:
        page.goto(f"{hostile.url}/review?q=")
        found = _check(page, hostile, requests, "list")
        answers = [link for link in found["links"] if link.startswith("/review/")]
        assert len([link for link in answers if link != "/review/logout"]) == 50
        shown = page.locator(".answer-row .answer-id").all_text_contents()
        assert set(shown) <= set(PAYLOADS) and len(shown) == 50
        page.goto(f"{hostile.url}/review?q={quote('<script>', safe='')}")
        found = _check(page, hostile, requests, "search")
        assert page.locator(".answer-row .answer-id").count() >= 5
    finally:
        context.close()
