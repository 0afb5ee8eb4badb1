"""Where a vendor's span of its own answer really is: its stated offsets, checked against the
text the vendor says is there (Gemini's ``segment.text``, Cohere's citation ``text``)."""

from __future__ import annotations

from citeproof.adapters._converted import LocationCheck
from citeproof.adapters._offsets import TextOffsets, Unit
from citeproof.errors import AnswerError
from citeproof.model import Span

_UNIT_WORDS = {"code_points": "characters", "utf16": "UTF-16 units", "utf8": "bytes"}


def locate_segment(
    offsets: TextOffsets, start: int, end: int, unit: Unit, said: str | None, where: str
) -> tuple[Span, LocationCheck]:
    """The ``str`` span of ``[start, end)`` (counted in ``unit``) and whether ``said`` is there.

    When ``said`` is elsewhere in the text, the occurrence nearest the stated start wins and
    the check says ``"moved"``: the text is what the vendor meant, the numbers are the bug.
    Raises `AnswerError` for offsets that do not fit the text when no ``said`` rescues them.
    """
    words = _UNIT_WORDS[unit]
    stated = f"{words} {start}-{end}"
    try:
        span: Span | None = offsets.span(start, end, unit).code_points
    except AnswerError:
        if not said:
            raise
        span = None
    if said is None and span is not None:
        return span, LocationCheck("not_checked", stated, span, "no text was given to check")
    text = offsets.text
    if span is not None and text[span[0] : span[1]] == said:
        return span, LocationCheck("verbatim", stated, span, "the stated text is at its offsets")
    found = _nearest(text, said or "", span[0] if span else 0)
    if found is None:
        if span is None:
            raise AnswerError(f"the text {said!r} is not in the answer", where=where)
        note = f"the stated text {said!r} is not in the answer; its offsets are used"
        return span, LocationCheck("not_verbatim", stated, span, note)
    actual = offsets.span(*found).in_unit(unit)
    note = f"the stated text is at {words} {actual[0]}-{actual[1]}, not {start}-{end}"
    return found, LocationCheck("moved", stated, found, note)


def _nearest(text: str, wanted: str, near: int) -> Span | None:
    if not wanted:
        return None
    best: int | None = None
    at = text.find(wanted)
    while at >= 0:
        if best is None or abs(at - near) < abs(best - near):
            best = at
        at = text.find(wanted, at + 1)
    return None if best is None else (best, best + len(wanted))
