"""The reviewer's web app in headless Chromium (issues 12 and 46), over the demo's answer at a
desktop and a phone width: the answer drawn as the answer page draws it (no Markdown syntax
left, the same numbered markers), quote marks that open their panel, a phone's sheet that
opens at its explanation with the claim above it, the queue's filters and order, searching,
signing in and out."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citeproof.render import render_html
from citeproof.server._answer_record import answer_from_record
from citeproof.server._views import FILTERS, count_of
from tests.server.browser import chromium
from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line

JSON = {"Content-Type": "application/json"}
WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}
ROOT = Path(__file__).resolve().parents[2]
CLEAN = "The policy says that “Applications above 95% are declined” [S1]."

pytestmark = pytest.mark.browser


def _demo_line() -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("demo", ROOT / "examples/service/demo.py")
    assert spec is not None and spec.loader is not None
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    line: dict[str, Any] = demo.batch_line()
    return line


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


RECORDS: dict[str, dict[str, Any]] = {}
"""Each posted answer as its audit record holds it: the reply and the sources sent."""


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    for server in start_server(tmp_path_factory.mktemp("review"), "--dev"):
        with server.client() as http:
            for line in (
                lending_line("hartley-1"),
                _demo_line(),
                lending_line("clean-3", CLEAN),
            ):
                posted = http.post("/v1/verify", content=body(line), headers=JSON)
                assert posted.is_success
                RECORDS[line["id"]] = {"answer": posted.json(), "sources": line["sources"]}
        yield server


@pytest.fixture(params=list(WIDTHS))
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    width, height = WIDTHS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport=dict(zip(("width", "height"), WIDTHS["phone"], strict=True))
    )
    yield context.new_page()
    context.close()


def _record(server: Server, answer_id: str) -> dict[str, Any]:
    return RECORDS[answer_id]


MARKERS = """() => [...document.querySelectorAll("article.answer a.marker")].map((m) => {
  const claim = m.closest("span.claim");
  return [m.textContent.match(/\\d+/)[0], claim ? claim.id : null];
})"""


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_no_markdown_syntax_is_left_in_the_rendered_answer(page: Any, dev: Server) -> None:
    page.goto(f"{dev.url}/review/hartley-demo")
    text = page.locator("article.answer").inner_text()
    assert text.strip()
    assert "**" not in text and "](" not in text and "<cite" not in text
    assert not re.search(r"(?m)^\s*(?:>|#{1,6}\s)", text), text
    assert page.locator("article.answer strong, article.answer blockquote").count() >= 2
    for row in page.goto(f"{dev.url}/review") and page.locator(".answer-row").all():
        shown = row.inner_text()
        assert "**" not in shown and "](" not in shown and "\n>" not in shown, shown
    _no_sideways_scroll(page)


def test_the_review_page_numbers_claims_as_the_answer_page_and_the_json(
    page: Any, dev: Server
) -> None:
    page.goto(f"{dev.url}/review/hartley-demo")
    shown = page.evaluate(MARKERS)
    record = _record(dev, "hartley-demo")
    answer = answer_from_record(record)
    expected = re.findall(r'<a class="marker[^"]*" href="#note-(\d+)"', render_html(answer))
    assert [number for number, _ in shown] == expected and len(expected) >= 8
    claim_ids = {f"claim-{c['id']}" for c in record["answer"]["claims"]}
    wrapped = [claim for _, claim in shown if claim]
    assert len(wrapped) >= len(shown) - 2 and set(wrapped) <= claim_ids
    summary = page.locator("header p.summary").first.inner_text()
    judged = sum(n for v, n in record["answer"]["claim_counts"].items() if v != "none")
    assert f"{judged} claims" in summary


def test_every_quote_mark_opens_its_panel(page: Any, dev: Server) -> None:
    page.goto(f"{dev.url}/review/hartley-demo")
    links = page.locator("article.answer a.quote-link")
    assert links.count() >= 6
    for n in range(links.count()):
        link = links.nth(n)
        title = link.get_attribute("title") or ""
        assert "Open its source" in title
        target = link.get_attribute("href")
        link.click()
        assert page.url.endswith(target)
        assert page.locator(f"section.panel{target}").is_visible()
    changed = page.locator("a.quote-link:has(mark.state-meaning_changed)")
    assert changed.count() >= 1 and "Meaning changed" in (
        changed.first.get_attribute("title") or ""
    )


def test_on_a_phone_the_quote_panel_opens_at_its_explanation_above_the_fold(
    phone: Any, dev: Server
) -> None:
    phone.goto(f"{dev.url}/review/hartley-demo")
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight / 3)")
    link = phone.locator("a.quote-link:has(mark.state-meaning_changed)").first
    target = link.get_attribute("href")
    link.click()
    phone.wait_for_timeout(200)
    panel = phone.locator(f"section.panel{target}")
    assert panel.evaluate("(p) => p.scrollTop") == 0
    sheet = panel.bounding_box()
    assert sheet is not None and sheet["width"] == 390 and sheet["y"] > 150
    for part in ("p.why", ".check p.meaning-changed"):
        box = panel.locator(part).first.bounding_box()
        assert box is not None and sheet["y"] <= box["y"] and box["y"] + box["height"] <= 844
    head = panel.locator(".panel-head").bounding_box()
    assert head is not None and head["y"] >= sheet["y"]  # the title is not cut
    claim = phone.locator("span.claim.lit").first.bounding_box()
    assert claim is not None and claim["y"] >= 0 and claim["y"] + 20 <= sheet["y"]
    phone.keyboard.press("Escape")
    assert not panel.is_visible()
    _no_sideways_scroll(phone)


def test_each_filter_lists_exactly_the_answers_it_names_with_its_count(
    browser: Any, dev: Server
) -> None:
    records = {r: _record(dev, r) for r in ("hartley-1", "hartley-demo", "clean-3")}
    from citeproof.server._answer_record import index_counts

    counts = {r: index_counts(answer_from_record(rec)) for r, rec in records.items()}
    context = browser.new_context()
    page = context.new_page()
    try:
        for item in FILTERS:
            expected = {r for r, c in counts.items() if count_of(c, item) > 0}
            page.goto(f"{dev.url}/review?status={item.key}")
            shown = page.locator(".answer-row .answer-id").all_text_contents()
            assert set(shown) == expected and len(shown) == len(expected), item.key
            tally = page.locator(f".queue-filters a[data-filter='{item.key}'] .count")
            assert tally.text_content() == str(len(expected)), item.key
        for key in ("contradicted", "unsupported", "unconfirmed", "meaning_changed"):
            assert any(
                count_of(c, next(f for f in FILTERS if f.key == key)) for c in counts.values()
            )
    finally:
        context.close()


def test_the_queue_puts_the_worst_first_and_searches(browser: Any, dev: Server) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{dev.url}/review")
        ids = page.locator(".answer-row .answer-id").all_text_contents()
        assert ids[-1] == "clean-3" and set(ids) == {"hartley-1", "hartley-demo", "clean-3"}
        page.goto(f"{dev.url}/review?sort=newest")
        assert page.locator(".answer-row .answer-id").all_text_contents()[0] == "clean-3"
        assert "ago" in page.locator(".answer-row time").first.text_content() or "just now"
        page.fill("#q", "hartley-1")
        with page.expect_navigation():  # the search is a new page: read it once it is in
            page.click("form.search button")
        assert page.locator(".answer-row .answer-id").all_text_contents() == ["hartley-1"]
        with page.expect_navigation():
            page.click("a.answer-link")
        assert page.url.endswith("/review/hartley-1")
        assert "hartley-1" not in page.locator("h1").first.text_content()
    finally:
        context.close()


def test_a_reviewer_signs_in_with_a_token_sees_only_their_answers_and_signs_out_F_3(
    browser: Any, server: Server
) -> None:
    with server.client("rita") as http:
        assert http.post("/v1/verify", content=body(lending_line("ritas")), headers=JSON).is_success
    with server.client("sam") as http:
        assert http.post("/v1/verify", content=body(lending_line("sams")), headers=JSON).is_success
    context = browser.new_context()
    page = context.new_page()
    try:
        response = page.goto(f"{server.url}/review")
        assert response is not None and response.status == 401
        page.fill("#token", "cpt_wrong")
        with page.expect_navigation():  # each sign-in is a form post and a new page
            page.click("form.login button")
        assert "not known" in page.locator(".error").text_content()
        page.fill("#token", server.token("rita"))
        with page.expect_navigation():
            page.click("form.login button")
        assert page.locator(".answer-row .answer-id").all_text_contents() == ["ritas"]
        cookie = next(c for c in context.cookies() if c["name"] == "citeproof_token")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        other = page.goto(f"{server.url}/review/sams")
        assert other is not None and other.status == 404
        page.goto(f"{server.url}/review")
        with page.expect_navigation():
            page.click("form.logout button")
        assert page.locator(".notice").text_content() == "Signed out."
        assert not [c for c in context.cookies() if c["name"] == "citeproof_token"]
        again = page.goto(f"{server.url}/review")
        assert again is not None and again.status == 401
    finally:
        context.close()
