"""What a reader sees, in headless Chromium at a desktop (1366 px) and a phone (390 px) width:
on the answer page and in the review app every claim's chip or marker sits inside its own
sentence's box, a marker or chip opens the right passage, a meaning change looks unlike a
cosmetic correction, the keyboard reaches every marker, and a phone never scrolls sideways."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citeproof import Source, verify
from citeproof.render import render_html
from tests.answers import lending_answer
from tests.server.browser import chromium
from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line
from tests.test_meaning import NOW, SOURCE_TEXT

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}

# The marker (or chip) lies inside the box of its claim's own text: one of the claim's line
# boxes holds it, so it is never drawn beside another sentence.
INSIDE_OWN_CLAIM = """(selector) => [...document.querySelectorAll(selector)].map((chip) => {
  const claim = chip.closest("span.claim");
  if (!claim) return {chip: chip.textContent, claim: null};
  const c = chip.getBoundingClientRect();
  const inside = [...claim.getClientRects()].some((r) => c.left >= r.left - 1
    && c.right <= r.right + 1 && c.top >= r.top - 4 && c.bottom <= r.bottom + 4);
  return {chip: chip.textContent, claim: claim.id, inside};
})"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def answer_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("page") / "answer.html"
    path.write_text(render_html(lending_answer()), encoding="utf-8")
    return path.as_uri()


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    for server in start_server(tmp_path_factory.mktemp("reading"), "--dev"):
        with server.client() as http:
            posted = http.post(
                "/v1/verify",
                content=body(lending_line("reader-1")),
                headers={"content-type": "application/json"},
            )
            assert posted.is_success
        yield server


@pytest.fixture(params=list(WIDTHS))
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    width, height = WIDTHS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    yield context.new_page()
    context.close()


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_each_marker_is_inside_its_own_claim_on_the_answer_page(
    page: Any, answer_page: str
) -> None:
    page.goto(answer_page)
    placed = page.evaluate(INSIDE_OWN_CLAIM, "article a.marker")
    assert len(placed) >= 4
    wrapped = [p for p in placed if p["claim"] is not None]
    assert len(wrapped) >= len(placed) - 1  # a block quote's marker sits in its caption
    assert all(p["inside"] for p in wrapped), wrapped
    _no_sideways_scroll(page)


def test_a_marker_opens_its_panel_on_the_right_passage(page: Any, answer_page: str) -> None:
    page.goto(answer_page)
    answer = lending_answer()
    marker = page.locator("article a.marker").first
    panel = page.locator("#note-1")
    assert panel.is_hidden()
    marker.click()
    assert panel.is_visible() and page.url.endswith("#note-1")
    # The panel holds the first quote's check with its passage marked in context.
    first = min(answer.quotes, key=lambda q: q.corrected_span[0])
    assert first.excerpt is not None
    start, end = first.excerpt.highlight
    passage = first.excerpt.text[start:end]
    assert panel.locator(f"#check-{first.id} mark.match").text_content() == passage
    box = panel.bounding_box()
    width = page.viewport_size["width"]
    if width >= 768:  # beside the answer, which stays readable to its left
        assert box["x"] > width / 2 and box["height"] >= 800
        text_box = page.locator("article.answer").bounding_box()
        assert text_box["x"] + text_box["width"] <= box["x"] + 1
    else:  # a bottom sheet over the lower part of the screen
        assert box["x"] == 0 and box["width"] == width and box["y"] > 100
    page.locator("#note-1 a.close").click()
    assert panel.is_hidden()
    _no_sideways_scroll(page)


def test_a_meaning_change_looks_unlike_a_cosmetic_fix(page: Any, tmp_path: Path) -> None:
    source = Source(id="S1", kind="document", text=SOURCE_TEXT)
    answer = verify(
        'It met "from January 17 to February 22, 1917, in Oklahoma City" [S1]. And "Regular'
        ' physical activity can lead to improved heart helath and better sleep" [S1].',
        [source],
        now=NOW,
    )
    states = {q.id: (q.status, q.meaning_changed) for q in answer.quotes}
    assert sorted(states.values()) == [("corrected", False), ("corrected", True)]
    path = tmp_path / "meaning.html"
    path.write_text(render_html(answer), encoding="utf-8")
    page.goto(path.as_uri())
    style = """(selector) => { const s = getComputedStyle(document.querySelector(selector));
      return [s.color, s.backgroundColor, s.textDecorationStyle]; }"""
    changed = page.evaluate(style, "mark.quote.state-meaning_changed")
    cosmetic = page.evaluate(style, "mark.quote.state-corrected")
    assert changed != cosmetic
    assert changed[0] != cosmetic[0] and changed[1] != cosmetic[1]  # red text on red
    red, green, blue = (int(x) for x in changed[0][4:-1].split(",")[:3])
    assert red > 2 * green and red > 2 * blue
    # Before → after in the text itself: the model's year struck, the source's beside it.
    mark = page.locator("article.answer mark.quote.state-meaning_changed")
    assert mark.locator("del").text_content().rstrip(",") == "1917"
    assert mark.locator("ins").text_content().rstrip(",") == "1916"
    assert (
        "Meaning changed"
        in page.locator("article.answer .qsym.state-meaning_changed").text_content()
    )
    assert page.locator("mark.quote.state-corrected del").count() == 0


