"""HTML fragments for one quote, one citation or one excerpt.

Every piece of text that came from the answer or a source goes through ``escape`` into a
text node or a quoted attribute; none of it is ever handed to the Markdown renderer.
"""

from __future__ import annotations

import re
from html import escape

from citeproof.model import CitedSource, Correction, VerifiedAnswer, VerifiedQuote
from citeproof.render.labels import (
    MEANING_PLAIN_SYMBOL,
    citation_label,
    match_quality,
    meaning_warning,
    safe_url,
    shorten,
    source_name,
    split_excerpt,
    status_label,
    where_found,
)


def css_name(value: str) -> str:
    """A value safe inside a class or id: letters, digits, ``-`` and ``_`` only."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", value) or "x"


def badge(status: str) -> str:
    label = status_label(status)
    return (
        f'<span class="badge status-{css_name(status)}" title="{escape(label.meaning)}">'
        f'<span class="symbol">{label.plain_symbol}</span> {escape(label.word)}</span>'
    )


def _correction_line(correction: Correction) -> str:
    before = f"<del>{escape(correction.before)}</del>"
    if correction.kind == "text":
        return f'<span class="was">corrected from: {before}</span>'
    return (
        f'<span class="was">citation corrected from: {before} to {escape(correction.after)}</span>'
    )


def meaning_html(quote: VerifiedQuote, tag: str = "span") -> str:
    """The warning that a quote's meaning changed (F.1), or "" for a cosmetic fix."""
    warning = meaning_warning(quote)
    if not warning:
        return ""
    return (
        f'<{tag} class="meaning-changed"><span class="symbol">{MEANING_PLAIN_SYMBOL}</span> '
        f"{escape(warning)}</{tag}>"
    )


def corrections_inline(quote: VerifiedQuote) -> str:
    warning = meaning_html(quote)
    lines = "".join(" " + _correction_line(c) for c in quote.corrections)
    return (" " + warning if warning else "") + lines


def inline_quote(quote: VerifiedQuote, opening: str, closing: str) -> str:
    """The quote where it stands in a sentence: marked text, badge, what it was corrected from.

    ``opening``/``closing`` are the quotation marks the answer used (empty if it used none).
    """
    status = css_name(quote.status)
    return (
        f'<mark class="quote status-{status}" id="quote-{css_name(quote.id)}" '
        f'title="{escape(quote.note)}">{escape(opening)}{escape(quote.corrected_text)}'
        f"{escape(closing)}</mark> {badge(quote.status)}{corrections_inline(quote)}"
    )


def block_quote(answer: VerifiedAnswer, quote: VerifiedQuote, chips: list[str]) -> str:
    """A block quote as a figure: the text, then badge, corrections, chips and expander."""
    status = css_name(quote.status)
    caption = badge(quote.status) + corrections_inline(quote)
    if chips:
        caption += " " + " ".join(chips)
    return (
        f'<figure class="block-quote status-{status}" id="quote-{css_name(quote.id)}">'
        f'<blockquote class="quote status-{status}">{escape(quote.corrected_text)}</blockquote>'
        f"<figcaption>{caption}</figcaption>{source_details(answer, quote)}</figure>"
    )


def _excerpt_text(quote: VerifiedQuote) -> str:
    assert quote.excerpt is not None
    before, matched, after = split_excerpt(quote.excerpt)
    return f'{escape(before)}<mark class="match">{escape(matched)}</mark>{escape(after)}'


def _audit_line(correction: Correction) -> str:
    what = {"text": "Wording", "location": "Paragraph", "source": "Source"}.get(
        correction.kind, escape(correction.kind)
    )
    return (
        f"<li>{what} corrected: <del>{escape(correction.before)}</del> → "
        f"<ins>{escape(correction.after)}</ins>. {escape(correction.reason)} "
        f'<span class="when">({escape(correction.method)}, {escape(correction.time)})</span></li>'
    )


def _no_excerpt(answer: VerifiedAnswer, quote: VerifiedQuote) -> str:
    if quote.status == "ineligible":
        cited = quote.cited_source or "the cited source"
        return (
            f'<p class="no-excerpt">{escape(cited)} was not provided with this answer, so '
            "there is no stored text to show.</p>"
        )
    return (
        '<p class="no-excerpt">No passage from the sources provided with this answer '
        "matches this quote.</p>"
    )


def source_details(answer: VerifiedAnswer, quote: VerifiedQuote) -> str:
    """The "show source" expander: the stored excerpt with the matched part marked (003.5)."""
    status = css_name(quote.status)
    label = status_label(quote.status)
    summary = (
        f'<summary>show source <span class="for">· {escape(quote.id)} '
        f"{label.plain_symbol} {escape(label.word)}: “{escape(shorten(quote.corrected_text, 48))}”"
        "</span></summary>"
    )
    parts: list[str] = []
    excerpt = quote.excerpt
    if excerpt is not None:
        name = source_name(answer, excerpt.source_id, excerpt.title)
        where = f"From {escape(name)}, ¶{excerpt.paragraph}"
        url = safe_url(excerpt.url)
        if url:
            where += f' · <a href="{escape(url)}">open the source</a>'
        parts.append(f'<p class="where">{where}</p>')
        parts.append(f'<blockquote class="excerpt">{_excerpt_text(quote)}</blockquote>')
        quality = match_quality(quote)
        if quality:
            # Right under the excerpt that holds the matched text, never on its own.
            parts.append(f'<p class="quality">Matched text above: {escape(quality)}</p>')
    else:
        parts.append(_no_excerpt(answer, quote))
    warning = meaning_html(quote, "p")
    if warning:
        parts.append(warning)
    if quote.note:
        parts.append(f'<p class="note">{escape(quote.note)}</p>')
    if quote.corrections:
        lines = "".join(_audit_line(c) for c in quote.corrections)
        parts.append(f'<ul class="audit">{lines}</ul>')
    if quote.source and excerpt is None:
        parts.append(f'<p class="where">Looked in: {escape(where_found(answer, quote))}</p>')
    return (
        f'<details class="show-source status-{status}" id="source-for-{css_name(quote.id)}">'
        f'{summary}<div class="details-body">{"".join(parts)}</div></details>'
    )


def citation_chip(answer: VerifiedAnswer, cite: CitedSource) -> str:
    """A citation marker as a small chip naming the (corrected) source and paragraph (011.4)."""
    label = citation_label(cite.status)
    where = cite.source + (f" ¶{cite.paragraph}" if cite.paragraph is not None else "")
    title = source_name(answer, cite.source) + (
        f", paragraph {cite.paragraph}" if cite.paragraph is not None else ""
    )
    written = answer.text[cite.answer_span[0] : cite.answer_span[1]]
    if cite.status == "corrected" and cite.marker and cite.marker != written:
        # ``marker`` keeps the citation as the model wrote it when it differs from the text.
        title += f" · corrected from {cite.marker}"
    elif cite.status != "ok":
        title += f" · {label.meaning}"
    symbol = f'<span class="symbol">{label.plain_symbol}</span> ' if label.plain_symbol else ""
    status_word = (
        f' <span class="cite-status">{escape(label.word)}</span>' if cite.status != "ok" else ""
    )
    body = f"{symbol}{escape(where)}{status_word}"
    if cite.status == "removed":
        body = f"<del>{body}</del>"
    return f'<span class="cite cite-{css_name(cite.status)}" title="{escape(title)}">{body}</span>'
