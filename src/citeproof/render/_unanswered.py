"""When the model could not answer from the sources: said plainly, never headed "checked".

`citeproof.render._labels.nothing_checked` gives the one message every rendering shows for an
answer with nothing checked; for a model that declined, that message is `NOT_ANSWERED`.
"""

from __future__ import annotations

import re

from citeproof.model import NO_ANSWER, VerifiedAnswer

NOT_ANSWERED = "Not answered: the sources given do not answer this question."

# How models say they cannot answer from the sources (checked only when nothing is quoted).
_DECLINES = re.compile(
    r"\b(?:sources?|documents?|context|passages?)\b[^.]{0,40}\b(?:do(?:es)? not|don't|doesn't"
    r"|cannot|can't)\b[^.]{0,20}\b(?:answer|say|mention|contain|provide|specify|state)"
    r"|\b(?:policy|sources?|documents?)\b[^.]{0,40}\bdo(?:es)? not (?:\w+ )?mention\b"
    r"|\bcannot (?:be )?answer(?:ed)?\b|\bno (?:relevant )?information\b",
    re.IGNORECASE,
)


def says_not_answered(text: str) -> bool:
    """Whether ``text`` says the sources do not answer the question."""
    return text.strip() == NO_ANSWER or _DECLINES.search(text) is not None


def declines_to_answer(answer: VerifiedAnswer) -> bool:
    """Whether the answer quotes nothing and says the sources do not answer the question."""
    return not answer.quotes and says_not_answered(answer.text)


def page_heading(answer: VerifiedAnswer) -> str:
    """ "Checked answer" (a quote compared or a claim judged against its passage), or what
    the answer is when nothing in it was checked."""
    if answer.quotes or any(claim.support for claim in answer.claims):
        return "Checked answer"
    return "No answer from the sources" if declines_to_answer(answer) else "Unchecked answer"
