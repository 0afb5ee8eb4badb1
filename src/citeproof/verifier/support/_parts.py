"""A claim with several facts, cut into the parts a reader would check one by one.

"The loan was approved on 3 May, and the borrower signed the offer a week later" holds two
facts; a passage that backs one and not the other backs the claim in part. Parts are cut at
sentence ends, semicolons and at a comma followed by a joining word ("and", "but", "while",
"whereas", "although"), and only where both sides would still say something on their own
(`MIN_CONTENT` content words each). Spans index the claim's text, so differences found in a
part still point into the claim.
"""

from __future__ import annotations

import re

from citeproof.verifier.support._text import is_content, tokenize

MIN_CONTENT = 3
_CUT = re.compile(
    r"(?<=[.!?])\s+(?=[A-Z\"“(])|;\s+|,\s+(?:and|but|while|whereas|although|though|yet)\s+",
)


def claim_parts(text: str) -> list[tuple[int, int]]:
    """Spans of ``text``'s parts, in order; the whole text (trimmed) when it holds one fact."""
    spans, start = [], 0
    for found in _CUT.finditer(text):
        spans.append(_trim(text, start, found.start()))
        start = found.end()
    spans.append(_trim(text, start, len(text)))
    spans = [s for s in spans if s[1] > s[0]]
    merged: list[tuple[int, int]] = []
    for span in spans:
        if merged and (
            _content(text, span) < MIN_CONTENT or _content(text, merged[-1]) < MIN_CONTENT
        ):
            merged[-1] = (merged[-1][0], span[1])
        else:
            merged.append(span)
    return merged or [_trim(text, 0, len(text))]


def _content(text: str, span: tuple[int, int]) -> int:
    return sum(1 for t in tokenize(text[span[0] : span[1]]) if is_content(t))


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and not text[start].isalnum() and text[start] not in "\"“'(":
        start += 1
    while end > start and text[end - 1] in " \t\n,;":
        end -= 1
    return start, end
