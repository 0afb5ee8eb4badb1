"""Claim support (issue 10): is a cited claim backed by the source it cites?

For each cited claim and each source it cites: locate the best passage (`locate`), also
reading the sentence that states each number or date of the claim the located sentences
lack (`_with_numbers`: a claim drawn from several places of a long page), compare
its facts (`facts`), score paraphrase with the learned head (`learned`), then decide:

- ``contradicted``: the passage states another number, date, name or comparative in the
  claim's place, or the negation of the claim, while the rest of the claim is anchored
  there (at least `ANCHOR` of its other weighted content backed);
- ``supported``: score ≥ ``Policy.support_threshold``, every number and date backed, and,
  as the shipped `Rules` say, no stretch of ``max_gap`` unbacked words and no unbacked name;
- ``partial``: not supported, but at least `PARTIAL_RECALL` of the claim's weighted content
  backed, or score ≥ ``Policy.partial_threshold`` with at least `MIN_PARTIAL` backed;
- ``unsupported``: otherwise.

Tokens inside the claim's verified quotes are backed by the quote's own verification; the
rest of the sentence is still judged. A claim whose rest only attributes its quotes
(`_only_frames`: at most `FRAMING_WORDS` plain words, no number, date, name, negation or
comparative: "The policy says") is ``supported`` with method ``quote``, without a passage
search. One whose rest, once read against the passage, only frames the quotes (`_framing`: no
unbacked fact, at most `FRAMING_WORDS` unbacked words per verified quote, no conflict) is
``supported`` with method ``quote+<head>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citeproof.model import ClaimSupport, Policy, Source, Span, SupportPassage, SupportVerdict
from citeproof.turn.rerank import EmbeddingReranker
from citeproof.verifier.support.facts import FactCheck, check_facts
from citeproof.verifier.support.learned import (
    EMBEDDING,
    LEXICAL,
    Encoder,
    Head,
    Rules,
    cosines,
    features,
    load_heads,
    load_rules,
)
from citeproof.verifier.support.locate import (
    PreparedSource,
    Sentence,
    claim_weights,
    locate,
    prepared_source,
)
from citeproof.verifier.support.text import Token, is_content, tokenize

ANCHOR = 0.3
PARTIAL_RECALL = 0.6
MIN_PARTIAL = 0.25  # "some of the claim is backed": at least this weighted share
MAX_NUMBER_SENTENCES = 2
FRAMING_WORDS = 3  # per verified quote: "the policy requires that ...", "the memo records ..."


@dataclass(frozen=True, slots=True)
class Examined:
    """What the fact layer and the encoder found for one claim against one source."""

    check: FactCheck
    values: dict[str, float]
    chosen: tuple[Sentence, ...]
    share: float  # weighted share of the claim the chosen sentences hold


class SupportJudge:
    """Judges the claims of one verification; sources are cut into sentences once each.

    ``encoder`` overrides the shared MiniLM encoder (None: the shared one when
    ``policy.support_embeddings`` is ``"auto"`` and it is installed, else lexical only).
    """

    def __init__(self, policy: Policy, *, encoder: EmbeddingReranker | None = None) -> None:
        self.policy = policy
        if encoder is None and policy.support_embeddings == "auto":
            encoder = Encoder.get()
        self.encoder = encoder
        self.method = EMBEDDING if encoder is not None else LEXICAL
        self._prepared: dict[str, PreparedSource] = {}

    def prepared(self, source: Source) -> PreparedSource:
        if source.id not in self._prepared:
            self._prepared[source.id] = prepared_source(source)
        return self._prepared[source.id]

    def examine(
        self,
        claim_text: str,
        source: Source,
        *,
        paragraph: int | None = None,
        quoted: Sequence[Span] = (),
    ) -> Examined | None:
        """Locate the passage and compare facts; None when verified quotes back every
        content token of the claim but words that only attribute them (nothing left to
        judge: the source is not even prepared)."""
        claim = tokenize(claim_text)
        judged = [not any(s <= t.span[0] and t.span[1] <= e for s, e in quoted) for t in claim]
        to_judge = [t for t, j in zip(claim, judged, strict=True) if j and is_content(t)]
        if quoted and _only_frames(to_judge):
            return None  # before the source is prepared: nothing here needs it
        prepared = self.prepared(source)
        # Located with the whole claim: a verified quote anchors the passage it came from.
        chosen, share = locate(claim, prepared, paragraph)
        chosen = _with_numbers(claim, judged, chosen, prepared)
        ordered = sorted(chosen, key=lambda s: s.span)
        passage_tokens: list[Token] = [t for s in ordered for t in s.tokens]
        weights = claim_weights(claim, prepared)
        check = check_facts(claim_text, claim, passage_tokens, weights, judged, prepared.keys)
        cos = None
        if self.encoder is not None:
            texts = [source.text[slice(*s.span)] for s in ordered]
            # A source with no sentence (empty text) is no passage: nothing is similar.
            cos = cosines(self.encoder, claim_text, " ".join(texts), texts) if texts else (0.0, 0.0)
        return Examined(check, features(check, cos), chosen, share)

    def judge(
        self,
        claim_text: str,
        source: Source,
        *,
        paragraph: int | None = None,
        quoted: Sequence[Span] = (),
    ) -> ClaimSupport:
        """The support ``source`` gives ``claim_text``; ``quoted`` are spans of the claim
        inside verified quotes (backed already), ``paragraph`` the cited paragraph."""
        found = self.examine(claim_text, source, paragraph=paragraph, quoted=quoted)
        if found is None:
            return ClaimSupport(source.id, "supported", 1.0, None, (), "quote")
        head: Head = load_heads()[self.method]
        score = head.score(found.values)
        verdict = decide(found.check, score, self.policy, load_rules())
        method = self.method
        if quoted and verdict != "contradicted" and _framing(found.check, len(quoted)):
            verdict, method = "supported", f"quote+{self.method}"
        return ClaimSupport(
            source=source.id,
            verdict=verdict,
            score=score,
            # A passage sharing no word with the claim is no passage: none is shown.
            passage=_passage(source, found.chosen) if found.share > 0 else None,
            differences=found.check.differences,
            method=method,
        )


def decide(check: FactCheck, score: float, policy: Policy, rules: Rules) -> SupportVerdict:
    """The verdict from the fact layer, the score and the shipped rules (see the module)."""
    if check.conflicts and check.anchor >= ANCHOR:
        return "contradicted"
    whole = (
        check.number_recall == 1.0
        and not check.conflicts
        and not (rules.max_gap and check.longest_gap >= rules.max_gap)
        and not (rules.names_block and check.unbacked_names)
    )
    if score >= policy.support_threshold and whole:
        return "supported"
    if check.weighted_recall >= PARTIAL_RECALL or (
        score >= policy.partial_threshold and check.weighted_recall >= MIN_PARTIAL
    ):
        return "partial"
    return "unsupported"


def _with_numbers(
    claim: Sequence[Token],
    judged: Sequence[bool],
    chosen: tuple[Sentence, ...],
    prepared: PreparedSource,
) -> tuple[Sentence, ...]:
    """``chosen`` and, for each judged number or date of the claim they do not hold, the
    first sentence of the source that holds its key (one in the best sentence's paragraph
    first), at most `MAX_NUMBER_SENTENCES` more. A number the source never states adds
    nothing: it stays unbacked and rules out ``supported``."""
    if not chosen:
        return chosen
    held = set().union(*(s.keys for s in chosen))
    added: list[Sentence] = []
    for token, is_judged in zip(claim, judged, strict=True):
        if len(added) >= MAX_NUMBER_SENTENCES:
            break
        if not is_judged or token.kind not in ("number", "date") or token.key in held:
            continue
        found = [prepared.sentences[p] for p in prepared.postings.get(token.key, ())]
        if not found:
            continue
        same = [s for s in found if s.paragraph == chosen[0].paragraph]
        sentence = (same or found)[0]
        added.append(sentence)
        held |= sentence.keys
    if not added:
        return chosen
    # The best sentence stays first (it is the one shown), the others in source order.
    return (chosen[0], *sorted({*chosen[1:], *added} - {chosen[0]}, key=lambda s: s.span))


def _only_frames(rest: Sequence[Token]) -> bool:
    """What verified quotes leave of a claim only attributes them ("The policy says"): at
    most `FRAMING_WORDS` plain words, no number, date, name, negation or comparative."""
    return len(rest) <= FRAMING_WORDS and all(t.kind == "word" for t in rest)


def _framing(check: FactCheck, quotes: int) -> bool:
    """What a verified quote leaves of its claim only frames it ("the policy says that"):
    no number, date, name, negation or comparative unbacked, at most `FRAMING_WORDS` words
    for each of its ``quotes`` verified quotes (each quote has its own "X says that")."""
    words = sum(len(d.text.split()) for d in check.differences if d.kind == "word")
    return (
        not check.conflicts
        and words <= FRAMING_WORDS * max(quotes, 1)
        and all(d.kind == "word" for d in check.differences)
    )


def _passage(source: Source, chosen: Sequence[Sentence]) -> SupportPassage | None:
    """The passage shown for the judgement: the chosen sentences in the best sentence's
    paragraph, as one span (sentences elsewhere were read too but are not shown)."""
    if not chosen:
        return None
    paragraph = chosen[0].paragraph
    same = [s for s in chosen if s.paragraph == paragraph]
    start, end = min(x.span[0] for x in same), max(x.span[1] for x in same)
    return SupportPassage(source.id, paragraph, (start, end), source.text[start:end])
