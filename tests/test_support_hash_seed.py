"""Claim support gives the same judgement in every process: nothing it decides may follow
the order a set of strings yields its items in, which follows ``str`` hashes, randomised per
process (PYTHONHASHSEED).

The located passage once did: `_greedy` summed the weights a candidate sentence adds over a
set difference, so two sentences adding the same weight in other words (here "different
options ... plan" and "enroll and get a plan") tied only to the last bit, and which one was
read with the best sentence depended on the process. On the held-out SummEdits case
``se-sales_call_17_21`` that moved the MiniLM cosine of the passage from 0.6494 to 0.6021 and
the head's score from 0.1012 (``partial``) to 0.0888 (``unsupported``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import citeproof

SRC = Path(citeproof.__file__).resolve().parents[1]

CALL = """\
Agent: Good morning, may I speak with Ms Patel, please?
Client: Yes, speaking.
Agent: Hello, my name is Sam and I am calling from Northwind Cover about our insurance products.
Client: I have no policy with you. What kind of insurance do you sell?
Agent: We sell many insurance products, including home insurance, car insurance, travel \
insurance and life insurance.
Client: I mostly want health insurance. Which plans do you have?
Agent: We have several different options for health insurance, including our bronze, silver \
and gold plans.
Client: What does each plan cost per month?
Agent: The bronze plan costs $90 a month, the silver plan $140 and the gold plan $190.
Client: Those prices seem fair. Is there an excess to pay?
Agent: Yes, each plan has an excess, which depends on the plan you pick.
Agent: Some treatments also carry a copayment, and we can go through those when you enroll \
and get a plan.
Client: Fine, let us go ahead.
Agent: Great, I will email you the forms today, and your cover starts once you sign them.
Client: Sorry, could you repeat that?
"""
CLAIM = (
    "An agent from Northwind Cover calls a customer to sell insurance products, and after "
    "discussing different options and prices, the client decides to enroll in a life "
    "insurance plan and gets the forms by email next morning."
)
# With the set-ordered sum, seeds 8 and 15 (CPython 3.11, siphash13) read the "enroll and
# get a plan" sentence where seeds 0, 1, 2 and 3 read the "different options" one.
SEEDS = ("0", "1", "2", "3", "8", "15")

PROBE = f"""
import json
from citeproof import Policy, Source
from citeproof.verifier.support import SupportJudge
from citeproof.verifier.support._locate import locate, prepare_source
from citeproof.verifier.support._text import tokenize

source = Source(id="call", kind="document", text={CALL!r})
chosen, share = locate(tokenize({CLAIM!r}), prepare_source(source), None)
judged = SupportJudge(Policy(support_embeddings="off")).judge({CLAIM!r}, source)
print(json.dumps({{
    "located": [list(s.span) for s in chosen],
    "share": share.hex(),
    "verdict": judged.verdict,
    "score": judged.score,
    "passage": list(judged.passage.span) if judged.passage else None,
}}))
"""


def _judged_with_seed(seed: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.splitlines()[-1]))


def test_the_located_passage_and_judgement_are_the_same_under_every_hash_seed() -> None:
    results = {seed: _judged_with_seed(seed) for seed in SEEDS}
    first = results[SEEDS[0]]
    assert first["verdict"] == "partial"
    # The best sentence, then the tie's higher ranked sentence ("different options").
    assert first["located"] == [[79, 175], [430, 537]]
    differing = {seed: result for seed, result in results.items() if result != first}
    assert differing == {}, f"PYTHONHASHSEED={SEEDS[0]} gave {first}"
