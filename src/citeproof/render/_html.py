"""One self-contained HTML page for a verified answer: no scripts, no external resources.

The answer's Markdown is rendered with raw HTML disabled. Quotes and citation markers are
first swapped for alphanumeric placeholders, so their text never passes through Markdown; the
placeholders are then replaced by fragments built with escaped text. The whole body finally
goes through ``nh3`` with an explicit allow-list, so nothing from the answer or the sources
can become live HTML even if a fragment builder has a bug.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

import nh3
from markdown_it import MarkdownIt

from citeproof.model import VerifiedAnswer
from citeproof.render._asked import (
    INSTRUCTS,
    INSTRUCTS_WHY,
    WARNING,
    Asked,
    kept_out_lines,
    reader_page,
    shown_count,
    source_lines,
)
from citeproof.render._edits import Edit, apply_edits, layout, unused_token_base
from citeproof.render._html_panels import panel, title_of
from citeproof.render._html_parts import (
    block_quote,
    css_name,
    inline_quote,
    marker,
    quote_mark,
    verdict_badge,
)
from citeproof.render._labels import (
    MEANING_LABEL,
    STATUS_LABELS,
    cited_but_not_provided,
    eligibility_line,
    kept_out,
    nothing_checked,
    provided_hint,
    safe_url,
    state_label,
)
from citeproof.render._notes import Note, notes
from citeproof.render._style import ASKED_CSS, PAGE_CSS, open_note_css
from citeproof.render._summary import plural, summary_line
from citeproof.render._support import SUPPORT_LABELS
from citeproof.render._unanswered import page_heading
from citeproof.render._verdicts import quote_state

ALLOWED_TAGS = frozenset(
    {
        "a", "article", "blockquote", "br", "caption", "code", "del", "details", "div", "em",
        "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
        "ins", "li", "main", "mark", "ol", "p", "pre", "s", "section", "span", "strong",
        "summary", "table", "tbody", "td", "th", "thead", "tr", "ul",
    }
)  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "*": {"class", "id", "title"},
    "a": {"href"},
    "details": {"open"},
    "ol": {"start"},
    "td": {"style"},
    "th": {"style"},
}
URL_SCHEMES = {"http", "https", "mailto"}

# Elements a claim's wrapper may not enclose: a claim is wrapped only within one block.
_BLOCK_TAG = re.compile(
    r"</?(?:p|h[1-6]|li|ul|ol|pre|blockquote|figure|figcaption|table|thead|tbody|tr|td|th|div"
    r"|section|details|summary|hr)\b"
)
_TAG = re.compile(r"<(/?)([a-z0-9]+)[^>]*?(/?)>")
_VOID = frozenset({"br", "hr"})


def _markdown() -> MarkdownIt:
    # "js-default" keeps raw HTML off; images would load external resources, so they stay text.
    return MarkdownIt("js-default").disable("image")


def _inside_paragraph(html: str, position: int) -> bool:
    return html.rfind("<p>", 0, position) > html.rfind("</p>", 0, position)


def _balanced(fragment: str) -> bool:
    """True when ``fragment`` holds no block element and closes every element it opens."""
    if _BLOCK_TAG.search(fragment):
        return False
    depth: list[str] = []
    for closing, name, _ in _TAG.findall(fragment):
        if name in _VOID:
            continue
        if not closing:
            depth.append(name)
        elif not depth or depth.pop() != name:
            return False
    return not depth


def _citation_cut(text: str, start: int, floor: int) -> int:
    """Where the removal of a citation marker starts: the spaces before it go too."""
    while start > floor and text[start - 1] in " \t":
        start -= 1
    return start


def _before_citations(text: str, at: int, cites: list[tuple[int, int]]) -> int:
    """``at`` moved back over the whitespace and citation markers just before it (which the
    page leaves out), so a marker after a block quote's citation line joins the block."""
    moved = True
    while moved:
        moved = False
        while at > 0 and text[at - 1].isspace():
            at -= 1
        for start, end in cites:
            if end == at:
                at, moved = start, True
    return at


