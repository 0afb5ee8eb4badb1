"""Writes a benchmark's or an evaluation's latest figures into docs/measurements.md.

The page holds one block per benchmark and evaluation, between two marker lines:

    <!-- figures:NAME -->
    ...the latest table...
    <!-- /figures:NAME -->

``tools/measurements.py NAME`` reads what a command printed (standard input, or
``--from-file FILE``), takes the Markdown table in it (the last one; ``--table N`` for the Nth,
counted from 1), and puts it, with ``--note`` above it when given, in place of that block's
lines. Every byte outside the block stays as it was. ``--check`` says whether the markers are
well formed (each opened once, closed by its own name, none inside another) and ``--list``
names the blocks. Markers count only as whole lines outside fenced code.

    .venv/bin/python bench/bench_support.py | tee out/support.txt
    .venv/bin/python tools/measurements.py support --from-file out/support.txt \\
        --note "Measured 2026-12-06, load average 1.2. Target: at most 500 ms an answer."

Exit status: 0 written (or the check passed), 1 refused (bad markers, no such block, no table
in the input), 2 a usage error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "measurements.md"
OPEN = re.compile(r"<!-- figures:([a-z0-9][a-z0-9_.-]*) -->")
CLOSE = re.compile(r"<!-- /figures:([a-z0-9][a-z0-9_.-]*) -->")
SEPARATOR = re.compile(r"\|(\s*:?-{3,}:?\s*\|)+")


class Refused(Exception):
    """The page or the input is not what the tool can write safely."""


@dataclass(frozen=True)
class Block:
    name: str
    start: int
    """Index of the opening marker's line."""
    end: int
    """Index of the closing marker's line."""


def blocks(lines: list[str]) -> list[Block]:
    """The page's blocks, in order; raises Refused, naming every fault, when a marker is
    unbalanced, nested, closed by another name or a block is opened twice."""
    found: list[Block] = []
    faults: list[str] = []
    names: set[str] = set()
    opened: tuple[str, int] | None = None
    fenced = False
    for number, line in enumerate(lines):
        text = line.strip()
        if text.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        begin, finish = OPEN.fullmatch(text), CLOSE.fullmatch(text)
        if begin is None and finish is None:
            if OPEN.search(text) or CLOSE.search(text):
                faults.append(f"line {number + 1}: a marker must be a line of its own: {text}")
            continue
        if begin is not None:
            name = begin.group(1)
            if opened is not None:
                faults.append(f"line {number + 1}: {name} opened inside {opened[0]}")
                continue
            if name in names:
                faults.append(f"line {number + 1}: {name} opened a second time")
            opened = (name, number)
            continue
        assert finish is not None
        name = finish.group(1)
        if opened is None:
            faults.append(f"line {number + 1}: {name} closed but never opened")
        elif opened[0] != name:
            faults.append(f"line {number + 1}: {opened[0]} closed by another name, {name}")
            opened = None
        else:
            names.add(name)
            found.append(Block(name, opened[1], number))
            opened = None
    if fenced:
        faults.append("a code fence is never closed")
    if opened is not None:
        faults.append(f"line {opened[1] + 1}: {opened[0]} is never closed")
    if faults:
        raise Refused("\n".join(faults))
    return found


def tables(text: str) -> list[list[str]]:
    """Every Markdown table in ``text``: runs of lines starting with ``|`` whose second line
    is a separator row."""
    found: list[list[str]] = []
    run: list[str] = []
    for line in [*text.splitlines(), ""]:
        stripped = line.strip()
        if stripped.startswith("|"):
            run.append(stripped)
            continue
        if len(run) >= 2 and SEPARATOR.fullmatch(run[1].replace(" ", "")):
            found.append(run)
        run = []
    return found


def replace(page: str, name: str, output: str, *, note: str = "", table: int = -1) -> str:
    """``page`` with block ``name`` holding the chosen table of ``output`` (and ``note``)."""
    lines = page.splitlines(keepends=True)
    chosen = {b.name: b for b in blocks(lines)}.get(name)
    if chosen is None:
        raise Refused(f"no block {name!r} (markers <!-- figures:{name} --> and its close)")
    found = tables(output)
    if not found:
        raise Refused("no Markdown table in the input")
    try:
        rows = found[table - 1 if table > 0 else table]
    except IndexError:
        raise Refused(f"the input holds {len(found)} table(s), not a table {table}") from None
    newline = "\r\n" if lines[chosen.start].endswith("\r\n") else "\n"
    body = [f"{line}{newline}" for line in note.strip().splitlines()]
    if body:
        body.append(newline)
    body += [f"{row}{newline}" for row in rows]
    return "".join([*lines[: chosen.start + 1], *body, *lines[chosen.end :]])


def _write(path: Path, text: str) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", nargs="?", help="the block to write (figures:NAME)")
    parser.add_argument("--from-file", type=Path, help="the command's output (else stdin)")
    parser.add_argument("--note", default="", help="text put above the table")
    parser.add_argument("--table", type=int, default=-1, help="which table, from 1 (last)")
    parser.add_argument("--page", type=Path, default=PAGE, help="the page (docs/measurements.md)")
    parser.add_argument("--check", action="store_true", help="only check the markers")
    parser.add_argument("--list", action="store_true", help="name the blocks")
    args = parser.parse_args(argv)
    if not (args.check or args.list) and args.name is None:
        parser.error("give a block NAME, --check or --list")
    try:
        page = args.page.read_bytes().decode("utf-8")
        if args.check or args.list:
            found = blocks(page.splitlines(keepends=True))
            if args.list:
                print("\n".join(b.name for b in found))
            else:
                print(f"{args.page}: {len(found)} blocks, markers well formed")
            return 0
        output = args.from_file.read_text(encoding="utf-8") if args.from_file else sys.stdin.read()
        _write(args.page, replace(page, args.name, output, note=args.note, table=args.table))
    except Refused as refusal:
        print(f"{args.page}: {refusal}", file=sys.stderr)
        return 1
    print(f"{args.page}: figures:{args.name} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
