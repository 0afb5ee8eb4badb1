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
    from citeproof.render._asked import Asked
    from citeproof.render._diffs import word_diff
    from citeproof.render._html import AnswerBody, answer_body, render_html
    from citeproof.render._labels import (
        STATUS_LABELS,
        judged_by_its_quote,
        meaning_sentence,
        state_label,
    )
    from citeproof.render._markdown import render_markdown
    from citeproof.render._nearest import nearest_passage, refusal
    from citeproof.render._safe_text import json_text, markup_safe, safe_console, visible
    from citeproof.render._style import PAGE_CSS
    from citeproof.render._summary import plural
    from citeproof.render._support import SUPPORT_LABELS
    from citeproof.render._terminal import render_terminal
    from citeproof.render._verdicts import rank, tone


Format = Literal["html", "md", "term"]
FORMATS: tuple[Format, ...] = get_args(Format)


def render(answer: VerifiedAnswer, format: Format, *, asked: Asked | None = None) -> str:
    """Render ``answer`` as ``"html"`` (a full page), ``"md"`` or ``"term"`` (plain text);
    given what was ``asked`` (`Asked`), as the page of that question: the question first, the
    sources by name, one that tries to instruct the model marked, no ids or markers.

    Raises `InputError` when ``answer`` is not a `VerifiedAnswer` or the format is unknown."""
    expect_instance(answer, VerifiedAnswer, "answer")
    if format == "html":
        from citeproof.render._html import render_html

        return render_html(answer, asked=asked)
    if format == "md":
        from citeproof.render._markdown import render_markdown

        return render_markdown(answer, asked=asked)
    if format == "term":
        from citeproof.render._terminal import render_terminal

        return render_terminal(answer, asked=asked)
    raise InputError(
        f"unknown format {format!r}; expected one of {', '.join(FORMATS)}", field="format"
    )


# Each rendering is imported when it is first used: HTML needs markdown-it and nh3, the
# terminal report rich, and `import citeproof` needs none of them.
_RENDERERS = {
    "AnswerBody": "citeproof.render._html",
    "Asked": "citeproof.render._asked",
    "PAGE_CSS": "citeproof.render._style",
    "STATUS_LABELS": "citeproof.render._labels",
    "SUPPORT_LABELS": "citeproof.render._support",
    "answer_body": "citeproof.render._html",
    "json_text": "citeproof.render._safe_text",
    "judged_by_its_quote": "citeproof.render._labels",
    "markup_safe": "citeproof.render._safe_text",
    "meaning_sentence": "citeproof.render._labels",
    "nearest_passage": "citeproof.render._nearest",
    "plural": "citeproof.render._summary",
    "rank": "citeproof.render._verdicts",
    "refusal": "citeproof.render._nearest",
    "render_html": "citeproof.render._html",
    "render_markdown": "citeproof.render._markdown",
    "render_terminal": "citeproof.render._terminal",
    "safe_console": "citeproof.render._safe_text",
    "state_label": "citeproof.render._labels",
    "tone": "citeproof.render._verdicts",
    "visible": "citeproof.render._safe_text",
    "word_diff": "citeproof.render._diffs",
}

__getattr__ = on_first_use(globals(), _RENDERERS)


__all__ = [
    "FORMATS",
    "PAGE_CSS",
    "STATUS_LABELS",
    "SUPPORT_LABELS",
    "AnswerBody",
    "Asked",
    "Format",
    "answer_body",
    "json_text",
    "judged_by_its_quote",
    "markup_safe",
    "meaning_sentence",
    "nearest_passage",
    "plural",
    "rank",
    "refusal",
    "render",
    "render_html",
    "render_markdown",
    "render_terminal",
    "safe_console",
    "state_label",
    "tone",
    "visible",
    "word_diff",
]
