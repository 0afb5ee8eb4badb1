"""``tools/measurements.py`` writes a command's table into its block of docs/measurements.md:
the block's lines are replaced, every other byte stays, unbalanced markers are refused, and
the page itself is well formed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "measurements.py"

PAGE = (
    "# Measurements\n\nIntro with trailing spaces   \n\n"
    "## Quotes\n\n<!-- figures:quotes -->\n| old | table |\n|---|---|\n| 1 | 2 |\n"
    "<!-- /figures:quotes -->\n\nProse after, kept.\n\n"
    "## Service\n\n<!-- figures:service -->\n| a |\n|---|\n| 9 |\n<!-- /figures:service -->\n"
    "\nLast line without a newline"
)
OUTPUT = (
    "load average 1.20 at start\n"
    "| first | table |\n|---|---|\n| x | y |\n\n"
    "some words between\n\n"
    "| size | median |\n|---|---:|\n| 1 MB | 0.5 ms |\n| 10 MB | 0.9 ms |\n"
    "done\n"
)


def tool(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOL), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_block_is_replaced_by_the_last_table_and_nothing_else_moves(tmp_path: Path) -> None:
    page = tmp_path / "measurements.md"
    page.write_bytes(PAGE.encode())
    done = tool("quotes", "--page", str(page), stdin=OUTPUT)
    assert done.returncode == 0, done.stderr
    expected = PAGE.replace(
        "| old | table |\n|---|---|\n| 1 | 2 |\n",
        "| size | median |\n|---|---:|\n| 1 MB | 0.5 ms |\n| 10 MB | 0.9 ms |\n",
    )
    assert page.read_bytes() == expected.encode()


def test_a_note_and_a_chosen_table_from_a_file(tmp_path: Path) -> None:
    page = tmp_path / "measurements.md"
    page.write_bytes(PAGE.encode())
    output = tmp_path / "out.txt"
    output.write_text(OUTPUT, encoding="utf-8")
    args = ["service", "--page", str(page), "--from-file", str(output), "--table", "1"]
    done = tool(*args, "--note", "Measured 2026-12-06, load average 1.2.")
    assert done.returncode == 0, done.stderr
    before, _, after = PAGE.partition("<!-- figures:service -->\n")
    _, _, rest = after.partition("<!-- /figures:service -->")
    block = "Measured 2026-12-06, load average 1.2.\n\n| first | table |\n|---|---|\n| x | y |\n"
    written = page.read_bytes()
    assert (
        written
        == f"{before}<!-- figures:service -->\n{block}<!-- /figures:service -->{rest}".encode()
    )
    # the same input again changes nothing
    assert tool(*args, "--note", "Measured 2026-12-06, load average 1.2.").returncode == 0
    assert page.read_bytes() == written


def test_crlf_lines_stay_crlf(tmp_path: Path) -> None:
    page = tmp_path / "measurements.md"
    crlf = PAGE.replace("\n", "\r\n")
    page.write_bytes(crlf.encode())
    assert tool("quotes", "--page", str(page), stdin=OUTPUT).returncode == 0
    written = page.read_bytes().decode()
    assert written.count("\r\n") == written.count("\n")
    assert written.startswith(crlf.partition("| old")[0])
    assert written.endswith(crlf.partition("<!-- /figures:quotes -->")[2])


def test_unbalanced_markers_are_refused_and_the_page_is_left_alone(tmp_path: Path) -> None:
    page = tmp_path / "measurements.md"
    broken = {
        "never closed": PAGE.replace("<!-- /figures:service -->\n", ""),
        "never opened": PAGE.replace("<!-- figures:service -->\n", ""),
        "closed by another": PAGE.replace("<!-- /figures:quotes -->", "<!-- /figures:service -->"),
        "opened inside": PAGE.replace("<!-- /figures:quotes -->\n", ""),
        "second time": PAGE + "\n<!-- figures:quotes -->\n<!-- /figures:quotes -->\n",
        "line of its own": PAGE.replace("Prose after", "Prose <!-- figures:x --> after"),
    }
    for fault, text in broken.items():
        page.write_bytes(text.encode())
        checked = tool("--check", "--page", str(page))
        assert checked.returncode == 1 and fault in checked.stderr, (fault, checked.stderr)
        written = tool("quotes", "--page", str(page), stdin=OUTPUT)
        assert written.returncode == 1, fault
        assert page.read_bytes() == text.encode(), fault


def test_no_table_or_no_block_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "measurements.md"
    page.write_bytes(PAGE.encode())
    no_table = tool("quotes", "--page", str(page), stdin="| not a table |\nnothing\n")
    assert no_table.returncode == 1 and "no Markdown table" in no_table.stderr
    no_block = tool("proxy", "--page", str(page), stdin=OUTPUT)
    assert no_block.returncode == 1 and "no block 'proxy'" in no_block.stderr
    assert page.read_bytes() == PAGE.encode()


def test_markers_in_a_code_fence_do_not_count(tmp_path: Path) -> None:
    page = tmp_path / "measurements.md"
    page.write_bytes((PAGE + "\n```\n<!-- figures:quotes -->\n```\n").encode())
    assert tool("--check", "--page", str(page)).returncode == 0


def test_the_page_is_well_formed_and_has_a_block_per_benchmark_and_evaluation() -> None:
    done = tool("--list")
    assert done.returncode == 0, done.stderr
    names = done.stdout.split()
    for script in sorted((ROOT / "bench").glob("bench_*.py")):
        assert script.stem.removeprefix("bench_") in names, script.name
    for name in ("quotesum", "support", "claim-table", "generation"):
        assert f"eval-{name}" in names
