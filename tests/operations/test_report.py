"""The operations report (issue 13; SPEC E: coverage, drift, latency, re-validation) checked
against figures computed by hand on a small fixed log."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from citeproof.audit import open_store
from citeproof.cli import main
from citeproof.errors import InputError
from citeproof.operations import logged_records, parse_since, report_of_log
from citeproof.operations._report import build_report, percentile
from citeproof.operations.revalidate_log import revalidate_log
from citeproof.outcome import conclude
from citeproof.sources import SourceStore
from citeproof.verifier import verify
from tests.operations.world import FILES, NEW_RATES, NOW

OLD = datetime(2026, 9, 1, tzinfo=UTC)
"""Far more than 30 days before the records are logged: evidence from then is stale."""

TIMINGS = [
    {"retrieve": 0.010, "eligibility": 0.001, "prompt": 0.002, "generate": 0.500, "verify": 0.020},
    {"retrieve": 0.030, "eligibility": 0.002, "prompt": 0.001, "generate": 1.000, "verify": 0.040},
    {"retrieve": 0.020, "eligibility": 0.003, "prompt": 0.003, "generate": 2.000, "verify": 0.010},
]


def build_log(tmp_path: Path) -> tuple[str, Path, Path]:
    """Four answers: policy (verified quote + an uncited claim; old, stale source), rates
    (quote cited at the wrong paragraph, corrected), memo (quote not found), guide (verified).
    Then the rate sheet gets a new version and a re-validation runs."""
    folder = tmp_path / "files"
    folder.mkdir()
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    store_path = tmp_path / "sources.db"
    with SourceStore(store_path, clock=lambda: OLD) as store:
        store.ingest_file(folder / "policy.md")
        store.ingest_file(folder / "memo.md")
    with SourceStore(store_path) as store:
        store.ingest_file(folder / "rates.md")
        store.ingest_file(folder / "guide.md")
        ids = {Path(s.origin).name: s.id for s in store.current()}
        sources = [s.source for s in store.current()]
    answers = [
        f'Referral: "loan-to-value ratio above 80% must be referred to a senior" '
        f"[{ids['policy.md']}, ¶2]. Nothing else applies.",
        f'The rate "is reviewed on the first business day of each month" [{ids["rates.md"]}, ¶3].',
        f'The memo says "the valuation was far above the asking price" [{ids["memo.md"]}, ¶2].',
        f'Brokers "must submit every application through the portal" [{ids["guide.md"]}, ¶2].',
    ]
    audit = str(tmp_path / "audit.db")
    with open_store(audit) as log:
        timings = iter(TIMINGS)  # the memo's answer came from `verify`: no timings
        for number, text in enumerate(answers):
            request: dict[str, Any] = {"command": "ask", "n": number}
            if number != 2:
                request["timings"] = next(timings)
            conclude(verify(text, sources, now=NOW), request=request, log=log)
    (folder / "rates.md").write_text(NEW_RATES, encoding="utf-8")
    with SourceStore(store_path) as store, open_store(audit) as log:
        store.ingest_file(folder / "rates.md")
        revalidate_log(log, store, workers=1)
    return audit, store_path, folder


def report_json(audit: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["report", "--audit", audit, "--format", "json", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_report_figures_equal_the_hand_computed_ones_E(tmp_path: Path) -> None:
    audit, _, _ = build_log(tmp_path)
    report = report_json(audit)
    assert report["window"] == {"since": "30d", "records": 8}  # 4 answers + 4 outcomes
    assert report["answers"] == 4
    # Claims: policy 2 (1 uncited), rates 1, memo 1 (its quote is not found), guide 1.
    assert report["coverage"] == {"claims": 5, "with_evidence": 3, "gaps": 2, "ratio": 0.6}
    assert report["statuses"] == {
        "verified": 2,
        "corrected": 1,
        "mismatch": 0,
        "not_found": 1,
        "ineligible": 0,
    }
    assert report["corrections"]["quotes"] == 1
    assert sum(report["corrections"]["by_kind"].values()) >= 1
    # Evidence: policy, rates, guide; only the policy's version was retrieved > 30 days before.
    assert report["drift"] == {
        "freshness_days": 30,
        "evidence": 3,
        "stale": 1,
        "answers_with_stale": 1,
        "superseded_since": 1,
        "sources_missing_since": 0,
    }
    # Timings of three answers: generate 0.5, 1.0, 2.0 → nearest rank p50 1.0, p95 = p99 2.0.
    assert report["latency"]["generate"] == {"count": 3, "p50": 1.0, "p95": 2.0, "p99": 2.0}
    assert report["latency"]["verify"] == {"count": 3, "p50": 0.02, "p95": 0.04, "p99": 0.04}
    # Totals 0.533, 1.073, 2.036; without the evidence stage (verify): 0.513, 1.033, 2.026.
    assert report["latency"]["total"]["p50"] == pytest.approx(1.073)
    assert report["latency"]["total_without_evidence"]["p50"] == pytest.approx(1.033)
    assert report["latency"]["total_without_evidence"]["p99"] == pytest.approx(2.026)
    assert report["revalidation"] == {
        "holds": 3,
        "changed": 0,
        "superseded": 1,
        "source_missing": 0,
    }
    (day,) = report["days"]
    assert (day["answers"], day["claims"], day["with_evidence"], day["stale"]) == (4, 5, 3, 1)


def test_a_freshness_window_of_100_days_makes_nothing_stale_E(tmp_path: Path) -> None:
    audit, _, _ = build_log(tmp_path)
    assert report_json(audit, "--freshness", "100")["drift"]["stale"] == 0


def test_the_html_report_is_one_page_with_svg_charts_and_no_scripts_E(tmp_path: Path) -> None:
    audit, _, _ = build_log(tmp_path)
    with open_store(audit) as log:  # a hostile stage name in the logged timings
        request = {"command": "ask", "timings": {"<script>alert(1)</script>": 0.5}}
        log.append({"schema": "citeproof/audit-payload/1", "request": request, **_empty()})
    out = tmp_path / "out" / "report.html"
    result = CliRunner().invoke(
        main, ["report", "--audit", audit, "--format", "html", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    # One day of answers: latency is a chart, the two per-day lines are said in words.
    assert page.count("<svg") == 1
    assert page.count("the chart starts with a second day of answers") == 2
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "http://" not in page and "https://" not in page and "src=" not in page
    assert "Content-Security-Policy" in page and "60.0%" in page


def test_two_days_of_answers_draw_the_per_day_charts_E(tmp_path: Path) -> None:
    from citeproof.operations import render_report_html
    from citeproof.operations._report import Day

    audit, _, _ = build_log(tmp_path)
    with open_store(audit) as log:
        report = report_of_log(log, since=parse_since("30d"), now=datetime.now(UTC))
    days = (Day("2026-11-29", 2, 4, 2, 3, 1), Day("2026-11-30", 1, 2, 2, 2, 0))
    page = render_report_html(replace(report, days=days))
    assert page.count("<svg") == 3 and "<polyline" in page  # coverage, drift, latency


def test_the_terminal_report_names_each_figure_E(tmp_path: Path) -> None:
    audit, _, _ = build_log(tmp_path)
    result = CliRunner().invoke(main, ["report", "--audit", audit])
    assert result.exit_code == 0
    assert "3/5 claims with evidence (60.0%), 2 without" in result.stdout
    assert "stale evidence      1/3 (1 answer)" in result.stdout
    assert "superseded since    1 answer\n" in result.stdout
    assert "source gone since   0 answers\n" in result.stdout
    assert " 1 answers" not in result.stdout


def test_the_html_report_counts_in_the_right_number_E(tmp_path: Path) -> None:
    audit, _, _ = build_log(tmp_path)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        main, ["report", "--audit", audit, "--format", "html", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    superseded = page[page.index("Superseded since") :]
    assert '<div class="v">1</div><div class="d">answer</div>' in superseded


def test_a_window_excludes_what_was_logged_before_it_E(tmp_path: Path) -> None:
    audit, _, _ = build_log(tmp_path)
    with open_store(audit) as log:
        records = list(logged_records(log))
    now = records[-1].when
    # The first two answers were logged 40 days ago.
    moved = [
        replace(r, recorded_at=(now - timedelta(days=40)).isoformat()) if r.sequence < 2 else r
        for r in records
    ]
    assert build_report(moved, now=now, since=timedelta(days=30)).answers == 2
    assert build_report(moved, now=now, since=None).answers == 4


def test_durations_and_percentiles_read_as_documented_E() -> None:
    assert parse_since("30d") == timedelta(days=30)
    assert parse_since("12h") == timedelta(hours=12) and parse_since("all") is None
    with pytest.raises(InputError, match="like 30d"):
        parse_since("yesterday")
    assert percentile([3.0, 1.0, 2.0, 4.0], 50) == 2.0 and percentile([5.0], 99) == 5.0


def _empty() -> dict[str, Any]:
    return {
        "answer": {"quotes": []},
        "evidence": {"evidence": []},
        "validation": {"coverage": {"claims": 0, "with_evidence": 0, "gaps": []}},
    }


def test_the_report_read_in_the_database_equals_the_one_read_record_by_record_E(
    tmp_path: Path,
) -> None:
    audit, _, _ = build_log(tmp_path)
    now = datetime.now(UTC)
    with open_store(audit) as log:
        in_database = report_of_log(log, now=now, since=timedelta(days=30))
        by_record = build_report(logged_records(log), now=now, since=timedelta(days=30))
    assert in_database.integrity is not None and in_database.integrity.ok
    assert replace(in_database, integrity=None) == by_record
    assert in_database.answers == 4 and in_database.records == 8


def test_the_report_agrees_with_revalidation_on_gone_sources_E(tmp_path: Path) -> None:
    """The demo's case: the answer's sources were given as files, never stored, so
    re-validation finds them missing; the report counts that apart from superseded."""
    lending = Path(__file__).resolve().parents[2] / "examples" / "lending"
    audit, store = str(tmp_path / "audit.db"), str(tmp_path / "store.db")
    SourceStore(store).close()  # an empty store: none of the answer's sources is in it
    runner = CliRunner()
    verified = runner.invoke(
        main,
        ["verify", str(lending / "answer.md"), "--source", f"policy={lending / 'credit-policy.md'}",
         "--format", "json", "--audit", audit],
    )  # fmt: skip
    assert verified.exit_code == 0, verified.output
    revalidated = runner.invoke(main, ["revalidate", "--audit", audit, "--store", store])
    assert revalidated.exit_code == 1 and "1 source_missing" in revalidated.output
    report = report_json(audit)
    assert report["revalidation"]["source_missing"] == 1
    assert report["revalidation"]["superseded"] == 0
    assert report["drift"]["superseded_since"] == 0
    assert report["drift"]["sources_missing_since"] == 1
    html = runner.invoke(main, ["report", "--audit", audit, "--format", "html"]).stdout
    # One day of answers: the figure in words, not a chart of bare axes.
    assert "only, " in html and "the chart starts with a second day of answers" in html
