"""What a person sees of the CLI: exit codes as the help lists them, plurals, warnings for an
empty answer or source, --encoding, batch error records that keep their id, hints that fit
the options given, and `serve` refusing a busy port before it says "serving"."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from tests.cli_runs import invoke

CITEPROOF = str(Path(sys.executable).parent / "citeproof")
POLICY = "Applications above 95% are declined. Self-employed applicants need two years."


def _files(tmp_path: Path, answer: str, source: str = POLICY) -> tuple[Path, Path]:
    (tmp_path / "answer.md").write_text(answer, encoding="utf-8")
    (tmp_path / "policy.md").write_text(source, encoding="utf-8")
    return tmp_path / "answer.md", tmp_path / "policy.md"


def test_a_missing_file_is_a_usage_error_as_the_help_says(tmp_path: Path) -> None:
    answer, policy = _files(tmp_path, '"Applications above 95% are declined." [policy]')
    code, _, err = invoke("verify", str(tmp_path / "missing.md"), "--source", str(policy))
    assert code == 2 and "missing.md" in err and "does not exist" in err
    code, _, err = invoke("verify", str(answer), "--source", str(tmp_path / "gone.md"))
    assert code == 2 and "gone.md does not exist" in err
    _, help_text, _ = invoke("verify", "--help")
    assert "2  usage error: an unknown option, a missing or unreadable argument" in help_text
    store = tmp_path / "store.db"
    code, out, err = invoke("ingest", str(tmp_path / "no-such-folder"), "--store", str(store))
    assert code == 2 and "does not exist" in err
    assert not store.exists() and "ingested" not in out + err


def test_an_empty_answer_or_source_is_verified_with_a_warning(tmp_path: Path) -> None:
    answer, policy = _files(tmp_path, "  \n", source="")
    code, out, err = invoke("verify", str(answer), "--source", str(policy), "--format", "json")
    assert code == 0 and json.loads(out)["counts"]["verified"] == 0
    assert "warning: " in err and "the answer is empty; there is nothing to check" in err
    assert "warning: source policy.md: it is empty; nothing can be quoted" in err


def test_a_windows_1252_export_is_read_with_encoding(tmp_path: Path) -> None:
    # The source is the export; the answer, as an LLM wrote it, is UTF-8.
    (tmp_path / "answer.txt").write_text("The memo says “naïve résumés” [memo].", "utf-8")
    (tmp_path / "memo.txt").write_bytes("We reject naïve résumés outright.".encode("cp1252"))
    args = ["verify", str(tmp_path / "answer.txt"), "--source", f"memo={tmp_path / 'memo.txt'}"]
    code, _, err = invoke(*args)
    assert code == 1 and "invalid UTF-8" in err  # refused as before, never guessed
    code, out, err = invoke(*args, "--encoding", "cp1252", "--format", "json")
    assert code == 0, err
    record = json.loads(out)
    assert record["quotes"][0]["text"] == "naïve résumés"
    assert record["counts"]["verified"] == 1
    code, _, err = invoke(*args, "--encoding", "klingon")
    assert code == 2 and "unknown encoding 'klingon'" in err


def test_counts_read_as_english(tmp_path: Path) -> None:
    answer, policy = _files(tmp_path, '"Applications above 95% are declined." [policy]')
    code, out, _ = invoke("verify", str(answer), "--source", str(policy))
    assert code == 0 and "1 quote checked." in out and "1 quotes" not in out
    bad = tmp_path / "docs"
    bad.mkdir()
    (bad / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    code, _, err = invoke("ingest", str(bad), "--store", str(tmp_path / "s.db"))
    assert code == 1 and "1 file failed" in err and "everything else" not in err


def test_a_claim_judged_without_quotes_is_not_called_unchecked(tmp_path: Path) -> None:
    answer, policy = _files(tmp_path, "Applications above 90% are declined [policy].")
    code, out, _ = invoke("verify", str(answer), "--source", str(policy))
    assert code == 0
    assert "Nothing in this answer could be checked" not in out
    assert "≠ Contradicted" in out or "Unsupported" in out


def test_the_numbering_hint_fits_the_options_given(tmp_path: Path) -> None:
    answer, policy = _files(tmp_path, '"Applications above 95% are declined." [3]')
    code, out, _ = invoke("verify", str(answer), "--source", str(policy))
    flat = " ".join(out.split())
    assert code == 0 and "--number-sources" in flat
    code, out, _ = invoke("verify", str(answer), "--source", str(policy), "--number-sources")
    hint = " ".join(out.split("Sources provided:")[1].split("show source")[0].split())
    assert code == 0 and "--number-sources" not in hint
    assert "--number-sources" not in out  # nor the quote's own note
    assert "the sources provided are 1 (numbered in the order given, 1 to 1)" in " ".join(
        out.split()
    )
    assert "numbered in the order given (1 to 1); the citation 3 names none of them" in hint


def test_serve_refuses_a_busy_port_before_saying_serving(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = subprocess.run(
            [CITEPROOF, "serve", "--dev", "--port", str(port), "--data", str(tmp_path)],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert run.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in run.stderr
    assert "serving on" not in run.stdout and "Traceback" not in run.stderr


def test_ask_says_what_it_is_doing_and_the_model_s_figures(tmp_path: Path) -> None:
    mailbox = Path(__file__).resolve().parents[1] / "examples" / "mailbox"
    store = tmp_path / "store.db"
    assert invoke("ingest", str(mailbox), "--store", str(store))[0] == 0
    question = "When must an application be referred to a senior underwriter?"
    code, out, err = invoke("ask", question, "--store", str(store), "--provider", "extractive")
    assert code == 0, err
    assert "answered and verified (" in err and " s)" in err  # the stage, with its time
    assert "model " in err and ("answered in " in err or "tokens written in" in err)
    assert "answered and verified" not in out  # standard output holds the answer alone
