"""The CLI as a new user meets it (issue 46, and issue 45's ``--facts``): the encoding of the
sources only, a gate for answers with nothing to check, help that is whole and gives
examples, citeproof's error alone on a damaged PDF, one word for a folder and English
plurals, a demo that prints what a newcomer should read, ``--facts`` without ``--rules``."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from citeproof.cli import main
from tests.cli_runs import EXAMPLE_SOURCES, invoke
from tests.mailfixtures import pdf_bytes

ROOT = Path(__file__).resolve().parents[1]
LENDING = ROOT / "examples" / "lending"
CITEPROOF = str(Path(sys.executable).parent / "citeproof")
POLICY = "Applications above 95% are declined. Self-employed applicants need two years."


def _commands(
    command: click.Command, path: tuple[str, ...], ctx: click.Context
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _commands(sub, (*path, name), click.Context(sub, parent=ctx))


COMMANDS = dict(_commands(main, (), click.Context(main, info_name="citeproof")))
"""Every command, ``()`` for ``citeproof`` itself, each group's commands looked up."""


def _help(*path: str, width: int = 80) -> str:
    result = CliRunner().invoke(main, [*path, "--help"], terminal_width=width)
    assert result.exit_code == 0, result.output
    return result.stdout


def _section(text: str, title: str) -> str:
    """The lines of one help section (``Options:``...), up to the next blank line."""
    return text.split(f"\n{title}:\n", 1)[1].split("\n\n", 1)[0]


# --encoding names the sources' encoding, never the answer's


