"""One identity per claim and quote across every output of one verify (issue 46, item 3).

The example answer verified once per output (the terminal, Markdown, the answer page, the JSON
contract with its audit record, the operations report read from that record, and the review
app's page for the same answer verified through ``citeproof serve --dev``) must number its
claims and name its quotes the same everywhere, and count the same claims: "11 claims" on the
page is the coverage's 11, not a count of every sentence (the question heading and "Yes."
assert nothing and carry no number).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from citeproof.audit import open_store
from citeproof.operations import logged_records
from citeproof.outcome import payload_with_texts
from tests.cli_runs import EXAMPLE_SOURCES, LENDING, invoke
from tests.server.conftest import start_server
from tests.server.lines import body
from tests.test_render import flat, parse

ANSWER = str(LENDING / "answer.md")


def _verify(format: str, *extra: str) -> tuple[str, str]:
    code, out, err = invoke("verify", ANSWER, *EXAMPLE_SOURCES, "--format", format, *extra)
    assert code == 0, err
    return out, err


def _contract(tmp_path: Path) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The JSON output, the evidence line on stderr, and the audit record it was logged as."""
    audit = str(tmp_path / "audit.db")
    out, err = _verify("json", "--audit", audit)
    with open_store(audit) as log:
        records = [r.payload for r in logged_records(log) if r.is_answer]
    assert len(records) == 1
    return json.loads(out), err, records[0]