def answer_html(answer: VerifiedAnswer, marked: list[Note]) -> tuple[str, list[str]]:
    """The corrected answer as HTML: each quote marked in its state, citation markers replaced
    by one numbered marker per note at its claim's end, each claim wrapped in a span; and the
    fragments of quotes and markers that could not be placed in the text."""
    text = answer.text
    plan = layout(answer)
    base = unused_token_base(text)
    count = len(plan.quotes) + 3 * len(marked)
    width = len(str(count))
    fragments: dict[str, str] = {}
    block_tokens: set[str] = set()
    edits: list[Edit] = []
    slot = 0

    def token() -> str:
        nonlocal slot
        slot += 1
        return f"{base}{slot:0{width}d}"

    markers = {n.number: marker(n.number, n.verdict, n.label.word, n.label.symbol) for n in marked}
    opens = {q.id: n.number for n in marked for q in n.quotes}
    in_block: dict[str, list[str]] = {}
    blocks = [(span, q) for span, q in plan.quotes if q.style == "block"]
    taken = [span for span, _ in plan.quotes]
    # Citation markers leave the text, with the spaces before them.
    removals: list[tuple[int, int]] = []
    floor = 0
    for span, _ in sorted(plan.markers, key=lambda pair: pair[0]):
        start = _citation_cut(text, span[0], floor)
        if any(s < start < e or start < s < span[1] for s, e in taken):
            start = span[0]
        removals.append((start, span[1]))
        floor = span[1]
    edits += [Edit(start, end, "") for start, end in removals]
    occupied = taken + removals
    wraps: list[tuple[str, str, str]] = []  # (open token, close token, claim id)
    cites = [span for span, _ in plan.markers]
    for note in marked:
        settled = _before_citations(text, note.at, cites)
        holder = next((q for (s, e), q in blocks if s < settled <= e), None)
        if holder is not None:
            in_block.setdefault(holder.id, []).append(markers[note.number])
            continue
        at = note.at
        for start, end in sorted(occupied):
            if start < at < end:
                at = end
        name = token()
        edits.append(Edit(at, at, name))
        fragments[name] = markers[note.number]
        claim = note.claim
        if claim is not None and 0 <= claim.span[0] < at:
            begin = claim.span[0]
            if not any(s < begin < e for s, e in occupied):
                opening, closing = token(), token()
                edits.append(Edit(begin, begin, opening))
                edits.append(Edit(at, at, closing))
                wraps.append((opening, closing, claim.id))
    for span, quote in plan.quotes:
        name = token()
        edits.append(Edit(span[0], span[1], name))
        if quote.style == "block":
            fragments[name] = block_quote(quote, in_block.get(quote.id, []), opens.get(quote.id))
            block_tokens.add(name)
        else:
            widened = span != quote.corrected_span
            opening_mark = text[span[0]] if widened else ""
            closing_mark = text[span[1] - 1] if widened else ""
            fragments[name] = inline_quote(quote, opening_mark, closing_mark, opens.get(quote.id))

    rendered = _markdown().render(apply_edits(text, edits))
    html_edits: list[Edit] = []
    lost: list[str] = []
    for name, replacement in fragments.items():
        at = rendered.find(name)
        if at < 0:  # Markdown swallowed it (e.g. inside a link reference definition)
            lost.append(replacement)
            continue
        if name in block_tokens and _inside_paragraph(rendered, at):
            replacement = f"</p>{replacement}<p>"
        html_edits.append(Edit(at, at + len(name), replacement))
    body = apply_edits(rendered, html_edits)
    for opening, closing, claim_id in wraps:
        start, end = body.find(opening), body.find(closing)
        if 0 <= start < end and _balanced(body[start + len(opening) : end]):
            body = (
                body[:start]
                + f'<span class="claim" id="claim-{css_name(claim_id)}">'
                + body[start + len(opening) : end]
                + "</span>"
                + body[end + len(closing) :]
            )
        else:
            body = body.replace(opening, "").replace(closing, "")
    body = re.sub(r"<p>\s*</p>", "", body)
    lost.extend(
        f"<p>{inline_quote(q, '“', '”', opens.get(q.id))}</p>"
        if q.style == "inline"
        else block_quote(q, [], opens.get(q.id))
        for q in plan.unplaced
    )
    return body, lost


