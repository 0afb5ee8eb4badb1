"""What every command shares (issue 7): help on every option, exit codes in every help, one
translation of errors to exit status 1, one meaning of the source options, and
`verify --fail-on` for CI (003.4 statuses)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from citeproof.cli import main
from tests.cli_runs import EXAMPLE_SOURCES, invoke

ROOT = Path(__file__).resolve().parents[1]
LENDING = ROOT / "examples" / "lending"
MAILBOX = ROOT / "examples" / "mailbox"


def commands(
    command: click.Command, path: str = "citeproof"
) -> Iterator[tuple[str, click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from commands(sub, f"{path} {name}")


ALL_COMMANDS = dict(commands(main))


@pytest.mark.parametrize("path", sorted(ALL_COMMANDS))
def test_every_command_documents_its_exit_codes_and_every_option_has_help(path: str) -> None:
    code, out, err = invoke(*path.split()[1:], "--help")
    assert code == 0, err
    assert "Exit codes:\n    0  " in out
    assert "    2  usage error" in out
    for param in ALL_COMMANDS[path].params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help, f"{path} {param.opts[0]} has no help"


def test_verify_fail_on_quote_exits_1_and_names_the_failed_quotes_003_4() -> None:
    answer = str(LENDING / "answer.md")
    assert invoke("verify", answer, *EXAMPLE_SOURCES, "--format", "json")[0] == 0
    code, out, err = invoke(
        "verify", answer, *EXAMPLE_SOURCES, "--format", "json", "--fail-on", "quote"
    )
    assert code == 1
    quotes = json.loads(out)["quotes"]  # written all the same
    failed = [
        f"{q['id']} {q['status']}" + (" (meaning changed)" if q["meaning_changed"] else "")
        for q in quotes
        if q["status"] in FAILING or q["meaning_changed"]
    ]
    # A correction that changed the meaning fails too (F.1): "any offer is made" is not
    # "an offer is issued".
    assert any("(meaning changed)" in f for f in failed)
    assert f"failed (--fail-on quote): {', '.join(failed)}" in err


FAILING = ("mismatch", "not_found", "ineligible")


def test_verify_fail_on_claim_names_the_claims_that_cite_a_source_not_provided_012_2(
    tmp_path: Path,
) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text(
        "Referral applies above 80% [policy].\n\nThe board will decide [S9].\n", encoding="utf-8"
    )
    code, _, err = invoke("verify", str(answer), *EXAMPLE_SOURCES, "--fail-on", "claim")
    assert code == 1
    assert "failed (--fail-on claim): claim c2" in err
    assert invoke("verify", str(answer), *EXAMPLE_SOURCES, "--fail-on", "quote")[0] == 0


def test_verify_fail_on_passes_when_every_quote_holds(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text('The memo: "provided one year of certified accounts" [memo]\n')
    code, _, err = invoke("verify", str(answer), *EXAMPLE_SOURCES, "--fail-on", "any")
    assert code == 0, err


def test_verify_fail_on_counts_failing_batch_lines(tmp_path: Path) -> None:
    policy = {"id": "S1", "kind": "document", "text": "Applications above 95% are declined."}
    lines = [
        {"id": "ok", "answer": '"Applications above 95% are declined." [S1]', "sources": [policy]},
        {"id": "bad", "answer": '"Applications above 50% are welcome." [S1]', "sources": [policy]},
    ]
    batch = tmp_path / "in.jsonl"
    batch.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = invoke("verify", "--batch", str(batch), "--out", str(out), "--fail-on", "quote")
    assert code == 1
    assert "line 2: q1 not_found" in err
    assert "2 answers verified, 0 lines rejected, 1 failed (--fail-on quote)" in err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["ingest", str(LENDING / "answer.md"), "--store", "{tmp}/not-a-store.md"],
            "not a citeproof store",
        ),
        (["audit", "show", "req-1", "--audit", "{tmp}/missing.db"], "no audit log at"),
        (["ask", "question?", "--store", "{tmp}/not-a-store.md"], "not a citeproof store"),
    ],
)
def test_an_error_of_any_command_is_one_error_line_and_status_1(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "not-a-store.md").write_text("# not a database\n" * 200, encoding="utf-8")
    code, out, err = invoke(*(a.format(tmp=tmp_path) for a in args))
    assert code == 1, out
    assert err.startswith("Error: ") and message in err
    assert "Traceback" not in err


def test_ask_takes_a_store_or_files_and_not_both(tmp_path: Path) -> None:
    code, _, err = invoke("ask", "q?", "--provider", "extractive")
    assert code == 2 and "--store DB, or --source PATH" in err
    db = tmp_path / "s.db"
    assert invoke("ingest", str(LENDING / "credit-policy.md"), "--store", str(db))[0] == 0
    code, _, err = invoke("ask", "q?", "--store", str(db), "--source", str(MAILBOX))
    assert code == 2


def test_the_old_ask_spellings_still_work_and_say_they_are_deprecated(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    assert invoke("ingest", str(LENDING / "credit-policy.md"), "--store", str(db))[0] == 0
    question = "When must an application be referred to a senior underwriter?"
    new = invoke(
        "ask", question, "--store", str(db), "--provider", "extractive", "--format", "json"
    )
    old = invoke("ask", question, "--sources", str(db), "--provider", "extractive", "--json")
    assert new[0] == old[0] == 0, old[2]
    assert "warning: --sources is deprecated; use --store DB" in old[2]
    assert "warning: --json is deprecated; use --format json" in old[2]
    new_record, old_record = json.loads(new[1]), json.loads(old[1])
    assert new_record["text"] == old_record["text"]
    assert new_record["turn"]["passages"] == old_record["turn"]["passages"]
    folder = invoke("ask", question, "--sources", str(LENDING / "credit-policy.md"), "--provider",
                    "extractive", "--format", "md")  # fmt: skip
    assert folder[0] == 0 and "senior underwriter" in folder[1]