def test_a_utf8_answer_over_a_latin1_source_is_read_as_written(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text('La note : "Le délai de réponse est de trente jours." [note]\n', "utf-8")
    source = tmp_path / "note.txt"
    source.write_bytes("Le délai de réponse est de trente jours.\n".encode("latin-1"))
    args = ["verify", str(answer), "--source", f"note={source}"]
    code, out, err = invoke(*args, "--encoding", "latin-1", "--format", "json")
    assert code == 0, err
    quote = json.loads(out)["quotes"][0]
    assert quote["text"] == "Le délai de réponse est de trente jours."
    assert quote["status"] == "verified"
    assert "Ã" not in out
    # Without it, the source is refused, and the error says which option reads it.
    code, _, err = invoke(*args)
    assert code == 1
    assert "note.txt" in err and "invalid UTF-8 at byte 4 (line 1)" in err
    assert "give it with --encoding" in err


def test_an_answer_in_another_encoding_is_refused_saying_the_answer_is_utf8(
    tmp_path: Path,
) -> None:
    answer = tmp_path / "answer.md"
    answer.write_bytes('"Le délai" [note]'.encode("latin-1"))
    source = tmp_path / "note.txt"
    source.write_bytes("Le délai de réponse.".encode("latin-1"))
    args = ["verify", str(answer), "--source", f"note={source}", "--encoding", "cp1252"]
    code, _, err = invoke(*args)
    assert code == 1
    assert "answer.md" in err and "the answer is read as UTF-8" in err


# --fail-on any: an answer with nothing to check does not pass


def test_fail_on_any_fails_an_answer_that_cites_nothing(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text("Applications above 95% are declined.\n", encoding="utf-8")
    (tmp_path / "policy.md").write_text(POLICY, encoding="utf-8")
    args = ["verify", str(answer), "--source", str(tmp_path / "policy.md")]
    code, out, err = invoke(*args, "--fail-on", "any")
    assert code == 1
    assert "Nothing in this answer could be checked" in out  # the output is written all the same
    assert "failed (--fail-on any): nothing checked" in err
    assert invoke(*args, "--fail-on", "review")[0] == 1
    assert invoke(*args, "--fail-on", "quote")[0] == 0  # no quote failed: the gate asked for
    _, help_text, _ = invoke("verify", "--help")
    assert "also fail an answer in which nothing could be checked" in " ".join(help_text.split())


def test_fail_on_any_fails_a_batch_line_with_nothing_to_check(tmp_path: Path) -> None:
    policy = {"id": "S1", "kind": "document", "text": POLICY}
    lines = [
        {"id": "ok", "answer": '"Applications above 95% are declined." [S1]', "sources": [policy]},
        {"id": "bare", "answer": "Applications above 95% are declined.", "sources": [policy]},
    ]
    batch = tmp_path / "in.jsonl"
    batch.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = invoke("verify", "--batch", str(batch), "--out", str(out), "--fail-on", "any")
    assert code == 1
    assert "line 2: nothing checked" in err and "line 1" not in err
    assert "2 answers verified, 0 lines rejected, 1 failed (--fail-on any)" in err


# Help: summaries whole, an example for every command, basic options first


def test_every_command_summary_is_whole_at_any_width() -> None:
    for path, command in COMMANDS.items():
        if not isinstance(command, click.Group):
            continue
        for width in (80, 200):
            listing = _section(_help(*path, width=width), "Commands")
            flat = " ".join(listing.split())
            assert "..." not in listing and "…" not in listing, listing
            for name in command.list_commands(click.Context(command)):
                sub = command.get_command(click.Context(command), name)
                assert sub is not None and sub.short_help, f"{name} has no summary"
                assert f"{name} {sub.short_help}" in flat
                assert width == 200 or len(f"  {name:<12}{sub.short_help}") <= 80


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(("citeproof", *p)))
def test_every_command_gives_examples_it_accepts(path: tuple[str, ...]) -> None:
    text = _help(*path)
    assert "\n  Examples:\n" in text, f"citeproof {' '.join(path)} --help has no example"
    block = text.split("\n  Examples:\n", 1)[1].split("\n\n", 1)[0]
    lines = [line.strip() for line in block.replace("\\\n", " ").splitlines()]
    assert all(len(line) <= 80 for line in block.splitlines())
    examples = [line for line in lines if line.startswith("citeproof ")]
    assert examples
    for example in examples:
        words = shlex.split(example)[1:]
        command: click.Command = main
        while isinstance(command, click.Group) and words and not words[0].startswith("-"):
            found = command.get_command(click.Context(command), words[0])
            if found is None:
                break  # "citeproof COMMAND --help": a placeholder
            command, words = found, words[1:]
        options = {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
        options.add("--help")
        unknown = [w for w in words if w.startswith("--") and w not in options]
        assert not unknown, f"{example}: {unknown}"


def test_verify_help_puts_the_basic_options_first_and_names_the_formats_read() -> None:
    text = _help("verify")
    basic = _section(text, "Options")
    for option in ("--source", "--format", "--out", "--fail-on", "--encoding"):
        assert f"  {option} " in basic
    for option in ("--engine", "--workers", "--support-judge", "--from", "--audit", "--live"):
        assert f"  {option} " not in basic
        assert f"  {option} " in text  # under a heading of its own, further down
    assert text.index("\nOptions:\n") < text.index("\nBatches:\n") < text.index("\n  Examples:\n")
    source = " ".join(basic.split("--source", 1)[1].split("--email", 1)[0].split())
    for suffix in (".pdf", ".docx", ".html", ".md", ".txt", ".eml"):
        assert suffix in source


# A damaged PDF: citeproof's error, and nothing of pypdf's before it


def test_a_damaged_pdf_gives_citeproof_s_error_alone(tmp_path: Path) -> None:
    whole = pdf_bytes()
    damaged = tmp_path / "policy.pdf"
    damaged.write_bytes(whole[: len(whole) // 2])  # cut off in the middle, as a failed copy
    answer = tmp_path / "answer.md"
    answer.write_text('"Applications above 95% are declined." [policy]', encoding="utf-8")
    run = subprocess.run(
        [CITEPROOF, "verify", str(answer), "--source", str(damaged)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 1
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("Error: ") and "policy.pdf: cannot read the PDF" in lines[0]
    # pypdf's warnings were held for citeproof's read only: read directly, they still show.
    probe = (
        "import io, sys, citeproof.sources._pdf_reader, pypdf\n"
        "try: pypdf.PdfReader(io.BytesIO(open(sys.argv[1], 'rb').read()))\n"
        "except Exception: pass\n"
    )
    direct = subprocess.run(
        [sys.executable, "-c", probe, str(damaged)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert "EOF marker not found" in direct.stderr


# Wording: plurals, and a folder is a folder


def test_counts_are_english_and_a_folder_is_a_folder(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text('"Applications above 95% are declined." [policy]', encoding="utf-8")
    (tmp_path / "policy.md").write_text(POLICY, encoding="utf-8")
    audit = tmp_path / "audit.db"
    args = ["verify", str(answer), "--source", str(tmp_path / "policy.md")]
    code, _, err = invoke(*args, "--out", str(tmp_path / "a.json"), "--audit", str(audit))
    assert code == 0, err
    assert "(1 quote: 1 verified)" in err and "1 quotes" not in err
    assert "evidence: 1 object, " in err and "coverage 1/1 claim\n" in err
    code, out, err = invoke("audit", "verify", "--audit", str(audit))
    assert code == 0, err
    assert out.startswith("ok: 1 record, ") and "1 signed checkpoint," in out
    folder = tmp_path / "folder"
    folder.mkdir()
    for argv in (
        ["verify", str(folder), "--source", str(tmp_path / "policy.md")],
        [*args, "--source", str(folder)],
        [*args, "--out", str(folder)],
        ["report", "--audit", str(audit), "--checkpoints", str(tmp_path / "policy.md")],
    ):
        code, _, err = invoke(*argv)
        assert code == 2, err
        assert "directory" not in err.lower() and re.search(r"is a (folder|file)", err), err
    for path in COMMANDS:
        assert "directory" not in _help(*path).lower(), f"citeproof {' '.join(path)} --help"


# make demo: what a newcomer reads


def test_the_demo_revalidates_only_answers_it_can_check_and_the_build_has_no_warnings() -> None:
    dry = subprocess.run(
        ["make", "-n", "demo"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert dry.returncode == 0, dry.stderr
    lines = dry.stdout.replace("\\\n", " ").splitlines()
    commands = [line for line in lines if "citeproof " in line and not line.startswith("#")]
    revalidate = next(i for i, line in enumerate(commands) if "citeproof revalidate" in line)
    audited_files = [
        i
        for i, line in enumerate(commands)
        if "citeproof verify" in line and "--audit" in line and "--source" in line
    ]
    # An answer verified against files (never ingested) cannot be re-validated against the
    # store: revalidate runs before one is logged, so it prints no source_missing lines.
    assert audited_files and revalidate < min(audited_files)
    assert "|| test" not in commands[revalidate]  # it is expected to pass
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "Apache-2.0"  # the SPDX form: no warnings
    for name in project["project"]["license-files"]:
        assert (ROOT / name).is_file()
    assert "setuptools>=77" in project["build-system"]["requires"]


# --facts and --live are read by the rules: without --rules they are a usage error


@pytest.mark.parametrize("extra", [["--facts", "{facts}"], ["--live", "{facts}"]])
def test_facts_or_live_without_rules_is_a_usage_error(tmp_path: Path, extra: list[str]) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text('{"loan_amount": 340000}', encoding="utf-8")
    given = [a.format(facts=facts) for a in extra]
    code, out, err = invoke("verify", str(LENDING / "answer.md"), *EXAMPLE_SOURCES, *given)
    assert code == 2 and out == ""
    assert f"{extra[0]} is read by the rules only: give --rules FILE" in err
    code, _, err = invoke("ask", "Who decides?", "--source", str(LENDING), *given)
    assert code == 2 and "give --rules FILE" in err
    rules = ["--rules", str(LENDING / "rules.toml")]
    code, _, err = invoke(
        "verify", "--batch", str(facts), "--out", str(tmp_path / "o.jsonl"), *rules, *given
    )
    assert code == 2 and "--rules decides on one answer, not --batch" in err