def help_html() -> str:
    """The legend, in a help popover: what each claim verdict means, and each quote state as
    it is drawn in the text (its underline and its symbol)."""
    claims = "".join(
        f"<li>{verdict_badge(verdict)} {escape(label.meaning)}</li>"
        for verdict, label in SUPPORT_LABELS.items()
    )
    quotes = "".join(
        f'<li><span class="sample"><mark class="quote state-{css_name(state)}">quoted words'
        f"</mark>{quote_mark(state)}</span> <strong>{escape(state_label(state).word)}</strong>: "
        f"{escape(state_label(state).meaning)}</li>"
        for state in [*STATUS_LABELS, "meaning_changed"]
    )
    return (
        '<details class="help"><summary title="What the marks mean">? What the marks mean'
        '</summary><div class="help-body"><p>A number after a claim opens the passage it was '
        "checked against; so do a quote's words and its mark. Claims:</p>"
        f'<ul class="legend">{claims}</ul><p>Quotes, underlined by their check:</p>'
        f'<ul class="legend quotes">{quotes}</ul></div></details>'
    )


def summary_html(answer: VerifiedAnswer) -> str:
    """The one summary line, and a warning line when a quote's meaning changed."""
    line = f'<p class="summary">{escape(summary_line(answer))}</p>'
    changed = sum(1 for q in answer.quotes if quote_state(q) == "meaning_changed")
    if changed:
        line += (
            f'<p class="meaning-changed"><span class="symbol">{MEANING_LABEL.symbol}</span> '
            f"{escape(plural(changed, 'quote'))} changed the source's meaning: struck through "
            "in the text, the source's words beside.</p>"
        )
    return line


def asked_sources_html(answer: VerifiedAnswer, asked: Asked) -> str:
    """An asked question's sources by name, one that tries to instruct the model marked with
    the lines that do, then those kept out of the turn."""
    items: list[str] = []
    for name, facts, said in source_lines(answer, asked):
        kind = ' class="instructs"' if said else ""
        line = (
            f'<li{kind}><strong>{escape(name)}</strong> <span class="facts">{escape(facts)}</span>'
        )
        if said:
            quoted = "; ".join(f"“{escape(s)}”" for s in said)
            line += (
                f'<p class="instructs"><span class="symbol">{WARNING}</span> '
                f"<strong>{escape(INSTRUCTS)}:</strong> {quoted} {escape(INSTRUCTS_WHY)}</p>"
            )
        items.append(line + "</li>")
    listing = f"<ol>{''.join(items)}</ol>" if items else "<p>No sources were shown.</p>"
    withheld = kept_out_lines(answer, asked)
    if withheld:
        rows = "".join(f"<li>{escape(line)}</li>" for line in withheld)
        listing += f'<p class="missing">Kept out of this turn:</p><ul class="kept-out">{rows}</ul>'
    return f'<section class="sources"><h2>{escape(shown_count(answer))}</h2>{listing}</section>'


def sources_html(answer: VerifiedAnswer) -> str:
    """The sources provided in this turn, which quotes each holds, and cited-but-missing ids."""
    items: list[str] = []
    for source in answer.sources:
        holds = [q for q in answer.quotes if q.source == source.id]
        facts = [source.kind.replace("_", " ")]
        # Ids, versions and document ids are hashes: on hover, for whoever needs them.
        ids = [f"id {source.id}"]
        if source.version:
            ids.append(f"version {source.version}")
        if source.doc_id:
            ids.append(f"document {source.doc_id}")
        line = (
            f'<li id="source-{css_name(source.id)}" title="{escape(" · ".join(ids))}">'
            f"<strong>{escape(title_of(answer, source.id))}</strong> "
            f'<span class="facts">{escape(" · ".join(facts))}</span>'
        )
        url = safe_url(source.url)
        if url:
            line += f' · <a href="{escape(url)}">open</a>'
        if holds:
            found = plural(len(holds), "quote")
            line += f'<br><span class="holds">{escape(found)} found here</span>'
        items.append(line + "</li>")
    missing = cited_but_not_provided(answer)
    extra = ""
    if missing:
        label = state_label("ineligible")
        names = ", ".join(escape(m) for m in missing)
        extra = (
            f'<p class="missing">{label.symbol} Cited but not provided with this answer: '
            f"{names}</p>"
        )
        hint = provided_hint(answer)
        if hint:
            extra += f'<p class="missing">{escape(hint)}</p>'

    listing = f"<ol>{''.join(items)}</ol>" if items else "<p>No sources were provided.</p>"
    turn = eligibility_line(answer)
    if turn:
        extra += f'<p class="eligibility">{escape(turn)}</p>'
    withheld = kept_out(answer)
    if withheld:
        rows = "".join(f"<li>{escape(sid)}: {escape(why)}</li>" for sid, why in withheld)
        extra += f'<p class="missing">Kept out of this turn:</p><ul class="kept-out">{rows}</ul>'
    return f'<section class="sources"><h2>Sources provided</h2>{listing}{extra}</section>'


