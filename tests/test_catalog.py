"""The citation catalog: how a label finds its source (012.2).

A label resolves by id, then by the numbered forms of the same id (``1`` ↔ ``S1`` ↔
``Source 1``), then by title, url or doc_id; never by the source's position in the list, so
reordering the sources never changes what a citation means."""

from __future__ import annotations

import itertools

import pytest

from citeproof import Policy, Source, verify
from citeproof.errors import SourceError
from citeproof.model import Exclusion, is_numbered
from citeproof.verifier._catalog import SourceCatalog

POLICY = Source(
    id="policy",
    kind="document",
    text="Applications above 95% are declined.",
    title="Residential Credit Policy",
    doc_id="credit-policy",
    url="file:///policies/credit-policy.pdf",
)
MEMO = Source(id="memo", kind="attachment", text="The case is referred.", title="Hartley memo")
S2 = Source(id="S2", kind="document", text="Second by name, given first.")
S1 = Source(id="S1", kind="document", text="First by name, given second.")


@pytest.mark.parametrize("label", ["1", "2", "S1", "S2", "Source 1", "[1]", "doc 2", "0", "-1"])
def test_a_numbered_label_never_resolves_by_position_012_2(label: str) -> None:
    catalog = SourceCatalog([POLICY, MEMO])
    assert catalog.resolve(label) is None


def test_numbered_ids_resolve_by_their_number_not_by_their_place_012_2() -> None:
    for order in itertools.permutations([S2, S1]):
        catalog = SourceCatalog(order)
        for label in ("1", "S1", "s1", "Source 1", "source-1", "src_1", "Doc 1", " 1 "):
            assert catalog.resolve(label) is S1, (order, label)
        for label in ("2", "S2", "Source 2", "document 2"):
            assert catalog.resolve(label) is S2, (order, label)
        assert catalog.resolve("3") is None and catalog.resolve("S3") is None


def test_titles_urls_and_doc_ids_resolve_but_ids_win_012_2() -> None:
    shadow = Source(id="Hartley memo", kind="document", text="A source named like a title.")
    catalog = SourceCatalog([POLICY, MEMO, shadow])
    assert catalog.resolve("policy") is POLICY
    assert catalog.resolve("Residential Credit Policy") is POLICY
    assert catalog.resolve("residential credit policy ") is POLICY
    assert catalog.resolve("credit-policy") is POLICY
    assert catalog.resolve("file:///policies/credit-policy.pdf") is POLICY
    assert catalog.resolve("Hartley memo") is shadow  # the id, not MEMO's title
    assert catalog.resolve("hartley memo") is shadow
    assert catalog.resolve("memo") is MEMO
    assert catalog.resolve("Credit Policy") is POLICY  # its doc_id, case and hyphen aside
    assert catalog.resolve("Residential Credit") is None  # part of a title names nothing
    assert catalog.resolve("Residential-Credit-Policy") is POLICY


def test_a_numbered_citation_to_unnumbered_sources_is_ineligible_with_a_hint_012_2() -> None:
    answer = verify('"Applications above 95% are declined." [1]', [POLICY, MEMO], policy=Policy())
    (quote,) = answer.quotes
    assert quote.status == "ineligible"
    assert "cites 1, which was not provided in this turn" in quote.note
    assert "the sources provided are policy, memo" in quote.note
    assert "--number-sources" in quote.note
    (claim,) = answer.claims
    assert [(c.source, c.status) for c in claim.citations] == [("1", "ineligible")]


def test_reordering_the_sources_never_changes_a_verdict_012_2() -> None:
    answer = '"Second by name, given first." [2] and "First by name, given second." [S1]'
    verdicts = {
        tuple((q.status, q.source) for q in verify(answer, order, policy=Policy()).quotes)
        for order in itertools.permutations([S2, S1, POLICY])
    }
    assert verdicts == {(("verified", "S2"), ("verified", "S1"))}


def test_an_excluded_source_says_why_under_any_of_its_numbered_forms_012_2() -> None:
    why = Exclusion("S4", "not_permitted", "not permitted for user 'dan'")
    catalog = SourceCatalog([S1], [why])
    for label in ("S4", "4", "Source 4"):
        assert catalog.resolve(label) is None
        assert catalog.why_excluded(label) == why
    assert catalog.why_excluded("S1") is None
    assert catalog.why_excluded("5") is None


def test_others_keeps_the_given_order_without_the_named_ids() -> None:
    catalog = SourceCatalog([S2, POLICY, S1, MEMO])
    assert [s.id for s in catalog.others(["policy"])] == ["S2", "S1", "memo"]
    assert [s.id for s in catalog] == ["S2", "policy", "S1", "memo"]
    assert len(catalog) == 4 and catalog["memo"] is MEMO


def test_a_catalog_refuses_duplicates_non_sources_and_emptiness_naming_where() -> None:
    with pytest.raises(SourceError) as duplicate:
        SourceCatalog([S1, POLICY, S1])
    assert duplicate.value.field == "id"
    assert "duplicate source id 'S1' (sources[2] repeats it)" in str(duplicate.value)
    with pytest.raises(SourceError) as stranger:
        SourceCatalog([S1, POLICY, {"id": "S2"}])  # type: ignore[list-item]
    assert stranger.value.where == "sources[2]"
    assert "expected a citeproof.Source, got dict" in str(stranger.value)
    with pytest.raises(SourceError) as empty:
        SourceCatalog([])
    assert empty.value.field == "sources"
    assert empty.value.detail == "no sources were given: at least one source is needed"
    assert len(SourceCatalog([], allow_empty=True)) == 0


def test_an_exact_id_wins_over_another_sources_numbered_or_folded_form_012_2() -> None:
    one = Source(id="1", kind="document", text="The source whose id is 1.")
    upper = Source(id="Memo", kind="document", text="The source whose id is Memo.")
    for order in itertools.permutations([one, S1, upper, MEMO]):
        catalog = SourceCatalog(order)
        assert catalog.resolve("1") is one and catalog.resolve("S1") is S1, order
        assert catalog.resolve("Memo") is upper and catalog.resolve("memo") is MEMO, order


@pytest.mark.parametrize(
    ("label", "numbered"),
    [("1", True), ("S1", True), ("Source 12", True), ("doc-3", True), ("policy", False),
     ("S1a", False), ("section 2", False), ("", False)],
)  # fmt: skip
def test_is_numbered_knows_the_numbered_forms(label: str, numbered: bool) -> None:
    assert is_numbered(label) is numbered
