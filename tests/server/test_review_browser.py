"""The reviewer's web app in headless Chromium (issue 12): a chip opens the source at the
passage, highlighted, with the correction as a diff; filters; a narrow screen; the keyboard;
signing in with a token."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import chromium
from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line

JSON = {"Content-Type": "application/json"}

pytestmark = pytest.mark.browser

POLICY_PASSAGE = (
    "Applications with a loan-to-value ratio above 80% must be referred to a senior "
    "underwriter before an offer is issued"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    for server in start_server(tmp_path_factory.mktemp("review"), "--dev"):
        with server.client() as http:
            assert http.post(
                "/v1/verify", content=body(lending_line("hartley-1")), headers=JSON
            ).is_success
            assert http.post(
                "/v1/verify", content=body(lending_line("other-2")), headers=JSON
            ).is_success
        yield server


@pytest.fixture
def page(browser: Any, dev: Server) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(f"{dev.url}/review/hartley-1")
    yield page
    context.close()


def test_a_chip_click_opens_the_source_at_the_passage_highlighted_F_3(page: Any) -> None:
    panel = page.locator("#source-panel")
    assert panel.is_hidden()
    page.locator("#answer-text button.chip[data-status='corrected']").click()
    assert panel.is_visible()
    mark = page.locator("#source-panel .source:visible mark.passage")
    assert mark.count() == 1
    assert mark.text_content() == POLICY_PASSAGE
    assert page.locator("#source-panel .source:visible .source-title").text_content() == (
        "Residential Credit Policy rev. 7"
    )
    box = mark.bounding_box()
    assert box is not None and 0 <= box["y"] < 900  # scrolled into view
    # Another chip moves the highlight: one passage marked at a time.
    page.locator("#answer-text button.chip[data-key='q2']").click()
    assert page.locator("mark.passage").count() == 1
    assert "£412,000" in page.locator("mark.passage").text_content()


def test_the_correction_is_shown_as_a_diff_F_3(page: Any) -> None:
    page.locator("#answer-text button.chip[data-status='corrected']").click()
    diff = page.locator("#detail-q1 .diff-text")
    assert diff.is_visible()
    assert [d.strip() for d in diff.locator("del").all_text_contents()] == ["any", "made"]
    assert [i.strip() for i in diff.locator("ins").all_text_contents()] == ["an", "issued"]
    assert page.locator("#detail-q2").is_hidden()


def test_filters_show_the_quotes_of_one_status_F_3(page: Any) -> None:
    items = page.locator(".quote-item")
    assert items.count() == 4
    page.locator("button.filter[data-filter='not_found']").click()
    visible = page.locator(".quote-item:visible")
    assert visible.count() == 1
    assert visible.get_attribute("data-status") == "not_found"
    assert page.locator("button.filter[data-filter='not_found']").get_attribute("aria-pressed") == (
        "true"
    )
    assert "dimmed" in (
        page.locator("#answer-text .quote[data-status='verified']").first.get_attribute("class")
        or ""
    )
    page.locator("button.filter[data-filter='']").click()
    assert page.locator(".quote-item:visible").count() == 4


def test_the_page_reads_at_420_px_without_sideways_scrolling_F_3(browser: Any, dev: Server) -> None:
    context = browser.new_context(viewport={"width": 420, "height": 800})
    page = context.new_page()
    try:
        page.goto(f"{dev.url}/review/hartley-1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 420
        page.locator("#answer-text button.chip[data-status='corrected']").click()
        mark = page.locator("mark.passage")
        assert mark.is_visible()
        box = mark.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 420
        assert 0 <= box["y"] < 800
        assert page.evaluate("document.documentElement.scrollWidth") <= 420
    finally:
        context.close()


def test_the_keyboard_reaches_chips_opens_and_closes_the_panel_F_3(page: Any) -> None:
    for _ in range(40):  # Tab until a chip in the answer has the focus
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#answer-text button.chip')"):
            break
    else:
        raise AssertionError("Tab never reached a chip")
    key = page.evaluate("document.activeElement.dataset.key")
    page.keyboard.press("Enter")
    assert page.locator("#source-panel").is_visible()
    assert page.evaluate("document.activeElement.id") == "source-panel"
    assert page.locator(f"#detail-{key}").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("#source-panel").is_hidden()
    assert page.evaluate("document.activeElement.dataset.key") == key
    page.locator("button.filter[data-filter='verified']").focus()
    page.keyboard.press("Space")
    assert page.locator(".quote-item:visible").count() == 2


def test_the_list_shows_recent_answers_newest_first_and_searches_F_3(
    browser: Any, dev: Server
) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{dev.url}/review")
        assert page.locator(".answer-id").all_text_contents()[:2] == ["other-2", "hartley-1"]
        page.fill("#q", "hartley-1")
        with page.expect_navigation():  # the search is a new page: read it once it is in
            page.click("form.search button")
        assert page.locator(".answer-id").all_text_contents() == ["hartley-1"]
        with page.expect_navigation():
            page.click("a.answer-link")
        assert page.url.endswith("/review/hartley-1")
    finally:
        context.close()


def test_a_reviewer_signs_in_with_a_token_and_sees_only_their_answers_F_3(
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
        assert page.locator(".answer-id").all_text_contents() == ["ritas"]
        cookie = next(c for c in context.cookies() if c["name"] == "citeproof_token")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        other = page.goto(f"{server.url}/review/sams")
        assert other is not None and other.status == 404
    finally:
        context.close()
