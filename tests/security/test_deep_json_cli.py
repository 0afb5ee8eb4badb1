"""JSON nested a hundred thousand levels deep, or just under Python's own limit, given to the
CLI as a vendor response, a vendor request, a rule file or a facts file: refused with an error
naming the file, never a RecursionError traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from citeproof.cli import main
from tests.adapters.fixtures import path as fixture

DEPTHS = (100_000, 990)


def deep(depth: int) -> str:
    return '{"content": ' + "[" * depth + "]" * depth + "}"


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, terminal_width=400)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.output


def written(tmp_path: Path, name: str, depth: int) -> str:
    file = tmp_path / name
    file.write_text(deep(depth), encoding="utf-8")
    return str(file)


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_deep_vendor_response_is_refused_naming_the_file(tmp_path: Path, depth: int) -> None:
    response = written(tmp_path, "response.json", depth)
    code, output = run(["verify", "--from", "anthropic", response])
    assert code == 1
    assert "response.json" in output and "levels deep" in output


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_deep_vendor_request_is_refused_naming_the_file(tmp_path: Path, depth: int) -> None:
    request = written(tmp_path, "request.json", depth)
    response = str(fixture("anthropic-response-policy"))
    code, output = run(["verify", "--from", "anthropic", response, "--request", request])
    assert code == 1
    assert "request.json" in output and "levels deep" in output


@pytest.mark.parametrize("option", ["--rules", "--facts"])
@pytest.mark.parametrize("depth", DEPTHS)
def test_deep_rules_or_facts_are_refused_naming_the_file(
    tmp_path: Path, option: str, depth: int
) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text('The memo says "the rate is fixed" [S1].\n', encoding="utf-8")
    source = tmp_path / "memo.txt"
    source.write_text("The rate is fixed.\n", encoding="utf-8")
    given = written(tmp_path, "given.json", depth)
    extra = [option, given]
    if option == "--facts":  # facts are read for rules: give a rule file that uses none
        rules = tmp_path / "rules.toml"
        rules.write_text('[[rules]]\nname = "ok"\nwhen = "true"\naction = "allow"\n', "utf-8")
        extra += ["--rules", str(rules)]
    code, output = run(["verify", str(answer), "--source", str(source), *extra])
    assert code == 1, output
    assert "given.json" in output and "levels deep" in output
