"""``citeproof verify --from VENDOR RESPONSE.json``: the same verified, rendered, audited answer
as any verify (F.4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeproof.cli import main
from tests.adapters.fixtures import path

RUNS = [
    ("anthropic", "anthropic-response-policy", "anthropic-request-policy", []),
    ("anthropic", "anthropic-response-pdf", "anthropic-request-pdf", []),
    ("openai", "openai-response-file-search", None, []),
    ("openai", "openai-chat-completion-web-search", None, ["--source", "web-1={page}"]),
    ("gemini", "gemini-response-rag", None, []),
    ("gemini", "gemini-response-search-emoji-cjk", None, ["--source", "chunk-0={page}"]),
    ("cohere", "cohere-response-penguins", "cohere-request-penguins", []),
    ("mistral", "mistral-response-nobel", "mistral-request-nobel", []),
    ("perplexity", "perplexity-response-rates", None, []),
]


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("vendor", "response", "request_name", "extra"), RUNS, ids=[r[1] for r in RUNS]
)
def test_every_vendor_fixture_verifies_from_the_command_line_F_4(
    tmp_path: Path, vendor: str, response: str, request_name: str | None, extra: list[str]
) -> None:
    page = tmp_path / "page.txt"
    page.write_text("Bank Rate was cut to 4.5% on 6 February 2025.\n", encoding="utf-8")
    args = ["verify", "--from", vendor, str(path(response)), "--format", "json"]
    if request_name:
        args += ["--request", str(path(request_name))]
    args += [item.format(page=page) for item in extra]
    code, out, err = invoke(*args)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["claims"] and all(claim["citations"] for claim in answer["claims"])
    assert err.startswith(f"{vendor}: ")


def test_the_anthropic_verdicts_and_the_wrong_location_are_shown_F_4_011_1() -> None:
    code, out, err = invoke(
        "verify",
        "--from",
        "anthropic",
        str(path("anthropic-response-policy")),
        "--request",
        str(path("anthropic-request-policy")),
        "--format",
        "json",
    )
    assert code == 0, err
    statuses = [q["status"] for q in json.loads(out)["quotes"]]
    assert statuses[0] == "verified" and statuses[2] == "corrected"
    assert "anthropic: 3 citations (1 verbatim, 1 not verbatim, 1 moved)" in err
    assert "off by +12 characters" in err


def test_the_audit_record_keeps_the_vendor_citations_in_all_three_units_F_4(
    tmp_path: Path,
) -> None:
    log = tmp_path / "audit.db"
    code, _, err = invoke(
        "verify",
        "--from",
        "gemini",
        str(path("gemini-response-rag")),
        "--audit",
        str(log),
    )
    assert code == 0, err
    request_id = err.split("audit: request ")[1].split()[0]
    code, shown, _ = invoke("audit", "show", request_id, "--audit", str(log))
    assert code == 0
    record = json.loads(shown)
    text = json.dumps(record, ensure_ascii=False)
    assert '"from": "gemini"' in text
    assert '"utf8": [' in text and '"utf16": [' in text
    code, _, _ = invoke("audit", "verify", "--audit", str(log))
    assert code == 0


def test_a_response_with_no_source_text_asks_for_the_sources_F_4() -> None:
    code, _, err = invoke("verify", "--from", "openai", str(path("openai-response-web-search")))
    assert code == 1
    assert "--source web-1=FILE" in err and "carries no source text" in err


def test_request_is_refused_where_it_holds_nothing_to_read_F_4() -> None:
    code, _, err = invoke(
        "verify",
        "--from",
        "gemini",
        str(path("gemini-response-rag")),
        "--request",
        str(path("cohere-request-penguins")),
    )
    assert code == 1 and "the gemini request holds nothing the conversion reads" in err
    code, _, err = invoke("verify", str(path("gemini-response-rag")), "--request", __file__)
    assert code == 2 and "--request goes with --from" in err


def test_a_file_that_is_not_json_is_named_in_the_error_F_5(tmp_path: Path) -> None:
    broken = tmp_path / "response.json"
    broken.write_text('{"content": [', encoding="utf-8")
    code, _, err = invoke("verify", "--from", "anthropic", str(broken))
    assert code == 1
    assert f"{broken}: the anthropic response is not valid JSON" in err
    assert "line 1, column 14" in err
