"""Word diffs between what the model wrote and what the source says, for every rendering.

Runs keep the text's own spaces, so joining the runs of one side gives that side back
exactly; a deletion directly followed by an insertion is one *change*, which renderers draw
as ``before → after`` so the two words never run together ("notpartly").
"""

from __future__ import annotations

import difflib
import re
from typing import Literal

Run = tuple[Literal["same", "del", "ins"], str]
_WORDS = re.compile(r"\s+|[^\s]+")


def word_diff(wrote: str, says: str) -> tuple[Run, ...]:
    """(``same``|``del``|``ins``, text) runs turning ``wrote`` into ``says``, word by word.

    Whitespace is its own token, so a changed word keeps the spaces around it in ``same``."""
    a, b = _WORDS.findall(wrote), _WORDS.findall(says)
    runs: list[Run] = []
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


def _shortened(text: str, words: int, first: bool, last: bool) -> str:
    """An unchanged run cut to ``words`` words next to each change, ``…`` for the rest."""
    tokens = _WORDS.findall(text)
    keep = 2 * words  # a word and the space beside it
    if len(tokens) <= 2 * keep:
        return text
    head = "" if first else "".join(tokens[:keep])
    tail = "" if last else "".join(tokens[-keep:])
    return f"{head}…{tail}"


def diff_text(runs: tuple[Run, ...], arrow: str = " → ", context: int | None = None) -> str:
    """The runs as plain text: ``before an offer is [-made-] → [+issued+]``-style, with the
    deleted words in ``[-…-]`` and the inserted in ``[+…+]`` (for terminals and Markdown).
    With ``context``, unchanged runs keep only that many words beside each change."""
    parts: list[str] = []
    previous = "same"
    for index, (kind, text) in enumerate(runs):
        if kind == "same" and context is not None:
            text = _shortened(text, context, index == 0, index == len(runs) - 1)
        if kind == "del":
            parts.append(f"[-{text}-]")
        elif kind == "ins":
            parts.append((arrow if previous == "del" else "") + f"[+{text}+]")
        else:
            parts.append(text)
        previous = kind
    return "".join(parts)
