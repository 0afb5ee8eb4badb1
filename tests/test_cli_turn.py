"""The whole turn and the audit trail from the command line: ingest, ask, verify --audit,
audit verify and audit replay (012.1, 012.3; issue 4 ADR 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citeproof.providers._weights import QWEN_1_5B
from tests.cli_runs import EXAMPLE_SOURCES, invoke
from tests.conftest import PgSchemas, require_model

ROOT = Path(__file__).resolve().parents[1]
MAILBOX = ROOT / "examples" / "mailbox"
LENDING = ROOT / "examples" / "lending"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store") / "sources.db"
    code, out, err = invoke("ingest", str(MAILBOX), "--store", str(path))
    assert code == 0, err
    assert "6 files ingested" in out
    return path


@pytest.fixture(scope="module")
def trusted_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mailbox ingested as genuine mail: its messages (and so their attachments) are
    identified by Message-ID, not by the file's path, so the source ids the model is shown
    are the same in every checkout. The embedded model's greedy answer follows the prompt
    token by token, ids included: with path-derived ids it moved with the folder the tests
    ran from."""
    path = tmp_path_factory.mktemp("trusted") / "sources.db"
    code, out, err = invoke("ingest", str(MAILBOX), "--store", str(path), "--trusted", str(MAILBOX))
    assert code == 0, err
    assert "6 files ingested" in out
    return path


def test_ask_with_the_extractive_provider_gives_verified_quotes_and_the_turn_record(
    store: Path,
) -> None:
    code, out, err = invoke(
        "ask",
        "When must an application be referred to a senior underwriter?",
        "--store",
        str(store),
        "--provider",
        "extractive",
        "--format",
        "json",
    )
    assert code == 0, err
    record = json.loads(out)
    assert record["quotes"], record["original"]
    assert {q["status"] for q in record["quotes"]} == {"verified"}
    turn = record["turn"]
    assert list(turn["timings"]) == ["retrieve", "eligibility", "prompt", "generate", "verify"]
    assert turn["prompt"]["eligibility_fingerprint"] == record["eligibility"]["fingerprint"]
    assert set(turn["prompt"]["source_ids"]) <= set(record["eligibility"]["eligible"])
    assert "referred to a senior underwriter" in record["text"]


def test_ask_records_the_invisible_characters_removed_from_an_email(store: Path) -> None:
    code, out, err = invoke(
        "ask",
        "What does the helpdesk update say about approval without referral?",
        "--store",
        str(store),
        "--provider",
        "extractive",
        "--format",
        "json",
    )
    assert code == 0, err
    removals = json.loads(out)["turn"]["prompt"]["removals"]
    assert {"count": 1, "codepoints": ["U+200B"]}.items() <= removals[0].items()


def test_ask_on_a_folder_ingests_it_first(tmp_path: Path) -> None:
    code, out, err = invoke(
        "ask",
        "What is the arrangement fee of the 5-year fixed?",
        "--source",
        str(MAILBOX),
        "--provider",
        "extractive",
        "--format",
        "md",
    )
    assert code == 0, err
    assert "£1,499" in out


def test_a_user_outside_an_access_list_never_gets_that_source_012_1(tmp_path: Path) -> None:
    private = tmp_path / "board.txt"
    private.write_text("Board minutes: the referral threshold will rise to 85% loan-to-value.\n")
    db = tmp_path / "acl.db"
    assert invoke("ingest", str(private), "--store", str(db), "--acl", "board")[0] == 0
    assert invoke("ingest", str(LENDING / "credit-policy.md"), "--store", str(db))[0] == 0
    question = "What is the referral threshold for loan-to-value?"
    code, out, err = invoke(
        "ask", question, "--store", str(db), "--provider", "extractive", "--format", "json"
    )
    assert code == 0, err
    record = json.loads(out)
    assert "85%" not in record["text"]
    excluded = {e["reason"] for e in record["eligibility"]["excluded"]}
    assert "not_permitted" in excluded
    code, out, err = invoke(
        "ask", question, "--store", str(db), "--provider", "extractive", "--format", "json",
        "--user", "board",
    )  # fmt: skip
    assert "85%" in json.loads(out)["text"]


def _verify_with_rules(audit: str, live: Path, facts: Path) -> tuple[int, str, str]:
    return invoke(
        "verify",
        str(LENDING / "answer.md"),
        *EXAMPLE_SOURCES,
        "--format",
        "json",
        "--audit",
        str(audit),
        "--rules",
        str(LENDING / "rules.toml"),
        "--facts",
        str(facts),
        "--live",
        str(live),
    )


@pytest.fixture(params=["sqlite", "postgresql"])
def audit_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty audit log on each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "audit.db")
    schemas: PgSchemas = request.getfixturevalue("pg_schemas")
    return schemas.new()[1]


