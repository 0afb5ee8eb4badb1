"""One self-contained HTML page for a verified answer: no scripts, no external resources.

The answer's Markdown is rendered with raw HTML disabled. Quotes and citation markers are
first swapped for alphanumeric placeholders, so their text never passes through Markdown; the
placeholders are then replaced by fragments built with escaped text. The whole body finally
goes through ``nh3`` with an explicit allow-list, so nothing from the answer or the sources
can become live HTML even if a fragment builder has a bug.
"""

from __future__ import annotations

import re
from html import escape

import nh3
from markdown_it import MarkdownIt

from citeproof.model import Span, VerifiedAnswer
from citeproof.render.edits import Edit, apply_edits, layout, unused_token_base
from citeproof.render.html_parts import (
    badge,
    block_quote,
    citation_chip,
    css_name,
    inline_quote,
    source_details,
)
from citeproof.render.labels import (
    STATUS_LABELS,
    cited_but_not_provided,
    eligibility_line,
    kept_out,
    nothing_checked,
    provided_hint,
    safe_url,
    status_label,
)
from citeproof.render.style import PAGE_CSS
from citeproof.render.support import (
    claim_tally,
    differences_text,
    shown_claims,
    support_label,
    support_summary,
)
from citeproof.render.unanswered import page_heading

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

# Where an inline quote's expander goes: after the paragraph or heading that holds it, or
# just inside the end of its list item or table cell. A <details> inside a <p> would end the
# paragraph early in every browser, splitting the sentence around the quote.
_BLOCK_END = re.compile(r"</p>|</h[1-6]>|</pre>|</li>|</td>|</th>|<ul\b|<ol\b")
_AFTER_TAGS = ("</p>", "</h", "</pre>")


def _markdown() -> MarkdownIt:
    # "js-default" keeps raw HTML off; images would load external resources, so they stay text.
    return MarkdownIt("js-default").disable("image")


def _expander_position(html: str, after: int) -> int:
    found = _BLOCK_END.search(html, after)
    if found is None:
        return len(html)
    return found.end() if found.group().startswith(_AFTER_TAGS) else found.start()


def _inside_paragraph(html: str, position: int) -> bool:
    return html.rfind("<p>", 0, position) > html.rfind("</p>", 0, position)


def answer_html(answer: VerifiedAnswer) -> tuple[str, list[str]]:
    """The corrected answer as HTML, and fragments for quotes that could not be placed."""
    text = answer.text
    plan = layout(answer)
    base = unused_token_base(text)
    count = len(plan.quotes) + len(plan.markers)
    width = len(str(count))
    fragments: dict[str, tuple[str, str | None]] = {}  # token -> (replacement, expander)
    block_tokens: set[str] = set()
    source_edits: list[Edit] = []
    slot = 0

    def token() -> str:
        nonlocal slot
        slot += 1
        return f"{base}{slot:0{width}d}"

    after_marker = support_chips(answer)
    for span, quote in plan.quotes:
        name = token()
        source_edits.append(Edit(span[0], span[1], name))
        if quote.style == "block":
            chips = [
                citation_chip(answer, c) + after_marker.get(c.answer_span, "")
                for c in plan.markers_in_block.get(quote.id, [])
            ]
            fragments[name] = (block_quote(answer, quote, chips), None)
            block_tokens.add(name)
        else:
            widened = span != quote.corrected_span
            opening = text[span[0]] if widened else ""
            closing = text[span[1] - 1] if widened else ""
            fragments[name] = (
                inline_quote(quote, opening, closing),
                source_details(answer, quote),
            )
    for span, cite in plan.markers:
        name = token()
        source_edits.append(Edit(span[0], span[1], name))
        fragments[name] = (
            citation_chip(answer, cite) + after_marker.get(cite.answer_span, ""),
            None,
        )

    rendered = _markdown().render(apply_edits(text, source_edits))
    html_edits: list[Edit] = []
    lost: list[str] = []
    for name, (replacement, expander) in fragments.items():
        at = rendered.find(name)
        if at < 0:  # Markdown swallowed it (e.g. inside a link reference definition)
            lost.append(replacement + (expander or ""))
            continue
        if name in block_tokens and _inside_paragraph(rendered, at):
            replacement = f"</p>{replacement}<p>"
        html_edits.append(Edit(at, at + len(name), replacement))
        if expander:
            spot = _expander_position(rendered, at + len(name))
            html_edits.append(Edit(spot, spot, expander))
    body = apply_edits(rendered, html_edits)
    body = re.sub(r"<p>\s*</p>", "", body)
    lost.extend(
        f"<p>{inline_quote(q, '“', '”')}</p>{source_details(answer, q)}"
        if q.style == "inline"
        else block_quote(answer, q, [])
        for q in plan.unplaced
    )
    return body, lost


def summary_html(answer: VerifiedAnswer) -> str:
    """Counts per status, each with its badge and what it means."""
    counts = answer.counts()
    rows = "".join(
        f'<tr><td>{badge(status)}</td><td class="count">{counts.get(status, 0)}</td>'
        f"<td>{escape(label.meaning)}</td></tr>"
        for status, label in STATUS_LABELS.items()
    )
    total = len(answer.quotes)
    corrections = sum(len(q.corrections) for q in answer.quotes)
    return (
        '<table class="summary"><caption>'
        f"{total} quote{'s' if total != 1 else ''} checked against the sources · "
        f"{corrections} correction{'s' if corrections != 1 else ''} applied"
        "</caption><thead><tr><th>Status</th><th>Quotes</th><th>What it means</th></tr>"
        f"</thead><tbody>{rows}</tbody></table>"
    )


