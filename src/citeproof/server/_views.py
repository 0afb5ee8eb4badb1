"""What the review page shows, computed from an audit payload: the answer cut into claims and
quotes, each claim's verdict chip at the claim's end and each quote's chip at the quote, the
sources with UTF-16 offsets for the browser, and each correction as a word diff. Words,
symbols and tones come from `citeproof.render`, as on every other rendering. Plain values
only: the templates escape every string."""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, get_args

from citeproof.errors import CiteproofError
from citeproof.model import Difference, DifferenceKind, Source
from citeproof.render import STATUS_LABELS as QUOTE_LABELS
from citeproof.render import (
    SUPPORT_LABELS,
    judged_by_its_quote,
    meaning_sentence,
    nearest_passage,
    rank,
    refusal,
    state_label,
    tone,
    word_diff,
)
from citeproof.verifier import difference

STATUS_LABELS = {status: label.word for status, label in QUOTE_LABELS.items()}
CLAIM_LABELS = {verdict: label.word for verdict, label in SUPPORT_LABELS.items()}
# (key, word, symbol, tone, meaning) for the help: claim verdicts, then quote states.
LEGEND: tuple[tuple[str, str, str, str, str], ...] = tuple(
    [
        (key, label.word, label.symbol, tone(key), label.meaning)
        for key, label in SUPPORT_LABELS.items()
    ]
    + [
        (key, state_label(key).word, state_label(key).symbol, tone(key), state_label(key).meaning)
        for key in [*QUOTE_LABELS, "meaning_changed"]
    ]
)


@dataclass(frozen=True, slots=True)
class Chip:
    """A verdict chip: which quote or claim it belongs to and where its source passage is.

    ``status`` is the quote's status or the claim's verdict (what filters select on);
    ``state`` what it is drawn as (a quote whose meaning changed: ``meaning_changed``)."""

    key: str
    kind: str  # "quote" or "claim"
    status: str
    state: str
    label: str
    symbol: str
    tone: str
    source_index: int | None
    start16: int | None
    end16: int | None


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of answer text; a quote's text carries its chip after it."""

    text: str
    chip: Chip | None = None


@dataclass(frozen=True, slots=True)
class Run:
    """The pieces of one claim (``claim`` its chip, drawn at its end), or text between claims."""

    pieces: tuple[Piece, ...]
    claim: Chip | None = None


@dataclass(frozen=True, slots=True)
class QuoteView:
    chip: Chip
    text: str
    source_says: str | None
    diff: tuple[tuple[str, str], ...]
    source_label: str
    note: str | None
    score: float | None
    method: str | None
    meaning: str | None
    heading: str
    refused: str | None


@dataclass(frozen=True, slots=True)
class ClaimView:
    """A claim whose support was judged: its verdict chip, its text with the words the passage
    does not back marked, and each difference (the claim's words, what the source says
    instead if anything)."""

    chip: Chip
    text: str
    marked: tuple[tuple[bool, str], ...]
    differences: tuple[tuple[str, str], ...]
    why: str
    passage_label: str
    score: float | None
    method: str | None


@dataclass(frozen=True, slots=True)
class SourceView:
    index: int
    id: str
    title: str
    kind: str
    version: str
    url: str
    text: str


@dataclass(frozen=True, slots=True)
class AnswerPage:
    answer_id: str
    runs: tuple[Run, ...]
    quotes: tuple[QuoteView, ...]
    claims: tuple[ClaimView, ...]
    sources: tuple[SourceView, ...]
    excluded: tuple[tuple[str, str, str], ...]
    counts: tuple[tuple[str, str, int], ...]
    claim_counts: tuple[tuple[str, str, int], ...]
    request_id: str
    created_at: str


def utf16(text: str, index: int) -> int:
    """The UTF-16 code unit offset of code point ``index`` in ``text`` (browser strings),
    ``index`` taken as a slice end (negative from the end). The text's astral characters are
    found once per text (`_astral`), then each offset is a binary search: a page with
    thousands of chips over a long source stays linear in its size."""
    size = len(text)
    index = max(0, size + index) if index < 0 else min(index, size)
    return index + bisect.bisect_left(_astral(text), index)


