"""The one line that sums up a checked answer, the same in every rendering and the CLI:
``11 claims: 4 supported, 3 contradicted, …; 8 quotes: 2 verified, 4 corrected (1 meaning
changed), 1 kept as written, 1 not provided``. Zero counts are left out."""

from __future__ import annotations

from citeproof.model import VerifiedAnswer
from citeproof.render._labels import STATUS_LABELS
from citeproof.render._support import claim_tally, shown_claims
from citeproof.render._verdicts import quote_state


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 quote``, ``2 quotes``; ``many`` for irregular plurals."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def claims_part(answer: VerifiedAnswer) -> str | None:
    """``11 claims: 4 supported, 1 partly supported, …``, or None with no claim shown."""
    if not shown_claims(answer):
        return None
    claims = answer.numbered_claims()
    parts = [f"{n} {label.word.lower()}" for _, label, n in claim_tally(answer) if n]
    escalated = sum(1 for c in claims if any(s.rule == "escalated" for s in c.support))
    asked = f" ({escalated} escalated to the configured model)" if escalated else ""
    return f"{plural(len(claims), 'claim')}: {', '.join(parts)}{asked}"


def quotes_part(answer: VerifiedAnswer) -> str | None:
    """``8 quotes: 2 verified, 4 corrected (1 meaning changed), …``, or None without quotes."""
    if not answer.quotes:
        return None
    counts = answer.counts()
    changed: dict[str, int] = {}
    for quote in answer.quotes:
        if quote_state(quote) == "meaning_changed":
            changed[quote.status] = changed.get(quote.status, 0) + 1
    parts = []
    for status, label in STATUS_LABELS.items():
        if not counts.get(status):
            continue
        part = f"{counts[status]} {label.word.lower()}"
        if changed.get(status):
            part += f" ({changed[status]} meaning changed)"
        parts.append(part)
    return f"{plural(len(answer.quotes), 'quote')}: {', '.join(parts)}"


def summary_line(answer: VerifiedAnswer) -> str:
    """The claims part, then the quotes part, joined by ``; ``; says so when there is neither."""
    parts = [p for p in (claims_part(answer), quotes_part(answer)) if p]
    return "; ".join(parts) if parts else "Nothing to check: no claims and no quotes"