def _reviewed(tmp_path: Path, record: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The same answer over the same sources (as the audit record holds them) verified through
    ``/v1/verify`` of ``citeproof serve --dev``: its JSON reply and its ``/review/{id}`` page."""
    with open_store(str(tmp_path / "audit.db")) as log:
        sources = payload_with_texts(record, log)["sources"]
    fields = ("id", "kind", "text", "title", "doc_id", "version", "url", "paragraphs", "locations")
    line = {
        "id": "one-numbering",
        "answer": Path(ANSWER).read_text(encoding="utf-8"),
        "sources": [{name: source[name] for name in fields} for source in sources],
    }
    for server in start_server(tmp_path / "review", "--dev"):
        with server.client() as http:
            posted = http.post(
                "/v1/verify", content=body(line), headers={"Content-Type": "application/json"}
            )
            assert posted.status_code == 200, posted.text
            page = http.get("/review/one-numbering")
            assert page.status_code == 200, page.text
            return posted.json(), page.text
    raise AssertionError("the server did not start")


def _summary(html: str) -> str:
    """The page's counts: ``11 claims: 4 supported, ...; 8 quotes: 2 verified, ...``."""
    found = re.search(r"(\d+ claims: [^<]*)</p>", html)
    assert found is not None
    return found.group(1)


def _check_page(
    html: str,
    claims: dict[int, dict[str, Any]],
    quote_ids: list[str],
    claim_of_quote: dict[str, int],
) -> None:
    """Marker k opens panel k, which shows claim k and its own quotes, each under its id."""
    n = len(claims)
    assert f"{n} claims: " in html
    root = parse(html).root
    markers = [
        int(a.attrs["id"].removeprefix("ref-"))
        for a in root.find_all("a")
        if a.attrs.get("id", "").startswith("ref-")
    ]
    assert markers == list(range(1, n + 1))
    panels = {
        int(s.attrs["id"].removeprefix("note-")): s
        for s in root.find_all("section")
        if s.attrs.get("id", "").startswith("note-")
    }
    assert sorted(panels) == list(range(1, n + 1))
    for k, panel in panels.items():
        said = next(p for p in panel.find_all("p") if "claim-text" in p.attrs.get("class", ""))
        written = re.sub(r"\s*\[[^\]]*\]", "", claims[k]["text"])
        assert _shown(flat(said.text()))[:30] == _shown(written)[:30], k
        checks = [
            d.attrs["id"].removeprefix("check-")
            for d in panel.find_all("div")
            if d.attrs.get("id", "").startswith("check-")
        ]
        assert checks == [q for q in quote_ids if claim_of_quote[q] == k]
        for quote_id in checks:
            check = next(
                d for d in panel.find_all("div") if d.attrs.get("id") == f"check-{quote_id}"
            )
            assert flat(check.text()).startswith(quote_id)


def _numbers(answer: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {c["number"]: c for c in answer["claims"] if c["number"] is not None}


def _shown(text: str) -> str:
    """A claim's words as the renderings shorten them: the start, whitespace folded."""
    return re.sub(r"\s+", " ", text).strip()[:40]


def test_every_output_numbers_and_counts_the_same_claims_and_quotes(tmp_path: Path) -> None:
    contract, evidence_line, record = _contract(tmp_path)
    claims = _numbers(contract)
    n = len(claims)
    assert sorted(claims) == list(range(1, n + 1)) and n == 11
    # Reading order: numbers follow the claims' places in the text.
    starts = [claims[k]["span"][0] for k in sorted(claims)]
    assert starts == sorted(starts)
    unnumbered = [c["text"] for c in contract["claims"] if c["number"] is None]
    assert unnumbered == ["**Does the Hartley application need a senior underwriter?**", "Yes."]
    claim_of_quote = {
        q["id"]: next(k for k, c in claims.items() if c["id"] == q["claim_id"])
        for q in contract["quotes"]
    }
    quote_ids = [q["id"] for q in contract["quotes"]]

    # The audit record holds the same answer, numbers included, and counts the same claims.
    assert record["answer"] == contract
    assert record["validation"]["coverage"]["claims"] == n
    gaps = record["validation"]["coverage"]["gaps"]
    gap_numbers = [k for k, c in claims.items() if c["id"] in gaps]
    assert f"coverage {n - len(gaps)}/{n} claims" in evidence_line
    assert f"(gaps: claims {', '.join(map(str, gap_numbers))})" in evidence_line
    # ... and so does the operations report read from it.
    code, out, _ = invoke("report", "--audit", str(tmp_path / "audit.db"), "--format", "json")
    assert code == 0 and json.loads(out)["coverage"]["claims"] == n

    # Terminal: the count, each claim under its number with its words, each quote's claim.
    term, _ = _verify("term")
    assert re.search(rf"^{n} claims\. ", term, re.MULTILINE)
    listed = re.findall(r"^  claim (\d+) [^:]+: (.+)$", term, re.MULTILINE)
    assert [int(k) for k, _ in listed] == list(range(1, n + 1))
    for k, words in listed:
        assert _shown(claims[int(k)]["text"])[:30] in words
    rows = re.findall(r"^  (q\d+) +(\d+|—) ", term, re.MULTILINE)
    assert [q for q, _ in rows] == quote_ids
    assert {q: int(k) for q, k in rows} == claim_of_quote

    # Markdown: the badge beside each claim and its "show passage" name the same number.
    markdown, _ = _verify("md")
    inline = [int(k) for k in re.findall(r"\*claim (\d+): ", markdown)]
    assert inline == list(range(1, n + 1))
    passages = re.findall(r"show passage · claim (\d+) [^:]+: “(.+?)…?”", markdown)
    assert [int(k) for k, _ in passages] == list(range(1, n + 1))
    expanders = re.findall(r"show source · (q\d+) ", markdown)
    assert expanders == quote_ids

    # The answer page: marker k opens panel k, which shows claim k and its own quotes.
    html, _ = _verify("html")
    _check_page(html, claims, quote_ids, claim_of_quote)

    # The review app, over the same answer verified through the service: the same numbers,
    # quote ids and counts, in its reply and on its page.
    served, review = _reviewed(tmp_path, record)
    assert _numbers(served).keys() == claims.keys()
    assert all(_numbers(served)[k]["id"] == claims[k]["id"] for k in claims)
    assert [q["id"] for q in served["quotes"]] == quote_ids
    assert [q["claim_id"] for q in served["quotes"]] == [q["claim_id"] for q in contract["quotes"]]
    assert served["claim_counts"] == contract["claim_counts"]
    _check_page(review, claims, quote_ids, claim_of_quote)
    assert _summary(review) == _summary(html)
