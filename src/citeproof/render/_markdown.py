"""The corrected answer as Markdown, each quote followed by its badge, then a "Sources" section
with a "show source" expander per quote.

The answer stays Markdown, but its raw HTML and unsafe link targets are neutralised: the output
may be shown by a viewer that renders HTML. Source text is escaped for both Markdown and HTML.
"""

from __future__ import annotations

import re
from html import escape

from citeproof.model import VerifiedAnswer, VerifiedQuote
from citeproof.render._asked import (
    INSTRUCTS,
    INSTRUCTS_WHY,
    WARNING,
    Asked,
    kept_out_lines,
    marker_removals,
    merged,
    reader_page,
    shown_count,
    source_lines,
)
from citeproof.render._edits import Edit, apply_edits, layout, line_indent
from citeproof.render._labels import (
    MEANING_SYMBOL,
    STATUS_LABELS,
    citation_label,
    cited_but_not_provided,
    eligibility_line,
    kept_out,
    match_quality,
    meaning_warning,
    nothing_checked,
    place,
    provided_hint,
    shorten,
    source_name,
    split_excerpt,
    state_label,
    status_label,
    when_corrected,
)
from citeproof.render._markdown_safety import canonical_url, markdown_link, neutralise_markdown
from citeproof.render._safe_text import visible
from citeproof.render._support import (
    badge_position,
    claim_name,
    claim_tally,
    differences_text,
    refused_reason,
    shown_claims,
    support_label,
    support_summary,
    to_check,
)
from citeproof.render._verdicts import quote_state

_ANYWHERE = re.compile(r"([\\`*_\[\]|~])")
_LINE_START = re.compile(r"^(\s*)([#+=-])", re.MULTILINE)
_LIST_NUMBER = re.compile(r"^(\s*\d+)([.)])", re.MULTILINE)


def escape_markdown(text: str) -> str:
    """Text that renders as itself in Markdown and contains no HTML tag or entity."""
    text = _ANYWHERE.sub(r"\\\1", text)
    text = _LINE_START.sub(r"\1\\\2", text)
    text = _LIST_NUMBER.sub(r"\1\\\2", text)
    return escape(text, quote=False)


def _outside(edits: list[Edit], position: int) -> int:
    """``position`` moved to the end of any replacement that covers it, so a badge is never
    spliced into a neutralised link or tag."""
    for edit in edits:
        if edit.start < position < edit.end:
            return edit.end
    return position


def quote_badge(quote: VerifiedQuote) -> str:
    """``✓ Verified``, ``✎ Corrected (was: “…”)`` or, for a meaning change, ``⚠ **Meaning
    changed: the source says “X”, not “Y”.** (was: “…”)``: what follows a quote in the text."""
    label = state_label(quote_state(quote))
    was: list[str] = []
    for correction in quote.corrections:
        before = escape_markdown(correction.before)
        if correction.kind == "text":
            was.append(f"was: “{before}”")
        else:
            was.append(f"citation was: {before}")
    warning = meaning_warning(quote)
    said = f"{MEANING_SYMBOL} **{escape_markdown(warning)}**" if warning else label.badge
    return said + (f" ({'; '.join(was)})" if was else "")


def _answer_with_badges(answer: VerifiedAnswer, *, markers: bool = True) -> str:
    text = answer.text
    plan = layout(answer)
    safety = neutralise_markdown(text)
    edits = list(safety)
    for span, quote in plan.quotes:
        end = _outside(safety, span[1])
        if quote.style == "block":
            # A paragraph of its own after the block, at the block's indentation, so it stays
            # inside a list item but outside the quoted text.
            indent = line_indent(text, span[0])
            edits.append(Edit(end, end, f"\n\n{indent}{quote_badge(quote)}"))
        else:
            edits.append(Edit(end, end, f" {quote_badge(quote)}"))
    for claim in answer.claims:
        if claim.quote_ids:
            continue  # quotes carry their own badges
        for cite in claim.citations:
            start, end = cite.answer_span
            if cite.status in ("ineligible", "flagged") and 0 <= start < end <= len(text):
                end = _outside(safety, end)
                label = citation_label(cite.status)
                edits.append(Edit(end, end, f" ({label.symbol} {label.word})"))
    for claim in shown_claims(answer):
        # Claim support: the verdict beside the claim's last marker.
        at = badge_position(claim)
        said = f"{claim_name(claim)}: {support_summary(claim, answer)}"
        edits.append(Edit(at, at, f" *{escape_markdown(said)}*"))
    return apply_edits(text, edits if markers else merged(edits, marker_removals(answer)))


