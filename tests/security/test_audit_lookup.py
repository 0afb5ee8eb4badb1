"""Issue 9 §6: every audit record can be found, and a lookup never hides one (the audit log
proves which version of which source backed each claim)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from citeproof import Source, verify
from citeproof.audit import open_store
from citeproof.cli import main
from citeproof.outcome import conclude

SOURCES = [Source(id="S1", kind="document", text="The rate is fixed at 4.25%.")]


def test_two_answers_with_the_same_batch_id_get_different_request_ids(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "audit.db")) as log:
        first = conclude(verify('"The rate is fixed" [S1].', SOURCES, answer_id="line-1"),
                         request={}, log=log)  # fmt: skip
        second = conclude(verify('"fixed at 4.25%" [S1].', SOURCES, answer_id="line-1"),
                          request={}, log=log)  # fmt: skip
        assert first.request_id != second.request_id
        assert log.one(first.request_id).payload != log.one(second.request_id).payload


def run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, terminal_width=400)
    return result.exit_code, result.stdout, result.stderr


def test_audit_show_and_proof_list_every_record_of_a_request_id(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text('It says "the rate is fixed" [S1].\n', "utf-8")
    source = tmp_path / "S1.txt"
    source.write_text("The rate is fixed at 4.25%.\n", "utf-8")
    audit = str(tmp_path / "audit.db")
    logged = []
    for _ in range(2):  # the same request, verified twice
        code, _, err = run(["verify", str(answer), "--source", str(source), "--audit", audit])
        assert code == 0, err
        logged.append(re.search(r"request (\S+) recorded as record (\d+)", err))
    request_id = logged[0].group(1)
    assert logged[1].group(1) == request_id
    code, out, err = run(["audit", "show", request_id, "--audit", audit])
    assert code == 0
    assert [record["sequence"] for record in json.loads(out)] == [0, 1]
    assert "2 records have request id" in err
    code, out, err = run(["audit", "proof", request_id, "--audit", audit])
    assert code == 1 and "sequences 0, 1" in err
    code, out, _ = run(["audit", "proof", request_id, "--audit", audit, "--sequence", "0"])
    assert code == 0 and json.loads(out)["leaf_index"] == 0
