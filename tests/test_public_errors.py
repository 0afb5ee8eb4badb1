"""Bad input to the public API gets a citeproof error naming what was wrong, never a bare
ValueError, TypeError or AttributeError from deep inside (issue 7, F.5)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import citeproof
from citeproof import (
    AnswerError,
    CiteproofError,
    InputError,
    Policy,
    PolicyError,
    Source,
    SourceError,
    answer_to_json,
    read_source_file,
    render,
    verify,
)

SOURCES = [Source(id="S1", kind="document", text="Applications above 95% are declined.")]

CASES: list[tuple[str, Callable[[], object], type[CiteproofError], str]] = [
    (
        "answer not text",
        lambda: verify(42, SOURCES),
        AnswerError,
        "field 'answer': expected text, got int",
    ),
    (
        "answer as bytes",
        lambda: verify(b'"x" [S1]', SOURCES),
        AnswerError,
        "decode it to str first",
    ),
    ("no sources", lambda: verify("x", []), SourceError, "at least one source is needed"),
    (
        "a dict for a source",
        lambda: verify("x", [{"id": "S1"}]),
        SourceError,
        "sources[0]: expected a citeproof.Source, got dict",
    ),
    (
        "policy as a dict",
        lambda: verify("x", SOURCES, policy={"min_similarity": 0.5}),
        PolicyError,
        "field 'policy': expected a citeproof.Policy, got dict",
    ),
    (
        "answer id not text",
        lambda: verify("x", SOURCES, answer_id=7),
        AnswerError,
        "field 'answer_id': expected text, got int",
    ),
    (
        "eligibility of the wrong type",
        lambda: verify("x", SOURCES, eligibility=["S1"]),
        InputError,
        "field 'eligibility': expected a citeproof.Eligibility, got list",
    ),
    (
        "similarity as text",
        lambda: Policy(min_similarity="0.9"),
        PolicyError,
        "field 'min_similarity': must be a number, got '0.9'",
    ),
    (
        "similarity out of range",
        lambda: Policy(min_similarity=1.5),
        PolicyError,
        "field 'min_similarity': must be in (0, 1]",
    ),
    (
        "gap as None",
        lambda: Policy(max_ellipsis_gap=None),
        PolicyError,
        "field 'max_ellipsis_gap': must be a whole number, got None",
    ),
    (
        "context as a float",
        lambda: Policy(excerpt_context=1.5),
        PolicyError,
        "field 'excerpt_context': must be a whole number, got 1.5",
    ),
    (
        "unknown source kind",
        lambda: Source(id="S1", kind="pdf", text="t"),
        SourceError,
        "source 'S1': field 'kind': unknown kind 'pdf'",
    ),
    (
        "paragraph not a pair",
        lambda: Source(id="S1", kind="document", text="t", paragraphs=[1]),
        SourceError,
        "source 'S1': field 'paragraphs': paragraph 1 must be a (start, end) pair of integers",
    ),
    (
        "paragraph bounds as words",
        lambda: Source(id="S1", kind="document", text="t", paragraphs=[("a", "b")]),
        SourceError,
        "paragraph 1 must be a (start, end) pair of integers, got ('a', 'b')",
    ),
    (
        "paragraphs not a sequence",
        lambda: Source(id="S1", kind="document", text="t", paragraphs=3),
        SourceError,
        "field 'paragraphs': must be a sequence of (start, end) pairs, got int",
    ),
    (
        "render a string",
        lambda: render("answer", "html"),
        InputError,
        "field 'answer': expected a citeproof.VerifiedAnswer, got str",
    ),
    (
        "render as pdf",
        lambda: render(verify('"x" [S1]', SOURCES), "pdf"),
        InputError,
        "field 'format': unknown format 'pdf'",
    ),
    (
        "JSON of a dict",
        lambda: answer_to_json({}),
        InputError,
        "field 'answer': expected a citeproof.VerifiedAnswer, got dict",
    ),
    (
        "a missing file",
        lambda: read_source_file("no-such-file.txt"),
        SourceError,
        "no-such-file.txt: ",
    ),
    (
        "an unsupported file",
        lambda: read_source_file(Path("sheet.xlsx")),
        SourceError,
        "sheet.xlsx: cannot read .xlsx files here",
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "message"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_bad_input_gets_a_citeproof_error_that_names_it(
    call: Callable[[], object], error: type[CiteproofError], message: str
) -> None:
    with pytest.raises(error) as caught:
        call()
    assert message in str(caught.value)


def test_the_cases_cover_every_exported_function() -> None:
    functions = {n for n in citeproof.__all__ if n.islower()}
    assert functions == {"verify", "render", "answer_to_json", "read_source_file"}, (
        "a new exported function needs its bad-input cases here"
    )