def _excerpt_block(quote: VerifiedQuote) -> str:
    assert quote.excerpt is not None
    before, matched, after = split_excerpt(quote.excerpt)
    marked = (
        f"{escape_markdown(before)}<mark>{escape_markdown(matched)}</mark>{escape_markdown(after)}"
    )
    # Leading spaces would turn a line into a code block; blank lines must stay quoted.
    lines = [line.strip() for line in marked.split("\n")]
    return "\n".join(f"> {line}" if line else ">" for line in lines)


def _audit_lines(quote: VerifiedQuote) -> list[str]:
    lines: list[str] = []
    for c in quote.corrections:
        what = {"text": "Wording", "location": "Paragraph", "source": "Source"}.get(c.kind, c.kind)
        lines.append(
            f"- {escape_markdown(what)} corrected — was: “{escape_markdown(c.before)}”, "
            f"now: “{escape_markdown(c.after)}”. {escape_markdown(c.reason)} "
            f"({escape_markdown(when_corrected(c.time))})"
        )
    return lines


def show_source(answer: VerifiedAnswer, quote: VerifiedQuote) -> str:
    """One ``<details>`` expander: the stored excerpt, how well it matched, the audit trail."""
    label = state_label(quote_state(quote))
    summary = escape(
        f"show source · {quote.id} {label.badge}: “{shorten(quote.corrected_text, 60)}”"
    )
    parts = [f"<details><summary>{summary}</summary>", ""]
    excerpt = quote.excerpt
    if excerpt is not None:
        where = (
            f"From {source_name(answer, excerpt.source_id, excerpt.title)}, "
            f"{place(answer, excerpt.source_id, excerpt.paragraph)}"
        )
        line = escape_markdown(where)
        if excerpt.url and canonical_url(excerpt.url):
            line += " · " + markdown_link(escape_markdown(excerpt.url), excerpt.url)
        parts += [line, "", _excerpt_block(quote), ""]
        quality = match_quality(quote)
        if quality:
            parts += [f"Matched text above: {quality}", ""]
    elif quote.status == "ineligible":
        cited = escape_markdown(quote.cited_source or "The cited source")
        parts += [f"{cited} was not provided with this answer; there is no stored text.", ""]
    else:
        parts += ["No passage from the sources provided with this answer matches this quote.", ""]
    warning = meaning_warning(quote)
    if warning:
        parts += [f"{MEANING_SYMBOL} **{escape_markdown(warning)}**", ""]
    if quote.note:
        parts += [f"*{escape_markdown(quote.note)}*", ""]
    audit = _audit_lines(quote)
    if audit:
        parts += [*audit, ""]
    parts.append("</details>")
    return "\n".join(parts)


def _claims_part(answer: VerifiedAnswer) -> list[str]:
    """The claims' support: a tally, then each judged claim with its passage."""
    claims = shown_claims(answer)
    if not claims:
        return []
    tally = " · ".join(f"{label.badge} {n}" for _, label, n in claim_tally(answer))
    parts = [f"**Claims checked:** {tally}", ""]
    for claim in claims:
        label = support_label(claim.verdict)
        summary = escape(
            f"show passage · {claim_name(claim)} {label.badge}: “{shorten(claim.text, 60)}”"
        )
        parts += [f"<details><summary>{summary}</summary>", ""]
        if not claim.support:
            refused = refused_reason(claim)
            meaning = f"Why: {refused}." if refused else label.meaning
            parts += [escape_markdown(meaning), ""]
        for support in claim.support:
            head = f"{support_label(support.verdict).badge} by {support.source}"
            if support.passage is not None:
                head += f", {place(answer, support.source, support.passage.paragraph)}"
            head += f" (score {support.score:.2f}, {support.method})"
            parts += [escape_markdown(head), ""]
            if support.passage is not None:
                lines = [line.strip() for line in support.passage.text.split("\n")]
                parts += ["\n".join(f"> {escape_markdown(x)}" if x else ">" for x in lines), ""]
            if support.reason:
                parts += [f"Why: {escape_markdown(support.reason)}", ""]
            if support.verdict in ("unconfirmed", "partial") and to_check(support):
                parts += [f"To check: {escape_markdown(to_check(support))}", ""]
            if support.differences:
                parts += [f"Differences: {escape_markdown(differences_text(support, 8))}", ""]
        parts += ["</details>", ""]
    return parts


