"""What the review pages show. An answer is drawn by the answer page's own components
(`citeproof.render.answer_body`: the same Markdown renderer, numbered markers, panels, badges
and legend), read back from its audit record; the list is a queue of answers, filtered by
what went wrong and worst first. Words, symbols and tones come from `citeproof.render`, as on
every other rendering. Plain values only, but for the answer's body, which the renderer
sanitised: the templates escape every other string."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from markdown_it import MarkdownIt

from citeproof.render import SUPPORT_LABELS, answer_body, plural, state_label, tone
from citeproof.server._answer_record import answer_from_record


@dataclass(frozen=True, slots=True)
class Filter:
    """One way to narrow the queue: answers with at least one of ``counts`` (keys of an
    answer's recorded counts, the first one present is read)."""

    key: str
    word: str
    symbol: str
    tone: str
    counts: tuple[str, ...]


def _claim_filter(verdict: str) -> Filter:
    label = SUPPORT_LABELS[verdict]
    return Filter(verdict, label.word, label.symbol, tone(verdict), (f"claim_{verdict}",))


def _quote_filter(state: str, key: str | None = None, *counts: str) -> Filter:
    label = state_label(state)
    word = label.word[:1].upper() + label.word[1:]
    return Filter(key or state, word, label.symbol, tone(state), counts or (state,))


FILTERS: tuple[Filter, ...] = (
    _claim_filter("contradicted"),
    _quote_filter("meaning_changed"),
    _claim_filter("unsupported"),
    _quote_filter("not_found"),
    _quote_filter("ineligible", "not_provided", "not_provided", "ineligible"),
    _claim_filter("unconfirmed"),
    _quote_filter("mismatch"),
    _claim_filter("partial"),
    _quote_filter("corrected"),
)
"""The queue's filters, worst first: the order the queue sorts answers in by default."""
FILTER_KEYS = {f.key: f for f in FILTERS}
SORTS = {"worst": "Worst first", "newest": "Newest first"}


@dataclass(frozen=True, slots=True)
class Row:
    """One answer in the queue."""

    answer_id: str
    title: str
    snippet: str
    when: str
    created_at: str
    problems: tuple[tuple[Filter, int], ...]
    checked: str


@dataclass(frozen=True, slots=True)
class ReviewPage:
    """One answer's review page: ``body`` the answer page's content (sanitised HTML)."""

    title: str
    body: str
    lit: tuple[tuple[int, str], ...]
    answer_id: str
    request_id: str
    created_at: str
    when: str
    question: str


def count_of(counts: Mapping[str, Any], item: Filter) -> int:
    for key in item.counts:
        value = counts.get(key)
        if isinstance(value, int):
            return value
    return 0


def relative_time(stamp: str, now: datetime) -> str:
    """``just now``, ``5 minutes ago``, ``3 hours ago``, ``2 days ago``; the date itself for
    anything older than a week, and ``stamp`` unchanged when it is not an ISO time."""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = (now - when).total_seconds()
    if seconds < 0:
        return stamp
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = int(seconds // size)
            if unit == "day" and count > 7:
                return when.date().isoformat()
            return f"{count} {unit}{'' if count == 1 else 's'} ago"
    return "just now"


_MARKDOWN = MarkdownIt("js-default")
_CITATION = re.compile(r"\s*\[[^\[\]\n]{1,60}\](?![(\[:])")


def plain_text(markdown: str) -> str:
    """What a reader reads in ``markdown``: its words, without Markdown syntax or citation
    markers, blocks joined by spaces."""
    words: list[str] = []
    for token in _MARKDOWN.parse(markdown):
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
        if token.type.endswith("_close") and token.block:
            words.append(" ")
    return " ".join(_CITATION.sub("", "".join(words)).split())


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip(" ,;:") + "…"


def _title(markdown: str) -> str:
    """The answer's first line as a reader reads it (its heading, when it has one)."""
    first = next((line for line in markdown.splitlines() if line.strip()), "")
    return _shorten(plain_text(first), 90) or "(empty answer)"


def _checked(counts: Mapping[str, Any]) -> str:
    claims = sum(int(v) for k, v in counts.items() if k.startswith("claim_") and isinstance(v, int))
    quotes = sum(
        int(counts.get(s, 0) or 0)
        for s in ("verified", "corrected", "mismatch", "not_found", "ineligible")
    )
    parts = [plural(claims, "claim")] if claims else []
    parts += [plural(quotes, "quote")] if quotes else []
    return (" and ".join(parts) + " checked") if parts else "nothing checked"


def row(entry: Any, now: datetime) -> Row:
    """The queue's row of one recorded answer (an `AnswerEntry`)."""
    counts: Mapping[str, Any] = entry.counts
    problems = tuple(
        (item, count_of(counts, item))
        for item in FILTERS
        if item.tone in ("bad", "warn", "off") and count_of(counts, item) > 0
    )
    return Row(
        answer_id=entry.answer_id,
        title=_title(entry.text),
        snippet=_shorten(plain_text(entry.text), 240),
        when=relative_time(entry.created_at, now),
        created_at=entry.created_at,
        problems=problems,
        checked=_checked(counts),
    )


def review_page(record: Mapping[str, Any], entry: Any, now: datetime) -> ReviewPage:
    """The review page of one answer's audit record with its sources' texts."""
    answer = answer_from_record(record)
    drawn = answer_body(answer, outside_links=False)
    request = record.get("request") or {}
    question = str(request.get("question") or "") if isinstance(request, Mapping) else ""
    return ReviewPage(
        title=_shorten(question, 90) if question else _title(answer.text),
        body=drawn.html,
        lit=drawn.lit,
        answer_id=answer.id,
        request_id=entry.request_id,
        created_at=entry.created_at,
        when=relative_time(entry.created_at, now),
        question=question,
    )
