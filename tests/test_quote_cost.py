"""What finding quotes costs follows the quotes: short misspelt quotes over large sources,
and sources ruled out of a word-for-word search without being indexed."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from citeproof import Source, Verifier, verify
from citeproof.verifier.match import IndexCache

NOTES = "These are due to nightly #14382"


def release_notes(lines: int, seed: int = 1) -> str:
    """Release notes full of near-copies of `NOTES`: other numbers, other words."""
    rng = random.Random(seed)
    templates = [
        "These are due to nightly #{}",
        "Fixed a regression in the resolver due to nightly #{}.",
        "- These changes are due to stable #{} and were backported.",
        "Documentation for the `build.rs` script now lists every variable (#{}).",
    ]
    out = []
    for _ in range(lines):
        number = 14000 + rng.randrange(2000)
        if number != 14382:
            out.append(rng.choice(templates).format(number))
    out.insert(rng.randrange(len(out)), NOTES)
    return "\n".join(out)


@pytest.mark.parametrize(
    "lines",
    [40, 2_000, 20_000],  # aligned whole; candidates by scanning; candidates from the index
)
@pytest.mark.parametrize("style", ["inline", "block"])
def test_a_five_word_quote_misspelt_in_its_first_word_is_found_as_a_spelling_difference(
    lines: int, style: str
) -> None:
    notes = Source(id="S1", kind="document", text=release_notes(lines))
    written = "Vhese are due to nightly #14382"
    answer = f'The notes say "{written}" [S1].' if style == "inline" else f"> {written}\n> — [S1]\n"
    (quote,) = verify(answer, [notes]).quotes
    assert quote.status == "corrected"
    assert quote.corrected_text == NOTES
    assert {d.kind for d in quote.differences} == {"spelling"}


def _corpus(n: int) -> list[Source]:
    return [
        Source(
            id=f"S{k}",
            kind="document",
            text=f"Chapter {k}. " + " ".join(f"word{k}x{i} of the manual" for i in range(300)),
        )
        for k in range(1, n + 1)
    ]


def test_sources_that_cannot_hold_a_misquote_word_for_word_are_not_indexed() -> None:
    sources = _corpus(12)
    sources[0] = Source(id="S1", kind="document", text=sources[0].text + " The fan spins fast.")
    cache = IndexCache()
    verifier = Verifier(sources, cache=cache)
    (quote,) = verifier.verify('The manual says "The fan spinns fast" [S1].').quotes
    assert quote.status == "corrected"
    assert len(cache) == 1  # only the cited source: none of the others holds "spinns"


@pytest.mark.parametrize(
    "verbatim",
    [
        "The fan spinns fast.",  # ASCII text
        "Le ventilateur « tourne ». The fan spinns fast.",  # plain text, not ASCII
        "The fan spi\u00adnns fast.",  # a soft hyphen: the source's raw text lacks "spinns"
        "The fan spinn\u0073 fast. Caf\u0065\u0301.",  # not NFC
    ],
)
def test_a_misquote_another_source_holds_word_for_word_is_still_attributed_to_it(
    verbatim: str,
) -> None:
    sources = _corpus(3)
    sources[0] = Source(id="S1", kind="document", text=sources[0].text + " The fan spins fast.")
    sources[2] = Source(id="S3", kind="document", text=sources[2].text + " " + verbatim)
    (quote,) = verify('The manual says "The fan spinns fast" [S1].', sources).quotes
    assert quote.status == "corrected"
    assert quote.source == "S3"
    assert [c.kind for c in quote.corrections] == ["source"]


def test_an_answer_its_quotes_settle_loads_no_model() -> None:
    """Claims that are nothing but their verified quotes: neither the MiniLM encoder nor the
    entailment model is loaded (a cold process pays for neither)."""
    script = """
import json
from citeproof import Policy, Source, verify
from citeproof.verifier.support._learned import Encoder
from citeproof.verifier.support._nli import NliModel
source = Source(id="S1", kind="document", text="The fan spins fast. The lid is blue.")
out = []
for judge in ("lexical", "model"):
    answer = verify('> The fan spins fast.\\n> — [S1]\\n', [source],
                    policy=Policy(support_judge=judge))
    out.append([c.verdict for c in answer.claims])
print(json.dumps([out, Encoder._instance is None, NliModel._shared is None]))
"""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    verdicts, no_encoder, no_model = json.loads(done.stdout.splitlines()[-1])
    assert verdicts == [["supported"], ["supported"]]
    assert no_encoder and no_model
