"""The operations report for people: a terminal table and one self-contained HTML page.

The page has no script at all and loads nothing: its charts are inline SVG, its style inline,
and a content security policy forbids anything else. Every text that comes from the log
(stage names, correction kinds, dates) is HTML-escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from citeproof.operations._report import PERCENTILES, Report
from citeproof.render import plural

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _seconds(value: float | int) -> str:
    seconds = float(value)
    return f"{seconds:.2f} s" if seconds >= 1 else f"{1000 * seconds:.1f} ms"


def _integrity(report: Report) -> str:
    check = report.integrity
    if check is None:
        return "records given already read; not checked"
    return check.summary()


def render_report_term(report: Report) -> str:
    """Plain text: one section per figure, aligned columns."""
    window = f"since {report.since}" if report.since else "whole log"
    lines = [
        f"citeproof report ({window}, generated {report.generated_at})",
        f"  records {report.records}, answers {report.answers}",
        f"  integrity: {_integrity(report)}",
        "",
        "coverage",
        f"  {report.with_evidence}/{report.claims} claims with evidence "
        f"({_pct(report.coverage)}), {report.gaps} without",
        "",
        "quotes",
    ]
    lines += [f"  {status:<12}{n:>8}" for status, n in report.statuses.items()]
    lines += [f"  corrected quotes {report.corrected_quotes}"]
    lines += [f"    {kind:<20}{n:>6}" for kind, n in report.corrections.items()]
    lines += [
        "",
        f"drift (freshness window {report.freshness_days:g} days)",
        f"  stale evidence      {report.stale}/{report.evidence} "
        f"({plural(report.answers_with_stale, 'answer')})",
        f"  superseded since    {plural(report.superseded_since, 'answer')}",
        f"  source gone since   {plural(report.missing_since, 'answer')}",
        "",
        "latency (" + "/".join(f"p{p}" for p in PERCENTILES) + ")",
    ]
    for stage, figures in report.latency.items():
        values = " ".join(f"{_seconds(figures[f'p{p}']):>10}" for p in PERCENTILES)
        lines.append(f"  {stage:<24}{values}  n={figures['count']}")
    if not report.latency:
        lines.append("  no timings logged (citeproof ask logs them)")
    lines += ["", "re-validation (latest outcome per answer)"]
    lines += [f"  {outcome:<16}{n:>8}" for outcome, n in report.revalidation.items()]
    lines += ["", "reviews"]
    lines += [f"  {verdict:<16}{n:>8}" for verdict, n in report.reviews.items()]
    return "\n".join(lines) + "\n"


def render_report_html(report: Report) -> str:
    """One HTML page: the figures as tables and inline SVG charts, no scripts, no requests."""
    window = f"since {report.since}" if report.since else "whole log"
    dates = [day.date for day in report.days]
    coverage_chart = _line_chart(
        "Evidence coverage per day", dates, [day.coverage for day in report.days]
    )
    drift_chart = _line_chart(
        "Stale evidence per day (share of evidence objects)",
        dates,
        [day.stale / day.evidence if day.evidence else 0.0 for day in report.days],
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        "<title>citeproof report</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>citeproof report</h1><p>{escape(window)} · generated "
        f"{escape(report.generated_at)} · {report.records} records, {report.answers} answers</p>"
        f"<p class='integrity'>Integrity: {escape(_integrity(report))}</p>",
        '<section class="cards">',
        _card("Coverage", _pct(report.coverage), f"{report.with_evidence}/{report.claims} claims"),
        _card("Stale evidence", str(report.stale), f"of {report.evidence} evidence objects"),
        _card("Superseded since", *_counted(report.superseded_since, "answer")),
        _card("Source gone since", *_counted(report.missing_since, "answer")),
        _card("Corrected quotes", *_counted(report.corrected_quotes, "quote")),
        "</section>",
        "<h2>Coverage and drift over time</h2>",
        coverage_chart,
        drift_chart,
        "<h2>Latency per stage</h2>",
        _latency_chart(report),
        _table(
            ["stage", *(f"p{p}" for p in PERCENTILES), "n"],
            [
                [stage, *(_seconds(f[f"p{p}"]) for p in PERCENTILES), str(f["count"])]
                for stage, f in report.latency.items()
            ],
        ),
        "<h2>Quotes</h2>",
        _table(["status", "quotes"], [[k, str(v)] for k, v in report.statuses.items()]),
        _table(["correction", "count"], [[k, str(v)] for k, v in report.corrections.items()]),
        "<h2>Re-validation</h2>",
        _table(["outcome", "answers"], [[k, str(v)] for k, v in report.revalidation.items()]),
        "<h2>Reviews</h2>",
        _table(["verdict", "answers"], [[k, str(v)] for k, v in report.reviews.items()]),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _counted(count: int, word: str) -> tuple[str, str]:
    """A card's value and its noun: ``("1", "answer")``, ``("2", "answers")``."""
    value, _, noun = plural(count, word).partition(" ")
    return value, noun


def _card(title: str, value: str, detail: str) -> str:
    return (
        f'<div class="card"><div class="t">{escape(title)}</div>'
        f'<div class="v">{escape(value)}</div><div class="d">{escape(detail)}</div></div>'
    )


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    if not rows:
        return "<p>none</p>"
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f'<div class="table">{table}</div>'


