"""Quote-first generation without a model (section D, F.5): sentences, grammar, answer, turn.

The grammar's compilation by the real llama.cpp server is tested in test_embedded.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from citeproof import verify
from citeproof.model import Eligibility, Message, Passage, Source
from citeproof.providers import Generation, wants_quote_first
from citeproof.turn import run_turn
from citeproof.turn._evidence_first import (
    MAX_CHOICES,
    NO_ANSWER,
    EvidenceLine,
    answer_text,
    evidence_grammar,
    evidence_lines,
    quote_first_prompt,
    relevance,
    relevant_lines,
    split_sentences,
)
from citeproof.turn._prompt import build_prompt
from tests.lending import EMAIL, MEMO, POLICY, SOURCES
from tests.test_pipeline import LIBRARY, Retriever

HOSTILE = (
    'He said "stop" \\ now [p2] <cite:x#p1> and ]] [[ ::= | ( ) * + ? quoted.\n'
    "Ünïcödé — 𝔘 and emoji 🎉 sit next to a tab\there and a NUL \x00 inside.\n"
    'Every mark “x” ‘y’ «z» "w" is in this one sentence.'
)


def literals(grammar: str) -> list[str]:
    """The string literals of a GBNF grammar, unescaped as llama.cpp reads them."""
    found = re.findall(r'"((?:[^"\\]|\\.)*)"', grammar)
    escapes = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")

    def unescape(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "xuU" and len(code) > 1:
            return chr(int(code[1:], 16))
        return {"n": "\n", "t": "\t", "r": "\r"}.get(code, code)

    return [escapes.sub(unescape, literal) for literal in found]


def test_sentences_are_not_cut_at_initials_decimals_or_abbreviations_D() -> None:
    text = "M. Osei paid 2.5 million on 1 Jan. to Dr. Rao, e.g. by cheque. He agreed. See U.S. law."
    assert split_sentences(text) == [
        "M. Osei paid 2.5 million on 1 Jan. to Dr. Rao, e.g. by cheque.",
        "He agreed.",
        "See U.S. law.",
    ]


def test_the_grammar_offers_a_sentence_whole_past_an_abbreviation_before_a_number_D() -> None:
    lore = Source(
        id="lore",
        kind="document",
        text="In S.A. 3262, Ar-Pharazôn landed at Umbar. See No. 5 of the annals for more.",
    )
    assert [line.text for line in evidence_lines([lore])] == [
        "In S.A. 3262, Ar-Pharazôn landed at Umbar.",
        "See No. 5 of the annals for more.",
    ]


def test_a_numbered_heading_joins_the_sentence_it_starts_D() -> None:
    paragraph = POLICY.text.split("\n\n")[2]
    assert split_sentences(paragraph) == [
        "2. Loan-to-value. Applications with a loan-to-value ratio above 80% must be referred "
        "to a senior underwriter before an offer is issued.",
        "Applications above 95% are declined.",
    ]


def test_evidence_lines_are_the_shown_sentences_with_their_paragraphs_D() -> None:
    lines = evidence_lines([EMAIL])
    assert (
        EvidenceLine(
            "S2",
            2,
            "Quick update on the Hartley application: the valuation came back at £412,000, so "
            "the loan-to-value is now 83%.",
        )
        in lines
    )
    # A greeting or a signature is no evidence.
    assert all(len(line.text.split()) >= 3 for line in lines)
    assert all(line.source_id == EMAIL.id for line in lines)


def test_a_quote_leaves_out_the_numbered_heading_of_its_sentence_D() -> None:
    texts = [line.text for line in evidence_lines([POLICY])]
    assert (
        "Applications with a loan-to-value ratio above 80% must be referred to a senior "
        "underwriter before an offer is issued." in texts
    )
    assert not any(text.startswith("2. Loan-to-value.") for text in texts)
    # A heading followed by no sentence of its own is quoted without its number too.
    assert "Verification of income." in texts


def test_the_grammar_offers_the_sentences_that_share_the_question_words_D() -> None:
    lines = evidence_lines(SOURCES)
    chosen = relevant_lines("When must an application be referred to a senior underwriter?", lines)
    texts = [line.text for line in chosen]
    assert len(chosen) <= MAX_CHOICES < len(lines)
    # "referred" meets "refer", "application" "applications".
    assert any("above 80% must be referred" in text for text in texts)
    assert any(text.startswith("Under the new policy I think we have to refer") for text in texts)
    assert "Applications above 95% are declined." not in texts
    assert "Can you pick it up tomorrow morning?" not in texts
    # Kept in the order of the sources, as the model read them.
    assert chosen == [line for line in lines if line in chosen]


def test_a_question_the_sources_share_no_word_with_leaves_only_the_no_answer_D() -> None:
    assert relevant_lines("Is a parrot covered?", evidence_lines([POLICY, MEMO])) == []
    decided = Eligibility(("S1",), (), "f")
    plain = build_prompt("Is a parrot covered?", [POLICY], decided)
    prompt = quote_first_prompt(plain, [POLICY], question="Is a parrot covered?")
    assert prompt.grammar == evidence_grammar([])


def test_the_grammar_of_hostile_source_text_is_escaped_losslessly_F_5() -> None:
    source = Source(id="doc-1", kind="document", text=HOSTILE)
    lines = evidence_lines([source])
    grammar = evidence_grammar(lines)
    assert grammar.isascii()
    assert "\x00" not in grammar and "\t" not in grammar
    written = [line.written for line in lines if line.written]
    # Each evidence line reads back exactly as the model must write it.
    assert set(written) <= set(literals(grammar))
    assert any("\\ now [p2] <cite:x#p1>" in w for w in written)
    assert any("𝔘 and emoji 🎉" in w for w in written)
    # A sentence holding every kind of quotation mark cannot be quoted unambiguously.
    assert not any("Every mark" in w for w in written)


def test_with_nothing_quotable_only_the_no_answer_form_is_allowed_D() -> None:
    grammar = evidence_grammar([])
    assert grammar.strip() == f'root ::= "Evidence: none\\nAnswer: {NO_ANSWER}"'


def test_the_answer_puts_prose_first_and_each_evidence_line_once_D() -> None:
    generated = (
        "Evidence:\n"
        '- <cite:S1#p3> "Applications above 95% are declined."\n'
        '- <cite:S1#p3> "Applications above 95% are declined."\n'
        "Answer: They are declined."
    )
    assert answer_text(generated) == (
        "They are declined. <cite:S1#p3>\n\n"
        'Evidence:\n\n- "Applications above 95% are declined." <cite:S1#p3>\n'
    )


def test_the_prose_is_judged_against_the_model_s_own_evidence_D() -> None:
    generated = (
        'Evidence:\n- <cite:S1#p3> "Applications above 95% are declined."\n'
        '- <cite:S1#p3> "Applications above 95% are declined."\n'
        "Answer: Applications with a loan-to-value above 95% are declined. Lower ones are not."
    )
    text = answer_text(generated)
    assert text.startswith(
        "Applications with a loan-to-value above 95% are declined. <cite:S1#p3> "
        "Lower ones are not. <cite:S1#p3>\n\n"
    )
    prose = verify(text, SOURCES).claims[0]
    assert prose.text.startswith("Applications with a loan-to-value above 95%")
    assert prose.verdict == "supported"  # not "uncited": its evidence backs it


def test_evidence_is_chosen_by_retrieval_relevance_not_shared_words_alone_D() -> None:
    manual = Source(
        id="manual",
        kind="document",
        text="When must an application record be referred to a senior underwriter module? "
        "The ASN.1 referral field must be set.",
    )
    lines = evidence_lines([POLICY, manual])
    question = "When must an application be referred to a senior underwriter?"
    by_words = relevant_lines(question, lines, limit=1)
    assert by_words[0].source_id == "manual"  # it repeats the question's words
    # Retrieval ranked the policy's paragraph first and the manual low.
    weights = relevance(
        [
            Passage("S1", None, None, (3, 3), (0, 1), "", 0.9),
            Passage("manual", None, None, (1, 1), (0, 1), "", 0.1),
        ]
    )
    chosen = relevant_lines(question, lines, limit=1, weights=weights)
    assert chosen[0].source_id == "S1" and "senior underwriter" in chosen[0].text
    assert weights[("manual", 1)] == pytest.approx(0.1 / 0.9)


def test_an_answer_cut_by_the_token_limit_keeps_its_complete_evidence_D() -> None:
    generated = '- <cite:S1#p3> "Applications above 95% are declined."\n- <cite:S1#p3> "Appl'
    assert answer_text("Evidence:\n" + generated) == (
        'Evidence:\n\n- "Applications above 95% are declined." <cite:S1#p3>\n'
    )


def test_no_evidence_gives_the_plain_no_answer_sentence_and_other_text_stays_as_is_D() -> None:
    assert answer_text(f"Evidence: none\nAnswer: {NO_ANSWER}") == NO_ANSWER
    assert answer_text("The fee is 2%. [S1]") == "The fee is 2%. [S1]"


class GrammarModel:
    """Writes the first evidence line of its grammar that holds ``word``, then ``prose``."""

    quote_first = True

    def __init__(self, word: str, prose: str) -> None:
        self.word, self.prose = word, prose
        self.grammars: list[str | None] = []
        self.messages: list[Sequence[Message]] = []

    def generate(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        deadline: float | None = None,
        grammar: str | None = None,
    ) -> Generation:
        self.grammars.append(grammar)
        self.messages.append(messages)
        chosen = [w for w in literals(grammar or "") if w.startswith("<cite:") and self.word in w]
        lines = "\n".join(f"- {w}" for w in chosen[:1])
        text = f"Evidence:\n{lines}\nAnswer: {self.prose}" if chosen else "Evidence: none"
        return Generation(text, "grammar-model", "test")


def test_a_quote_first_turn_sends_the_grammar_and_verifies_the_quote_D() -> None:
    model = GrammarModel("80%", "They go to a senior underwriter.")
    assert wants_quote_first(model)
    turn = run_turn(
        "When must a loan-to-value application be referred?",
        retriever=Retriever([POLICY, EMAIL]),
        library=LIBRARY,
        provider=model,
    )
    assert model.grammars[0] is not None and turn.prompt.grammar == model.grammars[0]
    assert "evidence first" in model.messages[0][0].content
    assert turn.answer.text.startswith("They go to a senior underwriter.")
    assert [(q.status, q.source) for q in turn.answer.quotes] == [("verified", POLICY.id)]


def test_a_provider_without_quote_first_gets_the_plain_prompt_D() -> None:
    model = GrammarModel("80%", "x")
    model.quote_first = False
    turn = run_turn(
        "When must a loan-to-value application be referred?",
        retriever=Retriever([POLICY]),
        library=LIBRARY,
        provider=model,
    )
    assert model.grammars == [None] and turn.prompt.grammar is None
