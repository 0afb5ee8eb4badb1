"""``citeproof guardrail``: does a candidate model cite worse than the baseline on a golden set?

Exit codes: 0 the candidate is within the margins, 1 it is worse, 2 usage errors (click's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from citeproof.asking import default_budget
from citeproof.cli._common import Command, PathType, examples, exit_codes
from citeproof.operations import Margins, compare, describe, read_golden, run_golden
from citeproof.providers import Provider, get_provider
from citeproof.sources import SourceStore


def _provider(spec: str) -> Provider:
    """``PROVIDER`` or ``PROVIDER/MODEL`` (the model name may itself hold slashes)."""
    name, _, model = spec.partition("/")
    settings: dict[str, Any] = {"model": model} if model else {}
    return get_provider(name, **settings)


@click.command(
    "guardrail",
    cls=Command,
    short_help="Fail when a candidate model cites worse than the baseline.",
    epilog=examples(
        "citeproof guardrail --golden golden.jsonl --store mailbox.db \\",
        "    --baseline openai/gpt-4o --candidate openai/gpt-4o-mini",
    )
    + exit_codes(
        (0, "the candidate is within the margins"),
        (1, "the candidate is worse by more than a margin, or an error (the message says)"),
    ),
)
@click.option(
    "--golden",
    required=True,
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    help="Golden questions, JSON lines: id, question, expected_sources.",
)
@click.option("--baseline", required=True, metavar="PROVIDER[/MODEL]", help="The current model.")
@click.option("--candidate", required=True, metavar="PROVIDER[/MODEL]", help="The new model.")
@click.option(
    "--store",
    "store_path",
    required=True,
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    help="The source store the questions are answered from.",
)
@click.option(
    "--max-correctness-drop",
    type=float,
    default=0.05,
    show_default=True,
    help="Largest allowed drop in the share of quotes verified word for word.",
)
@click.option(
    "--max-expected-drop",
    type=float,
    default=0.10,
    show_default=True,
    help="Largest allowed drop in the share of questions citing an expected source.",
)
@click.option(
    "--max-coverage-drop",
    type=float,
    default=0.05,
    show_default=True,
    help="Largest allowed drop in claims with evidence over claims.",
)
@click.option(
    "--max-extra-ineligible",
    type=int,
    default=0,
    show_default=True,
    help="How many more ineligible citations than the baseline are allowed.",
)
@click.option(
    "--max-changed-bundles",
    type=click.IntRange(min=0),
    default=None,
    help="Fail when more questions than this get a different evidence bundle "
    "(default: list them only).",
)
@click.option(
    "--max-tokens", type=int, default=200, show_default=True, help="Longest answer, in tokens."
)
@click.option(
    "--timeout",
    type=float,
    default=120.0,
    show_default=True,
    help="Deadline for each model call, in seconds.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def guardrail_command(
    golden: Path,
    baseline: str,
    candidate: str,
    store_path: Path,
    max_correctness_drop: float,
    max_expected_drop: float,
    max_coverage_drop: float,
    max_extra_ineligible: int,
    max_changed_bundles: int | None,
    max_tokens: int,
    timeout: float,
    as_json: bool,
) -> None:
    """Run the golden questions through BASELINE and CANDIDATE and compare citation
    correctness, expected sources, coverage, ineligible citations and evidence bundles; exit 1
    when the candidate is worse by more than the margins."""
    margins = Margins(
        correctness=max_correctness_drop,
        expected_sources=max_expected_drop,
        coverage=max_coverage_drop,
        ineligible=max_extra_ineligible,
        changed_bundles=max_changed_bundles,
    )
    questions = read_golden(golden)
    runs = []
    with SourceStore(store_path) as store:
        for spec in (baseline, candidate):
            provider = _provider(spec)
            budget = default_budget(provider)
            runs.append(
                run_golden(
                    questions,
                    provider,
                    store,
                    label=spec,
                    budget_chars=budget,
                    max_tokens=max_tokens,
                    timeout=timeout,
                )
            )
    comparison = compare(runs[0], runs[1], margins)
    if as_json:
        click.echo(json.dumps(comparison.to_json(), ensure_ascii=False, indent=2))
    else:
        click.echo(describe(comparison), nl=False)
    if not comparison.ok:
        raise SystemExit(1)