_W, _H, _PAD = 640, 200, 40


def _line_chart(title: str, labels: Sequence[str], values: Sequence[float]) -> str:
    """Values in [0, 1] per label, as a polyline with points and a 0-100% axis."""
    if not values:
        return f'<p class="empty">{escape(title)}: no answers in the window.</p>'
    if len(values) == 1:  # one point draws no line: say the figure instead of bare axes
        return (
            f'<p class="empty">{escape(title)}: {escape(labels[0])} only, '
            f"{_pct(values[0])}; the chart starts with a second day of answers.</p>"
        )
    width = _W - 2 * _PAD
    step = width / max(len(values) - 1, 1)
    points = [
        (_PAD + i * step, _H - _PAD - max(0.0, min(1.0, v)) * (_H - 2 * _PAD))
        for i, v in enumerate(values)
    ]
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3"><title>{escape(label)}: {_pct(v)}</title>'
        "</circle>"
        for (x, y), label, v in zip(points, labels, values, strict=True)
    )
    first, last = escape(labels[0]), escape(labels[-1])
    return (
        f'<figure><figcaption>{escape(title)}</figcaption><svg role="img" '
        f'viewBox="0 0 {_W} {_H}" width="{_W}" height="{_H}">'
        f'<line x1="{_PAD}" y1="{_H - _PAD}" x2="{_W - _PAD}" y2="{_H - _PAD}" class="axis"/>'
        f'<line x1="{_PAD}" y1="{_PAD}" x2="{_PAD}" y2="{_H - _PAD}" class="axis"/>'
        f'<text x="4" y="{_PAD + 4}">100%</text><text x="4" y="{_H - _PAD + 4}">0%</text>'
        f'<polyline points="{path}" class="line"/>{dots}'
        f'<text x="{_PAD}" y="{_H - 10}">{first}</text>'
        f'<text x="{_W - _PAD}" y="{_H - 10}" text-anchor="end">{last}</text></svg></figure>'
    )


def _latency_chart(report: Report) -> str:
    """One row per stage: a bar from 0 to p99 with p50 and p95 marked, on a logarithmic scale
    (stages differ by orders of magnitude: milliseconds to retrieve, seconds to generate)."""
    if not report.latency:
        return "<p>no timings logged (citeproof ask logs them)</p>"
    values = [float(f[f"p{p}"]) for f in report.latency.values() for p in PERCENTILES]
    top = max(max(values), 1e-6)
    low = max(min([v for v in values if v > 0] or [top]) / 2, 1e-6)
    span = math.log10(top / low) or 1.0
    row = 26
    height = row * len(report.latency) + 30
    label_width = 190
    width = _W - label_width - 20

    def x(seconds: float) -> float:
        fraction = math.log10(max(seconds, low) / low) / span
        return label_width + max(fraction, 0.0) * width

    rows = []
    for n, (stage, figures) in enumerate(report.latency.items()):
        y = 10 + n * row
        p50, p95, p99 = (float(figures[f"p{p}"]) for p in PERCENTILES)
        x50, x95, x99 = x(p50), x(p95), x(p99)
        rows.append(
            f'<text x="4" y="{y + 14}">{escape(stage)}</text>'
            f'<rect x="{label_width}" y="{y + 4}" width="{max(x99 - label_width, 1):.1f}" '
            f'height="12" class="bar"><title>{escape(stage)}: p50 {_seconds(p50)}, '
            f"p95 {_seconds(p95)}, p99 {_seconds(p99)}</title></rect>"
            f'<line x1="{x50:.1f}" x2="{x50:.1f}" y1="{y + 2}" y2="{y + 18}" class="p50"/>'
            f'<line x1="{x95:.1f}" x2="{x95:.1f}" y1="{y + 2}" y2="{y + 18}" class="p95"/>'
        )
    return (
        "<figure><figcaption>Latency per stage: bar to p99, marks at p50 (dark) and p95 "
        f"(red); logarithmic scale from {_seconds(low)} to {_seconds(top)}</figcaption>"
        f'<svg role="img" viewBox="0 0 {_W} {height}" width="{_W}" height="{height}">'
        f"{''.join(rows)}</svg></figure>"
    )


_STYLE = """
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:760px;padding:0 1rem;
color:#1a1a1a;overflow-wrap:anywhere}
svg{max-width:100%;height:auto}.table{overflow-x:auto}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
.cards{display:flex;gap:.8rem;flex-wrap:wrap}
.card{border:1px solid #ccc;border-radius:6px;padding:.6rem .9rem;min-width:140px}
.card .t{font-size:.8rem;color:#555}.card .v{font-size:1.5rem;font-weight:600}
.card .d{font-size:.8rem;color:#555}
table{border-collapse:collapse;margin:.6rem 0}td,th{border:1px solid #ddd;padding:.2rem .6rem}
td:not(:first-child){text-align:right}
svg text{font-size:11px;fill:#333}.axis{stroke:#999}.line{fill:none;stroke:#1f6feb;stroke-width:2}
circle{fill:#1f6feb}.bar{fill:#9ec5fe}.p50{stroke:#0b3d91;stroke-width:2}
.p95{stroke:#c62828;stroke-width:2}figure{margin:1rem 0}
figcaption{font-size:.85rem;color:#444}
"""