def support_chips(answer: VerifiedAnswer) -> dict[Span, str]:
    """Claim support (issue 10): a verdict chip for each judged claim, keyed by the span of
    the claim's last citation marker, where it is drawn."""
    chips: dict[Span, str] = {}
    for claim in shown_claims(answer):
        ends = [c for c in claim.citations if c.status != "removed"]
        if not ends:
            continue
        last = max(ends, key=lambda c: c.answer_span[1])
        label = support_label(claim.verdict)
        why = "; ".join(differences_text(s, 2) for s in claim.support if s.verdict == claim.verdict)
        chips[last.answer_span] = (
            f' <span class="support support-{css_name(claim.verdict)}" '
            f'title="{escape(support_summary(claim))}">'
            f'<span class="symbol">{escape(label.symbol)}</span> {escape(label.word)}</span>'
            + (
                f' <span class="support-why">{escape(why)}</span>'
                if why and claim.verdict != "supported"
                else ""
            )
        )
    return chips


def claims_html(answer: VerifiedAnswer) -> str:
    """The claims' support: a tally and each judged claim with its differences and passage."""
    claims = shown_claims(answer)
    if not claims:
        return ""
    tally = " · ".join(f"{escape(label.badge)} {n}" for _, label, n in claim_tally(answer))
    items = []
    for claim in claims:
        label = support_label(claim.verdict)
        parts = [
            f'<li id="claim-{css_name(claim.id)}"><span class="support support-'
            f'{css_name(claim.verdict)}">{escape(label.badge)}</span> {escape(claim.text)}'
        ]
        if not claim.support:
            parts.append(f'<p class="meaning">{escape(label.meaning)}</p>')
        for support in claim.support:
            where = support.source + (
                f", ¶{support.passage.paragraph}" if support.passage is not None else ""
            )
            head = (
                f"{support_label(support.verdict).badge} by {where} "
                f"(score {support.score:.2f}, {support.method})"
            )
            body = ""
            if support.differences:
                listed = escape(differences_text(support, 8))
                body += f'<p class="differences">Differences: {listed}</p>'
            if support.passage is not None:
                body += f"<blockquote>{escape(support.passage.text)}</blockquote>"
            parts.append(
                f"<details><summary>{escape(head)}</summary>{body or '<p>Nothing differs.</p>'}"
                "</details>"
            )
        items.append("".join(parts) + "</li>")
    return (
        f'<section class="claims"><h2>Claims checked</h2><p>{tally}</p>'
        f"<ol>{''.join(items)}</ol></section>"
    )


def sources_html(answer: VerifiedAnswer) -> str:
    """The sources provided in this turn, which quotes each holds, and cited-but-missing ids."""
    items: list[str] = []
    for source in answer.sources:
        holds = [q for q in answer.quotes if q.source == source.id]
        facts = [source.kind.replace("_", " ")]
        if source.version:
            facts.append(f"version {source.version}")
        if source.doc_id:
            facts.append(f"document {source.doc_id}")
        line = (
            f'<li id="source-{css_name(source.id)}"><span class="source-id">'
            f"{escape(source.id)}</span> <strong>{escape(source.title or source.id)}</strong> "
            f'<span class="facts">{escape(" · ".join(facts))}</span>'
        )
        url = safe_url(source.url)
        if url:
            line += f' · <a href="{escape(url)}">open</a>'
        if holds:
            quoted = ", ".join(
                f"{escape(q.id)} {status_label(q.status).plain_symbol}" for q in holds
            )
            line += f'<br><span class="holds">Quoted: {quoted}</span>'
        items.append(line + "</li>")
    missing = cited_but_not_provided(answer)
    extra = ""
    if missing:
        label = status_label("ineligible")
        names = ", ".join(escape(m) for m in missing)
        extra = (
            f'<p class="missing">{label.plain_symbol} Cited but not provided with this answer: '
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


def sanitize(body: str) -> str:
    """Keep only the tags and attributes this page uses; drop scripts and their content."""
    cleaned: str = nh3.clean(
        body,
        tags=set(ALLOWED_TAGS),
        clean_content_tags={"script", "style", "iframe", "object", "embed", "template"},
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        strip_comments=True,
        link_rel="noopener noreferrer",
        filter_style_properties={"text-align"},
        attribute_filter=_absolute_links_only,
    )
    return cleaned


_LINK_TARGET = re.compile(r"(?:https?:|mailto:|#)", re.IGNORECASE)


def _absolute_links_only(tag: str, attribute: str, value: str) -> str | None:
    """An ``href`` only to an http(s) or mailto address or a place on this page: nh3 keeps
    relative ones ("", "x.html"), which from an answer or a source point anywhere."""
    if attribute == "href" and not _LINK_TARGET.match(value.strip()):
        return None
    return value


def render_html(answer: VerifiedAnswer) -> str:
    """A complete HTML page: summary of statuses, the checked answer, the sources (003.5)."""
    body, lost = answer_html(answer)
    unplaced = (
        f'<section class="unplaced"><h2>Quotes not shown in the text</h2>{"".join(lost)}</section>'
        if lost
        else ""
    )
    nothing = nothing_checked(answer)
    headline = f'<p class="nothing-checked">{escape(nothing)}</p>' if nothing else ""
    heading = page_heading(answer)
    page_body = (
        f'<main class="citeproof"><header><h1>{escape(heading)}</h1>'
        f"{headline}{summary_html(answer)}</header>"
        f'<article class="answer">{body}</article>{unplaced}{claims_html(answer)}'
        f"{sources_html(answer)}"
        '<footer><p>Checked by citeproof. Open "show source" under a quote to read the '
        "passage it was checked against.</p></footer></main>"
    )
    title = f"{heading} {answer.id}"
    # The style sheet is ours and fixed, so it is added after sanitising the body.
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{PAGE_CSS}</style></head>\n"
        f"<body>{sanitize(page_body)}</body></html>\n"
    )
