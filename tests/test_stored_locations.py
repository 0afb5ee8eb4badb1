"""Locations kept by the source store (issue 46, item 4): a PDF's pages and a Markdown
document's clauses, read at `citeproof ingest`, are stored with each version, so `citeproof
ask` over the store sends the reader to "page 2 · §12.1" and "§2", not to a ¶ count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_runs import invoke
from tests.mailfixtures import pages_pdf_bytes

TERMS = (
    "# Facility terms\n\n"
    "1. Scope. These terms govern the Hartley bridging facility.\n\n"
    "2. Arrangement fee. An arrangement fee of 1% of the facility is payable on signing.\n\n"
    "3. Early repayment. The borrower may repay early on thirty days' written notice.\n"
)
PAGES = (
    ("1. Scope. This agreement governs the facility described in the schedule.",),
    (
        "12. Fees. The commitment fee is charged quarterly in arrears.",
        "12.1 Late payment. Interest on late payments accrues at 2% above base rate.",
    ),
)


def _pdf(path: Path) -> Path:
    path.write_bytes(pages_pdf_bytes(PAGES))
    return path


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stored-locations")
    (folder / "facility-terms.md").write_text(TERMS, encoding="utf-8")
    _pdf(folder / "facility.pdf")
    path = folder / "store.db"
    code, out, err = invoke(
        "ingest", str(folder / "facility-terms.md"), str(folder / "facility.pdf"), "--store",
        str(path),
    )  # fmt: skip
    assert code == 0 and "2 sources added" in out, err
    return path


def _ask(store: Path, question: str, format: str) -> str:
    code, out, err = invoke(
        "ask", question, "--store", str(store), "--provider", "extractive", "--format", format
    )
    assert code == 0, err
    return out


def test_ask_over_a_stored_pdf_names_its_page_and_clause(store: Path) -> None:
    question = "How much interest accrues on late payments?"
    for format in ("term", "md", "html"):
        shown = _ask(store, question, format)
        assert "page 2 · §12.1 Late payment" in shown, format
        assert "facility.pdf ¶3" not in " ".join(shown.split()), format
    contract = json.loads(_ask(store, question, "json"))
    quote = next(q for q in contract["quotes"] if "Interest on late payments" in q["text"])
    assert (quote["paragraph"], quote["location"]) == (3, "page 2 · §12.1 Late payment")


def test_ask_over_a_stored_markdown_document_names_its_clause(store: Path) -> None:
    question = "What is the arrangement fee?"
    shown = _ask(store, question, "term")
    assert "§2 Arrangement fee" in shown
    assert "Facility terms ¶3" not in " ".join(shown.split())
    (quote,) = json.loads(_ask(store, question, "json"))["quotes"]
    assert (quote["paragraph"], quote["location"]) == (3, "§2 Arrangement fee")
