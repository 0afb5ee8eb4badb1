"""A bracket that names one of the turn's sources is a citation however the name is written
(003.1, 012.2): ``[Contract]``, ``[ACME]``, ``[src]``, ``[note]``, ``[Q3 Report]`` by title. The
marker grammar alone reads a capitalised word or an editor's word as template text, so before
this a claim citing a source named that way was never judged, a citation to an excluded source
named that way was never refused, and ``--fail-on claim`` passed a contradicted claim."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof import Source, verify
from citeproof.model import Eligibility, Exclusion
from citeproof.verifier.parse import parse_answer
from tests.cli_runs import invoke

CONTRACT = (
    "Either party may terminate this agreement by giving the other ninety (90) days' written "
    "notice.\n\n"
    "The Supplier's total liability in any contract year is capped at the fees paid in that "
    "year."
)


def labels(answer: str, names: tuple[str, ...] = ()) -> list[tuple[str, int | None]]:
    return [(c.label, c.paragraph) for c in parse_answer(answer, names).citations]


@pytest.mark.parametrize("name", ["Contract", "ACME", "Policy_2024", "src", "ref", "note"])
def test_a_source_named_like_template_text_is_cited_by_its_name_003_1(name: str) -> None:
    answer = f"Liability is capped [{name}]."
    assert labels(answer) == []  # the grammar alone: template text, as before
    assert labels(answer, (name,)) == [(name, None)]
    assert labels(answer, (name.upper(),)) == [(name, None)]  # names compare case folded


def test_names_mix_with_ids_and_paragraphs_and_other_brackets_stay_text_003_1() -> None:
    names = ("Contract", "Memo")
    assert labels("See [Contract ¶2, Memo].", names) == [("Contract", 2), ("Memo", None)]
    assert labels("See [Contract, p. 2; S3].", names) == [("Contract", 2), ("S3", None)]
    assert labels("See [Contract and memo].", names) == [("Contract", None), ("memo", None)]
    assert labels("See [Source: Contract].", names) == [("Contract", None)]
    assert labels("See [source: memo ¶3; Document: Contract].", names) == [
        ("memo", 3),
        ("Contract", None),
    ]
    assert labels("See [Contract § 12.1; Memo, section 3].", names) == [
        ("Contract", None),
        ("Memo", None),
    ]
    # Not a source of the turn, or not names alone: left as written.
    assert labels("[Note] [sic] [Contract draft] [Contract, citation needed]", names) == []
    assert labels("[Contract](https://example.com/contract)", names) == []


def test_a_source_named_after_source_colon_is_cited_even_when_not_given_012_2() -> None:
    assert labels("Approved [Source: Board Minutes].") == [("Board Minutes", None)]
    assert labels("Approved [Source: 2-4].") == [("2", None), ("3", None), ("4", None)]
    assert labels("Approved [Sources: Board Minutes, p. 4; Memo].") == [
        ("Board Minutes", 4),
        ("Memo", None),
    ]
    contract = Source(id="Contract", kind="document", text=CONTRACT)
    verified = verify(
        'The board "approved the budget" [Source: Board Minutes]. Notice is 90 days '
        "[Source: Contract].",
        [contract],
    )
    assert [q.status for q in verified.quotes] == ["ineligible"]
    assert "cites Board Minutes, which was not provided" in verified.quotes[0].note
    assert [[(c.source, c.status) for c in claim.citations] for claim in verified.claims] == [
        [("Board Minutes", "ineligible")],
        [("Contract", "ok")],
    ]


def test_a_footnote_naming_a_source_by_name_or_after_source_colon_cites_it_003_1() -> None:
    answer = (
        "Approved.[^1] Signed.[^2] Shipped.[^3]\n\n"
        "[^1]: Source: Contract\n[^2]: Q3 Report, section 3\n[^3]: Source: Board Minutes\n"
    )
    assert labels(answer, ("Contract", "Q3 Report")) == [
        ("Contract", None),
        ("Q3 Report", None),
        ("Board Minutes", None),
    ]


def test_a_name_written_with_spaces_for_hyphens_cites_its_source_012_2() -> None:
    """A file's source id is its name ("harlow-board-minutes"); an LLM shown it writes "[Harlow
    Board Minutes]". Case and punctuation aside, that is the same name."""
    minutes = Source(id="harlow-board-minutes", kind="document", text="The board approved it.")
    for marker in (
        "[Harlow Board Minutes]",
        "[harlow_board_minutes ¶1]",
        "[Source: Harlow Board Minutes]",
    ):
        (claim,) = verify(f"The board approved it {marker}.", [minutes]).claims
        assert [(c.source, c.status) for c in claim.citations] == [("harlow-board-minutes", "ok")]
        assert claim.verdict == "supported"


