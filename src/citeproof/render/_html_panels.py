"""The answer page's source panels: one per numbered note, opened from its marker (CSS
``:target``, no script). A panel says the claim's verdict and why, shows each quote's check
(the word diff, the passage it was found in, or the nearest passage and why it was refused)
and the passage each cited source was judged against, highlighted in its context.
"""

from __future__ import annotations

import itertools
from html import escape

from citeproof.model import ClaimSupport, Source, VerifiedAnswer, VerifiedClaim, VerifiedQuote
from citeproof.render._html_parts import badge, css_name, inline_diff, verdict_badge
from citeproof.render._labels import (
    citation_label,
    find_source,
    judged_by_its_quote,
    match_quality,
    meaning_warning,
    place,
    safe_url,
    split_excerpt,
    when_corrected,
)
from citeproof.render._nearest import nearest_passage, refusal
from citeproof.render._notes import Note
from citeproof.render._support import (
    SUPPORT_LABELS,
    differences_text,
    refused_reason,
    support_label,
    to_check,
)
from citeproof.render._verdicts import quote_state, tone

CONTEXT = 220  # characters of the source shown around a passage, each side


def title_of(answer: VerifiedAnswer, source_id: str, title: str | None = None) -> str:
    """A source as a reader knows it: its title, or its id when it has none."""
    if title:
        return title
    source = find_source(answer, source_id)
    return (source.title if source else None) or source_id


def _where(answer: VerifiedAnswer, source_id: str, paragraph: int | None) -> str:
    name = escape(title_of(answer, source_id))
    where = place(answer, source_id, paragraph)
    return f"{name} {escape(where)}" if where else name


def _in_context(source: Source, start: int, end: int) -> str:
    """``source.text[start:end]`` marked, with up to ``CONTEXT`` characters around it, cut at
    a word boundary."""
    text = source.text
    start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
    left = max(0, start - CONTEXT)
    right = min(len(text), end + CONTEXT)
    if left > 0:
        left = text.find(" ", left, start) + 1 or left
    if right < len(text):
        cut = text.rfind(" ", end, right)
        right = cut if cut > end else right
    before = ("…" if left > 0 else "") + text[left:start]
    after = text[end:right] + ("…" if right < len(text) else "")
    return (
        f'<blockquote class="excerpt">{escape(before)}<mark class="match">'
        f"{escape(text[start:end])}</mark>{escape(after)}</blockquote>"
    )


def _claim_text(answer: VerifiedAnswer, claim: VerifiedClaim) -> str:
    """The claim as written, its citation markers left out and the words its judgements
    found unbacked marked."""
    text = claim.text
    cut: list[tuple[int, int]] = []
    if answer.text[claim.span[0] : claim.span[1]] == text:
        for cite in claim.citations:
            start, end = (p - claim.span[0] for p in cite.answer_span)
            if 0 <= start < end <= len(text):
                while start > 0 and text[start - 1] in " \t":
                    start -= 1
                cut.append((start, end))
    marked: list[tuple[int, int]] = []
    for support in claim.support:
        if support.verdict == "supported":
            continue
        for difference in support.differences:
            start, end = difference.span
            if 0 <= start < end <= len(text):
                marked.append((start, end))
    edges = sorted({0, len(text), *(p for span in cut + marked for p in span)})
    out: list[str] = []
    for start, end in itertools.pairwise(edges):
        if any(a <= start and end <= b for a, b in cut):
            continue
        piece = escape(text[start:end])
        if any(a <= start and end <= b for a, b in marked):
            piece = f'<mark class="differs">{piece}</mark>'
        out.append(piece)
    return "".join(out).strip()


