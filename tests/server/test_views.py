"""What the review page shows, computed from an audit payload (issue 12): quote chips with
UTF-16 passage offsets, word diffs, and chips for claims whose support was judged."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from citeproof import verify
from citeproof.outcome import answer_to_json
from citeproof.server import _views as views
from citeproof.server._views import answer_page, utf16, word_diff
from tests.lending import SOURCES
from tests.server.lines import LENDING_ANSWER, source_json


def _payload() -> dict[str, Any]:
    answer = answer_to_json(verify(LENDING_ANSWER, SOURCES, answer_id="views"))
    return {"answer": answer, "sources": [source_json(s) for s in SOURCES]}


def test_each_quote_gets_a_chip_at_its_passage_in_utf16_units_F_3() -> None:
    page = answer_page(_payload(), request_id="req_1", created_at="now")
    chips = [q.chip for q in page.quotes]
    assert [c.status for c in chips] == ["corrected", "verified", "verified", "not_found"]
    policy = page.sources[0]
    start = policy.text.index("Applications with")
    assert chips[0].source_index == 0 and chips[0].start16 == utf16(policy.text, start)
    email = page.sources[1]  # "£" is one UTF-16 unit, but the offsets are still re-counted
    assert email.text[: chips[1].end16].endswith("now 83%")
    # A quote no source holds opens the nearest passage, and says why it was refused.
    memo = page.sources[2]
    assert chips[3].source_index == 2 and chips[3].start16 is not None
    nearest = memo.text[chips[3].start16 : chips[3].end16]
    assert "applicant" in nearest
    refused = page.quotes[3].refused or ""
    assert refused.startswith("Refused: the nearest passage shares") and "“2024”" in refused
    assert page.quotes[3].heading == "Nearest passage: not a match"
    # The answer is cut so that every quote's text carries its chip.
    pieces = [p for run in page.runs for p in run.pieces]
    quoted = [p.text for p in pieces if p.chip is not None]
    assert quoted[1] == "the valuation came back at £412,000, so the loan-to-value is now 83%"
    assert "".join(p.text for p in pieces) == _payload()["answer"]["text"]


def test_a_correction_is_a_word_diff_of_what_was_written_and_what_the_source_says_F_3() -> None:
    page = answer_page(_payload(), request_id="req_1", created_at="now")
    runs = page.quotes[0].diff
    assert ("del", "any") in runs and ("ins", "an") in runs
    assert ("del", "made") in runs and ("ins", "issued") in runs
    assert word_diff("same words", "same words") == (("same", "same words"),)


def test_emoji_offsets_count_utf16_units_F_3() -> None:
    assert utf16("a😀b", 2) == 3


def test_a_claim_with_support_gets_a_chip_at_its_end_and_its_differences_F_3() -> None:
    payload = _payload()
    claim = payload["answer"]["claims"][1]
    policy_text = SOURCES[0].text
    start = policy_text.index("Applications above 95%")
    claim["verdict"] = "contradicted"
    claim["support"] = [
        {
            "source": "S1",
            "verdict": "contradicted",
            "score": 0.12,
            "passage": {"source": "S1", "paragraph": 3, "span": [start, start + 30], "text": ""},
            "differences": [{"kind": "number", "text": "90%", "span": [0, 3], "instead": "95%"}],
            "method": "features",
        }
    ]
    page = answer_page(payload, request_id="req_1", created_at="now")
    # Every judged claim gets a chip (the uncited one too); this one carries the figures above.
    judged = [c["id"] for c in payload["answer"]["claims"] if c["verdict"] != "none"]
    assert [v.chip.key for v in page.claims] == judged
    view = next(v for v in page.claims if v.chip.key == claim["id"])
    assert view.chip.kind == "claim" and view.chip.status == "contradicted"
    assert view.chip.source_index == 0 and view.chip.start16 == start
    assert view.differences == (("90%", "95%"),)
    # Its chip closes the claim's own run: right after the claim's last words.
    run = next(r for r in page.runs if r.claim == view.chip)
    text = "".join(p.text for p in run.pieces)
    assert text.startswith(claim["text"][:20]) and text.endswith(claim["text"].rstrip()[-20:])
    assert view.marked[0] == (True, claim["text"][:3])  # the difference's span, marked
    # Claims without support (the JSON before claims were judged) get no chip.
    unjudged = _payload()
    for item in unjudged["answer"]["claims"]:
        item["verdict"], item["support"] = "none", []
    assert len(answer_page(unjudged, request_id="r", created_at="t").claims) == 0


def test_the_review_app_and_the_answer_page_share_one_palette() -> None:
    from pathlib import Path

    from citeproof.render._style import PAGE_CSS
    from citeproof.render._verdicts import PALETTE_CSS

    css = Path(views.__file__).with_name("static").joinpath("review.css").read_text("utf-8")
    assert PALETTE_CSS in css and PALETTE_CSS in PAGE_CSS


def test_a_list_row_shows_claim_verdicts_worst_first_and_a_relative_time() -> None:
    counts = {"verified": 3, "corrected": 1, "claim_supported": 4, "claim_contradicted": 1}
    chips = views.verdict_chips(counts)
    assert [key for key, *_ in chips] == ["contradicted", "corrected", "verified", "supported"]
    assert chips[0][1:] == ("Contradicted", "≠", "bad", 1)
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    assert views.relative_time("2026-12-01T11:57:10Z", now) == "2 minutes ago"
    assert views.relative_time("2026-12-01T09:00:00+00:00", now) == "3 hours ago"
    assert views.relative_time("2026-11-30T11:00:00Z", now) == "1 day ago"
    assert views.relative_time("2026-10-01T11:00:00Z", now) == "2026-10-01"
    assert views.relative_time("not a time", now) == "not a time"
