"""What the review page shows, computed from an audit payload: the answer cut into text and
quotes with a chip each, the sources with UTF-16 offsets for the browser, and each
correction as a word diff. Plain values only: the templates escape every string."""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

STATUS_LABELS = {
    "verified": "verified",
    "corrected": "corrected",
    "mismatch": "mismatch",
    "not_found": "not found",
    "ineligible": "ineligible",
}
_WORDS = re.compile(r"\s+|[^\s]+")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@dataclass(frozen=True, slots=True)
class Chip:
    """A status chip: which quote or claim it belongs to and where its source passage is."""

    key: str
    kind: str  # "quote" or "claim"
    status: str
    label: str
    source_index: int | None
    start16: int | None
    end16: int | None


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of answer text; a quote's text carries its chip after it."""

    text: str
    chip: Chip | None = None
    extra_chips: tuple[Chip, ...] = ()


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


@dataclass(frozen=True, slots=True)
class ClaimView:
    """A claim whose support was judged: its verdict chip and what the passage does not
    back (each difference: the claim's words, and what the source says instead if anything)."""

    chip: Chip
    text: str
    differences: tuple[tuple[str, str], ...]
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
    pieces: tuple[Piece, ...]
    quotes: tuple[QuoteView, ...]
    claims: tuple[ClaimView, ...]
    sources: tuple[SourceView, ...]
    excluded: tuple[tuple[str, str, str], ...]
    counts: tuple[tuple[str, str, int], ...]
    request_id: str
    created_at: str


def utf16(text: str, index: int) -> int:
    """The UTF-16 code unit offset of code point ``index`` in ``text`` (browser strings)."""
    return len(text[:index].encode("utf-16-le", "surrogatepass")) // 2


class Utf16Offsets:
    """`utf16` for many offsets into one text: the text is read once, then each offset costs
    a binary search (a page with thousands of chips over a long source stays linear)."""

    def __init__(self, text: str) -> None:
        self._size = len(text)
        self._astral = [match.start() for match in _ASTRAL.finditer(text)]

    def __call__(self, index: int) -> int:
        """``utf16(text, index)``, ``index`` taken as a slice end (negative from the end)."""
        index = max(0, self._size + index) if index < 0 else min(index, self._size)
        return index + bisect.bisect_left(self._astral, index)


def word_diff(wrote: str, says: str) -> tuple[tuple[str, str], ...]:
    """(``same``|``del``|``ins``, text) runs turning what the model wrote into the source."""
    a, b = _WORDS.findall(wrote), _WORDS.findall(says)
    runs: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            runs.append(("same", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            runs.append(("del", "".join(a[i1:i2])))
        if j2 > j1:
            runs.append(("ins", "".join(b[j1:j2])))
    return tuple(runs)


def answer_page(payload: Mapping[str, Any], *, request_id: str, created_at: str) -> AnswerPage:
    """The review page of one audit payload (``citeproof/audit-payload/1``)."""
    answer: Mapping[str, Any] = payload.get("answer") or {}
    sources = _sources(payload.get("sources") or [])
    by_id = {s.id: s for s in sources}
    text = str(answer.get("text", ""))
    units = {s.id: Utf16Offsets(s.text) for s in sources}
    quotes = [_quote(q, by_id, units) for q in answer.get("quotes") or []]
    claims = [c for c in (_claim(c, by_id, text, units) for c in answer.get("claims") or []) if c]
    pieces = _pieces(text, answer.get("quotes") or [], quotes, claims)
    eligibility = answer.get("eligibility") or {}
    excluded = tuple(
        (str(e.get("source_id", "")), str(e.get("reason", "")), str(e.get("detail") or ""))
        for e in eligibility.get("excluded") or []
    )
    counts = answer.get("counts") or {}
    return AnswerPage(
        answer_id=str(answer.get("id", "")),
        pieces=pieces,
        quotes=tuple(quotes),
        claims=tuple(view for view, _ in claims),
        sources=sources,
        excluded=excluded,
        counts=tuple(
            (status, label, int(counts.get(status, 0))) for status, label in STATUS_LABELS.items()
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


def _quote(
    q: Mapping[str, Any],
    by_id: Mapping[str, SourceView],
    units: Mapping[str, Utf16Offsets],
) -> QuoteView:
    source = by_id.get(str(q.get("source"))) if q.get("source") else None
    span = q.get("source_span")
    start16 = end16 = None
    says = None
    if source is not None and span:
        start, end = int(span[0]), int(span[1])
        start16, end16 = units[source.id](start), units[source.id](end)
        says = source.text[start:end]
    status = str(q.get("status", ""))
    wrote = str(q.get("text", ""))
    chip = Chip(
        key=str(q.get("id", "")),
        kind="quote",
        status=status,
        label=STATUS_LABELS.get(status, status),
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
    )


def _claim(
    c: Mapping[str, Any],
    by_id: Mapping[str, SourceView],
    text: str,
    units: Mapping[str, Utf16Offsets],
) -> tuple[ClaimView, int] | None:
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
            start16 = units[source.id](int(span[0]))
            end16 = units[source.id](int(span[1]))
    if source is None:
        for citation in c.get("citations") or []:
            source = by_id.get(str(citation.get("source")))
            if source is not None:
                break
    claim_span = c.get("span") or [0, 0]
    end = min(max(int(claim_span[1]), 0), len(text))
    chip = Chip(
        key=str(c.get("id", "")),
        kind="claim",
        status=status,
        label=status.replace("_", " "),
        source_index=source.index if source else None,
        start16=start16,
        end16=end16,
    )
    differences = tuple(
        (str(d.get("text") or ""), str(d.get("instead") or ""))
        for d in (best.get("differences") or [] if best else [])
        if isinstance(d, Mapping)
    )
    score = best.get("score") if best else None
    view = ClaimView(
        chip=chip,
        text=str(c.get("text", "")),
        differences=differences,
        score=float(score) if isinstance(score, int | float) else None,
        method=str(best["method"]) if best and best.get("method") else None,
    )
    return view, end


def _pieces(
    text: str,
    raw_quotes: Sequence[Mapping[str, Any]],
    quotes: Sequence[QuoteView],
    claims: Sequence[tuple[ClaimView, int]],
) -> tuple[Piece, ...]:
    """The answer cut at quote boundaries; claim chips go after the piece their claim ends in."""
    spans = []
    for raw, view in zip(raw_quotes, quotes, strict=True):
        start, end = (int(x) for x in raw.get("corrected_span") or (0, 0))
        if 0 <= start <= end <= len(text):
            spans.append((start, end, view.chip))
    spans.sort(key=lambda item: item[0])
    pieces: list[tuple[int, int, Chip | None]] = []
    position = 0
    for start, end, chip in spans:
        if start < position:
            continue  # overlapping quotes: the first one keeps the text
        if start > position:
            pieces.append((position, start, None))
        pieces.append((start, end, chip))
        position = end
    if position < len(text) or not pieces:
        pieces.append((position, len(text), None))
    extra: dict[int, list[Chip]] = {}
    stops = [stop for _, stop, _ in pieces]  # the pieces run on from 0, in order
    for claim, end in claims:
        # The first piece with start < end <= stop (the first piece for a claim ending at 0).
        number = 0 if end == 0 else bisect.bisect_left(stops, end)
        if number < len(pieces) and (end == 0 or pieces[number][0] < end):
            extra.setdefault(number, []).append(claim.chip)
    return tuple(
        Piece(text[start:stop], chip, tuple(extra.get(number, ())))
        for number, (start, stop, chip) in enumerate(pieces)
    )