def _why(answer: VerifiedAnswer, claim: VerifiedClaim, quotes: tuple[VerifiedQuote, ...]) -> str:
    """Why the claim got its verdict, in words."""
    if claim.verdict not in SUPPORT_LABELS:
        return ""
    label = support_label(claim.verdict)
    said = [s.reason for s in claim.support if s.verdict == claim.verdict and s.reason]
    if said:
        why = _sentence(said[0])
        differ = [
            differences_text(s, 4, title_of(answer, s.source))
            for s in claim.support
            if s.verdict == claim.verdict and s.differences and s.verdict != "supported"
        ]
        check = [
            to_check(s)
            for s in claim.support
            if s.verdict == claim.verdict and s.verdict in ("unconfirmed", "partial")
        ]
        checks = " To check: " + "; ".join(c for c in check if c) + "." if any(check) else ""
        return why + (" Where it differs: " + "; ".join(differ) + "." if differ else "") + checks
    if claim.verdict == "supported":
        return label.meaning
    refused = refused_reason(claim)
    if refused:
        return _sentence(refused)
    reasons = [
        differences_text(s, 4, title_of(answer, s.source))
        for s in claim.support
        if s.verdict == claim.verdict and s.differences
    ]
    if reasons:
        return "Where it differs: " + "; ".join(reasons) + "."
    changed = [meaning_warning(q) for q in quotes if quote_state(q) == "meaning_changed"]
    if claim.verdict == "unsupported" and changed:
        return judged_by_its_quote([w for w in changed if w])
    return label.meaning


def _sentence(reason: str) -> str:
    """A reason in the judges' words ("the passage says ...") as a sentence of the page."""
    return reason[:1].upper() + reason[1:] + "."


def _audit(quote: VerifiedQuote) -> str:
    if not quote.corrections:
        return ""
    rows = []
    for c in quote.corrections:
        what = {"text": "Wording", "location": "Paragraph", "source": "Source"}.get(c.kind, c.kind)
        # A wording correction's words are in the diff above; a citation's are short.
        change = (
            ""
            if c.kind == "text"
            else f" <del>{escape(c.before)}</del> → <ins>{escape(c.after)}</ins>."
        )
        rows.append(
            f"<li>{escape(what)} corrected:{change} {escape(c.reason)} "
            f'<span class="when">(<time datetime="{escape(c.time)}">'
            f"{escape(when_corrected(c.time))}</time>)</span></li>"
        )
    return f'<ul class="audit">{"".join(rows)}</ul>'


def _refused(answer: VerifiedAnswer, quote: VerifiedQuote) -> str:
    """For a quote no source holds: the nearest passage, and why it was not taken."""
    cited = find_source(answer, quote.cited_source) if quote.cited_source else None
    pool = [cited] if cited else list(answer.sources)
    found = nearest_passage(quote.text, pool)
    if found is None and cited is not None:
        found = nearest_passage(quote.text, list(answer.sources))
    why = f'<p class="refused">{escape(refusal(found))}</p>'
    if found is None:
        return why
    where = _where(answer, found.source.id, found.paragraph)
    return f'{why}<p class="where">Nearest passage: {where}</p>' + _in_context(
        found.source, *found.span
    )


