"""What a newcomer trips on: numbered citations, answers with nothing to check, help texts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from citeproof import Policy, verify
from citeproof.cli import main
from citeproof.render import render
from tests.lending import SOURCES

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "lending"
NUMBERED_ANSWER = (
    'The policy says "Applications above 95% are declined." [1] and the memo records that '
    '"The applicant is self-employed and provided one year of certified accounts." [3]\n'
)


def test_a_numbered_citation_says_which_ids_were_provided_and_how_to_number_them_012_2() -> None:
    renamed = [replace(s, id=name) for s, name in zip(SOURCES, "pem", strict=True)]
    result = verify(NUMBERED_ANSWER, renamed)
    assert [q.status for q in result.quotes] == ["ineligible", "ineligible"]
    note = result.quotes[0].note
    assert "the sources provided are p, e, m" in note
    assert "--source 1=FILE" in note and "--number-sources" in note
    for fmt in ("html", "md", "term"):
        page = " ".join(render(result, fmt).split())  # type: ignore[arg-type]
        assert "Sources provided: p, e, m." in page, fmt
        assert "--number-sources" in page, fmt


def test_number_sources_names_the_sources_1_to_n_in_the_order_given_012_2(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text(
        'The policy says "Applications above 95% are declined." [1] and the memo says '
        '"The case is referred for the loan-to-value exception under section 2." [3]\n'
    )
    args = [
        "verify",
        str(answer),
        "--source",
        f"policy={EXAMPLES / 'credit-policy.md'}",
        "--source",
        f"email={EXAMPLES / 'hartley-valuation.eml'}",
        "--source",
        f"memo={EXAMPLES / 'hartley-memo.txt'}",
        "--format",
        "json",
    ]
    without = CliRunner().invoke(main, args)
    assert '"ineligible"' in without.stdout
    numbered = CliRunner().invoke(main, [*args, "--number-sources"])
    assert numbered.exit_code == 0, numbered.output
    assert '"status": "ineligible"' not in numbered.stdout
    assert '"verified": 2' in numbered.stdout


def test_an_answer_with_nothing_to_check_says_so_in_every_rendering_003_5() -> None:
    result = verify("The policy is strict about loan-to-value.", SOURCES)
    for fmt in ("html", "md", "term"):
        page = " ".join(render(result, fmt).split())  # type: ignore[arg-type]
        assert "Nothing in this answer could be checked: it has no quotes" in page, fmt
    cited = verify("The policy is strict [S9].", SOURCES)
    flat = " ".join(render(cited, "term").split())
    assert "its citations name sources that were not provided" in flat
    checked = verify('"Applications above 95% are declined." [S1]', SOURCES)
    assert "Nothing in this answer could be checked" not in render(checked, "term")


def test_verify_help_gives_the_real_default_similarity() -> None:
    result = CliRunner().invoke(main, ["verify", "--help"])
    flat = " ".join(result.stdout.split())
    assert f"(default: the measured {Policy().min_similarity})" in flat
    assert "0.85" not in flat
