"""An email is never rewritten (003.7, 011.2): not when it holds the quote, and not when it
is the source the answer cites while the closest words sit in a document.

The person must see what the model said about an email, so a quote citing an email is kept
as written and flagged, even when a document of the turn has nearly the same words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from citeproof import Policy, verify
from tests.lending import POLICY, SOURCES

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

# The policy's words with one figure changed: the email (S2) does not hold them, the policy
# (S1) holds them with another number.
CHANGED_NUMBER = (
    "Applications with a loan-to-value ratio above 85% must be referred to a senior underwriter"
)
CHANGED_WORD = (
    "Applications with a loan-to-value ratio above 80% must be refered to a senior underwriter"
)


@pytest.mark.parametrize(
    ("written", "citation_status"),
    [(CHANGED_NUMBER, "meaning_changed"), (CHANGED_WORD, "flagged")],
)
def test_a_quote_citing_an_email_is_kept_as_written_when_a_document_holds_its_words_003_7(
    written: str, citation_status: str
) -> None:
    answer = f'Dan wrote that "{written}" [S2].'
    result = verify(answer, SOURCES, policy=Policy(), now=NOW)
    (quote,) = result.quotes
    assert quote.status == "mismatch"
    assert quote.cited_source == "S2"
    assert quote.source == "S1"  # where the closest words are, shown to the person
    assert quote.corrected_text == written
    assert quote.corrections == ()
    assert result.text == answer  # neither the words nor the citation were rewritten
    assert "kept as written because S2 is an email body" in quote.note
    assert POLICY.text[slice(*quote.source_span)].startswith("Applications with a loan-to-value")
    (claim,) = result.claims
    # The citation stays on the email: flagged, or marked as saying what its source does not.
    assert [(c.source, c.status) for c in claim.citations] == [("S2", citation_status)]
    assert quote.meaning_changed == (citation_status == "meaning_changed")


def test_the_same_quote_citing_the_document_is_corrected_to_its_words_003_6() -> None:
    # The control: what the email rule prevents is what happens to a document.
    result = verify(f'The policy says "{CHANGED_WORD}" [S1].', SOURCES, policy=Policy(), now=NOW)
    (quote,) = result.quotes
    assert quote.status == "corrected"
    assert quote.corrected_text == CHANGED_WORD.replace("refered", "referred")
