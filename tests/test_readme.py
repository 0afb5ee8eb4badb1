"""The README's examples run as written: the Python example needs nothing defined around it."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_python_api_example_runs_as_written_and_prints_every_quote() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no Python example"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(blocks[0], str(README), "exec"), {})
    lines = printed.getvalue().splitlines()
    assert lines[0].startswith("q1 verified S1 ")
    # The email's wording differs by a space: located in the email and kept as written (003.7).
    assert lines[1].startswith("q2 mismatch S2 1 ")
    assert lines[2].startswith("q3 ineligible None")
    # The README's policy removes citations to sources not provided: the [S9] marker goes.
    assert lines[3].endswith('and "Applications above 90% are declined."')
    assert "[S9]" not in lines[3]


def test_the_quickstart_activates_the_environment_before_calling_citeproof() -> None:
    text = README.read_text(encoding="utf-8")
    quickstart = text[text.index("## Quickstart") :]
    block = re.search(r"```sh\n(.*?)```", quickstart, re.S)
    assert block is not None
    commands = block.group(1)
    assert commands.index(". .venv/bin/activate") < commands.index("citeproof verify")
