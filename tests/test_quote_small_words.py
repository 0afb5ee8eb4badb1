"""The small words that carry meaning (F.1): a quote that swaps "for" and "against",
"before" and "after", "must" and "may", "all" and "some", "including" and "excluding" or
"and" and "or" says something else, however many words it shares with its source. It is
``meaning_changed`` with the kind of word that moved, never a cosmetic correction.

Passages: a services agreement and a credit policy written for these tests, and a QuoteSum
excerpt (Wikipedia, CC BY-SA).
"""

from __future__ import annotations

import re
from collections.abc import Collection

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citeproof import Source, VerifiedQuote, verify
from citeproof.verifier._differences import MEANING_WORDS, compare

AGREEMENT = (
    "Churchill voted against the India Bill in the House of Commons in 1935, with a small "
    "group of Conservative members. "
    "The Customer may terminate this Agreement for convenience after the first anniversary "
    "of the Effective Date on ninety days' written notice. "
    "Loans above 80% loan-to-value must be referred to a senior underwriter before an offer "
    "is made. "
    "The monthly fee of 40 euros is payable by the Customer excluding the installation visit "
    "and the first month of service. "
    "All accounts opened in the first quarter are reviewed by the Head of Credit and the "
    "compliance team."
)


def located(written: str, kind: str = "document") -> VerifiedQuote:
    source = Source(id="S1", kind=kind, text=AGREEMENT)  # type: ignore[arg-type]
    (quote,) = verify(f"The agreement says “{written}” [S1].", [source]).quotes
    return quote


CASES = [
    pytest.param(
        "Churchill voted for the India Bill in the House of Commons in 1935",
        "stance",
        ("for", "against"),
        id="for-against",
    ),
    pytest.param(
        "may terminate this Agreement for convenience before the first anniversary of the "
        "Effective Date",
        "direction",
        ("before", "after"),
        id="before-after",
    ),
    pytest.param(
        "Loans below 80% loan-to-value must be referred to a senior underwriter",
        "direction",
        ("below", "above"),
        id="above-below",
    ),
    pytest.param(
        "Loans above 80% loan-to-value may be referred to a senior underwriter",
        "modal",
        ("may", "must"),
        id="must-may",
    ),
    pytest.param(
        "The monthly fee of 40 euros is payable by the Customer including the installation visit",
        "stance",
        ("including", "excluding"),
        id="including-excluding",
    ),
    pytest.param(
        "Some accounts opened in the first quarter are reviewed by the Head of Credit",
        "quantifier",
        ("Some", "All"),
        id="all-some",
    ),
    pytest.param(
        "reviewed by the Head of Credit or the compliance team",
        "connective",
        ("or", "and"),
        id="and-or",
    ),
]


@pytest.mark.parametrize(("written", "kind", "swap"), CASES)
def test_a_swapped_small_word_changes_the_meaning_with_its_kind_f_1(
    written: str, kind: str, swap: tuple[str, str]
) -> None:
    quote = located(written)
    assert quote.meaning_changed
    assert (kind, *swap) in [(d.kind, d.before, d.after) for d in quote.differences]
    # A document's quote is corrected to the source's words, and the correction says so.
    assert quote.status == "corrected"
    assert swap[1] in quote.corrected_text


@pytest.mark.parametrize(("written", "kind", "swap"), CASES[:2])
def test_an_email_quote_with_a_swapped_small_word_is_kept_as_written_f_1(
    written: str, kind: str, swap: tuple[str, str]
) -> None:
    quote = located(written, kind="email_body")
    assert quote.status == "mismatch" and quote.meaning_changed
    assert quote.corrected_text == written


def test_may_as_a_modal_is_not_a_date() -> None:
    (difference,) = compare("Applicants must provide", "Applicants may provide").differences
    assert difference.kind == "modal"
    (difference,) = compare("signed on 3 May 2021", "signed on 3 June 2021").differences
    assert difference.kind == "date"


def test_by_and_with_are_not_a_change_of_stance() -> None:
    comparison = compare("often replaced by Flash memory", "often replaced with Flash memory")
    assert not comparison.meaning_changed


SENTENCES = [s for s in re.split(r"(?<=\.) ", AGREEMENT) if s]
SWAPPABLE = sorted({w for words in MEANING_WORDS.values() for w in words})


