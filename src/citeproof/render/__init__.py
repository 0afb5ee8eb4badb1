"""Showing a verified answer to a person: an HTML page, Markdown text or a terminal report.

Every rendering shows the corrected answer (003.9, 011.4), a badge with a word and a symbol for
each quote's status, and a "show source" action with the stored excerpt (003.5). A similarity
score only ever appears beside the matched text it measures (section D).

A rendering reads only the model's values (`citeproof.model`): what it says is decided
upstream and carried on them, and ``lint-imports`` fails on an import of any stage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, get_args

from citeproof.errors import InputError
from citeproof.lazy import on_first_use
from citeproof.model import VerifiedAnswer, expect_instance

if TYPE_CHECKING:
    from citeproof.render.html import render_html
    from citeproof.render.markdown import render_markdown
    from citeproof.render.terminal import render_terminal

Format = Literal["html", "md", "term"]
FORMATS: tuple[Format, ...] = get_args(Format)


def render(answer: VerifiedAnswer, format: Format) -> str:
    """Render ``answer`` as ``"html"`` (a full page), ``"md"`` or ``"term"`` (plain text).

    Raises `InputError` when ``answer`` is not a `VerifiedAnswer` or the format is unknown."""
    expect_instance(answer, VerifiedAnswer, "answer")
    if format == "html":
        from citeproof.render.html import render_html

        return render_html(answer)
    if format == "md":
        from citeproof.render.markdown import render_markdown

        return render_markdown(answer)
    if format == "term":
        from citeproof.render.terminal import render_terminal

        return render_terminal(answer)
    raise InputError(
        f"unknown format {format!r}; expected one of {', '.join(FORMATS)}", field="format"
    )


# Each rendering is imported when it is first used: HTML needs markdown-it and nh3, the
# terminal report rich, and `import citeproof` needs none of them.
_RENDERERS = {
    "render_html": "citeproof.render.html",
    "render_markdown": "citeproof.render.markdown",
    "render_terminal": "citeproof.render.terminal",
}

__getattr__ = on_first_use(globals(), _RENDERERS)


__all__ = ["FORMATS", "Format", "render", "render_html", "render_markdown", "render_terminal"]
