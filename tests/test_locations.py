"""Locations in the document's own terms (issue 46, item 4): a source's clause and section
numbers, its headings (Markdown, DOCX, HTML) and a PDF's pages are read at ingest and shown as
the reader's location in every rendering and in the JSON contract, the ¶ count kept there for
machines. The lending policy's "¶5" is its section 4: a reader is sent to "§4".
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import docx

from citeproof import verify
from citeproof.outcome import answer_to_json
from citeproof.render import render
from citeproof.sources import read_source_file
from tests.cli_runs import EXAMPLE_SOURCES, LENDING, invoke
from tests.mailfixtures import pages_pdf_bytes

WHEN = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_the_lending_policy_is_read_by_its_own_sections() -> None:
    policy = read_source_file(LENDING / "credit-policy.md", source_id="policy")
    assert policy.locations == (
        "Residential Credit Policy, revision 7",
        "§1 Scope",
        "§2 Loan-to-value",
        "§3 Affordability",
        "§4 Verification of income",
        "§5 Exceptions",
    )
    assert policy.location(5) == "§4 Verification of income"  # ¶5 is the policy's section 4


def test_every_rendering_sends_the_reader_to_the_policy_section() -> None:
    policy = read_source_file(LENDING / "credit-policy.md", source_id="policy")
    answer = verify(
        'The policy says "Self-employed applicants must provide two years of certified '
        'accounts or tax calculations" [policy ¶2]. Monthly debt payments may not exceed 40% '
        "of verified gross monthly income [policy ¶4].",
        [policy],
        now=WHEN,
    )
    contract = answer_to_json(answer)
    (quote,) = contract["quotes"]
    assert (quote["paragraph"], quote["location"]) == (5, "§4 Verification of income")
    passage = contract["claims"][1]["support"][0]["passage"]
    assert (passage["paragraph"], passage["location"]) == (4, "§3 Affordability")
    for format in ("term", "md", "html"):
        shown = render(answer, format)
        assert "§4 Verification of income" in shown, format
        assert "§3 Affordability" in shown, format
        assert "credit-policy.md (policy) ¶5" not in shown and "credit-policy.md ¶5" not in shown


PAGES = (
    ("1. Scope. This agreement governs the facility described in the schedule.",),
    (
        "12. Fees. An arrangement fee of 1% of the facility is payable on signing.",
        "12.1 Late payment. Interest on late payments accrues at 2% above base rate.",
    ),
)


def _pdf(path: Path) -> Path:
    path.write_bytes(pages_pdf_bytes(PAGES))
    return path


def test_a_pdf_quote_is_found_on_its_page_and_clause(tmp_path: Path) -> None:
    source = read_source_file(_pdf(tmp_path / "facility.pdf"), source_id="facility")
    answer = verify(
        'Late payments cost more: "Interest on late payments accrues at 2% above base rate" '
        "[facility].",
        [source],
        now=WHEN,
    )
    (quote,) = answer_to_json(answer)["quotes"]
    assert quote["status"] == "verified"
    assert quote["location"] == "page 2 · §12.1 Late payment"
    for format in ("term", "md", "html"):
        assert "page 2 · §12.1 Late payment" in render(answer, format), format


def test_docx_and_html_headings_and_numbers_name_their_paragraphs(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("Schedule 2: Security", level=1)
    document.add_paragraph("The borrower grants a first charge over the property.")
    document.add_paragraph("Clause 7.2 Insurance. The property must be insured at all times.")
    document.save(tmp_path / "schedule.docx")
    schedule = read_source_file(tmp_path / "schedule.docx")
    assert schedule.locations == (
        "Schedule 2: Security",
        "Schedule 2: Security",
        "§7.2 Insurance",
    )
    (tmp_path / "terms.html").write_text(
        "<html><body><h2>Repayment</h2><p>Repayments are due monthly.</p>"
        "<h2>4. Default</h2><p>Missing two repayments is a default.</p></body></html>",
        encoding="utf-8",
    )
    terms = read_source_file(tmp_path / "terms.html")
    assert terms.locations == ("Repayment", "Repayment", "§4 Default", "§4 Default")


def test_a_plain_text_without_numbering_keeps_its_paragraph_counts() -> None:
    memo = read_source_file(LENDING / "hartley-memo.txt", source_id="memo")
    assert memo.locations is None
    answer = verify(
        'The memo: "The applicant is self-employed and provided one year of certified '
        'accounts" [memo].',
        [memo],
        now=WHEN,
    )
    assert "hartley-memo.txt (memo) ¶2" in render(answer, "term")
    assert answer_to_json(answer)["quotes"][0]["location"] is None


def test_a_corrected_citation_names_the_sections_not_the_counts() -> None:
    policy = read_source_file(LENDING / "credit-policy.md", source_id="policy")
    memo = read_source_file(LENDING / "hartley-memo.txt", source_id="memo")
    answer = verify(
        'The policy says "Self-employed applicants must provide two years of certified '
        'accounts or tax calculations" [policy ¶2]. The memo: "The applicant is self-employed '
        'and provided one year of certified accounts" [memo ¶4].',
        [policy, memo],
        now=WHEN,
    )
    located, counted = answer_to_json(answer)["quotes"]
    (moved,) = located["corrections"]
    assert (moved["kind"], moved["before"], moved["after"]) == (
        "location",
        "policy §1 Scope",
        "policy §4 Verification of income",
    )
    assert moved["reason"] == "quote is in policy §4 Verification of income, not §1 Scope"
    assert (
        located["note"] == "found in §4 Verification of income, not the cited §1 Scope; corrected"
    )
    markdown = render(answer, "md")
    assert "was: “policy §1 Scope”, now: “policy §4 Verification of income”" in markdown
    assert "policy ¶2" not in markdown and "policy ¶2" not in render(answer, "term")
    # A source without its own numbering keeps the counts.
    (kept,) = counted["corrections"]
    assert (kept["before"], kept["after"]) == ("memo ¶4", "memo ¶2")
    assert kept["reason"] == "quote is in paragraph 2 of memo, not paragraph 4"


def test_verify_names_the_policy_sections_for_a_markdown_source_given_on_the_command_line() -> None:
    code, out, err = invoke(
        "verify", str(LENDING / "answer.md"), *EXAMPLE_SOURCES, "--format", "json"
    )
    assert code == 0, err
    located = {q["paragraph"]: q["location"] for q in json.loads(out)["quotes"] if q["source"]}
    assert located[5] == "§4 Verification of income" and located[3] == "§2 Loan-to-value"
