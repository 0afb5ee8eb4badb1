"""Sources are indexed once: indexes are kept by content, bounded, shared between threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from citeproof import Source, Verifier, verify
from citeproof.outcome import answer_to_json
from citeproof.verifier.match import IndexCache, find_quote, prepare
from tests.lending import POLICY, SOURCES

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ANSWER = (
    'The policy says "Applications above 95% are declined." [S1] and "Self-employed applicants '
    'must provide two years of certifed accounts" [S1].'
)


def test_the_same_text_under_another_id_reuses_the_index_and_names_its_own_source() -> None:
    cache = IndexCache()
    first = cache.get(POLICY)
    renamed = Source(id="policy-copy", kind="document", text=POLICY.text)
    second = cache.get(renamed)
    assert second.core is first.core
    assert len(cache) == 1
    match = find_quote("Applications above 95% are declined.", second)
    assert match is not None and match.source_id == "policy-copy"
    again = find_quote("Applications above 95% are declined.", first)
    assert again is not None and again.source_id == "S1"


def test_other_paragraphs_make_another_index() -> None:
    cache = IndexCache()
    whole = Source(id="S1", kind="document", text=POLICY.text, paragraphs=((0, len(POLICY.text)),))
    assert cache.get(POLICY).core is not cache.get(whole).core
    assert len(cache) == 2


def test_the_cache_keeps_at_most_its_bound_least_recently_used_first() -> None:
    cache = IndexCache(max_chars=250)
    texts = [Source(id=f"S{n}", kind="document", text=f"text {n} " + "x" * 95) for n in range(4)]
    for source in texts:
        cache.get(source)
    assert cache.chars <= 250 and len(cache) == 2
    kept = cache.get(texts[3]).core
    assert cache.get(texts[3]).core is kept  # still there
    huge = Source(id="H", kind="document", text="y " * 500)
    cache.get(huge)
    assert cache.chars <= 250  # too big to keep, but indexed all the same


def test_an_exact_answer_never_builds_the_candidate_index() -> None:
    index = prepare(POLICY, cache=IndexCache())
    assert find_quote("Applications above 95% are declined.", index) is not None
    assert not index.core.has_postings


def test_a_kept_verifier_gives_the_same_record_as_verify() -> None:
    verifier = Verifier(SOURCES)
    kept = answer_to_json(verifier.verify(ANSWER, now=NOW))
    assert kept == answer_to_json(verify(ANSWER, SOURCES, now=NOW))
    assert kept["quotes"][1]["status"] == "corrected"
    assert answer_to_json(verifier.verify(ANSWER, now=NOW)) == kept


def test_one_verifier_is_safe_to_share_between_threads() -> None:
    verifier = Verifier(SOURCES)
    answers = [ANSWER.replace("95%", f"{n}%") for n in range(90, 98)] * 3
    with ThreadPoolExecutor(max_workers=4) as pool:
        shared = list(pool.map(lambda a: answer_to_json(verifier.verify(a, now=NOW)), answers))
    alone = [answer_to_json(verify(a, SOURCES, now=NOW)) for a in answers]
    assert shared == alone
