"""What the review pages show (issue 46): an answer read back from its audit record is drawn by
the answer page's own components, numbered as the answer page numbers it; the queue's rows
read as text (no Markdown), with their problems, worst first, and a relative time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from citeproof import verify
from citeproof.model import VerifiedAnswer
from citeproof.outcome import answer_to_json, source_to_json
from citeproof.render import answer_body, render_html
from citeproof.server import _views as views
from citeproof.server._answer_record import answer_from_record, index_counts
from tests.answers import lending_answer
from tests.lending import SOURCES
from tests.server.lines import LENDING_ANSWER

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
DEMO = Path(__file__).resolve().parents[2] / "examples" / "lending"


def _record(answer: VerifiedAnswer) -> dict[str, Any]:
    return {
        "answer": answer_to_json(answer),
        "sources": [source_to_json(s) for s in answer.sources],
        "request": {"request_id": "r-1"},
    }


@dataclass
class _Entry:
    request_id: str = "r-1"
    created_at: str = "2026-12-01T11:57:10Z"


def test_an_answer_read_back_from_its_record_is_drawn_as_the_answer_page_draws_it() -> None:
    for answer in (lending_answer(), verify(LENDING_ANSWER, SOURCES, answer_id="views")):
        assert render_html(answer_from_record(_record(answer))) == render_html(answer)


def test_the_review_page_is_the_answer_page_body_with_links_out_kept_as_text() -> None:
    answer = lending_answer()
    page = views.review_page(_record(answer), _Entry(), NOW)
    assert page.body == answer_body(answer, outside_links=False).html
    assert 'href="#note-1"' in page.body and 'class="marker' in page.body
    assert 'href="http' not in page.body and "http" in answer_body(answer).html
    assert page.when == "2 minutes ago" and page.answer_id == answer.id


def test_plain_text_reads_markdown_as_a_reader_does() -> None:
    markdown = (
        "**Does the Hartley application need a senior underwriter?**\n\n"
        "> Any exception must be recorded [policy ¶5].\n\n- one *item* [S1]\n"
    )
    assert views.plain_text(markdown) == (
        "Does the Hartley application need a senior underwriter? "
        "Any exception must be recorded. one item"
    )


def test_a_queue_row_shows_its_problems_worst_first_as_text() -> None:
    answer = verify(LENDING_ANSWER, SOURCES, answer_id="views")
    counts = {**index_counts(answer), "claim_contradicted": 1, "claim_unconfirmed": 2}
    entry = type("E", (), {})()
    entry.answer_id, entry.created_at = "views", "2026-12-01T09:00:00+00:00"
    entry.text, entry.counts = "## The **Hartley** case\n\n" + LENDING_ANSWER, counts
    row = views.row(entry, NOW)
    assert row.title == "The Hartley case" and "*" not in row.snippet and "[S1]" not in row.snippet
    keys = [item.key for item, _ in row.problems]
    assert keys[0] == "contradicted" and "unconfirmed" in keys and "corrected" not in keys
    assert keys == sorted(keys, key=[f.key for f in views.FILTERS].index)
    assert row.when == "3 hours ago"


def test_the_index_counts_meaning_changes_and_sources_not_provided() -> None:
    counts = index_counts(lending_answer())
    assert counts["not_provided"] >= 1 and "meaning_changed" in counts
    assert all(key in counts for key in ("verified", "claim_supported"))


def test_the_review_app_and_the_answer_page_share_one_palette() -> None:
    from citeproof.render import PAGE_CSS
    from citeproof.render._verdicts import PALETTE_CSS

    css = Path(views.__file__).with_name("static").joinpath("review.css").read_text("utf-8")
    assert PALETTE_CSS in css and PALETTE_CSS in PAGE_CSS


def test_relative_times() -> None:
    assert views.relative_time("2026-12-01T11:57:10Z", NOW) == "2 minutes ago"
    assert views.relative_time("2026-12-01T09:00:00+00:00", NOW) == "3 hours ago"
    assert views.relative_time("2026-11-30T11:00:00Z", NOW) == "1 day ago"
    assert views.relative_time("2026-10-01T11:00:00Z", NOW) == "2026-10-01"
    assert views.relative_time("not a time", NOW) == "not a time"
