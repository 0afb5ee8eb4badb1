"""Verdicts that keep the meaning (F.1): every difference of a located quote is named, and a
changed fact is flagged, never hidden as "not found" nor silently corrected away.

Passages are QuoteSum excerpts (Wikipedia, CC BY-SA) and the lending team's sources.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from citeproof import Policy, Source, VerifiedQuote, verify
from citeproof.outcome import answer_to_json
from citeproof.render import render
from citeproof.verifier._differences import compare

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

OKLAHOMA = (
    "The Oklahoma Legislature is the state legislative branch of the U.S. state of Oklahoma. "
    "The 5th Oklahoma Legislature met in special session from January 17 to February 22, 1916, "
    "in Oklahoma City, where Governor Robert L. Williams had called it to consider the "
    "state's finances."
)
SPORTS = (
    "Regular physical activity can lead to improved heart health and better sleep in adults "
    "of every age, according to the review published by the board."
)
LINCOLN = (
    "The Second Battle of Lincoln occurred at Lincoln Castle on Saturday 20 May 1217, during "
    "the First Barons' War, between the forces of the future Louis VIII of France and those of "
    "King Henry III of England."
)
SOURCE_TEXT = "\n\n".join([OKLAHOMA, SPORTS, LINCOLN])


def check(written: str, kind: str = "document") -> VerifiedQuote:
    source = Source(id="S1", kind=kind, text=SOURCE_TEXT)  # type: ignore[arg-type]
    result = verify(f'The source says "{written}" [S1].', [source], policy=Policy(), now=NOW)
    (quote,) = result.quotes
    return quote


def kinds(quote: VerifiedQuote) -> list[tuple[str, str, str]]:
    return [(d.kind, d.before, d.after) for d in quote.differences]


# Each: the quote as written, the source's words, the difference expected, meaning changed.
CASES = [
    pytest.param(
        "met in special session from January 17 to February 22, 1917",
        "met in special session from January 17 to February 22, 1916",
        ("number", "1917", "1916"),
        True,
        id="number",
    ),
    pytest.param(
        "the forces of the future Louis VIII of Spain and those of King Henry",
        "the forces of the future Louis VIII of France and those of King Henry",
        ("name", "Spain", "France"),
        True,
        id="name",
    ),
    pytest.param(
        "Regular physical activity can not lead to improved heart health and better sleep",
        "Regular physical activity can lead to improved heart health and better sleep",
        ("negation", "not", ""),
        True,
        id="negation",
    ),
    pytest.param(
        "met in special session from March 17 to February 22, 1916, in Oklahoma City",
        "met in special session from January 17 to February 22, 1916, in Oklahoma City",
        ("date", "March", "January"),
        True,
        id="date",
    ),
    pytest.param(
        "Regular physical activity can lead to improved lung health and better sleep",
        "Regular physical activity can lead to improved heart health and better sleep",
        ("word", "lung", "heart"),
        True,
        id="content-word",
    ),
    pytest.param(
        "Regular physical activity can lead to improved heart health and better sleep in "
        "the adults",
        "Regular physical activity can lead to improved heart health and better sleep in adults",
        ("word", "the", ""),
        False,
        id="function-word",
    ),
    pytest.param(
        "Regular physical activity can lead to improved heart helath and better sleep",
        "Regular physical activity can lead to improved heart health and better sleep",
        ("spelling", "helath", "health"),
        False,
        id="spelling",
    ),
    pytest.param(
        "regular physical activity can lead to improved heart health and better sleep",
        "Regular physical activity can lead to improved heart health and better sleep",
        ("case", "regular", "Regular"),
        False,
        id="case",
    ),
    pytest.param(
        "Regular physical activity can lead to improved heart health, and better sleep",
        "Regular physical activity can lead to improved heart health and better sleep",
        ("punctuation", ",", ""),
        False,
        id="punctuation",
    ),
    pytest.param(
        "Regular physical activity can lead to improved heart health and better sleep in "
        "adults of every age, according to the re view",
        "Regular physical activity can lead to improved heart health and better sleep in "
        "adults of every age, according to the review",
        ("whitespace", "re view", "review"),
        False,
        id="whitespace",
    ),
]


@pytest.mark.parametrize(("written", "original", "difference", "changed"), CASES)
def test_a_document_quote_is_corrected_with_its_difference_named_f_1(
    written: str, original: str, difference: tuple[str, str, str], changed: bool
) -> None:
    quote = check(written)
    assert quote.status == "corrected"
    assert quote.corrected_text == original
    assert SOURCE_TEXT[slice(*quote.source_span)] == original  # type: ignore[misc]
    assert difference in kinds(quote)
    assert quote.meaning_changed is changed
    # The verifier decides it for each difference; the renderings only read it.
    (named,) = [d for d in quote.differences if (d.kind, d.before, d.after) == difference]
    assert named.changes_meaning is changed


@pytest.mark.parametrize(("written", "original", "difference", "changed"), CASES)
def test_an_email_quote_is_kept_as_written_with_its_difference_named_f_1(
    written: str, original: str, difference: tuple[str, str, str], changed: bool
) -> None:
    quote = check(written, "email_body")
    assert quote.status == "mismatch"
    assert quote.corrected_text == written
    assert SOURCE_TEXT[slice(*quote.source_span)] == original  # type: ignore[misc]
    assert difference in kinds(quote)
    assert quote.meaning_changed is changed


def test_a_changed_year_is_located_and_every_rendering_warns_f_1() -> None:
    source = Source(id="S1", kind="document", text=SOURCE_TEXT)
    answer = 'It met "from January 17 to February 22, 1917, in Oklahoma City" [S1].'
    result = verify(answer, [source], now=NOW)
    (quote,) = result.quotes
    assert quote.status == "corrected" and quote.meaning_changed
    assert "1916" in result.text and "1917" not in result.text
    (cite,) = result.claims[0].citations
    assert cite.status == "meaning_changed"
    warning = "the source says “1916”, not “1917”"
    for fmt in ("html", "md", "term"):
        assert warning in render(result, fmt), fmt  # type: ignore[arg-type]
    record = answer_to_json(result)["quotes"][0]
    assert record["meaning_changed"] is True
    assert {"kind": "number", "before": "1917", "after": "1916"} in record["differences"]


def test_a_cosmetic_fix_carries_no_meaning_warning_f_1() -> None:
    source = Source(id="S1", kind="document", text=SOURCE_TEXT)
    written = "Regular physical activity can lead to improved heart helath and better sleep"
    result = verify(f'"{written}" [S1]', [source], now=NOW)
    (quote,) = result.quotes
    assert quote.status == "corrected" and not quote.meaning_changed
    assert result.claims[0].citations[0].status == "ok"
    for fmt in ("html", "md", "term"):
        shown = render(result, fmt)  # type: ignore[arg-type]
        # The page's legend explains every mark, this one too: look at the answer itself.
        shown = re.sub(r'<ul class="legend[^"]*">.*?</ul>', "", shown, flags=re.DOTALL)
        assert "Meaning changed:" not in shown and "qsym state-meaning_changed" not in shown, fmt


def test_an_email_misquote_is_flagged_as_a_change_of_meaning_f_1() -> None:
    email = Source(id="E1", kind="email_body", text=SOURCE_TEXT)
    answer = 'She wrote "the forces of the future Louis IX of France and those of King Henry" [E1].'
    result = verify(answer, [email], now=NOW)
    (quote,) = result.quotes
    assert quote.status == "mismatch" and quote.meaning_changed
    assert result.text == answer
    assert ("name", "IX", "VIII") in kinds(quote)
    assert result.claims[0].citations[0].status == "meaning_changed"
    assert "the source says “VIII”, not “IX”" in render(result, "term")


def test_a_short_quote_is_never_corrected_into_other_words_f_1() -> None:
    # "signed the Treaty of Brest-Litovsk" is not "by the Treaty of Brest-Litovsk".
    source = Source(
        id="S1",
        kind="document",
        text="Russia left the war, bound by the Treaty of Brest-Litovsk. Harley Quinn appeared.",
    )
    for written in ("signed the Treaty of Brest-Litovsk", "as Harley Quinn"):
        result = verify(f'"{written}" [S1]', [source], now=NOW)
        assert result.quotes[0].status == "not_found", written
    # ...but its spelling, case and punctuation may be fixed.
    result = verify('"the treaty of Brest-Litovsk" [S1]', [source], now=NOW)
    assert result.quotes[0].corrected_text == "the Treaty of Brest-Litovsk"


def test_compare_names_no_difference_for_typographic_variants_f_1() -> None:
    written = "the “big”  dog — ran\u00a0home"
    assert compare(written, 'the "big" dog - ran home').differences == ()
