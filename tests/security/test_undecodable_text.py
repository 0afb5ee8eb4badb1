"""Text holding bytes that were not UTF-8 (decoded with ``surrogateescape``, as Python does
for file names and for streams opened that way) cannot be written as UTF-8 or JSON, so the
evidence, the JSON contract and the audit log could not carry it: it is refused where it
comes in, with an error naming the source and field, as the CLI refuses such a file."""

from __future__ import annotations

import pytest

from citeproof import AnswerError, Source, SourceError, verify

# A Latin-1 "é" inside UTF-8 text: the byte 0xE9 is not UTF-8 on its own.
RAW = "Loans above 60% LTV must be referred to the CEO, said the caf\xe9 memo.".encode("latin-1")
TEXT = RAW.decode("utf-8", "surrogateescape")
ANSWER = "Loans above 60% LTV must be referred to the CEO [S1]."


def test_the_text_holds_a_lone_surrogate() -> None:
    assert TEXT[61] == "\udce9"


@pytest.mark.parametrize("field", ["text", "title", "url"])
def test_a_source_with_undecodable_bytes_is_refused_naming_the_source_and_field(
    field: str,
) -> None:
    fields = {"text": "Loans above 60% LTV must be referred to the CEO.", field: TEXT}
    with pytest.raises(SourceError) as raised:
        Source(id="S1", kind="document", **fields)  # type: ignore[arg-type]
    message = str(raised.value)
    assert "source 'S1'" in message and f"'{field}'" in message
    assert "not UTF-8 at character 61" in message


def test_an_answer_with_undecodable_bytes_is_refused() -> None:
    source = Source(id="S1", kind="document", text=TEXT.replace("\udce9", "e"))
    with pytest.raises(AnswerError, match="not UTF-8 at character 3"):
        verify("Lo\xe9\udce9ans [S1].", [source])


def test_the_same_text_decoded_with_replacement_is_verified() -> None:
    text = RAW.decode("utf-8", "replace")
    answer = verify(ANSWER, [Source(id="S1", kind="document", text=text)])
    (claim,) = answer.claims
    assert claim.verdict == "supported"
