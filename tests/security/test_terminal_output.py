"""Issue 9 §4: names and text from outside reach the terminal as text, in every command and
error path (003.5: what a reader sees is what the source says)."""

from __future__ import annotations

import json
import os
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from citeproof.cli import main
from citeproof.render import json_text, markup_safe, safe_console

# What a terminal acts on (C0, DEL, C1), reorders text (bidi) or hides it (tag characters).
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                 r"\U000e0000-\U000e007f]")  # fmt: skip
TITLE_AND_CLEAR = "\x1b]0;owned\x07\x1b[2J\x9b31m"
BIDI_AND_TAGS = "\u202eexe.txt\u2066\U000e0041\U000e0042"


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, terminal_width=400)
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    return result.exit_code, result.output


def message_with_named_attachments(names: list[str]) -> bytes:
    message = EmailMessage()
    message["From"] = "dan@lending.example"
    message["Message-ID"] = "<names@lending.example>"
    message["Subject"] = "Names " + TITLE_AND_CLEAR
    message.set_content("The attachments have strange names.\n")
    for name in names:
        message.add_attachment(b"\x89PNG\r\n", maintype="image", subtype="png", filename=name)
    return bytes(message)


def test_ingest_prints_attachment_names_as_text_and_survives_markup_in_them_003_5(
    tmp_path: Path,
) -> None:
    names = ["[link=https://evil.example/]x[/link].png", "[/x].png", f"t{TITLE_AND_CLEAR}.png"]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "names.eml").write_bytes(message_with_named_attachments(names))
    code, output = run(["ingest", str(tmp_path / "in"), "--store", str(tmp_path / "s.db")])
    assert code == 0, output
    assert "[link=https://evil.example/]x[/link].png" in output
    assert "[/x].png" in output
    assert "t<U+001B>]0;owned<U+0007><U+001B>[2J<U+009B>31m.png" in output
    assert not RAW.search(output)


def test_a_file_name_with_markup_and_escapes_never_crashes_ingest_003_5(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "[bold]x[").mkdir()
    for name in ("[bold]x[/y].txt", f"e{TITLE_AND_CLEAR}.txt", f"{BIDI_AND_TAGS}.txt"):
        (folder / name).write_text("A memo.\n", "utf-8")
    (folder / "broken[x].pdf").write_bytes(b"%PDF-1.4 truncated")
    os.mkdir(folder / os.fsdecode(b"\xff-not-utf8"))
    (folder / os.fsdecode(b"\xff-not-utf8") / "memo.txt").write_text("Another memo.\n", "utf-8")
    code, output = run(["ingest", str(folder), "--store", str(tmp_path / "s.db")])
    assert code == 1  # the broken PDF is reported; everything else was ingested
    assert "4 files ingested" in output and "broken[x].pdf" in output
    assert not RAW.search(output)


def batch_line(line_id: str, answer: str, source: str) -> str:
    sources = [{"id": "S1", "kind": "document", "text": source}]
    return json.dumps({"id": line_id, "answer": answer, "sources": sources})


def test_a_batch_path_with_markup_keeps_every_line_003_5(tmp_path: Path) -> None:
    batch = tmp_path / "[bold]x[/y].jsonl"  # a folder "[bold]x[" holding "y].jsonl"
    batch.parent.mkdir()
    good = [batch_line(n, 'It says "the rate is fixed" [S1].', "The rate is fixed.") for n in "ab"]
    batch.write_text("\n".join([good[0], "{not json", good[1]]) + "\n", "utf-8")
    out = tmp_path / "out.jsonl"
    code, output = run(["verify", "--batch", str(batch), "--out", str(out)])
    assert code == 1
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert ["error" in record for record in records] == [False, True, False]
    assert f"{batch}: line 2" in output and "2 answers verified, 1 line rejected" in output


@pytest.mark.parametrize("fmt", ["md", "json", "term"])
def test_stdout_renderings_hold_no_raw_control_bidi_or_tag_character_003_5(
    tmp_path: Path, fmt: str
) -> None:
    source = tmp_path / f"s{TITLE_AND_CLEAR}.txt"
    source.write_text(f"The rate is fixed.{TITLE_AND_CLEAR}{BIDI_AND_TAGS}\n", "utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text(f'It says "the rate is fixed" [S1].{TITLE_AND_CLEAR}{BIDI_AND_TAGS}\n')
    code, output = run(["verify", str(answer), "--source", f"S1={source}", "--format", fmt])
    assert code == 0, output
    assert not RAW.search(output)
    if fmt == "json":
        record = json.loads(output)
        assert TITLE_AND_CLEAR in record["original"]  # the JSON value itself is unchanged


def test_error_messages_quote_outside_names_as_text_003_5(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text("An answer.\n", "utf-8")
    odd = tmp_path / f"x{TITLE_AND_CLEAR}{BIDI_AND_TAGS}.docx"
    odd.write_bytes(b"not a zip")
    code, output = run(["verify", str(answer), "--source", str(odd)])
    assert code == 1
    assert "Error:" in output and "<U+001B>]0;owned<U+0007>" in output
    assert not RAW.search(output)


def test_json_output_keeps_its_value_and_escapes_only_what_a_terminal_acts_on_003_5() -> None:
    value = {
        "text": "café: \u202eexe.txt \U000e0041 \x85 \u2028 end",
        "name": "broken \udce9 byte",  # a file name's byte that is not UTF-8
    }
    text = json_text(value, indent=2)
    assert json.loads(text) == value
    assert not RAW.search(text) and "\u2028" not in text and "\udce9" not in text
    assert "café" in text  # readable text stays readable
    # Each unsafe character is a JSON escape of its UTF-16 units (a surrogate pair above
    # U+FFFF), so any JSON reader gets the same value back.
    assert "\\u202eexe.txt \\udb40\\udc41 \\u0085 \\u2028 end" in text
    assert "broken \\udce9 byte" in text
    assert text.startswith('{\n  "text": ')  # the indent asked for


def test_markup_safe_text_is_one_line_and_prints_as_written_003_5() -> None:
    assert markup_safe("[bold]a[/bold]\nb\tc") == "\\[bold]a\\[/bold]<U+000A>b<U+0009>c"


def test_the_message_console_prints_markup_and_emoji_codes_as_written_003_5(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")  # even on a terminal that shows colours
    monkeypatch.delenv("NO_COLOR", raising=False)
    safe_console().print("[red]x[/red] :smile: 12 https://example.com/ " + "long " * 40)
    safe_console(stderr=True).print("to stderr")
    out, err = capsys.readouterr()
    # Nothing added: no colour codes (highlighting), no emoji, no markup read, no line broken.
    assert out == "[red]x[/red] :smile: 12 https://example.com/ " + "long " * 40 + "\n"
    assert err == "to stderr\n"
