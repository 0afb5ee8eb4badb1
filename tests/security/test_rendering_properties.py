"""Issue 9 acceptance: whatever text arrives in whatever field, the HTML and Markdown
renderings hold only allowed elements and attributes, and the terminal rendering no raw
control, bidi or tag character (003.5)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from citeproof import Source, verify
from citeproof.render import render_html, render_markdown, render_terminal

QUOTE = "The rate is fixed at four percent"
# Elements and attributes a rendering may hold; anything else came from outside.
ELEMENTS = {
    "a", "article", "blockquote", "body", "br", "caption", "code", "del", "details", "div",
    "em", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "head",
    "header", "hr", "html", "ins", "li", "main", "mark", "meta", "ol", "p", "pre", "section",
    "span", "strong", "style", "summary", "table", "tbody", "td", "th", "thead", "title", "tr",
    "ul",
}  # fmt: skip
ATTRIBUTES = {"class", "id", "title", "href", "rel", "lang", "charset", "content", "name",
              "http-equiv", "start"}  # fmt: skip
RAW_TERMINAL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\U000e0000-\U000e007f\ud800-\udfff]"
)

# Text that reaches for markup: HTML, Markdown and URL syntax, controls, bidi and tags.
_PIECES = st.one_of(
    st.sampled_from(list("<>&\"'`![]()*_~#:/\\=\n\t -|")),
    st.sampled_from(["javascript:", "<img src=x onerror=alert(1)>", "<script>", "](",
                     "![x](http://h/)", "[r]: ", "http://h/", "\x1b[2J", "\u202e", "\U000e0041",
                     "\x9b", "&lt;", "&#x6A;", "<!--", "```", "    "]),
    st.characters(codec="utf-8"),
)  # fmt: skip
hostile_text = st.lists(_PIECES, max_size=30).map("".join)


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ELEMENTS:
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            if name not in ATTRIBUTES:
                self.problems.append(f"<{tag} {name}>")
            if name == "href" and not re.match(r"(https?|mailto):|#", (value or "").strip()):
                self.problems.append(f"<{tag} href={value!r}>")


def problems(html: str) -> list[str]:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser.problems


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=hostile_text, after=hostile_text, title=hostile_text, url=hostile_text,
       source_text=hostile_text, note=hostile_text)  # fmt: skip
# Found by this test: an already escaped image made live again; a link destination holding
# another "](" (two rewrites of one place: the Markdown rendering failed); an empty link.
@example(before="", after="", title="", url="", source_text="", note="\\![x](http://h/)")
@example(before="", after="", title="", url="", source_text="", note="](http://h/](")
@example(before="", after="", title="", url="", source_text="", note="[]()")
def test_any_text_in_any_field_renders_only_allowed_markup_003_5(
    before: str, after: str, title: str, url: str, source_text: str, note: str
) -> None:
    sources = [
        Source(id="S1", kind="document", text=f"{source_text}\n\n{QUOTE}.\n\n{note}",
               title=title, url=url),
        Source(id="S2", kind="email_body", text=note or "x", title=note, url=source_text),
    ]  # fmt: skip
    answer = verify(f'{before} "{QUOTE}" [S1] {after} "{note}" [S2] [S9]', sources)
    assert problems(render_html(answer)) == []
    markdown = render_markdown(answer)
    for renderer in (MarkdownIt("commonmark", {"html": True}), MarkdownIt()):
        assert problems(renderer.render(markdown)) == []
    assert not RAW_TERMINAL.search(markdown)
    assert not RAW_TERMINAL.search(render_terminal(answer))