@functools.lru_cache(maxsize=16)
def _astral(text: str) -> tuple[int, ...]:
    return tuple(m.start() for m in _ASTRAL.finditer(text))


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def verdict_chips(counts: Mapping[str, Any]) -> list[tuple[str, str, str, str, int]]:
    """(key, word, symbol, tone, count) for each claim verdict and quote status with a count,
    worst first: what a row of the review list shows. Claim counts are keyed ``claim_*``."""
    chips = []
    for verdict, label in SUPPORT_LABELS.items():
        count = counts.get(f"claim_{verdict}")
        if isinstance(count, int) and count > 0:
            chips.append((verdict, label.word, label.symbol, tone(verdict), count))
    for status, quote_label in QUOTE_LABELS.items():
        count = counts.get(status)
        if isinstance(count, int) and count > 0:
            chips.append((status, quote_label.word, quote_label.symbol, tone(status), count))
    return sorted(chips, key=lambda chip: rank(chip[0]))


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


def answer_page(payload: Mapping[str, Any], *, request_id: str, created_at: str) -> AnswerPage:
    """The review page of one audit payload with its sources' texts (`payload_with_texts`)."""
    answer: Mapping[str, Any] = payload.get("answer") or {}
    sources = _sources(payload.get("sources") or [])
    by_id = {s.id: s for s in sources}
    text = str(answer.get("text", ""))
    raw_quotes = [q for q in answer.get("quotes") or [] if isinstance(q, Mapping)]
    quotes = [_quote(q, by_id) for q in raw_quotes]
    claims = [c for c in (_claim(c, by_id, text) for c in answer.get("claims") or []) if c]
    claims = [(_explained(view, raw_quotes, quotes), start, end) for view, start, end in claims]
    runs = _runs(text, raw_quotes, quotes, claims)
    eligibility = answer.get("eligibility") or {}
    excluded = tuple(
        (str(e.get("source_id", "")), str(e.get("reason", "")), str(e.get("detail") or ""))
        for e in eligibility.get("excluded") or []
    )
    counts = answer.get("counts") or {}
    claim_counts = answer.get("claim_counts") or {}
    return AnswerPage(
        answer_id=str(answer.get("id", "")),
        runs=runs,
        quotes=tuple(quotes),
        claims=tuple(view for view, _, _ in claims),
        sources=sources,
        excluded=excluded,
        counts=tuple(
            (status, label, int(counts.get(status, 0))) for status, label in STATUS_LABELS.items()
        ),
        claim_counts=tuple(
            (verdict, label, int(claim_counts.get(verdict, 0)))
            for verdict, label in CLAIM_LABELS.items()
        ),
        request_id=request_id,
        created_at=created_at,
    )


def _sources(items: Sequence[Mapping[str, Any]]) -> tuple[SourceView, ...]:
    return tuple(
        SourceView(
            index=position,
            id=str(item.get("id", "")),
            title=str(item.get("title") or item.get("id") or ""),
            kind=str(item.get("kind", "")),
            version=str(item.get("version") or ""),
            url=str(item.get("url") or ""),
            text=str(item.get("text", "")),
        )
        for position, item in enumerate(items)
    )


def _differences(q: Mapping[str, Any]) -> list[Difference]:
    found = []
    for d in q.get("differences") or []:
        if not isinstance(d, Mapping):
            continue
        kind = next((k for k in get_args(DifferenceKind) if k == d.get("kind")), None)
        if kind is not None:
            found.append(difference(kind, str(d.get("before", "")), str(d.get("after", ""))))
    return found


def _as_sources(views: Mapping[str, SourceView]) -> list[Source]:
    sources = []
    for view in views.values():
        try:
            sources.append(Source(id=view.id or "?", kind="document", text=view.text))
        except CiteproofError:
            continue
    return sources