def test_a_title_with_spaces_cites_its_source_012_2() -> None:
    report = Source(id="r3", kind="document", text="Revenue rose 8% in the third quarter.")
    (claim,) = verify("Revenue rose 8% in the third quarter [Q3 Report].", [report]).claims
    assert claim.citations == ()  # the source has no such title: template text
    titled = Source(id="r3", kind="document", title="Q3 Report", text=report.text)
    (claim,) = verify("Revenue rose 8% in the third quarter [Q3 Report].", [titled]).claims
    assert [(c.source, c.status) for c in claim.citations] == [("r3", "ok")]
    assert claim.verdict == "supported"


def test_a_capitalised_claim_citation_is_judged_against_its_source_020() -> None:
    contract = Source(id="Contract", kind="document", text=CONTRACT)
    verified = verify("The Supplier's liability is unlimited [Contract].", [contract])
    (claim,) = verified.claims
    assert [(c.source, c.status) for c in claim.citations] == [("Contract", "ok")]
    assert claim.verdict == "contradicted"


def test_a_citation_to_an_excluded_source_by_its_capitalised_id_is_refused_012_2() -> None:
    contract = Source(id="Contract", kind="document", text=CONTRACT)
    board = Source(id="Board-Minutes", kind="email_body", text="The board approved the budget.")
    eligibility = Eligibility(
        ("Contract",), (Exclusion("Board-Minutes", "acl", "not in the asker's access list"),), "f"
    )
    verified = verify(
        'The board "approved the budget" [Board-Minutes].',
        [contract, board],
        eligibility=eligibility,
    )
    (quote,) = verified.quotes
    assert quote.status == "ineligible"
    assert "not in the asker's access list" in quote.note


def test_fail_on_claim_fails_a_contradicted_claim_citing_a_capitalised_name(
    tmp_path: Path,
) -> None:
    contract = tmp_path / "msa.txt"
    contract.write_text(CONTRACT, encoding="utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text(
        "Either party can end the agreement on 90 days' written notice [MSA]. "
        "The Supplier's liability is unlimited [MSA].\n",
        encoding="utf-8",
    )
    code, out, _ = invoke(
        "verify", str(answer), "--source", f"MSA={contract}", "--fail-on", "claim",
        "--format", "json", "--out", str(tmp_path / "verified.json"),
    )  # fmt: skip
    assert code == 1, out
    record = (tmp_path / "verified.json").read_text(encoding="utf-8")
    assert '"verdict": "contradicted"' in record
    assert '"marker": "[MSA]"' in record


def test_a_marker_inside_a_claim_parts_the_words_it_stands_between_020() -> None:
    """Claim support reads a claim with its markers blanked out; the words on either side of
    one are two stretches, not "Mixed               cite" as one difference."""
    contract = Source(id="msa", kind="document", text=CONTRACT)
    other = Source(id="2", kind="document", text="Mixed sources cite both.")
    verified = verify("Mixed [msa, 2] cite both.", [contract, other])
    (claim,) = verified.claims
    by_source = {s.source: s for s in claim.support}
    assert [d.text for d in by_source["msa"].differences] == ["Mixed", "cite"]


def test_an_id_that_is_a_word_stays_a_word_of_the_claim_020() -> None:
    """A source cited by a plain word ("lease") keeps that word in the claim its support is
    judged on: "Under the lease, ..." frames the claim, where blanking the id left "Under
    the      ," for the rules to read as a direction the passage does not give."""
    lease = Source(
        id="lease",
        kind="document",
        text="1.2 The Tenant must pay the rent quarterly in advance.",
    )
    verified = verify(
        "Under the lease, the Tenant must pay the rent quarterly in advance [lease].", [lease]
    )
    (claim,) = verified.claims
    (support,) = claim.support
    assert (support.verdict, support.rule) == ("supported", "confirmed")
