"""Issue 9 §5: every input is read with a bound, and a file over a limit is reported by name
with the setting that raises it while the other files are ingested."""

from __future__ import annotations

import io
import json
import threading
import time
import zipfile
from collections.abc import Iterator
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner
from fpdf import FPDF

from citeproof.cli import main
from citeproof.errors import InputError
from citeproof.outcome import HttpLiveValues
from citeproof.outcome._live import LiveValueError
from citeproof.sources import ReadLimits, SourceStore, ingest_paths
from tests.mailfixtures import docx_bytes


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, env=env, terminal_width=400)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.output


def ingest(folder: Path, tmp_path: Path, limits: ReadLimits) -> tuple[list[str], list[str]]:
    """Ingest ``folder``: the titles stored, and the messages of what failed."""
    with SourceStore(tmp_path / "sources.db") as store:
        report = ingest_paths(store, [folder], limits=limits)
        titles = sorted(record.source.title or "" for record in store.current())
    return titles, [failure.message for failure in report.failures] + list(report.problems)


def test_verify_reads_an_endless_answer_or_source_with_a_bound(tmp_path: Path) -> None:
    source = tmp_path / "memo.txt"
    source.write_text("The rate is fixed.\n", "utf-8")
    code, output = run(["verify", "/dev/zero", "--source", str(source)])
    assert code == 1 and "more than 4,000,003 bytes" in output
    answer = tmp_path / "answer.md"
    answer.write_text("An answer.\n", "utf-8")
    code, output = run(
        ["verify", str(answer), "--source", "/dev/zero"], env={"CITEPROOF_MAX_FILE_BYTES": "4096"}
    )
    assert code == 1 and "over the limit of 4,096 bytes (setting max_file_bytes" in output


