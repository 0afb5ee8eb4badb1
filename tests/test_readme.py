"""The README's Python example runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from tests.lending import EMAIL_TEXT, POLICY_TEXT

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_python_api_example_runs_and_prints_every_quote() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no Python example"
    namespace = {
        "policy_text": POLICY_TEXT,
        "email_body": EMAIL_TEXT,
        "llm_answer": 'The policy: "Applications above 95% are declined." [S1] '
        'and "Applications above 90% are declined." [S9]',
    }
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(blocks[0], str(README), "exec"), namespace)
    lines = printed.getvalue().splitlines()
    assert lines[0].startswith("q1 verified S1 3")
    assert lines[1].startswith("q2 ineligible None")
    # The README's policy removes citations to sources not provided: the [S9] marker goes.
    assert lines[2] == (
        'The policy: "Applications above 95% are declined." [S1] and '
        '"Applications above 90% are declined."'
    )
