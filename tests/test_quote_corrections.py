"""What a correction writes into the answer (003.9, 011.4, 012.2): the words, the markers, and
every span of the corrected answer, however many edits come before it."""

from __future__ import annotations

from datetime import UTC, datetime

from citeproof import Policy, verify
from tests.lending import SOURCES

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
OSEI = "Approval of the single year of accounts was given by M. Osei"


def test_an_uncited_block_quote_gets_its_citation_at_the_end_of_its_line_003_3() -> None:
    result = verify(f"The memo:\n\n> {OSEI}\n\nThat is all.", SOURCES, now=NOW)
    assert result.quotes[0].status == "corrected"
    assert result.text == f"The memo:\n\n> {OSEI} [S3 ¶3]\n\nThat is all."


def test_removing_a_marker_keeps_the_eligible_citations_it_carried_012_2() -> None:
    answer = 'It says "the base rate is 4.25%" [S1, S7].'
    removed = verify(answer, SOURCES, policy=Policy(ineligible_citations="remove"), now=NOW)
    assert removed.text == 'It says "the base rate is 4.25%" [S1].'
    statuses = [(c.source, c.status) for c in removed.claims[0].citations]
    assert statuses == [("S1", "ok"), ("S7", "removed")]
    kept = verify(answer, SOURCES, now=NOW)
    assert kept.text == answer
    assert [(c.source, c.status) for c in kept.claims[0].citations] == [
        ("S1", "ok"),
        ("S7", "ineligible"),
    ]


def test_every_span_points_into_the_corrected_answer_after_many_edits_003_9() -> None:
    answer = (
        f'First "Applications above 95% are declned" [S1 ¶2] and "{OSEI}" [S1]. '
        'Then "must not exceed 45% of the verified gross monthly income" [S1].'
    )
    result = verify(answer, SOURCES, now=NOW)
    assert result.text == (
        f'First "Applications above 95% are declined" [S1 ¶3] and "{OSEI}" [S3]. '
        'Then "must not exceed 45% of verified gross monthly income" [S1].'
    )
    first, second = result.claims
    assert result.text[slice(*first.span)] == first.text
    assert first.text.startswith("First ") and first.text.endswith("[S3].")
    assert (
        result.text[slice(*second.span)]
        == second.text
        == ('Then "must not exceed 45% of verified gross monthly income" [S1].')
    )
    cited = [(c.source, c.status, result.text[slice(*c.answer_span)]) for c in first.citations]
    assert cited == [("S1", "corrected", "[S1 ¶3]"), ("S3", "corrected", "[S3]")]
    assert [result.text[slice(*c.answer_span)] for c in second.citations] == ["[S1]"]
    for quote in result.quotes:
        assert result.text[slice(*quote.corrected_span)] == quote.corrected_text
        assert answer[slice(*quote.answer_span)] == quote.text