def _quote(q: Mapping[str, Any], by_id: Mapping[str, SourceView]) -> QuoteView:
    source = by_id.get(str(q.get("source"))) if q.get("source") else None
    span = q.get("source_span")
    start16 = end16 = None
    says = None
    if source is not None and span:
        start, end = int(span[0]), int(span[1])
        start16, end16 = utf16(source.text, start), utf16(source.text, end)
        says = source.text[start:end]
    status = str(q.get("status", ""))
    wrote = str(q.get("text", ""))
    changed = bool(q.get("meaning_changed")) and status in ("corrected", "mismatch")
    state = "meaning_changed" if changed else status
    refused = None
    heading = "Source"
    if status == "not_found":
        heading = "Nearest passage: not a match"
        cited = by_id.get(str(q.get("cited_source")))
        pool = _as_sources({cited.id: cited} if cited else by_id)
        nearest = nearest_passage(wrote, pool) or nearest_passage(wrote, _as_sources(by_id))
        refused = refusal(nearest)
        if nearest is not None:
            source = by_id[nearest.source.id]
            start16 = utf16(source.text, nearest.span[0])
            end16 = utf16(source.text, nearest.span[1])
    elif status == "ineligible":
        heading = "Not provided with this answer"
    label = state_label(state)
    chip = Chip(
        key=str(q.get("id", "")),
        kind="quote",
        status=status,
        state=state,
        label=label.word,
        symbol=label.symbol,
        tone=tone(state),
        source_index=source.index if source else None,
        start16=start16,
        end16=end16,
    )
    diff = word_diff(wrote, says) if says is not None and says != wrote else ()
    cited = q.get("cited_source")
    return QuoteView(
        chip=chip,
        text=wrote,
        source_says=says,
        diff=diff,
        source_label=source.title if source else str(cited or "no source"),
        note=str(q["note"]) if q.get("note") else None,
        score=float(q["score"]) if isinstance(q.get("score"), int | float) else None,
        method=str(q["method"]) if q.get("method") else None,
        meaning=meaning_sentence(_differences(q)) if changed else None,
        heading=heading,
        refused=refused,
    )


def _marked(text: str, differences: Sequence[Mapping[str, Any]]) -> tuple[tuple[bool, str], ...]:
    spans = []
    for d in differences:
        span = d.get("span")
        if isinstance(span, list) and len(span) == 2:
            start, end = int(span[0]), int(span[1])
            if 0 <= start < end <= len(text):
                spans.append((start, end))
    edges = sorted({0, len(text), *(p for span in spans for p in span)})
    runs = []
    for start, end in itertools.pairwise(edges):
        inside = any(a <= start and end <= b for a, b in spans)
        runs.append((inside, text[start:end]))
    return tuple(r for r in runs if r[1])


def _claim(
    c: Mapping[str, Any], by_id: Mapping[str, SourceView], text: str
) -> tuple[ClaimView, int, int] | None:
    """A chip for a claim whose support was judged (``verdict`` and a ``support`` list, one
    judgement per cited source), placed at the claim's end; None for claims without one."""
    judgements = [j for j in c.get("support") or [] if isinstance(j, Mapping)]
    verdict = c.get("verdict") or next((j.get("verdict") for j in judgements), None)
    if not verdict or verdict == "none":  # "none": nothing in the claim to judge
        return None
    status = str(verdict)
    best = next((j for j in judgements if j.get("verdict") == verdict), None)
    passage = best.get("passage") if best else None
    source = start16 = end16 = None
    if isinstance(passage, Mapping):
        source = by_id.get(str(passage.get("source")))
        span = passage.get("span")
        if source is not None and isinstance(span, list) and len(span) == 2:
            start16 = utf16(source.text, int(span[0]))
            end16 = utf16(source.text, int(span[1]))
    if source is None:
        for citation in c.get("citations") or []:
            source = by_id.get(str(citation.get("source")))
            if source is not None:
                break
    claim_span = c.get("span") or [0, 0]
    start = min(max(int(claim_span[0]), 0), len(text))
    end = min(max(int(claim_span[1]), start), len(text))
    label = SUPPORT_LABELS.get(status)
    chip = Chip(
        key=str(c.get("id", "")),
        kind="claim",
        status=status,
        state=status,
        label=label.word if label else status.replace("_", " "),
        symbol=label.symbol if label else "?",
        tone=tone(status),
        source_index=source.index if source else None,
        start16=start16,
        end16=end16,
    )
    raw_differences = [
        d for d in (best.get("differences") or [] if best else []) if isinstance(d, Mapping)
    ]
    differences = tuple(
        (str(d.get("text") or ""), str(d.get("instead") or "")) for d in raw_differences
    )
    claim_text = str(c.get("text", ""))
    if status == "supported":
        raw_differences = []
    if isinstance(passage, Mapping) and source is not None:
        where = source.title + (
            f" ¶{passage.get('paragraph')}" if passage.get("paragraph") is not None else ""
        )
        passage_label = f"Passage judged: {where}"
    elif source is not None:
        passage_label = f"No passage in {source.title} says this"
    else:
        passage_label = "No cited source was provided"
    score = best.get("score") if best else None
    view = ClaimView(
        chip=chip,
        text=claim_text,
        marked=_marked(claim_text, raw_differences),
        differences=differences if status != "supported" else (),
        why=label.meaning if label else "",
        passage_label=passage_label,
        score=float(score) if isinstance(score, int | float) else None,
        method=str(best["method"]) if best and best.get("method") else None,
    )
    return view, start, _trimmed_end(text, start, end)


