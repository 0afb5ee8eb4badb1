"""A plain-text report for terminals and logs: a table of quotes, the counts, then each quote's
"show source" excerpt. Works without a TTY; emits no colour codes, so it reads the same in a
pipe, a CI log or a file.
"""

from __future__ import annotations

import io

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from citeproof.model import Correction, VerifiedAnswer, VerifiedQuote
from citeproof.render._asked import Asked, reader_page, reader_text, sources_text
from citeproof.render._diffs import diff_text, word_diff
from citeproof.render._labels import (
    MEANING_SYMBOL,
    STATUS_LABELS,
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
    where_found,
)
from citeproof.render._safe_text import visible
from citeproof.render._summary import plural
from citeproof.render._support import (
    claim_name,
    claim_tally,
    differences_text,
    refused_reason,
    shown_claims,
    support_label,
    to_check,
)
from citeproof.render._verdicts import quote_state

# Escape sequences in a source could move the cursor, retitle the window or fake a link, and
# bidi or tag characters reorder or hide text: each is shown as a visible code point instead.
_printable = visible


def _text(text: str, style: str = "") -> Text:
    """Text from the answer or a source, as a rich ``Text`` (never parsed as markup)."""
    return Text(_printable(text), style=style)


# Around the matched part of an excerpt, since a plain terminal has no highlighting.
MATCH_OPEN, MATCH_CLOSE = "«", "»"


def _correction(correction: Correction) -> str:
    if correction.kind == "text":
        # The changed words, not two prefixes that may be the same.
        changed = diff_text(word_diff(correction.before, correction.after), context=2)
        return f"text: {shorten(changed, 120)}"
    return f"{correction.kind}: {correction.before} → {correction.after}"


def _where(answer: VerifiedAnswer, quote: VerifiedQuote) -> str:
    if quote.status == "ineligible":
        return f"{quote.cited_source or 'cited source'}: not provided"
    return where_found(answer, quote) or "—"


def _changes(quote: VerifiedQuote) -> str:
    """The corrections, after a warning when the quote's meaning changed (F.1)."""
    lines = [_correction(c) for c in quote.corrections]
    warning = meaning_warning(quote)
    if warning:
        lines.insert(0, f"{MEANING_SYMBOL} {warning}")
    return "\n".join(lines) or "—"