def docx_bomb(expanded: int) -> bytes:
    """A real DOCX with a padding part that unpacks to ``expanded`` bytes of spaces."""
    package = io.BytesIO(docx_bytes())
    with zipfile.ZipFile(package, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/padding.xml", b" " * expanded)
    return package.getvalue()


def test_a_docx_that_expands_too_far_is_rejected_and_the_rest_ingested(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "bomb.docx").write_bytes(docx_bomb(3_000_000))
    (folder / "memo.txt").write_text("The memo.\n", "utf-8")
    titles, failures = ingest(folder, tmp_path, ReadLimits(max_expanded_bytes=1_000_000))
    assert titles == ["memo.txt"]
    assert len(failures) == 1 and "bomb.docx" in failures[0]
    assert "max_expanded_bytes" in failures[0]


def pdf_pages(count: int) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for number in range(count):
        pdf.add_page()
        pdf.multi_cell(0, 5, f"Page text {number}.")
    return bytes(pdf.output())


def test_pdf_pages_passages_and_time_are_capped_per_file(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "long.pdf").write_bytes(pdf_pages(6))
    (folder / "many.txt").write_text("\n\n".join(f"Paragraph {n}." for n in range(40)), "utf-8")
    (folder / "memo.txt").write_text("The memo.\n", "utf-8")
    titles, failures = ingest(folder, tmp_path, ReadLimits(max_pdf_pages=1, max_passages=20))
    assert titles == ["memo.txt"]
    assert any("long.pdf" in f and "max_pdf_pages" in f for f in failures), failures
    assert any("many.txt" in f and "max_passages" in f for f in failures), failures
    (folder / "many.txt").unlink()
    _, failures = ingest(folder, tmp_path, ReadLimits(max_seconds=1e-9))
    assert any("long.pdf" in f and "max_seconds" in f for f in failures), failures


def test_an_oversized_attachment_is_skipped_and_the_message_kept(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"] = "dan@lending.example"
    message["Message-ID"] = "<big@lending.example>"
    message["Subject"] = "Two files"
    message.set_content("The rate sheet and the archive are attached.\n")
    message.add_attachment(b"The rate is fixed.\n", maintype="text", subtype="plain",
                           filename="rates.txt")  # fmt: skip
    message.add_attachment(b"x" * 400_000, maintype="text", subtype="plain", filename="big.txt")
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "m.eml").write_bytes(bytes(message))
    titles, problems = ingest(folder, tmp_path, ReadLimits(max_attachment_bytes=100_000))
    assert titles == ["Two files", "rates.txt"]
    assert len(problems) == 1 and "big.txt" in problems[0]
    assert "max_attachment_bytes" in problems[0]


def nested_message(depth: int) -> bytes:
    lines = ["From: a@b.example", "Subject: deep", "MIME-Version: 1.0"]
    for level in range(depth):
        lines += [f'Content-Type: multipart/mixed; boundary="b{level}"', "", f"--b{level}"]
    lines += ["Content-Type: text/plain", "", "Deep inside.", ""]
    for level in reversed(range(depth)):
        lines.append(f"--b{level}--")
    return "\r\n".join(lines).encode()


def test_deeply_nested_mime_parts_give_a_clear_error_not_a_crash(tmp_path: Path) -> None:
    eml = tmp_path / "deep.eml"
    eml.write_bytes(nested_message(1000))
    answer = tmp_path / "answer.md"
    answer.write_text("An answer.\n", "utf-8")
    code, output = run(["verify", str(answer), "--source", str(eml)])
    assert code == 1
    assert "deep.eml" in output and "max_mime_depth" in output


# --- batch ----------------------------------------------------------------------------------


def line(line_id: str, source_text: str) -> str:
    source = {"id": "S1", "kind": "document", "text": source_text}
    return json.dumps({"id": line_id, "answer": 'It says "the rate is fixed" [S1].',
                       "sources": [source]})  # fmt: skip


def test_batch_applies_the_source_and_line_limits_and_accepts_a_bom(tmp_path: Path) -> None:
    batch = tmp_path / "in.jsonl"
    rows = [line("a", "The rate is fixed."), line("big", "x" * 5000), line("long", "y" * 20000)]
    batch.write_bytes(
        b"\xef\xbb\xbf" + "\n".join([*rows, line("b", "The rate is fixed.")]).encode()
    )
    out = tmp_path / "out.jsonl"
    env = {"CITEPROOF_MAX_SOURCE_CHARS": "4000", "CITEPROOF_MAX_LINE_BYTES": "10000"}
    code, _ = run(["verify", "--batch", str(batch), "--out", str(out)], env=env)
    assert code == 1
    records = [json.loads(text) for text in out.read_text("utf-8").splitlines()]
    # a line over the byte limit is not read, so its id is unknown
    assert [r.get("id") for r in records] == ["a", "big", None, "b"]
    assert "error" not in records[0] and "error" not in records[3]
    assert "max_source_chars" in records[1]["error"]["message"]
    assert "longer than 10,000 bytes" in records[2]["error"]["message"]


# --- live values ----------------------------------------------------------------------------


def test_live_values_need_https_except_on_loopback() -> None:
    with pytest.raises(InputError, match="must come over https"):
        HttpLiveValues("http://rates.example/today")
    HttpLiveValues("http://127.0.0.1:8080/today")
    HttpLiveValues("http://[::1]:8080/today")
    HttpLiveValues("http://rates.example/today", allow_http=True)
    with pytest.raises(InputError, match="not a valid URL"):
        HttpLiveValues("http://[::1")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1.evil.example/today",  # a name that starts like a loopback address
        "http://127.evil.example/today",
        "http://localhost.evil.example/today",
        "http://evil.example/127.0.0.1/today",
        "http://127.0.0.1@evil.example/today",  # loopback as the user part, not the host
        "http://0x7f000001.evil.example/today",
        "http://[::ffff:10.0.0.1]/today",
        "http://10.0.0.1/today",
    ],
)
def test_a_host_that_only_looks_like_loopback_needs_https(url: str) -> None:
    with pytest.raises(InputError, match="must come over https"):
        HttpLiveValues(url)


@pytest.mark.parametrize(
    "url", ["http://127.0.0.2:8080/today", "http://localhost:8080/today", "http://[::1]/today"]
)
def test_every_loopback_address_may_use_plain_http(url: str) -> None:
    assert HttpLiveValues(url).url == url


@pytest.fixture
def trickle() -> Iterator[tuple[str, dict[str, bytes]]]:
    """A server answering with what ``body["payload"]`` holds, a byte at a time when
    ``body["drip"]`` is set."""
    body: dict[str, bytes] = {"payload": b"{}", "drip": b""}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            if body["drip"]:
                for byte in body["payload"]:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.05)
            else:
                self.wfile.write(body["payload"])

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/rates", body
    server.shutdown()
    server.server_close()


def test_live_values_bound_total_time_size_and_nesting(
    trickle: tuple[str, dict[str, bytes]],
) -> None:
    url, body = trickle
    body["payload"], body["drip"] = b'{"values": {"base_rate": 4.25}}' + b" " * 200, b"1"
    with pytest.raises(LiveValueError, match=r"took longer than 0\.5 s"):
        HttpLiveValues(url, timeout=2.0, total_timeout=0.5).fetch(["base_rate"], request_id="r")
    body["drip"] = b""
    body["payload"] = b'{"values": {"base_rate": 4.25}, "pad": "' + b"x" * 300_000 + b'"}'
    with pytest.raises(LiveValueError, match="over 100,000 bytes"):
        HttpLiveValues(url, max_bytes=100_000).fetch(["base_rate"], request_id="r")
    body["payload"] = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(LiveValueError, match="nested too deeply"):
        HttpLiveValues(url).fetch(["base_rate"], request_id="r")
