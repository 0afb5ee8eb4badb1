"""The plain message for an answer with nothing checked: the model could not answer, or
quoted nothing, so no heading may call it checked."""

from __future__ import annotations

import re

from citeproof.model import VerifiedAnswer
from citeproof.turn.evidence_first import NO_ANSWER

NOT_ANSWERED = "Not answered: the sources given do not answer this question."
NOTHING_CHECKED = "Not checked: this answer quotes no source, so nothing in it could be checked."

# How models say they cannot answer from the sources (checked only when nothing is quoted).
_DECLINES = re.compile(
    r"\b(?:sources?|documents?|context|passages?)\b[^.]{0,40}\b(?:do(?:es)? not|don't|doesn't"
    r"|cannot|can't)\b[^.]{0,20}\b(?:answer|say|mention|contain|provide|specify|state)"
    r"|\bcannot (?:be )?answer(?:ed)?\b|\bno (?:relevant )?information\b",
    re.IGNORECASE,
)


def unchecked_notice(answer: VerifiedAnswer) -> str | None:
    """`NOT_ANSWERED` when the answer quotes nothing and says the sources do not answer,
    `NOTHING_CHECKED` when it quotes nothing otherwise, None when it has quotes."""
    if answer.quotes:
        return None
    text = answer.text.strip()
    if text == NO_ANSWER or _DECLINES.search(text):
        return NOT_ANSWERED
    return NOTHING_CHECKED


def page_heading(answer: VerifiedAnswer) -> str:
    """ "Checked answer", or what the answer is when nothing in it was checked."""
    notice = unchecked_notice(answer)
    if notice is None:
        return "Checked answer"
    return "No answer from the sources" if notice == NOT_ANSWERED else "Unchecked answer"
