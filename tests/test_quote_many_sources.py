"""Quotes over many sources as a model writes them: short and misspelt, cited to the wrong
source, or made up; found where they are, or not at all."""

from __future__ import annotations

import random

import pytest

from citeproof import Source, Verifier, verify
from citeproof.verifier.match import IndexCache
from citeproof.verifier.match._corpus import Corpus, CorpusCache

NOTES = "These are due to nightly #14382"
TOPICS = (
    "compiler",
    "linker",
    "resolver",
    "formatter",
    "installer",
    "profiler",
    "debugger",
    "scheduler",
)


def release_notes(number: int, lines: int = 60) -> str:
    """Notes of one release: near-copies of `NOTES` with other numbers and words."""
    rng = random.Random(number)
    topic = TOPICS[number % len(TOPICS)]
    out = [f"Release {number} of the {topic}."]
    for _ in range(lines):
        issue = 14000 + rng.randrange(2000)
        if issue == 14382:
            continue
        out.append(
            rng.choice(
                [
                    f"These are due to nightly #{issue}",
                    f"Fixed a regression in the {topic} due to nightly #{issue}.",
                    f"- These changes are due to stable #{issue} and were backported.",
                    f"The {topic} now reports every warning it skips (#{issue}).",
                ]
            )
        )
    return "\n".join(out)


def many_sources(count: int = 40, holder: int = 23) -> list[Source]:
    sources = []
    for n in range(1, count + 1):
        text = release_notes(n)
        if n == holder:
            text += f"\n{NOTES}\nThe {TOPICS[n % len(TOPICS)]} starts faster."
        sources.append(Source(id=f"S{n}", kind="document", text=text))
    return sources


@pytest.mark.parametrize("cited", ["S23", "S7"], ids=["cited-source", "another-source"])
def test_a_five_word_quote_misspelt_in_its_first_word_is_found_where_it_is(cited: str) -> None:
    (quote,) = verify(f"> Vhese are due to nightly #14382\n> — [{cited}]\n", many_sources()).quotes
    assert quote.status == "corrected"
    assert quote.source == "S23"
    assert quote.corrected_text == NOTES
    assert {d.kind for d in quote.differences} == {"spelling"}
    kinds = [c.kind for c in quote.corrections]
    assert kinds == (["text"] if cited == "S23" else ["text", "source"])


def test_a_quote_cited_to_the_wrong_source_is_found_in_the_right_one() -> None:
    (quote,) = verify('The notes say "The scheduler starts faster" [S2].', many_sources()).quotes
    assert quote.status == "corrected"
    assert quote.source == "S23"
    assert [c.kind for c in quote.corrections] == ["source"]


@pytest.mark.parametrize(
    "made_up",
    [
        "These are due to nightly #99999",  # five words: another number
        "Vhese were fixed by nightly",  # five words, none of them a passage's
        "The scheduler starts warnings faster",
        "Fixed a regression in the debugger due to stable #14001 and were backported.",
    ],
)
def test_a_fabricated_quote_is_found_nowhere(made_up: str) -> None:
    (quote,) = verify(f"> {made_up}\n> — [S7]\n", many_sources()).quotes
    assert quote.status in ("not_found", "mismatch")
    assert quote.status == "not_found" or quote.meaning_changed


def test_a_quote_two_sources_hold_word_for_word_is_given_the_first_of_them() -> None:
    sources = many_sources()
    sources[30] = Source(id="S31", kind="document", text=sources[30].text + f"\n{NOTES}")
    (quote,) = verify(f'The notes say "{NOTES}" [S2].', sources).quotes
    assert quote.status == "corrected"
    assert quote.source == "S23"


def test_the_search_over_all_the_sources_is_built_once_for_them() -> None:
    sources = many_sources()
    cache = CorpusCache()
    first = cache.get([s.text for s in sources])
    again = cache.get([Source(id=s.id, kind=s.kind, text=s.text).text for s in sources])
    assert again is first
    assert len(cache) == 1


def test_the_corpora_kept_stay_within_their_bound() -> None:
    sets = [[s.text + f" {n}" for s in many_sources(8)] for n in range(4)]
    one = Corpus(sets[0]).nbytes(sets[0])
    cache = CorpusCache(max_bytes=2 * one + one // 2)
    for texts in sets:
        cache.get(texts)
    assert len(cache) == 2  # the two most recent
    assert cache.nbytes <= cache.max_bytes
    assert cache.get(sets[3]) is cache.get(sets[3])


@pytest.mark.parametrize("postings", [False, True], ids=["scanned", "from-postings"])
def test_the_corpus_names_the_sources_that_may_hold_a_quote(
    postings: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citeproof.verifier.match import _corpus

    if postings:
        monkeypatch.setattr(_corpus, "POSTINGS_MIN_CHARS", 0)
    texts = [s.text for s in many_sources()]
    corpus = Corpus(texts)
    assert corpus.narrow(NOTES) == (22,)
    assert corpus.narrow("Vhese are due to nightly #14382") == ()
    assert corpus.narrow("«»") is None  # no word to look for: any text may hold it
    places = corpus.places("Vhese are due to nightly #14382")
    assert places is not None
    at = texts[22].index(NOTES)
    assert any(abs(p - at) <= 16 for p in places[22])


def test_a_verifier_over_many_sources_indexes_only_those_worth_searching() -> None:
    sources = many_sources()
    cache = IndexCache()
    verifier = Verifier(sources, cache=cache)
    (quote,) = verifier.verify("> Vhese are due to nightly #14382\n> — [S7]\n").quotes
    assert quote.source == "S23"
    assert len(cache) < len(sources) // 2
