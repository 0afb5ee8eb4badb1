"""HTML: the visible text, one paragraph per block element.

Scripts, styles, templates, the ``<head>`` and elements hidden with the ``hidden`` attribute
or an inline style that hides them are dropped: ``display:none``, ``visibility:hidden``, a
zero font size, zero opacity, zero height with overflow hidden, a position or indent far off
screen, a zero clip, or white text without a background of another colour. Such text is what
a reader never sees and a prompt injection hides in. Text inside
``<blockquote>`` (and Gmail's ``gmail_quote`` containers) is marked as quoted history, which
is how mail clients quote replies in HTML.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from citeproof.sources._segment import Block, Segmented, join_blocks

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "caption", "dd", "details", "dialog",
        "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
        "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
        "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    }
)  # fmt: skip
_CELLS = frozenset({"td", "th"})
_SKIP = frozenset({"script", "style", "template", "noscript", "svg", "object", "iframe"})
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
_HIDDEN_STYLE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0*\.?0+(?:px|pt|em|rem|%)?\s*(?:;|$|!)"
    r"|opacity\s*:\s*0*\.?0+\s*(?:;|$|!)"
    r"|(?:left|top|right|text-indent|margin-left)\s*:\s*-\d{3,}"
    r"|clip\s*:\s*rect\(\s*0[a-z]*[\s,]+0[a-z]*[\s,]+0[a-z]*[\s,]+0[a-z]*\s*\)",
    re.I,
)
_ZERO_HEIGHT = re.compile(r"(?:^|;)\s*(?:max-)?height\s*:\s*0+(?:px|em|rem|%)?\s*(?:;|$|!)", re.I)
_OVERFLOW_HIDDEN = re.compile(r"overflow\s*:\s*hidden", re.I)
_WHITE_TEXT = re.compile(
    r"(?:^|;)\s*color\s*:\s*(?:white|#fff(?:fff)?|rgba?\(\s*255\s*,\s*255\s*,\s*255)", re.I
)
_BACKGROUND = re.compile(r"background(?:-color)?\s*:\s*([^;]+)", re.I)
_WHITE = re.compile(r"^\s*(?:white|#fff(?:fff)?|rgba?\(\s*255\s*,\s*255\s*,\s*255)", re.I)
_SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.title_parts: list[str] = []
        self.first_heading: list[str] = []
        self._line: list[str] = []
        self._lines: list[str] = []
        self._skip_tag: str | None = None
        self._skip_depth = 0
        self._open = {"blockquote": 0, "div": 0}
        self._quotes: list[tuple[str, int]] = []  # quoting element, its nesting level
        self._in_title = False
        self._in_pre = 0
        self._in_h1 = False
        self._in_heading = False
        self._cell_in_row = 0

    # --- parser callbacks -------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skip_tag is not None:
            if tag == self._skip_tag:
                self._skip_depth += 1
            return
        if tag == "title":
            self._in_title = True
            return
        if tag not in _VOID and (tag in _SKIP or _is_hidden(attrs)):
            self._skip_tag, self._skip_depth = tag, 1
            return
        if tag == "br":
            self._break_line()
            return
        if tag in _CELLS:
            if self._cell_in_row:
                self._line.append(" | ")
            self._cell_in_row += 1
            return
        if tag == "tr":
            self._end_block()
            self._cell_in_row = 0
            return
        if tag in _BLOCKS:
            self._end_block()
        if tag in _HEADINGS:
            self._in_heading = True
        if tag == "h1" and not self.first_heading:
            self._in_h1 = True
        if tag == "pre":
            self._in_pre += 1
        if tag in self._open:
            self._open[tag] += 1
            if tag == "blockquote" or _has_class(attrs, "gmail_quote"):
                self._quotes.append((tag, self._open[tag]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skip_tag is None and tag == "br":
            self._break_line()

    def handle_endtag(self, tag: str) -> None:
        if self._skip_tag is not None:
            if tag == self._skip_tag:
                self._skip_depth -= 1
                if self._skip_depth == 0:
                    self._skip_tag = None
            return
        if tag == "title":
            self._in_title = False
            return
        if tag in _CELLS:
            return
        if tag == "tr":
            self._end_block()
            self._cell_in_row = 0
            return
        if tag in _BLOCKS:
            self._end_block()
        if tag in _HEADINGS:
            self._in_heading = False
        if self._open.get(tag):
            self._open[tag] -= 1
            while self._quotes and self._quotes[-1][0] == tag:
                if self._quotes[-1][1] <= self._open[tag]:
                    break
                self._quotes.pop()
        if tag == "h1":
            self._in_h1 = False
        if tag == "pre" and self._in_pre:
            self._in_pre -= 1

    def handle_data(self, data: str) -> None:
        if self._skip_tag is not None:
            return
        if self._in_title:
            self.title_parts.append(data)
            return
        if self._in_h1:
            self.first_heading.append(data)
        if self._in_pre:
            lines = data.split("\n")
            for number, line in enumerate(lines):
                if number:
                    self._break_line()
                self._line.append(line)
        else:
            self._line.append(data)

    def close(self) -> None:
        super().close()
        self._end_block()

    # --- helpers ----------------------------------------------------------------------
    def _break_line(self) -> None:
        self._lines.append(self._collapse("".join(self._line)))
        self._line = []

    def _end_block(self) -> None:
        self._break_line()
        lines = [line for line in self._lines if line]
        self._lines = []
        if lines:
            self.blocks.append(
                Block("\n".join(lines), quoted=bool(self._quotes), heading=self._in_heading)
            )

    def _collapse(self, text: str) -> str:
        if self._in_pre:
            return text.rstrip()
        return _SPACES.sub(" ", text).strip()


def _is_hidden(attrs: list[tuple[str, str | None]]) -> bool:
    for name, value in attrs:
        if name == "hidden" or (name == "aria-hidden" and value == "true"):
            return True
        if name == "style" and value and _hiding_style(value):
            return True
    return False


def _hiding_style(style: str) -> bool:
    if _HIDDEN_STYLE.search(style):
        return True
    if _ZERO_HEIGHT.search(style) and _OVERFLOW_HIDDEN.search(style):
        return True
    if _WHITE_TEXT.search(style):
        background = _BACKGROUND.search(style)
        return background is None or bool(_WHITE.match(background.group(1)))
    return False


def _has_class(attrs: list[tuple[str, str | None]], wanted: str) -> bool:
    return any(name == "class" and value and wanted in value.split() for name, value in attrs)


def html_to_text(markup: str) -> Segmented:
    """The visible text of ``markup``: one paragraph per block element (a table row is one
    paragraph, its cells joined by `` | ``), ``<br>`` a line break inside a paragraph,
    whitespace collapsed except in ``<pre>``. The title is ``<title>``, else the first ``<h1>``.
    """
    parser = _VisibleText()
    parser.feed(markup)
    parser.close()
    title = _SPACES.sub(" ", "".join(parser.title_parts or parser.first_heading)).strip()
    return join_blocks(parser.blocks, title=title or None)