def test_live_rate_changes_the_decision_not_the_evidence_and_both_are_audited_adr2(
    tmp_path: Path, audit_target: str
) -> None:
    audit = audit_target
    facts = tmp_path / "facts.json"
    facts.write_text(
        json.dumps(
            {
                "loan_amount": 300000,
                "valuation": 412000,
                "margin": 1.5,
                "stress_buffer": 3.0,
                "monthly_income": 5000,
            }
        )
    )
    live = tmp_path / "live.json"
    decisions = []
    for rate in ("4.25", "5.00"):
        live.write_text(f'{{"values": {{"base_rate": {rate}}}}}')
        code, _, err = _verify_with_rules(audit, live, facts)
        assert code == 0, err
        decisions.append(err)
    assert "decision: approve" in decisions[0]
    assert "decision: refer (rules fired: affordability)" in decisions[1]

    code, out, err = invoke("audit", "verify", "--audit", audit)
    assert code == 0, out + err
    code, out, _ = invoke("audit", "show", "--audit", audit, _request_id(decisions[1]))
    # The same answer and facts give the same request id: `show` lists both records.
    first, latest = json.loads(out)
    payload = latest["payload"]
    assert payload["evidence"]["request_id"] == payload["request_id"]
    assert payload["live"]["request_id"] == payload["request_id"]
    assert payload["live"]["values"]["base_rate"] == {"decimal": "5.00"}
    assert first["payload"]["live"]["values"]["base_rate"] == {"decimal": "4.25"}
    assert payload["decision"]["outcome"] == "refer"

    bundles = {d.split("bundle ")[1].split(",")[0].strip() for d in decisions}
    assert len(bundles) == 1, "the evidence bundle must not change with the live rate"

    sequence = str(latest["sequence"])
    code, out, err = invoke(
        "audit", "replay", _request_id(decisions[1]), "--audit", audit, "--sequence", sequence
    )
    assert code == 0, out + err
    assert "decision: logged refer, replay refer" in out
    assert "same result" in out


def _request_id(stderr: str) -> str:
    return stderr.split("audit: request ")[1].split()[0]


def test_audit_verify_fails_on_a_tampered_log(tmp_path: Path) -> None:
    import sqlite3

    audit = tmp_path / "audit.db"
    code, _, err = invoke(
        "verify", str(LENDING / "answer.md"), *EXAMPLE_SOURCES, "--audit", str(audit)
    )
    assert code == 0, err
    with sqlite3.connect(audit) as db:
        triggers = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        for name in triggers:
            db.execute(f'DROP TRIGGER "{name}"')
        table = next(
            r[0]
            for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if "record" in r[0]
        )
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
        blob = next(c for c in columns if c in ("entry", "canonical", "body", "data"))
        db.execute(f'UPDATE "{table}" SET "{blob}" = replace("{blob}", \'83%\', \'73%\')')
    code, out, err = invoke("audit", "verify", "--audit", str(audit))
    assert code == 1
    assert "FAILED at record 0: content_mismatch" in out + err


def test_batch_with_audit_appends_one_record_per_good_line(tmp_path: Path) -> None:
    policy = (LENDING / "credit-policy.md").read_text()
    lines = [
        {"id": f"a{n}", "answer": '"Applications above 95% are declined." [S1]',
         "sources": [{"id": "S1", "kind": "document", "text": policy}]}
        for n in range(3)
    ]  # fmt: skip
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(json.dumps(line) for line in lines) + "\n{broken\n")
    audit = tmp_path / "audit.db"
    code, _, _ = invoke(
        "verify", "--batch", str(batch), "--out", str(tmp_path / "out.jsonl"), "--audit", str(audit)
    )
    assert code == 1
    code, out, err = invoke("audit", "verify", "--audit", str(audit))
    assert code == 0, out + err
    assert "3 records" in out + err
    assert "1 source text\n" in out  # the three answers' one document, stored once


@pytest.mark.model
@pytest.mark.slow
def test_the_default_embedded_model_answers_with_a_verified_quote_offline_D(
    trusted_store: Path,
) -> None:
    require_model()
    code, out, err = invoke(
        "ask",
        "When must an application be referred to a senior underwriter?",
        "--store",
        str(trusted_store),
        "--provider",
        "embedded",
        "--max-tokens",
        "160",
        "--timeout",
        "900",  # two shared cores: reading the prompt alone can take minutes under load
        "--format",
        "json",
    )
    assert code == 0, err
    record = json.loads(out)
    assert record["turn"]["generation"]["provider"] == "embedded"
    assert record["turn"]["generation"]["model"] == QWEN_1_5B.name
    assert record["turn"]["prompt"]["version"].endswith("quote-first/2")
    assert record["turn"]["generation"]["quote_first"] is True
    assert record["turn"]["generation"]["text"].startswith("Evidence:")
    verified = [q for q in record["quotes"] if q["status"] == "verified"]
    assert verified, record["original"]
    # From the right sources: the policy (the PDF attached to the policy email), or the email
    # announcing it, named by their titles.
    titles = {source["id"]: source["title"] for source in record["sources"]}
    quoted = {titles.get(q["source"]) for q in verified}
    assert quoted & {"credit-policy-rev7.pdf", "Credit policy revision 7 – effective 1 March 2026"}
    # And the right sentence: the one with the 80% threshold, not its neighbour on 95%.
    assert any("80%" in q["text"] for q in verified), [q["text"] for q in verified]