def _explained(
    view: ClaimView, raw_quotes: Sequence[Mapping[str, Any]], quotes: Sequence[QuoteView]
) -> ClaimView:
    """A claim judged by its quotes alone says so: "unsupported" because a quote, as the
    model wrote it, changed the source's meaning (the text now shows the source's words)."""
    own = [
        q for raw, q in zip(raw_quotes, quotes, strict=True) if raw.get("claim_id") == view.chip.key
    ]
    changed = [q.meaning for q in own if q.meaning]
    if view.chip.status != "unsupported" or view.method is not None or not changed:
        return view
    why = judged_by_its_quote([c for c in changed if c])
    return replace(view, why=why, passage_label="Judged by its quote: open the quote's chip")


def _trimmed_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _runs(
    text: str,
    raw_quotes: Sequence[Mapping[str, Any]],
    quotes: Sequence[QuoteView],
    claims: Sequence[tuple[ClaimView, int, int]],
) -> tuple[Run, ...]:
    """The answer cut at quote boundaries and at each judged claim's start and end; a claim's
    run ends with its chip, so the chip sits at the claim's own end."""
    spans: list[tuple[int, int, Chip]] = []
    position = 0
    for raw, view in sorted(
        zip(raw_quotes, quotes, strict=True),
        key=lambda pair: int((pair[0].get("corrected_span") or (0, 0))[0]),
    ):
        start, end = (int(x) for x in raw.get("corrected_span") or (0, 0))
        if position <= start <= end <= len(text):
            spans.append((start, end, view.chip))
            position = end  # overlapping quotes: the first one keeps the text

    def inside_quote(at: int) -> bool:
        return any(s < at < e for s, e, _ in spans)

    claim_runs: list[tuple[int, int, Chip]] = []
    last = 0
    for claim, start, end in sorted(claims, key=lambda item: item[1]):
        while inside_quote(start):
            start = next(s for s, e, _ in spans if s < start < e)
        while inside_quote(end):
            end = next(e for s, e, _ in spans if s < end < e)
        if start < last:
            continue
        claim_runs.append((start, end, claim.chip))
        last = end

    def pieces(start: int, end: int) -> tuple[Piece, ...]:
        out: list[Piece] = []
        cursor = start
        for s, e, chip in spans:
            if e <= start or s >= end:
                continue
            if s > cursor:
                out.append(Piece(text[cursor:s]))
            out.append(Piece(text[max(s, start) : min(e, end)], chip))
            cursor = min(e, end)
        if cursor < end:
            out.append(Piece(text[cursor:end]))
        return tuple(out)

    runs: list[Run] = []
    cursor = 0
    for start, end, chip in claim_runs:
        if start > cursor:
            runs.append(Run(pieces(cursor, start)))
        runs.append(Run(pieces(start, end), chip))
        cursor = end
    if cursor < len(text) or not runs:
        runs.append(Run(pieces(cursor, len(text))))
    return tuple(runs)