def sanitize(body: str, *, outside_links: bool = True) -> str:
    """Keep only the tags and attributes this page uses; drop scripts and their content.
    Without ``outside_links`` only links to places on the page keep their target: the rest
    stay as text (shown, not followed)."""
    cleaned: str = nh3.clean(
        body,
        tags=set(ALLOWED_TAGS),
        clean_content_tags={"script", "style", "iframe", "object", "embed", "template"},
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        strip_comments=True,
        link_rel="noopener noreferrer",
        filter_style_properties={"text-align"},
        attribute_filter=_absolute_links_only if outside_links else _on_page_links_only,
    )
    return cleaned


_LINK_TARGET = re.compile(r"(?:https?:|mailto:|#)", re.IGNORECASE)


def _absolute_links_only(tag: str, attribute: str, value: str) -> str | None:
    """An ``href`` only to an http(s) or mailto address or a place on this page: nh3 keeps
    relative ones ("", "x.html"), which from an answer or a source point anywhere."""
    if attribute == "href" and not _LINK_TARGET.match(value.strip()):
        return None
    return value


@dataclass(frozen=True, slots=True)
class AnswerBody:
    """The answer page without its frame, for a page that draws it in its own (the review
    app): ``html`` the sanitised content of ``<main class="citeproof">``, ``lit`` (note
    number, element id) for each element to light while that note's panel is open."""

    html: str
    lit: tuple[tuple[int, str], ...]


def _on_page_links_only(tag: str, attribute: str, value: str) -> str | None:
    if attribute == "href" and not value.startswith("#"):
        return None
    return value


def answer_body(
    answer: VerifiedAnswer, *, outside_links: bool = True, asked: Asked | None = None
) -> AnswerBody:
    """The answer first, with a numbered marker after each checked claim that opens its
    source panel; one summary line; the legend in a help popover; the sources. Without
    ``outside_links``, links out of the page are kept as text (`sanitize`). For an ``asked``
    question (`citeproof.render._asked`), the question heads the page and the sources are
    listed by name."""
    if asked is not None:
        answer, asked = reader_page(answer, asked)
    marked = notes(answer)
    body, lost = answer_html(answer, marked)
    unplaced = (
        f'<section class="unplaced"><h2>Quotes not shown in the text</h2>{"".join(lost)}</section>'
        if lost
        else ""
    )
    nothing = nothing_checked(answer)
    headline = f'<p class="nothing-checked">{escape(nothing)}</p>' if nothing else ""
    heading = page_heading(answer)
    panels = "".join(panel(answer, note) for note in marked)
    title = f"<h1>{escape(heading)}</h1>"
    if asked is not None:
        title = (
            f'<p class="asked">Question</p><h1 class="question">{escape(asked.question)}</h1>'
            f'<p class="page-heading">{escape(heading)}</p>'
        )
    sources = sources_html(answer) if asked is None else asked_sources_html(answer, asked)
    content = (
        f"<header>{title}"
        f"{summary_html(answer)}{headline}{help_html()}</header>"
        f'<article class="answer">{body}</article>{unplaced}'
        f'<section class="panels">{panels}</section>'
        f"{sources}"
        "<footer><p>Checked by citeproof. A number after a claim, or a quote's mark, opens the "
        "passage it was checked against.</p></footer>"
    )
    lit = tuple(
        [(n.number, f"claim-{css_name(n.claim.id)}") for n in marked if n.claim is not None]
        + [(n.number, f"ref-{n.number}") for n in marked]
    )
    return AnswerBody(sanitize(content, outside_links=outside_links), lit)


def render_html(answer: VerifiedAnswer, *, asked: Asked | None = None) -> str:
    """A complete page: `answer_body` in a frame with its style sheet; no script. The page of
    an ``asked`` question is titled by the question."""
    drawn = answer_body(answer, asked=asked)
    title = f"{page_heading(answer)} {answer.id}" if asked is None else asked.question.strip()
    # The style sheet is ours and fixed, so it is added after sanitising the body.
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{PAGE_CSS}{'' if asked is None else ASKED_CSS}"
        f"{open_note_css(list(drawn.lit))}"
        "</style></head>\n"
        f'<body><main class="citeproof">{drawn.html}</main></body></html>\n'
    )