def quote_check(answer: VerifiedAnswer, quote: VerifiedQuote) -> str:
    """One quote's check inside a panel."""
    state = quote_state(quote)
    parts = [
        f'<p class="check-head"><span class="qid">{escape(quote.id)}</span> {badge(state)}</p>'
    ]
    warning = meaning_warning(quote)
    if warning:
        parts.append(
            f'<p class="meaning-changed"><span class="symbol">⚠</span> {escape(warning)}</p>'
        )
    if quote.corrected_text != quote.text:
        diff = inline_diff(quote.text, quote.corrected_text, cosmetic=True)
        parts.append(f'<p class="diff" title="what the model wrote → the source">{diff}</p>')
    excerpt = quote.excerpt
    if excerpt is not None:
        where = _where(answer, excerpt.source_id, excerpt.paragraph)
        url = safe_url(excerpt.url)
        if url:
            where += f' · <a href="{escape(url)}">open the source</a>'
        before, matched, after = split_excerpt(excerpt)
        parts.append(f'<p class="where">Found in {where}</p>')
        parts.append(
            f'<blockquote class="excerpt">{escape(before)}<mark class="match">'
            f"{escape(matched)}</mark>{escape(after)}</blockquote>"
        )
        quality = match_quality(quote)
        if quality:
            parts.append(f'<p class="quality">Matched text above: {escape(quality)}</p>')
    elif quote.status == "ineligible":
        cited = title_of(answer, quote.cited_source or "the cited source")
        parts.append(
            f'<p class="no-excerpt">{escape(cited)} was not provided with this answer, so '
            "there is no stored text to compare.</p>"
        )
    else:
        parts.append(_refused(answer, quote))
    if quote.note and quote.status in ("mismatch", "not_found", "ineligible"):
        parts.append(f'<p class="note">{escape(quote.note)}</p>')
    parts.append(_audit(quote))
    return (
        f'<div class="check state-{css_name(state)} tone-{tone(state)}" '
        f'id="check-{css_name(quote.id)}">{"".join(parts)}</div>'
    )


def _passage(answer: VerifiedAnswer, support: ClaimSupport) -> str:
    label = support_label(support.verdict)
    head = f"{escape(label.badge)} by {_where(answer, support.source, None)}"
    passage = support.passage
    if passage is None:
        return f'<p class="where">{head}: no passage in it says this.</p>'
    where = _where(answer, passage.source_id, passage.paragraph)
    source = find_source(answer, passage.source_id)
    start, end = passage.span
    if source is not None and source.text[start:end] == passage.text:
        shown = _in_context(source, start, end)
    else:
        marked = f'<mark class="match">{escape(passage.text)}</mark>'
        shown = f'<blockquote class="excerpt">{marked}</blockquote>'
    return f'<p class="where">{escape(label.badge)}: passage judged, {where}</p>{shown}'


def panel(answer: VerifiedAnswer, note: Note) -> str:
    """The source panel of one note."""
    claim = note.claim
    head_badge = (
        verdict_badge(note.verdict) if note.verdict in SUPPORT_LABELS else badge(note.verdict)
    )
    if note.verdict == "none":
        head_badge = (
            f'<span class="badge verdict-none tone-off" title="{escape(note.label.meaning)}">'
            f'<span class="symbol">{note.label.symbol}</span> {escape(note.label.word)}</span>'
        )
    parts = [
        f'<p class="panel-head"><span class="num">{note.number}</span> {head_badge}'
        f'<a class="close" href="#ref-{note.number}" title="Back to the text">Close ✕</a></p>'
    ]
    if claim is not None:
        parts.append(f'<p class="claim-text">{_claim_text(answer, claim)}</p>')
        why = _why(answer, claim, note.quotes)
        if why:
            parts.append(f'<p class="why">{escape(why)}</p>')
    parts += [quote_check(answer, q) for q in note.quotes]
    if claim is not None:
        quoted = any(s.method == "quote" for s in claim.support)
        for support in claim.support:
            if support.method == "quote":
                continue
            parts.append(_passage(answer, support))
        if quoted:
            parts.append('<p class="where">Its quotes back it: see where each was found above.</p>')
        for cite in claim.citations:
            if cite.status in ("ineligible", "removed", "flagged"):
                label = citation_label(cite.status)
                parts.append(
                    f'<p class="where">{escape(label.symbol)} Cites '
                    f"{_where(answer, cite.source, cite.paragraph)}: {escape(label.meaning)}</p>"
                )
        if not claim.support and not note.quotes:
            cited = ", ".join(
                _where(answer, c.source, c.paragraph)
                for c in claim.citations
                if c.status != "removed"
            )
            if cited:
                parts.append(f'<p class="where">Cites {cited}.</p>')
    return f'<section class="panel" id="note-{note.number}">{"".join(parts)}</section>'
