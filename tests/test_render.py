"""The renderers: badges for every status, "show source" expanders, corrections shown, hostile
text kept inert, and similarity scores only beside the matched text.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from citeproof import verify
from citeproof.errors import InputError
from citeproof.model import Excerpt, Source, VerifiedAnswer, VerifiedQuote
from citeproof.render import (
    STATUS_LABELS,
    render,
    render_html,
    render_markdown,
    render_terminal,
    state_label,
)
from citeproof.render._html_parts import block_quote, css_name, inline_diff, quote_symbol
from citeproof.render._labels import match_quality, split_excerpt, status_label
from citeproof.render._verdicts import quote_state
from tests.answers import (
    APPRAISAL,
    HISTORY_SOURCE,
    HISTORY_WRITTEN,
    INSURANCE,
    hostile_answer,
    lending_answer,
)

# --- a tiny DOM, enough to ask "is this inside that?" ---------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@dataclasses.dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    parent: Node | None = None
    children: list[Node | str] = dataclasses.field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, tag: str) -> list[Node]:
        found: list[Node] = []
        for child in self.children:
            if isinstance(child, Node):
                if child.tag == tag:
                    found.append(child)
                found.extend(child.find_all(tag))
        return found

    def ancestors(self) -> list[str]:
        node, tags = self.parent, []
        while node is not None:
            tags.append(node.tag)
            node = node.parent
        return tags

    def text_outside(self, tag: str) -> str:
        """Text of this subtree, leaving out every ``tag`` element."""
        return "".join(
            c if isinstance(c, str) else ("" if c.tag == tag else c.text_outside(tag))
            for c in self.children
        )


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.current = self.root
        self.elements: list[Node] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        self.elements.append(node)
        if tag not in VOID:
            self.current = node

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str) -> _Builder:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def markdown_as_html(markdown: str) -> str:
    """How a permissive viewer shows the Markdown: CommonMark with raw HTML enabled."""
    return MarkdownIt("commonmark").render(markdown)


def matched_text(quote: VerifiedQuote) -> str:
    assert quote.excerpt is not None
    return split_excerpt(quote.excerpt)[1]


@pytest.fixture(scope="module")
def answer() -> VerifiedAnswer:
    return lending_answer()


@pytest.fixture(scope="module")
def page(answer: VerifiedAnswer) -> str:
    return render_html(answer)


@pytest.fixture(scope="module")
def markdown(answer: VerifiedAnswer) -> str:
    return render_markdown(answer)


@pytest.fixture(scope="module")
def report(answer: VerifiedAnswer) -> str:
    return render_terminal(answer)


def test_fixture_covers_every_status_and_kind_of_correction(answer: VerifiedAnswer) -> None:
    assert all(count >= 1 for count in answer.counts().values())
    kinds = {c.kind for q in answer.quotes for c in q.corrections}
    assert kinds == {"text", "location", "source"}
    assert [q.id for q in answer.quotes if q.text == INSURANCE] == ["q1", "q8"]


# --- 003.5: status badges in every rendering ------------------------------------------------


def test_html_gives_each_quote_its_state_word_and_symbol_at_the_quote_003_5(
    answer: VerifiedAnswer, page: str
) -> None:
    dom = parse(page)
    for quote in answer.quotes:
        state = quote_state(quote)
        label = state_label(state)
        marks = [n for n in dom.elements if n.attrs.get("id") == f"quote-{quote.id}"]
        assert len(marks) == 1, quote.id
        assert f"state-{state}" in (marks[0].attrs.get("class") or "")
        # The symbol follows the quote (inline) or sits in the block's caption, with its
        # word for screen readers and on hover.
        holder = marks[0] if quote.style == "block" else marks[0].parent
        assert holder is not None
        symbols = [
            b
            for b in holder.find_all("span")
            if f"qsym state-{state}" in (b.attrs.get("class") or "")
        ]
        assert symbols, quote.id
        assert label.word in symbols[0].text() and label.symbol in symbols[0].text()
        # Its check, in the panel of its claim: the badge with word and symbol.
        check = next(n for n in dom.elements if n.attrs.get("id") == f"check-{quote.id}")
        assert label.badge in flat(check.text()), quote.id


@pytest.mark.parametrize("status", list(STATUS_LABELS))
def test_every_status_badge_appears_in_every_rendering_003_5(
    status: str, page: str, markdown: str, report: str
) -> None:
    label = status_label(status)
    assert f"{label.symbol}</span> {label.word}</span>" in page
    assert label.badge in markdown.split("## Sources")[0] or status == "not_found"
    assert label.badge in report


def test_markdown_puts_the_badge_right_after_each_quote_003_5(
    answer: VerifiedAnswer, markdown: str
) -> None:
    text = markdown.split("\n---\n")[0]
    for quote in answer.quotes:
        shown = quote.corrected_text.split("\n")[-1]
        nth = 1 if quote.id == "q8" else 0  # q8 repeats q1's words (003.8)
        at = [m.end() for m in re.finditer(re.escape(shown), text)][nth]
        badge = status_label(quote.status).badge
        assert badge in text[at : at + 2 + len(badge)], quote.id


def test_terminal_table_lists_every_quote_with_status_and_place_003_5(
    answer: VerifiedAnswer, report: str
) -> None:
    rows = {line.split()[0]: line for line in report.splitlines() if re.match(r"\s+q\d ", line)}
    for quote in answer.quotes:
        assert status_label(quote.status).badge in rows[quote.id]
    assert "Lending policy 2024" in report and "¶4" in report
    assert "S9: not provided" in report
    assert re.search(r"8 quotes checked\. ✓ Verified: 2 · ✎ Corrected: 3", report)


# --- 003.5 / section D: "show source" expands the stored excerpt ----------------------------


def _checks_by_quote(html: str) -> dict[str, Node]:
    """Each quote's check in the page's source panels, by quote id."""
    return {
        str(n.attrs["id"]).removeprefix("check-"): n
        for n in parse(html).elements
        if str(n.attrs.get("id") or "").startswith("check-")
    }


def _details_by_quote(html: str) -> dict[str, Node]:
    found: dict[str, Node] = {}
    for details in parse(html).root.find_all("details"):
        summary = details.find_all("summary")
        assert summary and flat(summary[0].text()).startswith("show source")
        ids = re.findall(r"\bq\d+\b", summary[0].text())
        found[ids[0]] = details
    return found


@pytest.mark.parametrize("rendering", ["html", "md"])
def test_show_source_expands_the_stored_excerpt_003_5(
    rendering: str, answer: VerifiedAnswer, page: str, markdown: str
) -> None:
    html = page if rendering == "html" else markdown_as_html(markdown)
    expanders = _checks_by_quote(html) if rendering == "html" else _details_by_quote(html)
    assert set(expanders) == {q.id for q in answer.quotes}
    for quote in answer.quotes:
        details = expanders[quote.id]
        if quote.excerpt is None:
            assert "provided" in details.text(), quote.id
            continue
        assert flat(quote.excerpt.text) in flat(details.text()), quote.id
        marked = [flat(m.text()) for m in details.find_all("mark")]
        assert flat(matched_text(quote)) in marked, quote.id


def test_terminal_shows_each_excerpt_with_the_match_marked_003_5(
    answer: VerifiedAnswer, report: str
) -> None:
    shown = flat(report.split("show source", 1)[1])
    for quote in answer.quotes:
        if quote.excerpt is not None:
            before, matched, after = split_excerpt(quote.excerpt)
            assert flat(f"{before}«{matched}»{after}") in shown, quote.id


def test_html_expanders_are_closed_and_never_inside_a_paragraph(page: str) -> None:
    # A <details> inside <p> would be split out by the browser, breaking the sentence.
    for details in parse(page).root.find_all("details"):
        assert "help" in (details.attrs.get("class") or "")
        assert "open" not in details.attrs
        assert "p" not in details.ancestors()


# --- 003.9 / 011.4: the corrected answer is what is shown ------------------------------------


def test_html_shows_corrected_wording_and_the_original_only_struck_003_9(
    answer: VerifiedAnswer, page: str
) -> None:
    article = parse(page).root.find_all("article")[0]
    visible = flat(article.text_outside("del"))
    assert HISTORY_SOURCE in visible
    assert HISTORY_WRITTEN not in visible
    # A cosmetic fix shows the source's words alone; its panel has the diff, the model's
    # words struck through (a meaning change is struck in the text too: test_meaning.py).
    fixed = next(q for q in answer.quotes if q.text == HISTORY_WRITTEN)
    assert quote_state(fixed) == "corrected"
    check = _checks_by_quote(page)[fixed.id]
    struck = " ".join(flat(d.text()) for d in check.find_all("del"))
    assert "histroy" in struck and "history" in " ".join(i.text() for i in check.find_all("ins"))


def test_a_fix_that_keeps_the_meaning_shows_only_the_sources_words_in_the_text_003_9() -> None:
    # Rendered here, not from the module's page: a mutation tool credits a shared fixture's
    # work to the first test that asked for it.
    answer = lending_answer()
    fixed = next(q for q in answer.quotes if q.text == HISTORY_WRITTEN)
    page = parse(render_html(answer))
    shown = next(n for n in page.elements if n.attrs.get("id") == f"quote-{fixed.id}")
    assert shown.find_all("del") == [] and shown.find_all("ins") == []
    assert flat(shown.text()) == f"“{HISTORY_SOURCE}”"


def test_markdown_shows_corrected_wording_and_the_original_only_as_was_003_9(
    markdown: str,
) -> None:
    assert HISTORY_SOURCE in markdown
    for found in re.finditer(re.escape(HISTORY_WRITTEN), markdown):
        assert markdown[: found.start()].endswith("was: “"), markdown[found.start() - 20 :]


def test_corrected_citations_are_rendered_011_4(
    answer: VerifiedAnswer, page: str, markdown: str
) -> None:
    article = parse(page).root.find_all("article")[0]
    # The raw markers are gone from the text: each claim has one numbered marker instead.
    assert "[S1" not in article.text() and "[S2" not in article.text()
    markers = [a for a in article.find_all("a") if "marker" in (a.attrs.get("class") or "")]
    assert [flat(m.find_all("span")[0].text()) for m in markers] == [
        str(n) for n in range(1, len(markers) + 1)
    ]
    checks = _checks_by_quote(page)
    appraisal = next(q for q in answer.quotes if q.text == APPRAISAL)
    assert "Paragraph corrected: S1 ¶1 → S1 ¶4" in flat(checks[appraisal.id].text())
    assert "Source corrected: S2 → S1 ¶2" in flat(checks["q8"].text())
    body = markdown.split("\n---\n")[0]
    assert f'"{APPRAISAL}" ✎ Corrected (citation was: S1 ¶1) [S1, ¶4].' in body
    assert "[S1, ¶1]" not in markdown
    wide = render_terminal(answer, width=200)  # a row, unwrapped
    assert "location: S1 ¶1 → S1 ¶4" in wide
    assert "source: S2 → S1 ¶2" in wide
    assert answer.original not in page + markdown


def test_a_repeated_quote_is_shown_per_occurrence_003_8(page: str, markdown: str) -> None:
    dom = parse(page)
    first = next(n for n in dom.elements if n.attrs.get("id") == "quote-q1")
    again = next(n for n in dom.elements if n.attrs.get("id") == "quote-q8")
    assert "state-verified" in (first.attrs.get("class") or "")
    assert "state-corrected" in (again.attrs.get("class") or "")
    assert "(citation was: S2)" in markdown


@pytest.mark.parametrize(
    ("wrote", "source", "shown"),
    [
        # A word the model added is struck; one it left out is marked inserted; the words
        # they share are shown once, as they are.
        ("the loan was approved", "the loan approved", "the loan <del>was </del>approved"),
        ("the loan approved", "the loan was approved", "the loan <ins>was </ins>approved"),
        ("a b c", "a x b c", "a<ins> x</ins> b c"),
        (
            "offer is made",
            "offer is issued",
            'offer is <del>made</del><span class="arrow"> → </span><ins>issued</ins>',
        ),
        # A change of case or punctuation alone shows the source's words only.
        ("Loan approved", "loan approved", "loan approved"),
        ("<b>&", "<b>!&", "&lt;b&gt;!&amp;"),  # escaped, whatever the words hold
    ],
)
def test_a_meaning_change_shows_what_was_struck_and_what_the_source_says_003_9(
    wrote: str, source: str, shown: str
) -> None:
    assert inline_diff(wrote, source) == shown


def test_class_names_and_ids_hold_only_letters_digits_dash_and_underscore() -> None:
    assert css_name('q 1<"x') == "q-1--x"
    assert css_name("Ab_9-") == "Ab_9-"
    assert css_name("") == "x"


def test_a_block_quote_is_captioned_by_its_symbol_and_its_claims_markers_003_5(
    answer: VerifiedAnswer,
) -> None:
    quote = next(q for q in answer.quotes if q.style == "block")
    figure = block_quote(quote, ['<a id="ref-1">1</a>', '<a id="ref-2">2</a>'])
    caption = figure.split("<figcaption>")[1].removesuffix("</figcaption></figure>")
    assert caption == quote_symbol(quote) + '<a id="ref-1">1</a><a id="ref-2">2</a>'


def test_every_change_is_shown_when_asked_even_of_case_003_9() -> None:
    assert inline_diff("Loan", "loan", cosmetic=True) == (
        '<del>Loan</del><span class="arrow"> → </span><ins>loan</ins>'
    )


# --- section D: no bare confidence numbers --------------------------------------------------


def _blocks_with_scores(answer: VerifiedAnswer) -> list[VerifiedQuote]:
    return [q for q in answer.quotes if q.excerpt is not None and q.method == "fuzzy"]


@pytest.mark.parametrize("rendering", ["html", "md"])
def test_a_score_is_only_shown_beside_its_matched_text(
    rendering: str, answer: VerifiedAnswer, page: str, markdown: str
) -> None:
    html = page if rendering == "html" else markdown_as_html(markdown)
    expanders = _checks_by_quote(html) if rendering == "html" else _details_by_quote(html)
    outside = parse(html).root.text_outside("section" if rendering == "html" else "details")
    assert " match: " not in outside and "confidence" not in outside.lower()
    assert "similarity" not in html  # in plain words, never a bare number
    for quote in answer.quotes:
        number = f"{quote.score:.2f}"
        inside = flat(expanders[quote.id].text())
        quality = match_quality(quote)
        if quote in _blocks_with_scores(answer):
            assert quality is not None and quality in inside
            assert flat(matched_text(quote)) in inside
        else:
            assert " match: " not in inside, quote.id
        # Scores of quotes without an excerpt (q5: 0.41) are shown nowhere.
        if quote.excerpt is None:
            assert number not in html, quote.id


def test_terminal_shows_a_score_only_above_its_matched_text(
    answer: VerifiedAnswer, report: str
) -> None:
    table, sources = report.split("show source\n", 1)
    assert " match: " not in table and "similarity" not in report
    scored = _blocks_with_scores(answer)
    assert scored
    blocks = [flat(b).replace("«", "").replace("»", "") for b in sources.split("\n\n")]
    for block in blocks:
        if " match: " in block:
            assert any(flat(matched_text(q)) in block for q in scored), block
    for quote in scored:
        quality = match_quality(quote)
        assert quality is not None
        assert any(flat(matched_text(quote)) in b and flat(quality) in b for b in blocks)
    for quote in answer.quotes:
        if quote.excerpt is None:
            assert f"{quote.score:.2f}" not in report


# --- hostile content ------------------------------------------------------------------------


def _assert_inert(html: str) -> None:
    dom = parse(html)
    for node in dom.elements:
        assert node.tag not in {"script", "iframe", "img", "object", "embed", "form"}, node
        if node.tag == "style":
            assert node.ancestors() == ["head", "html", "#root"], "only the page's own style"
        for name, value in node.attrs.items():
            assert not name.lower().startswith("on"), (node.tag, name)
            assert name.lower() not in {"src", "srcdoc", "formaction"}, (node.tag, name)
            if name.lower() == "href" and value is not None:
                assert re.match(r"(https?|mailto):|#", value.strip(), re.IGNORECASE), value


def test_hostile_answer_and_sources_stay_inert_in_html_003_5() -> None:
    hostile = hostile_answer()
    page = render_html(hostile)
    _assert_inert(page)
    for anchor in parse(page).root.find_all("a"):
        assert "javascript" not in (anchor.attrs.get("href") or "").lower()
    text = parse(page).root.text()
    # Shown as text, not dropped: the reader sees what the model and the source said.
    assert "<script>alert(1)</script>" in text
    assert "<img src=x onerror=alert(1)>" in text


def test_hostile_answer_and_sources_stay_inert_in_markdown_003_5() -> None:
    markdown = render_markdown(hostile_answer())
    _assert_inert(markdown)  # the raw text, as an HTML-sniffing viewer would see it
    viewed = markdown_as_html(markdown)
    _assert_inert(viewed)
    assert "<script>alert(1)</script>" in parse(viewed).root.text()
    assert len(parse(viewed).root.find_all("details")) == 2


def test_terminal_prints_no_control_sequences_from_sources() -> None:
    answer = hostile_answer()
    quote = answer.quotes[0]
    assert quote.excerpt is not None
    nasty = "\x1b]0;owned\x07\x1b[2J\x9b31m"
    excerpt = dataclasses.replace(quote.excerpt, text=quote.excerpt.text + nasty)
    answer = dataclasses.replace(
        answer,
        quotes=(dataclasses.replace(quote, excerpt=excerpt, note=nasty), *answer.quotes[1:]),
    )
    report = render_terminal(answer)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", report)
    assert "<U+001B>" in report
    assert "[script]" not in report  # nothing was read as rich markup either


# --- page shape and entry points ------------------------------------------------------------


def test_html_page_is_self_contained(answer: VerifiedAnswer, page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"<(script|link|img|iframe)\b", page)
    dom = parse(page)
    summary = next(p for p in dom.root.find_all("p") if "summary" in str(p.attrs))
    assert "8 quotes: 2 verified" in flat(summary.text())
    sources = dom.root.find_all("section")[-1]
    assert all(s.title and s.title in sources.text() for s in answer.sources)
    assert "Cited but not provided with this answer: S9" in flat(sources.text())


def test_a_quote_whose_span_is_unusable_is_still_shown() -> None:
    answer = lending_answer()
    broken = dataclasses.replace(answer.quotes[4], corrected_span=(9999, 10010))
    answer = dataclasses.replace(answer, quotes=(*answer.quotes[:4], broken, *answer.quotes[5:]))
    page = render_html(answer)
    dom = parse(page)
    section = next(s for s in dom.root.find_all("section") if "unplaced" in str(s.attrs))
    assert "Not found" in section.text()
    check = _checks_by_quote(page)[broken.id]
    assert "Not found" in check.text()  # its claim's panel still explains it


def test_excerpt_with_a_bad_highlight_is_clamped_not_crashed() -> None:
    answer = lending_answer()
    quote = answer.quotes[0]
    assert quote.excerpt is not None
    excerpt = Excerpt("S1", "t", 2, "short", (3, 99))
    answer = dataclasses.replace(
        answer, quotes=(dataclasses.replace(quote, excerpt=excerpt), *answer.quotes[1:])
    )
    for fmt in ("html", "md", "term"):
        assert "sho" in render(answer, fmt)  # type: ignore[arg-type]


def test_render_dispatches_by_format(answer: VerifiedAnswer, page: str, markdown: str) -> None:
    assert render(answer, "html") == page
    assert render(answer, "md") == markdown
    assert render(answer, "term") == render_terminal(answer)
    with pytest.raises(InputError):
        render(answer, "pdf")  # type: ignore[arg-type]


def test_terminal_needs_no_tty_and_fits_the_width(answer: VerifiedAnswer) -> None:
    report = render_terminal(answer, width=72)
    assert "\x1b" not in report
    assert max(len(line) for line in report.splitlines()) <= 72


def test_rendering_is_deterministic(answer: VerifiedAnswer) -> None:
    # Golden files depend on it.
    assert render_html(answer) == render_html(lending_answer())


def test_answer_without_sources_or_quotes_renders() -> None:
    empty = dataclasses.replace(
        lending_answer(),
        text="Nothing quoted.",
        original="Nothing quoted.",
        claims=(),
        quotes=(),
        sources=(Source(id="S1", kind="document", text="x"),),
    )
    assert "Nothing quoted." in render_html(empty)
    assert "Nothing quoted." in render_markdown(empty)
    assert "0 quotes checked" in render_terminal(empty)


# --- a real browser ---------------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.browser
def test_page_in_a_real_browser_has_panels_and_no_script_003_5(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        if os.environ.get("CITEPROOF_REQUIRE_BROWSER"):
            pytest.fail("CITEPROOF_REQUIRE_BROWSER is set but /usr/bin/chromium is missing")
        pytest.skip("install chromium (apt-get install chromium) to run the browser test")
    for name, answer in (("lending", lending_answer()), ("hostile", hostile_answer())):
        page = tmp_path / f"{name}.html"
        page.write_text(render_html(answer), "utf-8")
        run = subprocess.run(
            [
                str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
                "--dump-dom", page.as_uri(),
            ],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr[-2000:]
        checks = _checks_by_quote(run.stdout)
        assert set(checks) == {q.id for q in answer.quotes}, name
        _assert_inert(run.stdout)


def test_terminal_heads_the_answer_corrected_only_when_something_was() -> None:
    source = Source(id="lease", kind="document", text="The rent is due on the first day.")
    plain = render_terminal(verify("The rent is due on the first day [lease].", [source]))
    assert plain.splitlines()[0] == "Answer"
    fixed = render_terminal(verify('It says "The rent is due on the frist day." [lease]', [source]))
    assert fixed.splitlines()[0] == "Answer (corrected)"


def test_a_claim_citing_only_sources_not_provided_says_so_in_every_rendering_012_2() -> None:
    """Its verdict is `unsupported` with no passage to show: the reason is the refusal, not
    the generic meaning of the verdict."""
    source = Source(id="lease", kind="document", text="The rent is due on the first day.")
    answer = verify(
        "The board approved the budget [Source: Board Minutes]. The rent is due on the first "
        "day [lease].",
        [source],
    )
    why = "it cites Board Minutes, which was not provided with this answer"
    assert f"why: {why}" in flat(render_terminal(answer))
    assert f"✗ Unsupported ({why})" in render_markdown(answer)
    assert why[:1].upper() + why[1:] + "." in flat(render_html(answer))