def _asked_sources(answer: VerifiedAnswer, asked: Asked) -> list[str]:
    """An asked question's sources by name, one that tries to instruct the model marked."""
    parts = [f"**{escape_markdown(shown_count(answer))}:**", ""]
    for name, facts, said in source_lines(answer, asked):
        mark = f"{WARNING} " if said else ""
        parts.append(f"1. {mark}{escape_markdown(name)} — {escape_markdown(facts)}")
        if said:
            lines = "; ".join(f"“{escape_markdown(line)}”" for line in said)
            parts.append(f"   **{WARNING} {INSTRUCTS}:** {lines} {escape_markdown(INSTRUCTS_WHY)}")
    parts.append("")
    withheld = kept_out_lines(answer, asked)
    if withheld:
        parts += ["**Kept out of this turn:**", ""]
        parts += [f"- {escape_markdown(line)}" for line in withheld]
        parts.append("")
    return parts


def _sources_section(answer: VerifiedAnswer, asked: Asked | None = None) -> str:
    counts = answer.counts()
    tally = " · ".join(
        f"{label.badge} {counts.get(status, 0)}" for status, label in STATUS_LABELS.items()
    )
    parts = ["---", "", "## Sources", "", f"**Quotes checked:** {tally}", ""]
    nothing = nothing_checked(answer)
    if nothing:
        parts += [f"**{escape_markdown(nothing)}**", ""]
    parts += [show_source(answer, quote) + "\n" for quote in answer.quotes]
    parts += _claims_part(answer)
    if asked is not None:
        parts += _asked_sources(answer, asked)
    elif answer.sources:
        parts += ["**Provided with this answer:**", ""]
        for source in answer.sources:
            facts = [source.kind.replace("_", " ")]
            if source.version:
                facts.append(f"version {source.version}")
            line = (
                f"- {escape_markdown(source.id)}: {escape_markdown(source.title or source.id)}"
                f" — {escape_markdown(' · '.join(facts))}"
            )
            if source.url and canonical_url(source.url):
                line += " · " + markdown_link(escape_markdown(source.url), source.url)
            parts.append(line)
        parts.append("")
    missing = cited_but_not_provided(answer)
    if missing:
        label = status_label("ineligible")
        names = ", ".join(escape_markdown(m) for m in missing)
        parts += [f"{label.symbol} Cited but not provided with this answer: {names}", ""]
        hint = provided_hint(answer)
        if hint:
            parts += [escape_markdown(hint), ""]
    turn = eligibility_line(answer)
    if turn and asked is None:
        parts += [escape_markdown(turn), ""]
    withheld = kept_out(answer) if asked is None else []
    if withheld:
        parts += ["**Kept out of this turn:**", ""]
        parts += [f"- {escape_markdown(sid)}: {escape_markdown(why)}" for sid, why in withheld]
        parts.append("")
    return "\n".join(parts)


def render_markdown(answer: VerifiedAnswer, *, asked: Asked | None = None) -> str:
    """The corrected answer with a badge after each quote, then the "Sources" section; for an
    ``asked`` question, its page (`citeproof.render._asked`): the question first, no
    markers, the sources by name."""
    if asked is not None:
        answer, asked = reader_page(answer, asked)
    head = "" if asked is None else f"**Question:** {escape_markdown(asked.question.strip())}\n\n"
    body = _answer_with_badges(answer, markers=asked is None).rstrip()
    markdown = f"{head}{body}\n\n{_sources_section(answer, asked).rstrip()}\n"
    # No raw escape sequence, bidi or tag character reaches a terminal or a chat UI.
    return visible(markdown, marks="⟨⟩")