def test_the_keyboard_reaches_every_marker(page: Any, answer_page: str) -> None:
    page.goto(answer_page)
    markers = page.locator("article a.marker, section.unplaced a.marker").count()
    reached: list[str] = []
    for _ in range(markers + 20):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.id")
        if focused.startswith("ref-") and focused not in reached:
            reached.append(focused)
        if focused == f"ref-{markers}":
            break
    assert reached == [f"ref-{n}" for n in range(1, markers + 1)]
    page.keyboard.press("Enter")  # opens the last marker's panel
    assert page.locator(f"#note-{markers}").is_visible()


def test_each_claim_marker_is_inside_its_own_sentence_in_the_review_app(
    page: Any, dev: Server
) -> None:
    page.goto(f"{dev.url}/review/reader-1")
    placed = page.evaluate(INSIDE_OWN_CLAIM, "article.answer a.marker")
    assert len(placed) >= 4 and all(p["claim"] and p["inside"] for p in placed), placed
    _no_sideways_scroll(page)


def test_a_claim_marker_opens_its_passage_with_the_words_that_differ(
    page: Any, dev: Server
) -> None:
    page.goto(f"{dev.url}/review/reader-1")
    marker = page.locator("article.answer a.marker.tone-bad").first
    target = marker.get_attribute("href")
    marker.click()
    panel = page.locator(f"section.panel{target}")
    assert panel.is_visible() and panel.locator("mark.match").count() >= 1
    assert panel.locator("mark.differs").count() >= 1
    # A not-found quote opens the nearest passage and says why it was refused.
    page.locator("a.quote-link:has(mark.state-not_found)").click()
    refused = page.locator("section.panel:target p.refused").text_content()
    assert refused.startswith("Refused: the nearest passage shares") and "2024" in refused
    assert page.locator("section.panel:target mark.match").count() >= 1
    _no_sideways_scroll(page)


def test_the_api_docs_render_offline(browser: Any, dev: Server) -> None:
    context = browser.new_context()
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    try:
        page.goto(f"{dev.url}/docs")
        page.wait_for_selector(".opblock", timeout=30_000)
        assert "Unable to render" not in page.locator("#swagger-ui").text_content()
        assert page.locator(".opblock").count() >= 5  # the operations are listed
        assert all(url.startswith(dev.url) or url.startswith("data:") for url in requests)
    finally:
        context.close()


def test_the_review_panel_is_a_bottom_sheet_on_a_phone(browser: Any, dev: Server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(f"{dev.url}/review/reader-1")
        page.locator("article.answer a.marker").first.click()
        sheet = page.locator("section.panel:target").bounding_box()
        assert sheet is not None and sheet["x"] == 0 and sheet["width"] == 390
        assert sheet["y"] > 200 and sheet["y"] + sheet["height"] <= 845  # the lower part
        assert page.locator("section.panel:target .panel-head").is_visible()
        _no_sideways_scroll(page)
    finally:
        context.close()


def test_a_saved_review_page_opens_styled_and_working(
    browser: Any, dev: Server, tmp_path: Path
) -> None:
    import importlib.util

    import httpx

    demo_path = Path(__file__).resolve().parents[2] / "examples" / "service" / "demo.py"
    spec = importlib.util.spec_from_file_location("service_demo", demo_path)
    assert spec is not None and spec.loader is not None
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    served = httpx.get(f"{dev.url}/review/reader-1", timeout=60).text
    styles = {path: httpx.get(f"{dev.url}{path}", timeout=60).text for path in demo.STYLES}
    script = httpx.get(f"{dev.url}/static/review.js", timeout=60).text
    saved = tmp_path / "review.html"
    saved.write_text(demo.self_contained(served, styles, script), encoding="utf-8")
    assert "/static/" not in saved.read_text(encoding="utf-8")
    context = browser.new_context()
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    try:
        page.goto(saved.as_uri())
        radius = page.evaluate(
            "getComputedStyle(document.querySelector('article.answer a.marker')).borderRadius"
        )
        assert radius not in ("", "0px")  # styled from the file alone
        page.locator("article.answer a.marker").first.click()
        assert page.locator("span.claim.lit").count() == 1  # its script runs
        assert all(url.startswith("file://") for url in requests)
    finally:
        context.close()