@st.composite
def quote_holding(draw: st.DrawFn, vocabulary: Collection[str]) -> tuple[str, int]:
    """A verbatim run of 8+ words of one sentence holding a word of ``vocabulary``, and that
    word's position in the run."""
    words = draw(st.sampled_from(SENTENCES)).rstrip(".").split(" ")
    positions = [i for i, w in enumerate(words) if w.lower() in vocabulary]
    assume(positions)
    at = draw(st.sampled_from(positions))
    start = draw(st.integers(min_value=max(0, at - 10), max_value=at))
    assume(start + 8 <= len(words))
    end = draw(st.integers(min_value=max(at + 1, start + 8), max_value=len(words)))
    return " ".join(words[start:end]), at - start


def beside_in_the_source(written: str, at: int, new: str) -> bool:
    """Whether the source has ``new`` right before (or after) the quote, where the swap hit
    the quote's first (or last) word: "after first anniversary of ..." is then the source's
    "after the first anniversary of ..." with an article dropped, no change of meaning."""
    words = written.split(" ")
    text = AGREEMENT.lower()
    if at == 0 and f"{new} {written}".lower() in text:
        return True
    return at == len(words) - 1 and f"{written} {new}".lower() in text


@settings(max_examples=60, deadline=None)
@given(quote_holding(SWAPPABLE), st.data())
def test_changing_any_small_word_of_a_verbatim_quote_changes_its_meaning_f_1(
    drawn: tuple[str, int], data: st.DataObject
) -> None:
    written, at = drawn
    words = written.split(" ")
    old = words[at].lower()
    kind = next(k for k, ws in MEANING_WORDS.items() if old in ws)
    new = data.draw(st.sampled_from(sorted(MEANING_WORDS[kind] - {old})))
    assume(not beside_in_the_source(written, at, new))
    words[at] = new
    quote = located(" ".join(words))
    assume(quote.status != "not_found")  # a swap can make a short quote another statement
    assert quote.meaning_changed, (written, new, quote.differences)


PLAIN = ("the", "a", "an", "this", "that", "these", "its", "their")
ALONE = sorted(
    {"only", "all", "every", "no", "none", "must", "may", "more", "less", "before", "after"}
)


@settings(max_examples=60, deadline=None)
@given(quote_holding(PLAIN), st.sampled_from(ALONE))
def test_a_small_word_put_where_a_plain_one_stood_changes_the_meaning_f_1(
    drawn: tuple[str, int], new: str
) -> None:
    """ "terminate only agreement" for "terminate this Agreement": the swap is the word's
    own kind of change, never a cosmetic one."""
    written, at = drawn
    assume(not beside_in_the_source(written, at, new))
    words = written.split(" ")
    words[at] = new
    quote = located(" ".join(words))
    assume(quote.status != "not_found")
    assert quote.meaning_changed, (written, new, quote.differences)
    kinds = {k for k, ws in MEANING_WORDS.items() if new in ws}
    if new in ("no", "none"):
        kinds.add("negation")  # "no India Bill": read as the negation it is
    assert kinds & {d.kind for d in quote.differences}, quote.differences


@pytest.mark.parametrize(
    ("written", "kind"),
    [
        ("All accounts opened in only first quarter are reviewed by the Head of Credit", "stance"),
        ("Churchill voted against all India Bill in the House of Commons in 1935", "quantifier"),
    ],
)
def test_only_or_all_for_the_is_a_change_of_meaning_f_1(written: str, kind: str) -> None:
    quote = located(written)
    assert quote.status == "corrected" and quote.meaning_changed
    assert [d.kind for d in quote.differences] == [kind]


def test_a_misspelt_small_word_is_a_spelling_difference_f_1() -> None:
    quote = located(
        "The Customer may terminate this Agreement for convenience afetr the first anniversary"
    )
    assert quote.status == "corrected" and not quote.meaning_changed
    assert [d.kind for d in quote.differences] == ["spelling"]


def test_a_name_put_where_a_small_word_stood_is_a_changed_name_f_1() -> None:
    """ "Dunmore-Ireland" for "All-Ireland" (a QuoteSum quote) is another name, not a
    quantifier dropped."""
    source = Source(
        id="S1",
        kind="document",
        text="He won All-Ireland Senior Hurling Championships in 1934, 1936 and 1940 with Cork.",
    )
    (quote,) = verify(
        "He “won Dunmore-Ireland Senior Hurling Championships in 1934, 1936 and 1940” [S1].",
        [source],
    ).quotes
    assert quote.status == "corrected" and quote.meaning_changed
    assert [d.kind for d in quote.differences] == ["name"]
