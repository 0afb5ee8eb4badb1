"""One visual language for every verdict: the tone (colour family) each quote status and claim
verdict is drawn in, the colours of each tone, and the state a quote is shown in.

The HTML page, the review app (its style sheet holds ``PALETTE_CSS`` verbatim, a test checks
it), the Markdown text and the terminal report all take their tones from here, and their words
and symbols from `citeproof.render._labels` and `citeproof.render._support`, so a verdict looks
and reads the same wherever a person meets it. Colour only reinforces: every verdict also has a
word and a symbol.
"""

from __future__ import annotations

from citeproof.model import VerifiedQuote

# ok: the source says it. fixed: a cosmetic correction (case, punctuation, the citation's
# place). warn: look again. bad: the source does not say it, or says otherwise. off: could
# not be checked.
TONES: dict[str, tuple[str, str, str]] = {  # tone -> (text, background, border)
    "ok": ("#116329", "#dafbe1", "#4ac26b"),
    "fixed": ("#0a3069", "#ddf4ff", "#54aeff"),
    "warn": ("#6c4400", "#fff8c5", "#d4a72c"),
    "bad": ("#82071e", "#ffebe9", "#ff8182"),
    "off": ("#424a53", "#eaeef2", "#afb8c1"),
}

TONE_OF: dict[str, str] = {
    # quote statuses
    "verified": "ok",
    "corrected": "fixed",
    "meaning_changed": "bad",
    "mismatch": "warn",
    "not_found": "bad",
    "ineligible": "off",
    # claim verdicts
    "supported": "ok",
    "partial": "warn",
    "unconfirmed": "warn",
    "contradicted": "bad",
    "unsupported": "bad",
    "uncited": "warn",
    "none": "off",
}

# Worst first: the order a list of verdicts is ranked in (the review list, a claim's marker).
SEVERITY: tuple[str, ...] = (
    "contradicted",
    "meaning_changed",
    "not_found",
    "unsupported",
    "mismatch",
    "unconfirmed",
    "partial",
    "uncited",
    "ineligible",
    "corrected",
    "verified",
    "supported",
    "none",
)


def tone(verdict: str) -> str:
    """The tone a quote status, quote state or claim verdict is drawn in (``off`` if unknown)."""
    return TONE_OF.get(verdict, "off")


def rank(verdict: str) -> int:
    """0 for the worst verdict; unknown verdicts rank after every known one."""
    return SEVERITY.index(verdict) if verdict in SEVERITY else len(SEVERITY)


def worst(verdicts: list[str]) -> str | None:
    """The worst of ``verdicts``, or None for none."""
    return min(verdicts, key=rank) if verdicts else None


def quote_state(quote: VerifiedQuote) -> str:
    """The state a quote is shown in: its status, except that a quote whose correction (or
    difference from an email) changes the meaning is ``meaning_changed``, never a tidy fix."""
    if quote.meaning_changed and quote.status in ("corrected", "mismatch"):
        return "meaning_changed"
    return quote.status


def _palette() -> str:
    lines = [":root {"]
    for name, (ink, fill, line) in TONES.items():
        lines.append(f"  --{name}-ink: {ink}; --{name}-fill: {fill}; --{name}-line: {line};")
    lines.append("}")
    for name in TONES:
        lines.append(
            f".tone-{name} {{ color: var(--{name}-ink); background: var(--{name}-fill); "
            f"border-color: var(--{name}-line); }}"
        )
    return "\n".join(lines) + "\n"


PALETTE_CSS = _palette()
"""The tones as CSS custom properties and ``.tone-*`` classes, shared by every HTML rendering."""