def quotes_table(answer: VerifiedAnswer, title: str | None = None) -> Table:
    table = Table(
        title=_text(title or f"Quotes in answer {answer.id}"),
        box=box.SIMPLE_HEAD,
        safe_box=True,
        show_lines=False,
        expand=False,
    )
    table.add_column("id", no_wrap=True)
    table.add_column("claim", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("quote as written", ratio=3)
    table.add_column("where found", ratio=2)
    table.add_column("correction", ratio=3)
    numbers = {claim.id: claim.number for claim in answer.numbered_claims()}
    for quote in answer.quotes:
        # Text objects, not markup strings: "[bold]" in a quote must print as written.
        number = numbers.get(quote.claim_id)
        table.add_row(
            _text(quote.id),
            _text(str(number) if number is not None else "—"),
            _text(state_label(quote_state(quote)).badge),
            _text(shorten(quote.text, 70)),
            _text(_where(answer, quote)),
            _text(_changes(quote)),
        )
    return table


def counts_line(answer: VerifiedAnswer) -> Text:
    counts = answer.counts()
    tally = " · ".join(
        f"{label.badge}: {counts.get(status, 0)}" for status, label in STATUS_LABELS.items()
    )
    return _text(f"{plural(len(answer.quotes), 'quote')} checked. {tally}")


def claims_lines(answer: VerifiedAnswer) -> list[RenderableType]:
    """Claim support: the tally, then each judged claim, its verdict per cited
    source with the differences, and the passage it was judged against."""
    claims = shown_claims(answer)
    if not claims:
        return []
    tally = " · ".join(f"{label.badge}: {n}" for _, label, n in claim_tally(answer))
    lines: list[RenderableType] = [
        _text(""),
        _text(f"{plural(len(answer.numbered_claims()), 'claim')}. {tally}", style="bold"),
    ]
    for claim in claims:
        head = (
            f"{claim_name(claim)} {support_label(claim.verdict).badge}: {shorten(claim.text, 70)}"
        )
        body: list[RenderableType] = []
        refused = refused_reason(claim)
        if refused:
            body.append(_text(f"why: {refused}"))
        for support in claim.support:
            where = support.source + (
                f" {place(answer, support.source, support.passage.paragraph)}"
                if support.passage is not None
                else ""
            )
            # The judge's reason follows; its method and score are in the JSON.
            body.append(_text(f"{support_label(support.verdict).badge} by {where}"))
            if support.reason:
                body.append(_text(f"why: {support.reason}"))
            if support.verdict in ("unconfirmed", "partial") and to_check(support):
                body.append(_text(f"to check: {to_check(support)}"))
            if support.differences:
                body.append(_text(f"differences: {differences_text(support, 8)}"))
            if support.passage is not None:
                body.append(_text(f"passage: {shorten(support.passage.text, 200)}"))
        lines.append(
            Padding(
                Group(_text(head, style="bold"), Padding(Group(*body), (0, 0, 0, 4))), (0, 0, 0, 2)
            )
        )
    return lines


def _show_source(answer: VerifiedAnswer, quote: VerifiedQuote) -> RenderableType:
    label = state_label(quote_state(quote))
    head = f"{quote.id} {label.badge}"
    body: list[RenderableType] = []
    excerpt = quote.excerpt
    if excerpt is not None:
        name = source_name(answer, excerpt.source_id, excerpt.title)
        head += f" · {name} {place(answer, excerpt.source_id, excerpt.paragraph)}"
        quality = match_quality(quote)
        if quality:
            # Only here, beside the excerpt holding the matched text (section D).
            head += f" · {quality}"
        before, matched, after = split_excerpt(excerpt)
        text = _text(before)
        text.append(_printable(MATCH_OPEN + matched + MATCH_CLOSE), style="bold underline")
        text.append(_printable(after))
        body.append(text)
    elif quote.status == "ineligible":
        body.append(_text(f"{quote.cited_source or 'The cited source'} was not provided."))
    else:
        body.append(_text("No passage from the provided sources matches this quote."))
    warning = meaning_warning(quote)
    if warning:
        body.append(_text(f"{MEANING_SYMBOL} {warning}", style="bold"))
    if quote.note:
        body.append(_text(f"Note: {quote.note}", style="italic"))
    return Group(_text(head, style="bold"), Padding(Group(*body), (0, 0, 1, 4)))


def render_terminal(answer: VerifiedAnswer, width: int = 100, *, asked: Asked | None = None) -> str:
    """The report as plain text ``width`` columns wide; for an ``asked`` question, its page
    (`citeproof.render._asked`): the question first, no markers, the sources by name."""
    if asked is not None:
        answer, asked = reader_page(answer, asked)
    out = io.StringIO()
    console = Console(
        file=out,
        width=width,
        force_terminal=False,
        force_jupyter=False,
        force_interactive=False,
        color_system=None,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=False,
    )
    # The answer first, as corrected: what the person reads; the verdicts follow. "(corrected)"
    # only when something in it was: an answer with no quote is shown as written.
    if asked is not None:
        console.print(_text(f"Question: {asked.question.strip()}", style="bold"))
    changed = answer.text != answer.original
    console.print(_text("Answer (corrected)" if changed else "Answer", style="bold"))
    text = answer.text if asked is None else reader_text(answer)
    console.print(Padding(_text(text.strip() or "(empty)"), (0, 0, 1, 2)))
    console.print(quotes_table(answer, None if asked is None else "Quotes"))
    console.print(counts_line(answer))
    for line in (nothing_checked(answer), provided_hint(answer)):
        if line:
            console.print(_text(line, style="bold"))
    turn = eligibility_line(answer)
    if asked is not None:
        for indent, line in sources_text(answer, asked):
            console.print(Padding(_text(line), (0, 0, 0, indent)))
    elif turn:
        console.print(_text(turn))
    for source_id, why in kept_out(answer) if asked is None else ():
        console.print(_text(f"  kept out of this turn: {source_id}: {why}"))
    if answer.quotes:
        console.print()
        console.print(_text("show source", style="bold"))
        for quote in answer.quotes:
            console.print(Padding(_show_source(answer, quote), (0, 0, 0, 2)))
    for claim_line in claims_lines(answer):
        console.print(claim_line)
    # Rich pads every line to the full width; trailing spaces only make diffs noisy.
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines()) + "\n"
