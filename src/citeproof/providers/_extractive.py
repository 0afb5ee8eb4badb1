"""Answers with no model: the source sentences that best match the question, quoted verbatim.

Each chosen sentence becomes a quote followed by its ``<cite:ID#pN>`` marker, so the answer
always verifies. Sentences (cut by `citeproof.sources._sentences`) are scored by the question
words they share, each word weighted by how rare it is among the candidate sentences; ties go
to the shorter, then the earlier sentence. Deterministic: the same question and sources give
the same answer.
"""

from __future__ import annotations

import html
import math
import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citeproof.errors import ProviderTimeout
from citeproof.model import Passage, Source, blank_line_paragraphs
from citeproof.providers._base import ChatMessage, Generation, Usage, check_request
from citeproof.sources import sentence_spans

NO_ANSWER = "The sources given do not answer this question."
MAX_QUOTE_CHARS = 600

_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"\s+")
_SOURCE = re.compile(r"<source\b([^>]*)>\n?(.*?)</source>", re.DOTALL | re.IGNORECASE)
_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
_PARAGRAPH = re.compile(r"^\[p(\d+)\] ?", re.MULTILINE)
_QUESTION = re.compile(r"^Question:[ \t]*(.*)", re.MULTILINE | re.DOTALL)
_ESCAPED_FENCE = re.compile(r"&lt;(/?source)", re.IGNORECASE)
_STOPWORDS = frozenset(
    _WORD.findall(
        """
        a an and are as at be been but by can could did do does for from had has have how i if
        in into is it its may me might my no not of on or our shall should so than that the
        their them then there these they this those to was we were what when where which who
        whom why will with would you your about any all
        """
    )
)


@dataclass(frozen=True, slots=True)
class SourceParagraph:
    """One numbered paragraph (1-based) of a source, as the extractive provider reads it."""

    source_id: str
    number: int
    text: str


@dataclass(frozen=True, slots=True)
class _Sentence:
    source_id: str
    paragraph: int
    text: str
    terms: frozenset[str]
    order: int


def paragraphs_of(items: Iterable[Source | Passage | SourceParagraph]) -> list[SourceParagraph]:
    """The numbered paragraphs of sources, retrieved passages, or paragraphs as they are.

    A passage covering several paragraphs is split at blank lines when the block count
    matches its paragraph range; otherwise it is read as its first paragraph.
    """
    found: list[SourceParagraph] = []
    for item in items:
        if isinstance(item, SourceParagraph):
            found.append(item)
        elif isinstance(item, Source):
            for number, (start, end) in enumerate(item.paragraph_spans(), start=1):
                found.append(SourceParagraph(item.id, number, item.text[start:end]))
        else:
            first, last = item.paragraphs
            blocks = [item.text[s:e] for s, e in blank_line_paragraphs(item.text)]
            if len(blocks) == last - first + 1:
                found += [
                    SourceParagraph(item.source_id, first + i, b) for i, b in enumerate(blocks)
                ]
            else:
                found.append(SourceParagraph(item.source_id, first, item.text))
    return found


def paragraphs_from_prompt(prompt: str) -> list[SourceParagraph]:
    """The paragraphs of the ``<source id=...>`` blocks of a prompt, with their ``[pN]`` numbers."""
    found: list[SourceParagraph] = []
    for block in _SOURCE.finditer(prompt):
        attributes = dict(_ATTRIBUTE.findall(block.group(1)))
        source_id = html.unescape(attributes.get("id", ""))
        if not source_id:
            continue
        body = block.group(2)
        marks = list(_PARAGRAPH.finditer(body))
        for mark, following in zip(marks, [*marks[1:], None], strict=True):
            end = following.start() if following else len(body)
            text = _ESCAPED_FENCE.sub(r"<\1", body[mark.end() : end].rstrip("\n"))
            found.append(SourceParagraph(source_id, int(mark.group(1)), text))
    return found


