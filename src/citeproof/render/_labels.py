"""What every rendering says about a quote: one word, one symbol and one sentence per status.

The HTML page, the Markdown text and the terminal table all take their wording from here, so a
reader who switches between them sees the same verdicts (003.5). Status is never carried by
colour alone: each label has a word and a symbol.

The few phrases that mention a similarity score also live here, because a score may only be
shown next to the matched text it describes (section D, "UI layer").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from citeproof.model import (
    STATUSES,
    Difference,
    Excerpt,
    Source,
    VerifiedAnswer,
    VerifiedQuote,
    is_numbered,
)
from citeproof.render._unanswered import NOT_ANSWERED, declines_to_answer


@dataclass(frozen=True, slots=True)
class Label:
    """How one status is named to a reader: a word, a one-cell symbol and a sentence.

    Every rendering (HTML page, review app, Markdown, terminal) shows the same symbol: a
    one-cell character that common text fonts have and terminals align (emoji widths vary
    between fonts and many machines lack colour emoji; a badge must never lose its symbol).
    """

    word: str
    symbol: str
    meaning: str

    @property
    def badge(self) -> str:
        return f"{self.symbol} {self.word}"


STATUS_LABELS: dict[str, Label] = {
    "verified": Label(
        "Verified", "✓", "Found word for word in the cited source, where the citation says."
    ),
    "corrected": Label(
        "Corrected",
        "✎",
        "Found in the sources; its wording or its citation was fixed to match the source.",
    ),
    "mismatch": Label(
        "Kept as written",
        "≈",
        "Differs from an email; shown exactly as the model wrote it, so compare with the source.",
    ),
    "not_found": Label("Not found", "✗", "Not found in any source provided with this answer."),
    "ineligible": Label(
        "Not provided",
        "⊘",
        "Cites a source that was not provided with this answer, so it cannot be checked.",
    ),
}

MEANING_LABEL = Label(
    "Meaning changed",
    "⚠",
    "The model's words say something the source does not: the source's words are shown, "
    "with what the model wrote struck through.",
)
"""The state of a quote whose correction (or difference from an email) changes its meaning:
shown apart from a cosmetic correction in every rendering (F.1)."""

# Citation markers have their own, smaller vocabulary (CitedSource.status).
CITATION_LABELS: dict[str, Label] = {
    "ok": Label("cited", "", "Cited source and paragraph."),
    "corrected": Label("corrected", "✎", "The citation was corrected to where the text is."),
    "ineligible": Label("not provided", "⊘", "This source was not provided with this answer."),
    "removed": Label("removed", "✗", "This citation was removed: its source was not provided."),
    "flagged": Label("flagged", "!", "This citation needs a second look."),
    "meaning_changed": Label(
        "meaning changed",
        "⚠",
        "The quote this citation backs says something its source does not: its meaning changed.",
    ),
}

_UNKNOWN = Label("Unknown", "?", "citeproof does not know this status.")

assert set(STATUS_LABELS) == set(STATUSES), "every status needs a label"


def status_label(status: str) -> Label:
    return STATUS_LABELS.get(status, _UNKNOWN)


def state_label(state: str) -> Label:
    """The label of a quote state (`citeproof.render._verdicts.quote_state`)."""
    return MEANING_LABEL if state == "meaning_changed" else status_label(state)


def citation_label(status: str) -> Label:
    return CITATION_LABELS.get(status, _UNKNOWN)


NEAR_EXACT = 0.97
CLOSE = 0.9
"""The similarities (`VerifiedQuote.score`) from which a match is shown as near-exact and
close; the number itself stays in the JSON contract, for machines."""


def match_quality(quote: VerifiedQuote) -> str | None:
    """How well the quote matched, in words; ``None`` when there is no matched text to show.

    Renderers put this phrase only beside the excerpt that holds the matched text, never on
    its own: a bare number invites trust it has not earned (section D).
    """
    if quote.excerpt is None:
        return None
    if quote.method == "exact" or quote.score >= 1.0:
        return "exact match"
    if quote.score >= NEAR_EXACT:
        return "near-exact match: a letter or a mark apart"
    if quote.score >= CLOSE:
        return "close match: a few words apart"
    return "loose match: read the passage"


def meaning_warning(quote: VerifiedQuote) -> str | None:
    """``Meaning changed: the source says “1916”, not “1917”.`` for a quote whose differences
    change the meaning (F.1); None for a cosmetic fix or no difference at all."""
    if not quote.meaning_changed:
        return None
    return meaning_sentence(quote.differences)


def meaning_sentence(differences: Iterable[Difference]) -> str:
    """``Meaning changed: the source says “1916”, not “1917”.`` from a quote's differences
    (those that change the meaning); the review app builds them from an audit payload."""
    said = "; ".join(d.description for d in differences if d.changes_meaning)
    return f"Meaning changed: {said or 'the source says something else'}."


MEANING_SYMBOL = MEANING_LABEL.symbol


def judged_by_its_quote(warnings: list[str]) -> str:
    """Why a claim is unsupported when only its quote was judged and that quote, as the model
    wrote it, changed the source's meaning (the text shown is the source's words)."""
    return (
        "As the model wrote it, its quote says something the source does not. "
        + " ".join(warnings)
        + " The text shows the source's words."
    )


def nothing_checked(answer: VerifiedAnswer) -> str | None:
    """A plain sentence when nothing in the answer could be checked, saying why; else None."""
    if answer.quotes or any(claim.support for claim in answer.claims):
        return None  # quotes were compared, or claims judged against their passages
    if declines_to_answer(answer):
        return NOT_ANSWERED
    citations = [cite for claim in answer.claims for cite in claim.citations]
    if not citations:
        why = "it has no quotes and no citations to the sources provided"
    elif all(cite.status in ("ineligible", "removed") for cite in citations):
        why = "it has no quotes, and its citations name sources that were not provided"
    else:
        why = (
            "it has no quotes, so there are no words to compare with the sources its citations name"
        )
    return f"Nothing in this answer could be checked: {why}."


def provided_hint(answer: VerifiedAnswer) -> str | None:
    """For citations to sources not provided: which ids were provided, and how to name sources
    by number when the answer cites ``[1]``, ``[2]`` (sources are never matched by position)."""
    missing = cited_but_not_provided(answer)
    if not missing:
        return None
    ids = ", ".join(source.id for source in answer.sources) or "none"
    hint = f"Sources provided: {ids}."
    numbered = [s.id for s in answer.sources] == [str(n) for n in range(1, len(answer.sources) + 1)]
    if numbered and answer.sources:
        many = len(missing) > 1
        cites = f"citation{'s' if many else ''} {', '.join(missing)}"
        hint += (
            f" They are numbered in the order given (1 to {len(answer.sources)}); the {cites}"
            f" name{'' if many else 's'} none of them."
        )
    elif any(is_numbered(m) for m in missing):
        hint += (
            " Citations are never matched by position: to cite sources by number, give the ids"
            " (--source 1=FILE) or number them in the order given (--number-sources)."
        )
    return hint


def find_source(answer: VerifiedAnswer, source_id: str | None) -> Source | None:
    for source in answer.sources:
        if source.id == source_id:
            return source
    return None


def source_name(answer: VerifiedAnswer, source_id: str, title: str | None = None) -> str:
    """``"Lending policy 2024 (S1)"``, or just ``"S1"`` when the source has no title."""
    if title is None:
        source = find_source(answer, source_id)
        title = source.title if source else None
    return f"{title} ({source_id})" if title else source_id


def place(answer: VerifiedAnswer, source_id: str | None, paragraph: int | None) -> str:
    """A paragraph as the reader finds it in the document: its own number, heading or page
    (``§4 Verification of income``, ``page 3``: `Source.location`), else its count ``¶5``;
    "" without a paragraph."""
    if paragraph is None:
        return ""
    source = find_source(answer, source_id)
    located = source.location(paragraph) if source is not None else None
    return located or f"¶{paragraph}"


def where_found(answer: VerifiedAnswer, quote: VerifiedQuote) -> str:
    """Where the quote really is, in words: ``"Lending policy 2024 (S1) §2 Loan-to-value"``."""
    if quote.source is None:
        return ""
    title = quote.excerpt.title if quote.excerpt else None
    where = place(answer, quote.source, quote.paragraph)
    return source_name(answer, quote.source, title) + (f" {where}" if where else "")


def cited_but_not_provided(answer: VerifiedAnswer) -> list[str]:
    """Source ids the answer cites that were not provided in this turn (012.2), in order."""
    provided = {source.id for source in answer.sources}
    cited: Iterable[str | None] = [
        *(quote.cited_source for quote in answer.quotes),
        *(cite.source for claim in answer.claims for cite in claim.citations),
    ]
    missing: list[str] = []
    for source_id in cited:
        if source_id and source_id not in provided and source_id not in missing:
            missing.append(source_id)
    return missing


def shorten(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters, ending in an ellipsis when cut."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= limit:
        return flat
    return flat[: max(limit - 1, 0)].rstrip() + "…"


SAFE_URL_SCHEMES = frozenset({"http", "https", "mailto"})


def safe_url(url: str | None) -> str | None:
    """The URL if it uses a scheme a reader can safely follow, else ``None``."""
    if not url:
        return None
    # Browsers ignore control characters and spaces inside a scheme ("java\tscript:").
    compact = re.sub(r"[\x00-\x20\x7f]", "", url)
    scheme, colon, _ = compact.partition(":")
    if colon and scheme.lower() in SAFE_URL_SCHEMES:
        # As a browser reads it: tabs and newlines dropped, controls and spaces trimmed from
        # the ends, any other control percent-encoded, so none reaches the page raw.
        cleaned = re.sub(r"[\t\n\r]", "", url).strip("".join(map(chr, range(0x21))) + "\x7f")
        return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"%{ord(m.group()):02X}", cleaned)
    return None


def split_excerpt(excerpt: Excerpt) -> tuple[str, str, str]:
    """The excerpt as (before, matched, after), with a bad highlight span clamped to the text."""
    text = excerpt.text
    start = min(max(excerpt.highlight[0], 0), len(text))
    end = min(max(excerpt.highlight[1], start), len(text))
    return text[:start], text[start:end], text[end:]


def kept_out(answer: VerifiedAnswer) -> list[tuple[str, str]]:
    """The sources the turn's eligibility kept from the model, with why (012.1, 012.3).

    Sources merely not retrieved this turn are left out: a store holds many.
    """
    if answer.eligibility is None:
        return []
    return [
        (e.source_id, e.detail) for e in answer.eligibility.excluded if e.reason != "not_in_turn"
    ]


def eligibility_line(answer: VerifiedAnswer) -> str | None:
    """One sentence naming the eligibility decision this rendering used, or None."""
    if answer.eligibility is None:
        return None
    shown = len(answer.eligibility.eligible)
    return (
        f"Eligibility {answer.eligibility.fingerprint}: {shown} source"
        f"{'' if shown == 1 else 's'} shown to the model."
    )


def when_corrected(stamp: str) -> str:
    """A correction's ISO 8601 time as a reader writes it: ``6 Dec 2026, 10:51 UTC`` (the
    stamp itself when it is not one)."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return f"{moment.day} {moment:%b %Y, %H:%M} UTC"
