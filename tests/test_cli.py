"""`citeproof verify` as a user runs it: files in, a rendering or JSON records out."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from citeproof.outcome import answer_to_json
from tests.cli_runs import EXAMPLE_SOURCES, invoke
from tests.lending import EMAIL, MEMO, POLICY

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "src" / "citeproof" / "schema"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "lending"
OUTPUT_SCHEMA = json.loads((SCHEMA_DIR / "verified-answer.schema.json").read_text())
INPUT_SCHEMA = json.loads((SCHEMA_DIR / "batch-line.schema.json").read_text())


def source_json(source: object) -> dict[str, object]:
    data = {k: getattr(source, k) for k in ("id", "kind", "text", "title")}
    return data


def test_example_answer_as_json_matches_the_schema_and_every_status_appears_003_4() -> None:
    code, out, err = invoke(
        "verify", str(EXAMPLES / "answer.md"), *EXAMPLE_SOURCES, "--format", "json"
    )
    assert code == 0, err
    record = json.loads(out)
    jsonschema.validate(record, OUTPUT_SCHEMA)
    statuses = {q["status"] for q in record["quotes"]}
    assert statuses == {"verified", "corrected", "mismatch", "ineligible"}
    by_text = {q["text"][:30]: q for q in record["quotes"]}
    email = by_text["the valuation came back at £41"]
    assert email["status"] == "mismatch"
    assert email["source"] == "email"
    memo = by_text["Approval of the single year of"]
    assert (memo["status"], memo["source"]) == ("corrected", "memo")
    assert "[memo]" in record["text"]
    assert record["original"] == (EXAMPLES / "answer.md").read_text(encoding="utf-8")


def test_example_answer_renders_as_html_with_show_source_003_5(tmp_path: Path) -> None:
    out = tmp_path / "answer.html"
    code, _, err = invoke(
        "verify",
        str(EXAMPLES / "answer.md"),
        *EXAMPLE_SOURCES,
        "--format",
        "html",
        "--out",
        str(out),
    )
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert 'class="panel" id="note-1"' in page and 'href="#note-1"' in page
    assert "before an offer is issued" in page


def test_terminal_summary_names_each_status_003_5() -> None:
    code, out, err = invoke("verify", str(EXAMPLES / "answer.md"), *EXAMPLE_SOURCES)
    assert code == 0, err
    for word in ("Verified", "Corrected", "Kept as written", "Not provided"):
        assert word in out


def test_sources_json_file_is_accepted(tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text('"Applications above 95% are declined." [S1]', encoding="utf-8")
    sources = tmp_path / "sources.json"
    sources.write_text(json.dumps([source_json(POLICY), source_json(EMAIL)]), encoding="utf-8")
    code, out, err = invoke("verify", str(answer), "--sources", str(sources), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["quotes"][0]["status"] == "verified"


def test_invalid_utf8_answer_is_named_with_its_byte(tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_bytes(b'"ok" [S1]\n\xff\xfe broken')
    code, _, err = invoke("verify", str(answer), "--source", f"S1={EXAMPLES / 'hartley-memo.txt'}")
    assert code == 1
    assert "answer.txt" in err
    assert "invalid UTF-8 at byte 10 (line 2)" in err


def test_missing_sources_is_a_usage_error(tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("text", encoding="utf-8")
    code, _, err = invoke("verify", str(answer))
    assert code == 1
    assert "no sources" in err


def test_batch_keeps_good_lines_around_bad_ones(tmp_path: Path) -> None:
    good = {
        "id": "a1",
        "answer": '"Applications above 95% are declined." [S1]',
        "sources": [source_json(POLICY)],
    }
    second = {
        "id": "a3",
        "answer": 'The memo: "provided one year of certified accounts" [S3]',
        "sources": [source_json(MEMO)],
        "policy": {"ineligible_citations": "remove"},
    }
    for line in (good, second):
        jsonschema.validate(line, INPUT_SCHEMA)
    huge = {"id": "big", "answer": "x" * 5_000_000, "sources": [source_json(POLICY)]}
    lines = [
        json.dumps(good),
        '{"id": "broken", "answer": ',
        json.dumps(
            {"id": "a2", "answer": "x", "sources": [{"id": "S1", "kind": "pdf", "text": "t"}]}
        ),
        json.dumps({"id": "a4", "answer": "x", "sources": []}),
        json.dumps(second),
        json.dumps(huge),
    ]
    batch = tmp_path / "in.jsonl"
    batch.write_bytes(("\n".join(lines) + "\n").encode() + b'{"id": "\xff"}\n')
    out = tmp_path / "out.jsonl"
    code, _, err = invoke("verify", "--batch", str(batch), "--out", str(out))
    assert code == 1
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r.get("id") for r in records] == ["a1", None, "a2", "a4", "a3", "big", None]
    assert records[0]["quotes"][0]["status"] == "verified"
    assert records[4]["quotes"][0]["status"] == "verified"
    assert records[4]["policy"]["ineligible_citations"] == "remove"
    for record in (records[0], records[4]):
        jsonschema.validate(record, OUTPUT_SCHEMA)
    assert records[1]["line"] == 2 and "not valid JSON" in records[1]["error"]["message"]
    assert records[2]["line"] == 3 and records[2]["error"]["field"] == "sources.0.kind"
    assert records[3]["line"] == 4 and records[3]["error"]["field"] == "sources"
    assert records[5]["line"] == 6 and records[5]["error"]["field"] == "answer"
    assert "limit is 1,000,000" in records[5]["error"]["message"]
    assert records[6]["line"] == 7 and "invalid UTF-8" in records[6]["error"]["message"]
    assert "2 answers verified, 5 lines rejected" in err


def test_batch_needs_an_output_file(tmp_path: Path) -> None:
    batch = tmp_path / "in.jsonl"
    batch.write_text("", encoding="utf-8")
    code, _, err = invoke("verify", "--batch", str(batch))
    assert code == 2
    assert "--out" in err


@pytest.mark.parametrize("fmt", ["html", "md", "term", "json"])
def test_every_format_shows_the_corrected_wording_003_9(fmt: str) -> None:
    code, out, err = invoke(
        "verify", str(EXAMPLES / "answer.md"), *EXAMPLE_SOURCES, "--format", fmt
    )
    assert code == 0, err
    assert "before an offer is issued" in out


def test_json_spans_come_in_utf16_for_browsers() -> None:
    from citeproof import verify

    answer = '😀 "Applications above 95% are declined." [S1]'
    record = answer_to_json(verify(answer, [POLICY]))
    quote = record["quotes"][0]
    assert quote["answer_span"] == [3, 39]
    assert quote["answer_span_utf16"] == [4, 40]
