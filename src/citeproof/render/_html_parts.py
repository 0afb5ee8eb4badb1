"""HTML fragments of the answer page: badges, a quote where it stands, a claim's marker.

Every piece of text that came from the answer or a source goes through ``escape`` into a
text node or a quoted attribute; none of it is ever handed to the Markdown renderer.
"""

from __future__ import annotations

import re
import unicodedata
from html import escape

from citeproof.model import VerifiedQuote
from citeproof.render._diffs import word_diff
from citeproof.render._labels import state_label
from citeproof.render._support import support_label
from citeproof.render._verdicts import quote_state, tone


def css_name(value: str) -> str:
    """A value safe inside a class or id: letters, digits, ``-`` and ``_`` only."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", value) or "x"


def _badge(kind: str, key: str, word: str, symbol: str, meaning: str) -> str:
    return (
        f'<span class="badge {kind}-{css_name(key)} tone-{tone(key)}" title="{escape(meaning)}">'
        f'<span class="symbol">{escape(symbol)}</span> {escape(word)}</span>'
    )


def badge(state: str) -> str:
    """A quote's state as a badge: symbol and word, in its tone."""
    label = state_label(state)
    return _badge("state", state, label.word, label.symbol, label.meaning)


def verdict_badge(verdict: str) -> str:
    """A claim's verdict as a badge: symbol and word, in its tone."""
    label = support_label(verdict)
    return _badge("verdict", verdict, label.word, label.symbol, label.meaning)


def _fold(text: str) -> str:
    """A word as compared for a cosmetic change: case, accents and punctuation set aside."""
    plain = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in plain if c.isalnum())


def inline_diff(wrote: str, corrected: str, *, cosmetic: bool = False) -> str:
    """``corrected`` as HTML, its changed words shown as ``<del>wrote</del> → <ins>says</ins>``.

    A change of case or punctuation only is shown in its corrected form alone (it is not a
    difference a reader needs to weigh) unless ``cosmetic`` asks for every change."""
    runs = word_diff(wrote, corrected)
    out: list[str] = []
    index = 0
    while index < len(runs):
        kind, text = runs[index]
        following = runs[index + 1] if index + 1 < len(runs) else None
        if kind == "del" and following is not None and following[0] == "ins":
            if not cosmetic and _fold(text) == _fold(following[1]):
                out.append(escape(following[1]))
            else:
                out.append(
                    f"<del>{escape(text)}</del>"
                    f'<span class="arrow"> → </span><ins>{escape(following[1])}</ins>'
                )
            index += 2
            continue
        if kind == "del":
            out.append(f"<del>{escape(text)}</del>")
        elif kind == "ins":
            out.append(f"<ins>{escape(text)}</ins>")
        else:
            out.append(escape(text))
        index += 1
    return "".join(out)


def quote_words(quote: VerifiedQuote) -> str:
    """The quote's words as the reader sees them: the source's, and for a meaning change the
    model's words struck through beside the source's (before → after)."""
    if quote_state(quote) == "meaning_changed" and quote.status == "corrected":
        return inline_diff(quote.text, quote.corrected_text)
    return escape(quote.corrected_text)


def quote_symbol(quote: VerifiedQuote) -> str:
    """The small symbol after a quote: its state in a word for screen readers and on hover;
    a meaning change also shows its word, since it is an error, not a detail."""
    return quote_mark(quote_state(quote))


def quote_mark(state: str) -> str:
    """The symbol after a quote in ``state`` (`quote_symbol`), also drawn in the legend."""
    label = state_label(state)
    shown = f" {escape(label.word)}" if state == "meaning_changed" else ""
    hidden = "" if shown else f'<span class="vh"> {escape(label.word)}</span>'
    return (
        f'<span class="qsym state-{css_name(state)} tone-{tone(state)}" '
        f'title="{escape(label.word)}: {escape(label.meaning)}">'
        f'<span class="symbol">{escape(label.symbol)}</span>{shown}{hidden}</span>'
    )


def _opens(quote: VerifiedQuote, number: int | None, inner: str) -> str:
    """``inner`` as a link that opens note ``number``'s panel, titled with the quote's state;
    as it is when the quote has no note."""
    if number is None:
        return inner
    label = state_label(quote_state(quote))
    title = f"{label.word}: {label.meaning} Open its source ({number})"
    return f'<a class="quote-link" href="#note-{number}" title="{escape(title)}">{inner}</a>'


def inline_quote(
    quote: VerifiedQuote, opening: str, closing: str, number: int | None = None
) -> str:
    """The quote where it stands in a sentence: marked text in its state's style, then its
    symbol, the two a link to note ``number``'s panel. ``opening``/``closing`` are the
    quotation marks the answer used (or none)."""
    state = css_name(quote_state(quote))
    inner = (
        f'<mark class="quote state-{state}" id="quote-{css_name(quote.id)}">'
        f"{escape(opening)}{quote_words(quote)}{escape(closing)}</mark>{quote_symbol(quote)}"
    )
    return _opens(quote, number, inner)


def block_quote(quote: VerifiedQuote, markers: list[str], number: int | None = None) -> str:
    """A block quote as a figure: the text, then its symbol (a link to note ``number``'s
    panel) and the markers of its claims."""
    state = css_name(quote_state(quote))
    caption = _opens(quote, number, quote_symbol(quote)) + "".join(markers)
    return (
        f'<figure class="block-quote state-{state}" id="quote-{css_name(quote.id)}">'
        f'<blockquote class="quote state-{state}">{quote_words(quote)}</blockquote>'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def marker(number: int, verdict: str, word: str, symbol: str) -> str:
    """A claim's numbered marker: a link that opens the claim's source panel."""
    return (
        f'<a class="marker tone-{tone(verdict)}" href="#note-{number}" id="ref-{number}" '
        f'title="{number}: {escape(word)}. Open its source">'
        f'<span class="num">{number}</span><span class="symbol">{escape(symbol)}</span>'
        f'<span class="vh"> {escape(word)}</span></a>'
    )
