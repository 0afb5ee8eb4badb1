"""An answer with nothing checked says so plainly in every rendering (003.5, section D)."""

from __future__ import annotations

import pytest

from citeproof import verify
from citeproof.render import render_html, render_markdown, render_terminal
from citeproof.render._unanswered import NOT_ANSWERED
from citeproof.turn._evidence_first import NO_ANSWER
from tests.lending import EMAIL, POLICY

RENDERINGS = {"html": render_html, "md": render_markdown, "term": render_terminal}


@pytest.mark.parametrize("rendering", list(RENDERINGS))
@pytest.mark.parametrize(
    "text", [NO_ANSWER, "I'm sorry, the sources provided do not mention the Hartley fee."]
)
def test_a_model_that_cannot_answer_is_shown_as_not_answered_003_5(
    rendering: str, text: str
) -> None:
    shown = RENDERINGS[rendering](verify(text, [POLICY, EMAIL]))
    assert NOT_ANSWERED in shown
    assert "Checked answer" not in shown
    assert "could be checked" not in shown  # one message, not two


def test_the_page_heading_says_no_answer_instead_of_checked_003_5() -> None:
    page = render_html(verify(NO_ANSWER, [POLICY]))
    assert "<h1>No answer from the sources</h1>" in page
    assert "<title>No answer from the sources" in page


def test_prose_without_any_quote_is_headed_unchecked_and_says_why_003_5() -> None:
    page = render_html(verify("Hartley needs a senior underwriter's approval. [S9]", [POLICY]))
    assert "<h1>Unchecked answer</h1>" in page
    assert "Nothing in this answer could be checked" in page
    assert NOT_ANSWERED not in page


def test_prose_whose_claims_were_judged_is_a_checked_answer() -> None:
    # Its claim was judged against the cited passage: that is a check, though nothing quoted.
    page = render_html(verify("Hartley needs a senior underwriter's approval. [S1]", [POLICY]))
    assert "<h1>Checked answer</h1>" in page
    assert "could be checked" not in page and 'class="panel" id="note-1"' in page


def test_an_answer_with_a_quote_keeps_its_checked_heading_003_5() -> None:
    answer = verify('Declined: "Applications above 95% are declined." <cite:S1#p3>', [POLICY])
    page = render_html(answer)
    assert "<h1>Checked answer</h1>" in page
    assert NOT_ANSWERED not in page and "could be checked" not in page
