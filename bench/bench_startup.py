"""Start-up: what a cold ``citeproof`` process costs before it does any work.

Run: ``.venv/bin/python bench/bench_startup.py [--runs 9]``. See bench/README.md.

Each row is a fresh process started the way a user starts it, timed from its start to its exit
(wall clock), ``--runs`` times after one untimed warm-up run (so the files are in the page
cache, as they are for a user running the command twice); the table shows the median and the
fastest run, the median as a multiple of ``python -c pass`` (the interpreter's own start), and
the median CPU time (user and system) of the process, which a busy machine changes less.
The rows: ``python -c pass``; ``python -c "import citeproof"``; ``citeproof --version``; and
``citeproof verify answer.md --source 1=source.txt``, a one-quote answer over one small text
file, printed for a terminal (the default), whose quote must come out verified. Targets:
``import citeproof`` and ``--version`` at most 0.3 s, the one-quote verify at most 0.8 s.
The load average is printed before and after: timings on a busy machine are not comparable.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE = (
    "The Hartley valuation was completed on 3 March 2025 by a chartered surveyor.\n\n"
    "The valuation gave a loan-to-value of 72 percent for the Hartley property, within the "
    "policy's limit of 80 percent for a first charge.\n"
)
ANSWER = 'The surveyor found "a loan-to-value of 72 percent for the Hartley property" [1].\n'
TARGETS = {"import citeproof": 0.3, "citeproof --version": 0.3, "citeproof verify": 0.8}


def _citeproof_script() -> Path:
    script = Path(sys.executable).parent / "citeproof"
    if not script.exists():
        sys.exit(f"no citeproof script beside {sys.executable}: install citeproof (make install)")
    return script


def _time(command: list[str], cwd: Path, check: str | None) -> tuple[float, float]:
    """Wall seconds from start to exit, and CPU seconds (user and system) of the process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        printed, complaint = out.read().decode(), err.read().decode()
    if process.returncode != 0 or (check is not None and check not in printed):
        sys.exit(f"{' '.join(command)} failed ({process.returncode}):\n{printed}{complaint}")
    return elapsed, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="timed runs per row (default 9)")
    args = parser.parse_args()
    script = str(_citeproof_script())
    rows: list[tuple[str, list[str], str | None]] = [
        ("python -c pass", [sys.executable, "-c", "pass"], None),
        ("import citeproof", [sys.executable, "-c", "import citeproof"], None),
        ("citeproof --version", [script, "--version"], "version"),
        (
            "citeproof verify",
            [script, "verify", "answer.md", "--source", "1=source.txt"],
            "Verified: 1",
        ),
    ]
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at start")
    print(f"{args.runs} cold processes per row after one warm-up; wall clock, start to exit\n")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "source.txt").write_text(SOURCE, encoding="utf-8")
        (work / "answer.md").write_text(ANSWER, encoding="utf-8")
        print(
            f"{'command':<22}{'median s':>10}{'fastest s':>11}{'x pass':>8}{'CPU s':>8}"
            f"{'target s':>14}"
        )
        floor = None
        for name, command, check in rows:
            _time(command, work, check)  # warm-up: files into the page cache
            runs = [_time(command, work, check) for _ in range(args.runs)]
            median = statistics.median(wall for wall, _ in runs)
            cpu = statistics.median(used for _, used in runs)
            floor = floor or median
            target = TARGETS.get(name)
            verdict = (
                "" if target is None else f"{target:.1f} {'met' if median <= target else 'MISSED'}"
            )
            print(
                f"{name:<22}{median:>10.3f}{min(wall for wall, _ in runs):>11.3f}"
                f"{median / floor:>8.1f}{cpu:>8.3f}{verdict:>14}"
            )
    print(f"\nload average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at end")


if __name__ == "__main__":
    main()