def question_from_prompt(prompt: str) -> str:
    """The text after the last ``Question:`` line, else the prompt without its sources."""
    asked = list(_QUESTION.finditer(prompt))
    if asked:
        return asked[-1].group(1).strip()
    return _SOURCE.sub(" ", prompt).strip()


class ExtractiveProvider:
    """A `Provider` that needs no model: it quotes the best-matching source sentences.

    Use `answer` with the sources or passages themselves; `generate` reads them back from
    the fenced ``<source>`` blocks of the last user message. At most ``max_quotes`` quotes are
    given, and fewer when ``max_tokens`` words would be exceeded (one quote at least).
    """

    name = "extractive"
    model = "extractive"

    def __init__(self, *, max_quotes: int = 3) -> None:
        self.max_quotes = max_quotes

    def answer(
        self,
        question: str,
        sources: Iterable[Source | Passage | SourceParagraph],
        *,
        max_tokens: int = 512,
    ) -> Generation:
        """Quote the sentences of ``sources`` that best answer ``question``."""
        started = time.monotonic()
        chosen = _best_sentences(question, paragraphs_of(sources), self.max_quotes, max_tokens)
        lines = [f"- {_quoted(s.text)} <cite:{s.source_id}#p{s.paragraph}>" for s in chosen]
        text = "\n".join(lines) if lines else NO_ANSWER
        return Generation(
            text=text,
            model=self.model,
            provider=self.name,
            usage=Usage(0, 0),
            seconds=time.monotonic() - started,
            finish_reason="stop",
        )

    def generate(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        deadline: float | None = None,
    ) -> Generation:
        """Answer the prompt's question from the prompt's own sources; see `Provider.generate`."""
        check_request(messages, max_tokens, temperature)
        if deadline is not None and time.monotonic() >= deadline:
            raise ProviderTimeout("the deadline passed before the call", provider=self.name)
        users = [m.content for m in messages if m.role == "user"]
        prompt = users[-1] if users else messages[-1].content
        return self.answer(
            question_from_prompt(prompt), paragraphs_from_prompt(prompt), max_tokens=max_tokens
        )


def _terms(text: str) -> frozenset[str]:
    words = (w.lower() for w in _WORD.findall(text))
    return frozenset(_stem(w) for w in words if len(w) > 1 and w not in _STOPWORDS)


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _sentences(paragraphs: Sequence[SourceParagraph]) -> list[_Sentence]:
    found: list[_Sentence] = []
    seen: set[str] = set()
    for paragraph in paragraphs:
        for start, end in sentence_spans(paragraph.text):
            text = _SPACE.sub(" ", paragraph.text[start:end])
            if len(text.split()) < 3 or len(text) > MAX_QUOTE_CHARS or text in seen:
                continue
            seen.add(text)
            order = len(found)
            found.append(
                _Sentence(paragraph.source_id, paragraph.number, text, _terms(text), order)
            )
    return found


def _best_sentences(
    question: str, paragraphs: Sequence[SourceParagraph], limit: int, max_words: int
) -> list[_Sentence]:
    asked = _terms(question)
    sentences = _sentences(paragraphs)
    if not asked or not sentences:
        return []
    counts = Counter(term for s in sentences for term in s.terms & asked)
    weight = {term: math.log(1 + len(sentences) / n) for term, n in counts.items()}
    scored = [(sum(weight[t] for t in s.terms & asked), s) for s in sentences]
    ranked = sorted(
        ((score, s) for score, s in scored if score > 0),
        key=lambda pair: (-pair[0], len(pair[1].text), pair[1].order),
    )
    chosen: list[_Sentence] = []
    words = 0
    for _, sentence in ranked[:limit]:
        words += len(sentence.text.split())
        if chosen and words > max_words:
            break
        chosen.append(sentence)
    return chosen


def _quoted(text: str) -> str:
    for opening, closing in (('"', '"'), ("“", "”"), ("«", "»")):
        if opening not in text and closing not in text:
            return f"{opening}{text}{closing}"
    return f"“{text}”"
