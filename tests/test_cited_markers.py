"""A verified citation says where its marker was written and which quotes it carries, so later
stages (evidence, validation) never parse the answer again (issue 7; 003.9, ADR 1)."""

from __future__ import annotations

from citeproof import Source, verify
from citeproof.outcome import build_evidence

POLICY = Source(
    id="S1",
    kind="document",
    text="Loans above 80% loan-to-value are referred.\n\nApplications above 95% are declined.",
)


def test_a_marker_knows_its_written_place_and_the_quotes_it_carries_003_9() -> None:
    answer = (
        'Referral applies [S1, ¶1]. The policy: "Applications above 95% are declined." [S1, ¶1]'
    )
    verified = verify(answer, [POLICY])
    cited = [c for claim in verified.claims for c in claim.citations]
    assert [answer[slice(*c.written_span)] for c in cited] == ["[S1, ¶1]", "[S1, ¶1]"]
    assert [c.quote_ids for c in cited] == [(), ("q1",)]
    # The quote was found at paragraph 2: its marker moved, the quote-less one did not.
    assert [verified.text[slice(*c.answer_span)] for c in cited] == ["[S1, ¶1]", "[S1 ¶2]"]


def test_evidence_for_a_quote_less_citation_comes_from_the_marker_itself_adr1() -> None:
    answer = 'Referral applies [S1, ¶1]. The policy: "Applications above 95% are declined." [S1]'
    bundle = build_evidence(verify(answer, [POLICY]))
    by_quote = {item.quote_id: item for item in bundle}
    assert by_quote[None].excerpt == "Loans above 80% loan-to-value are referred."
    assert by_quote["q1"].excerpt == "Applications above 95% are declined."
    assert len(bundle) == 2
