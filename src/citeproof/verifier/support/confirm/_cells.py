"""The values a table cell lists, each with words of its own ("£58 dog, £54 cat").

A cell may list several values ("clipping £55 full, £35 trace"): each figure belongs to the
words of its own piece of the cell, not to those beside another figure. `table.row` reads a
row cell by cell and `figure.attached` reads it as a sentence of ``| ... |`` cells; both ask
`beside_another` whether a claim's figure keeps the words the claim gives it.
"""

from __future__ import annotations

import re

from citeproof.verifier.support.confirm._reading import Reading

_BETWEEN = re.compile(r",\s|;\s?|\s/\s|\s+(?:and|or)\s+", re.IGNORECASE)
"""What separates the values a cell lists: a comma or a semicolon (not the comma of
"£1,200"), a slash, "and", "or"."""


def pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Where each value the cell ``text[start:end]`` lists stands: the cell cut at `_BETWEEN`."""
    cuts = [(start + a.start(), start + a.end()) for a in _BETWEEN.finditer(text[start:end])]
    starts = [start, *(stop for _, stop in cuts)]
    ends = [*(begin for begin, _ in cuts), end]
    return list(zip(starts, ends, strict=True))


def cell_at(text: str, at: int) -> tuple[int, int] | None:
    """Where the cell stands that holds character ``at``, when its line is a Markdown table
    row (``| Extras | £12 a lunge session, ... |``); None otherwise."""
    begin = text.rfind("\n", 0, at) + 1
    stop = text.find("\n", at)
    stop = len(text) if stop < 0 else stop
    if not text[begin:stop].lstrip().startswith("|"):
        return None
    left = text.rfind("|", begin, at + 1)
    right = text.find("|", at, stop)
    if left < 0 or right < 0:
        return None
    return left + 1, right


def beside_another(reading: Reading, i: int, at: int, cell: tuple[int, int]) -> int | None:
    """The claim's word that stands in ``cell`` only in a piece of it holding another
    figure than the claim's figure ``i``, matched at character ``at`` ("£55" for a "trace"
    clip in "clipping £55 full, £35 trace"); None when every word stands by it. Words
    before a piece's first figure lead the pieces after it that open with a figure
    ("clipping" is said of "£35 trace" too)."""
    text = reading.passage.text
    cut = pieces(text, *cell)
    if len(cut) < 2:
        return None
    figures = [(t.idx, t.idx + len(t)) for t in reading.passage if reading.figure("passage", t.i)]
    firsts = [next((f for f in figures if a <= f[0] < b), None) for a, b in cut]
    mine = next((k for k, (a, b) in enumerate(cut) if a <= at < b), None)
    if mine is None:
        return None
    own = [cut[mine]]
    for k in range(mine - 1, -1, -1):  # the lead it shares, when it opens with a figure
        opening = firsts[k + 1]
        if opening is None or _worded(text[cut[k + 1][0] : opening[0]]):
            break
        first = firsts[k]
        if first is None:
            break
        lead, rest = text[cut[k][0] : first[0]], text[first[1] : cut[k][1]]
        if _worded(lead):
            if _worded(rest):  # "clipping £55 full": "clipping" leads, "full" is its own
                own.append((cut[k][0], first[0]))
            break
    figured = [p for k, p in enumerate(cut) if k != mine and firsts[k] is not None]
    for j in reading.content:
        if j == i or reading.figure("claim", j) is not None:
            continue
        spots = [
            reading.passage[n.passage].idx
            for n in reading.candidates.get(j, ())
            if n.passage is not None and cell[0] <= reading.passage[n.passage].idx < cell[1]
        ]
        if not spots or any(a <= s < b for s in spots for a, b in own):
            continue
        if all(any(a <= s < b for a, b in figured) for s in spots):
            return j
    return None


def _worded(text: str) -> bool:
    return any(c.isalpha() for c in text)
