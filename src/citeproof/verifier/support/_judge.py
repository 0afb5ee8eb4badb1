"""Claim support: is a cited claim backed by the source it cites?

For each cited claim and each source it cites: locate the best passage (`locate`), also
reading the sentence that states each number or date of the claim the located sentences
lack (`_with_numbers`), and compare its facts (`facts`: numbers, dates, names, units).

By default (``Policy.support_judge="lexical"``) the learned head over the fact layer's counts
decides: ``supported`` at ``Policy.support_threshold`` with every number and date backed and
the shipped rules met; ``contradicted`` when the fact layer finds another figure, date, name
or comparative in the claim's place (anchored: at least `ANCHOR` of the rest backed);
``partial`` or ``unsupported`` otherwise.

With ``support_judge="model"`` the shipped entailment model (`nli`) judges meaning:

- the claim is cut into its parts (`parts.claim_parts`: "X, and Y" is two facts);
- each part is located on its own and read against up to `WINDOWS` windows of the source
  (its best sentence widened to about `WINDOW_WORDS` words, the sentences located with it);
  the best window wins;
- ``contradicted``: the fact layer's conflict as above, or a part contradicted by a window
  (P(contradicts) ≥ `CONTRADICTS` and the part entailed by none);
- ``supported``: every part entailed (P(entails) ≥ `MODEL_SUPPORT`), every number and date
  backed, no name the source never gives;
- ``partial``: some parts entailed, or the weakest part at least `MODEL_PARTIAL`;
- ``unsupported``: otherwise.

``support_judge="lexical+model"``: the lexical head's verdicts, but each claim it supports
(and its verified quotes alone do not settle) is read by the model as above, and the model's
``contradicted`` stands (`SupportJudge._overruled`).

``support_judge="strict"`` (the default): the lexical head's verdicts, each then held to the
promise that `supported` means the passage states the claim (`_promise.kept_promise`), and,
with a provider, the claims it could not confirm escalated to it (`_promise.escalated`).

``support_judge="provider"`` asks the team's LLM the same question per part
(`provider_judge`), one call per answer. The model is asked once per answer
(`SupportJudge.judge_many`) and scores each pair on its own (`_nli`), so a verdict does not
depend on what else is judged with it. Without onnxruntime, ``"model"`` falls back to the
lexical head. Every judgement carries a ``reason`` a reader understands.

Tokens inside the claim's verified quotes are backed by the quote's own verification; the
rest of the sentence is still judged. A claim whose rest only attributes its quotes
(`_only_frames`: at most `FRAMING_WORDS` plain words, no number, date, name, negation or
comparative: "The policy says") is ``supported`` with method ``quote``, without a passage
search.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from citeproof.embedding import TextEncoder
from citeproof.errors import PolicyError
from citeproof.model import ClaimSupport, Policy, Source, Span, SupportPassage, SupportVerdict
from citeproof.providers import Provider
from citeproof.stopping import checkpoint
from citeproof.verifier.support._facts import (
    FactCheck,
    check_facts,
    lead_denials,
    states_plainly,
)
from citeproof.verifier.support._learned import (
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
from citeproof.verifier.support._locate import (
    PreparedSource,
    Sentence,
    claim_weights,
    locate,
    prepared_source,
)
from citeproof.verifier.support._nli import Entailment, NliModel
from citeproof.verifier.support._parts import claim_parts
from citeproof.verifier.support._promise import STRICT, escalated, kept_promise
from citeproof.verifier.support._provider_judge import ProviderJudge
from citeproof.verifier.support._request import (
    MODEL,
    PROVIDER,
    QUOTE,
    Examined,
    Request,
    naming,
)
from citeproof.verifier.support._text import (
    CARVE_OUT,
    LIST_ITEM,
    LIST_REACH,
    Token,
    is_content,
    tokenize,
)
from citeproof.verifier.support.lexicon import (
    READER,
    THIRD_PERSON,
    WRITER,
    defined_terms,
    speakers,
)

ANCHOR = 0.3
_CLAUSE = re.compile(r";\s*")
PARTIAL_RECALL = 0.6
MIN_PARTIAL = 0.25  # "some of the claim is backed": at least this weighted share
MAX_NUMBER_SENTENCES = 2
FRAMING_WORDS = 3  # per verified quote: "the policy requires that ...", "the memo records ..."
WINDOW_WORDS = 80  # about what the model was trained on (train/nli_data.window)
WINDOWS = 3
CONTRADICTS = 0.6
"""Lowest P(contradicts) at which a window contradicts a part the model entails nowhere."""
MODEL_SUPPORT = 0.5
MODEL_PARTIAL = 0.2
"""The entailment model's thresholds on P(entails) (of each part; of the weakest part)."""


@dataclass(frozen=True, slots=True)
class _Window:
    text: str
    sentences: tuple[Sentence, ...]  # in source order; the best one is `best`
    best: Sentence


@dataclass(frozen=True, slots=True)
class _Part:
    span: Span  # into the claim's text
    text: str
    windows: tuple[_Window, ...]  # empty: settled by its verified quotes
    read: str = ""  # `text` with its figures in the windows' words; "" when the same

    @property
    def readings(self) -> tuple[str, ...]:
        """How the model reads the part: as written and, where they differ, with its figures
        in the source's words; each window keeps its better reading (`_reads`)."""
        return (self.text, self.read) if self.read else (self.text,)


@dataclass(frozen=True, slots=True)
class _Read:
    """What the model said of one part: its best entailing window and its most
    contradicting one."""

    part: _Part
    entails: float
    entailing: _Window | None
    contradicts: float
    contradicting: _Window | None


class SupportJudge:
    """Judges the claims of one verification; sources are cut into sentences once each.

    ``encoder`` overrides the shared MiniLM encoder of the lexical head (None: the shared one
    when ``policy.support_embeddings`` is ``"auto"`` and it is installed). ``model`` overrides
    the shipped entailment model (None: the shared one when ``policy.support_judge`` is
    ``"model"`` and onnxruntime is installed, else the lexical head decides). The shared
    encoder and model are loaded on first need (`encoder`, `model`, `method`): an answer
    whose claims its verified quotes settle loads neither.
    """

    def __init__(
        self,
        policy: Policy,
        *,
        encoder: TextEncoder | None = None,
        model: NliModel | None = None,
        provider: Provider | None = None,
    ) -> None:
        self.policy = policy
        asks = policy.support_judge == "provider"
        if asks and provider is None:
            raise PolicyError(
                "needs a provider: pass support_provider= to verify (or --support-judge "
                "provider with --provider)",
                field="support_judge",
            )
        self.asker = ProviderJudge(provider) if asks and provider is not None else None
        escalates = policy.support_judge == STRICT and provider is not None
        self.escalation = ProviderJudge(provider) if escalates and provider else None
        self._given = (encoder, model)
        self._resolved: tuple[TextEncoder | None, NliModel | None, str] | None = None
        self._prepared: dict[str, PreparedSource] = {}

    def _resolve(self) -> tuple[TextEncoder | None, NliModel | None, str]:
        """The encoder, the model and the method's name, the shared ones loaded now."""
        if self._resolved is None:
            encoder, model = self._given
            judge = self.policy.support_judge
            if model is None and judge in ("model", "lexical+model"):
                model = NliModel.get()
            reads_head = model is None or judge == "lexical+model"
            if encoder is None and reads_head and self.policy.support_embeddings == "auto":
                encoder = Encoder.get()
            if self.asker is not None:
                model = None
            method = (
                PROVIDER
                if self.asker is not None
                else MODEL
                if model is not None and judge != "lexical+model"
                else EMBEDDING
                if encoder is not None
                else LEXICAL
            )
            self._resolved = (encoder, model, method)
        return self._resolved

    @property
    def encoder(self) -> TextEncoder | None:
        """The MiniLM encoder the lexical head reads cosines from, or None."""
        return self._resolve()[0]

    @property
    def model(self) -> NliModel | None:
        """The entailment model that judges meaning, or None (the head or provider does)."""
        return self._resolve()[1]

    @property
    def method(self) -> str:
        """What judges the claims: the head's name, `MODEL` or `PROVIDER`."""
        return self._resolve()[2]

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
        judged = _judged(claim, (*quoted, *naming(claim_text, source.id)))
        to_judge = [t for t, j in zip(claim, judged, strict=True) if j and is_content(t)]
        if quoted and _only_frames(to_judge):
            return None  # before the source is prepared: nothing here needs it
        prepared = self.prepared(source)
        # Located with the whole claim: a verified quote anchors the passage it came from.
        chosen, share = locate(claim, prepared, paragraph)
        chosen = _with_numbers(claim, judged, chosen, prepared)
        chosen = _with_antecedent(chosen, prepared)
        chosen = _with_lead_in(chosen, prepared)
        chosen = _with_carve_out(chosen, prepared)
        lead = _lead(chosen[0], claim, source.text) if chosen else ()
        chosen = _with_plain_statement(claim, judged, chosen, prepared, lead)
        ordered = sorted(chosen, key=lambda s: s.span)
        passage_tokens: list[Token] = [t for s in ordered for t in s.tokens]
        weights = claim_weights(claim, prepared)
        # The claim's own words, without its verified quotes: each quote speaks for itself,
        # and the words around it must say what the passage says on their own ("are
        # accepted (“... are not accepted ...”)" keeps no denial from its quote).
        own = [t for t, j in zip(claim, judged, strict=True) if j]
        check = check_facts(
            claim_text,
            _as_defined(own, passage_tokens, source.text),
            passage_tokens,
            weights,
            [True] * len(own),
            prepared.keys,
            lead=lead,
            sentence=chosen[0].tokens if chosen else (),
        )
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
        (support,) = self.judge_many([Request(claim_text, source, paragraph, tuple(quoted))])
        return support

    def judge_many(self, requests: Sequence[Request]) -> list[ClaimSupport]:
        """`judge` for each request, in order, with one batch of model calls for them all;
        with ``support_judge="strict"`` each verdict is then held to the promise
        (`kept_promise`)."""
        found = [
            self.examine(r.claim, r.source, paragraph=r.paragraph, quoted=r.quoted)
            for r in _checked(requests)
        ]
        judged = self._judged(requests, found)
        if self.policy.support_judge != STRICT:
            return judged
        kept = [
            kept_promise(r, f, s, NliModel.get)
            for r, f, s in _checked(zip(requests, found, judged, strict=True))
        ]
        if self.escalation is None:
            return kept
        return escalated(self.escalation, requests, found, kept)

    def _judged(
        self, requests: Sequence[Request], found: Sequence[Examined | None]
    ) -> list[ClaimSupport]:
        if all(f is None for f in found):  # every claim settled by its quotes
            return [_by_quotes(r.source) for r in requests]
        if self.model is None and self.asker is None:
            return [self._by_head(r, f) for r, f in zip(requests, found, strict=True)]
        if self.method != MODEL and self.asker is None:
            return self._overruled(requests, found)
        parts = [
            self._parts(r) if f is not None else () for r, f in zip(requests, found, strict=True)
        ]
        pairs = [pair for ps in parts for pair in _pairs(ps)]
        notes: dict[tuple[str, str], str] = {}
        if self.asker is not None:
            verdicts = self.asker.judge(pairs)
            notes = {pair: v.reason for pair, v in zip(pairs, verdicts, strict=True)}
            scores = iter([v.entailment for v in verdicts])
        else:
            assert self.model is not None
            scores = iter(self.model.score(pairs))
        out = []
        for request, examined, claim_parts_ in zip(requests, found, parts, strict=True):
            if examined is None:
                out.append(_by_quotes(request.source))
                continue
            out.append(self._by_model(request, examined, _reads(claim_parts_, scores), notes))
        return out

    def _overruled(
        self, requests: Sequence[Request], found: Sequence[Examined | None]
    ) -> list[ClaimSupport]:
        """``support_judge="lexical+model"``: the head's verdicts, but a claim the head
        supports is read by the model too, and the model's verdict stands where it is
        ``contradicted`` (method `MODEL`)."""
        assert self.model is not None
        head = [self._by_head(r, f) for r, f in zip(requests, found, strict=True)]
        asked = [
            i
            for i, (support, examined) in enumerate(zip(head, found, strict=True))
            if examined is not None
            and support.verdict == "supported"
            and support.method == self.method  # not settled by its verified quotes
        ]
        parts = {i: self._parts(requests[i]) for i in asked}
        scores = iter(self.model.score([pair for i in asked for pair in _pairs(parts[i])]))
        out = list(head)
        for i in asked:
            examined = found[i]
            assert examined is not None
            by_model = self._by_model(requests[i], examined, _reads(parts[i], scores), {})
            if by_model.verdict == "contradicted":
                out[i] = dataclasses.replace(by_model, method=MODEL)
        return out

    def _parts(self, request: Request) -> tuple[_Part, ...]:
        prepared = self.prepared(request.source)
        out = []
        for start, end in claim_parts(request.claim):
            text = request.claim[start:end]
            tokens = tokenize(text)
            shifted = [(s - start, e - start) for s, e in request.quoted]
            judged = _judged(tokens, shifted)
            rest = [t for t, j in zip(tokens, judged, strict=True) if j and is_content(t)]
            if request.quoted and _only_frames(rest):
                out.append(_Part((start, end), text, ()))  # its quotes settle it
                continue
            chosen, _ = locate(tokens, prepared, request.paragraph)
            windows = _windows(prepared, chosen)
            read = _in_source_figures(text, tokens, judged, windows)
            # The provider reads one window per part: its prompt stays short.
            out.append(_Part((start, end), text, windows[:1] if self.asker else windows, read))
        return tuple(out)

    def _by_head(self, request: Request, found: Examined | None) -> ClaimSupport:
        if found is None:
            return _by_quotes(request.source)
        head: Head = load_heads()[self.method]
        score = head.score(found.values)
        policy = self.policy
        verdict = decide(found.check, score, policy, load_rules())
        if verdict == "supported" and _names_never_given(found, request.source):
            verdict = "partial"  # "The vendor Dell confirmed": the source never names Dell
        method = self.method
        if (
            request.quoted
            and verdict != "contradicted"
            and _framing(found.check, len(request.quoted))
        ):
            verdict, method = "supported", f"quote+{self.method}"
        return ClaimSupport(
            source=request.source.id,
            verdict=verdict,
            score=score,
            # A passage sharing no word with the claim is no passage: none is shown.
            passage=_passage(request.source, found.chosen) if found.share > 0 else None,
            differences=found.check.differences,
            method=method,
            reason=_fact_reason(verdict, found, request.source),
            rule=_fact_rule(verdict, found),
        )

    def _by_model(
        self,
        request: Request,
        found: Examined,
        reads: Sequence[_Read],
        notes: dict[tuple[str, str], str],
    ) -> ClaimSupport:
        check, source = found.check, request.source
        judged = [r for r in reads if r.part.windows]
        score = round(min((r.entails for r in judged), default=1.0), 4)
        entailed = [r for r in judged if r.entails >= MODEL_SUPPORT]
        against = [r for r in judged if r.contradicts >= CONTRADICTS and r.entails < MODEL_SUPPORT]
        method = self.method if len(judged) == len(reads) else f"{QUOTE}+{self.method}"
        facts_conflict = bool(check.conflicts) and check.anchor >= ANCHOR
        # A name the source never gives rules "supported" out; an acronym ("LTV") may stand
        # for words the source spells out, and is left to the model.
        whole = check.number_recall == 1.0 and not check.conflicts and not _unbacked_names(found)
        shown: _Window | None
        if facts_conflict:
            verdict: SupportVerdict = "contradicted"
            shown = None
            reason = _fact_reason(verdict, found, source)
        elif against:
            verdict = "contradicted"
            worst = max(against, key=lambda r: r.contradicts)
            shown = worst.contradicting
            assert shown is not None
            said = _clip(source.text[slice(*shown.best.span)])
            reason = f"the passage says otherwise: “{said}”"
        elif len(entailed) == len(judged) and whole:
            verdict, shown = "supported", _first(entailed)
            reason = (
                "its quotes are the source's words and the passage says the rest"
                if len(judged) < len(reads)
                else "the passage says this"
                if len(reads) == 1
                else "the passage says each part of this"
            )
        elif entailed and len(entailed) < len(judged):
            verdict, shown = "partial", _first(entailed)
            missing = [r.part.text for r in judged if r not in entailed]
            backed = _clip(entailed[0].part.text)
            reason = f"the passage backs “{backed}” but not “{_clip(missing[0])}”"
        elif len(entailed) == len(judged) and not whole:
            verdict, shown = "partial", _first(entailed)
            reason = _unbacked_reason(found, source) or "the passage backs only part of this"
        elif score >= MODEL_PARTIAL:
            verdict, shown = "partial", _best_shown(judged)
            reason = _unbacked_reason(found, source) or "the passage backs only part of this"
        else:
            verdict, shown = "unsupported", _best_shown(judged)
            reason = (
                "the cited source has nothing on this"
                if found.share == 0
                else _unbacked_reason(found, source) or "the passage does not say this"
            )
        if notes and shown is not None and verdict != "supported":
            noted = [
                notes.get((shown.text, reading))
                for r in reads
                if shown in r.part.windows
                for reading in r.part.readings
            ]
            reason = next((n for n in noted if n), reason)
        passage = (
            _passage(source, (shown.best, *shown.sentences))
            if shown is not None
            else _passage(source, found.chosen)
            if found.share > 0
            else None
        )
        return ClaimSupport(
            source=source.id,
            verdict=verdict,
            score=score,
            passage=passage,
            differences=check.differences,
            method=method,
            reason=reason,
            rule=_fact_rule(verdict, found) if facts_conflict else "",
        )


_T = TypeVar("_T")


def _as_defined(claim: list[Token], passage: Sequence[Token], text: str) -> list[Token]:
    """``claim`` with each capitalised word of a party's name keyed as the passage's word for
    the term the source defines the party as (`defined_terms`): "Harrowgate's" as the
    passage's "Licensee's", so the fact layer reads one party, not a name said instead of
    another; in a mail thread, a name the passage lacks as the "we" or "you" that stands for
    it in its message ("Tillpoint" for the "we" of a message from tillpoint.example). A
    defined term the claim uses stays as it is. Where a name's word is in two definitions
    ("Carrow House", the Building and the Client's name), the term a clause of the passage
    uses comes before one the passage only defines."""
    named = [i for i, t in enumerate(claim) if t.text[:1].isupper() and t.kind in ("word", "name")]
    if not named or not passage:
        return claim
    defined = defined_terms(text)
    thread = speakers(text)
    keys = {t.key for t in passage}
    capitals = [p for p in passage if p.text[:1].isupper() or p.text.casefold() in WRITER | READER]
    used_first = sorted(capitals, key=lambda p: defined.defines(p.span[0]))
    out = list(claim)
    for i in named:
        token = claim[i]
        word = token.text.casefold().removesuffix("'s").removesuffix("’s")
        terms = defined.term_of(word)
        same = next(
            (
                p
                for p in used_first
                if p.text.casefold().removesuffix("'s").removesuffix("’s") in terms
            ),
            None,
        )
        if same is None and thread.messages and token.key not in keys:
            same = next(
                (
                    p
                    for p in passage
                    if p.text.casefold() in WRITER | READER
                    and thread.names(p.text, p.span[0], word)
                ),
                None,
            )
        family = defined.named(word)
        if same is not None:
            out[i] = token._replace(key=same.key)
        elif family != word:  # "the Ashworths": the name the source gives
            out[i] = token._replace(key=tokenize(family)[0].key)
    return out


def _checked(items: Iterable[_T]) -> Iterator[_T]:
    """``items``, with a `checkpoint` before each: the caller may stop or pause the work
    between claims."""
    for item in items:
        checkpoint()
        yield item


def _lead(sentence: Sentence, claim: Sequence[Token], text: str) -> tuple[Token, ...]:
    """The tokens of the best sentence's clause (cut at semicolons) holding the most of the
    claim's figures, then of its words: read alone, it shows which party or word stands in the
    claim's place ("The landlord is responsible for repairs to the roof; the tenant for
    decoration" against "The tenant must repair the roof"), and what was decided of the
    claim's figure ("... hold the per-seat price at $42; they rejected the $45" against
    "accepted the $45 per-seat price")."""
    keys = {t.key for t in claim if is_content(t)}
    figures = {t.key for t in claim if t.kind in ("number", "date")}
    start, end = sentence.span
    cuts = [start, *(m.end() for m in _CLAUSE.finditer(text, start, end)), end]
    clauses = [
        tuple(t for t in sentence.tokens if a <= t.span[0] < b) for a, b in itertools.pairwise(cuts)
    ]
    return max(
        clauses,
        key=lambda c: (len(figures & {t.key for t in c}), len(keys & {t.key for t in c})),
    )


def _unbacked_names(found: Examined) -> list[str]:
    """The claim's names the passage does not back and gives no other name for, but
    acronyms ("LTV" may stand for words the source spells out)."""
    return [
        d.text
        for d in found.check.differences
        if d.kind == "name" and d.instead is None and d.text and not _acronym(d.text)
    ]


def _names_never_given(found: Examined, source: Source) -> bool:
    """Whether the claim gives a name (not an acronym) the whole source never writes."""
    return any(not _written_in(name, source) for name in _unbacked_names(found))


def _written_in(text: str, source: Source) -> bool:
    return re.search(rf"(?<!\w){re.escape(text)}(?!\w)", source.text, re.IGNORECASE) is not None


def _judged(claim: Sequence[Token], quoted: Sequence[Span]) -> list[bool]:
    """For each token: False when it lies inside a verified quote (backed already)."""
    return [not any(s <= t.span[0] and t.span[1] <= e for s, e in quoted) for t in claim]


def _by_quotes(source: Source) -> ClaimSupport:
    return ClaimSupport(
        source.id, "supported", 1.0, None, (), QUOTE, "its quotes are the source's own words"
    )


def _windows(prepared: PreparedSource, chosen: Sequence[Sentence]) -> tuple[_Window, ...]:
    """Up to `WINDOWS` passages to read a part against: each located sentence widened with
    its paragraph's neighbours to about `WINDOW_WORDS` words, and the located sentences
    together when there are several."""
    if not chosen:
        return ()
    index = {s.span: i for i, s in enumerate(prepared.sentences)}
    text = prepared.source.text
    out: list[_Window] = []
    seen: set[tuple[tuple[int, int], ...]] = set()
    for sentence in chosen[:WINDOWS]:
        at = index[sentence.span]
        lo = hi = at
        words = len(text[slice(*sentence.span)].split())
        grown = True
        while grown:
            grown = False
            for j in (hi + 1, lo - 1):
                if not 0 <= j < len(prepared.sentences):
                    continue
                other = prepared.sentences[j]
                size = len(text[slice(*other.span)].split())
                if other.paragraph == sentence.paragraph and words + size <= WINDOW_WORDS:
                    words += size
                    lo, hi = min(lo, j), max(hi, j)
                    grown = True
        run = prepared.sentences[lo : hi + 1]
        key = tuple(s.span for s in run)
        if key not in seen:
            seen.add(key)
            out.append(_Window(_join(text, run), tuple(run), sentence))
    if len(chosen) > 1 and len(out) < WINDOWS + 1:
        together = tuple(sorted(chosen, key=lambda s: s.span))
        key = tuple(s.span for s in together)
        if key not in seen:
            out.append(_Window(_join(text, together), together, chosen[0]))
    return tuple(out)


def _pairs(parts: Sequence[_Part]) -> list[tuple[str, str]]:
    """The (window, reading) pairs the model scores for ``parts``, in `_reads`' order."""
    return [(w.text, reading) for p in parts for w in p.windows for reading in p.readings]


def _reads(parts: Sequence[_Part], scores: Iterator[Entailment]) -> list[_Read]:
    """What the model said of each part, from the next of ``scores`` (`_pairs`' order): per
    window, the better of its readings."""
    return [
        _read(p, [max((next(scores) for _ in p.readings), key=_entails) for _ in p.windows])
        for p in parts
    ]


def _entails(score: Entailment) -> float:
    return score.entails


def _in_source_figures(
    text: str, tokens: Sequence[Token], judged: Sequence[bool], windows: Sequence[_Window]
) -> str:
    """``text`` with each figure the windows state in other words written as they write it
    ("24 months" as "two years", "3" as "three"): the fact layer has settled that they are
    the same value, and the model, which reads words, need not. ``""`` when none is."""
    written: dict[str, str] = {}
    for window in windows:
        for sentence in window.sentences:
            for token in sentence.tokens:
                if token.kind in ("number", "date"):
                    written.setdefault(token.key, " ".join(token.text.split()))
    out = text
    for token, ours in sorted(zip(tokens, judged, strict=True), key=lambda t: -t[0].span[0]):
        theirs = written.get(token.key) if ours and token.kind in ("number", "date") else None
        if theirs is not None and theirs.casefold() != token.text.casefold():
            out = out[: token.span[0]] + theirs + out[token.span[1] :]
    return out if out != text else ""


def _join(text: str, run: Sequence[Sentence]) -> str:
    return " ".join(" ".join(text[slice(*s.span)].split()) for s in run)


def _read(part: _Part, scores: Sequence[Entailment]) -> _Read:
    if not part.windows:
        return _Read(part, 1.0, None, 0.0, None)
    pairs = list(zip(part.windows, scores, strict=True))
    best_window, best = max(pairs, key=lambda p: p[1].entails)
    against = [(w, e) for w, e in pairs if e.contradicts > e.entails]
    worst_window, worst = max(against, key=lambda p: p[1].contradicts, default=(None, None))
    return _Read(
        part,
        best.entails,
        best_window,
        worst.contradicts if worst is not None else 0.0,
        worst_window,
    )


def _first(reads: Sequence[_Read]) -> _Window | None:
    return next((r.entailing for r in reads if r.entailing is not None), None)


def _best_shown(reads: Sequence[_Read]) -> _Window | None:
    ranked = sorted((r for r in reads if r.entailing is not None), key=lambda r: -r.entails)
    return ranked[0].entailing if ranked else None


def _clip(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rsplit(" ", 1)[0] + "…"


def _fact_rule(verdict: SupportVerdict, found: Examined) -> str:
    """The fact layer's rule (`FACT_RULES`) that decided a `contradicted` verdict; ""
    otherwise (the scores decided)."""
    if verdict != "contradicted":
        return ""
    deciding = found.check.deciding(contradicted=True)
    return deciding[1] if deciding is not None else ""


def _fact_reason(verdict: SupportVerdict, found: Examined, source: Source) -> str:
    """Why, in the fact layer's words: the first conflict, or what is not backed."""
    deciding = found.check.deciding(contradicted=verdict == "contradicted")
    if deciding is not None:
        d = deciding[0]
        if d.instead is not None and d.text:
            return f"the passage says “{d.instead}”, not “{d.text}”"
        if d.instead:
            return f"the passage says “{d.instead}”, which the claim leaves out"
        return f"the claim says “{d.text}”; the passage does not"
    if verdict == "supported":
        return "the passage says this"
    if found.share == 0:
        return "the cited source has nothing on this"
    return _unbacked_reason(found, source) or (
        "the passage backs only part of this"
        if verdict == "partial"
        else "the passage does not say this"
    )


def _unbacked_reason(found: Examined, source: Source) -> str | None:
    """The first number or date of the claim the passage does not give, else the first name
    (not an acronym such as "LTV", which may stand for words the source spells out); "the
    source" when the whole source never writes it, "the passage" when another part does."""
    figures = [
        d.text
        for d in found.check.differences
        if d.kind in ("number", "date") and d.instead is None and d.text
    ]
    candidates = figures or _unbacked_names(found)
    if not candidates:
        return None
    text = candidates[0]
    where = "passage" if _written_in(text, source) else "source"
    return f"the {where} does not give “{text}”"


def _acronym(text: str) -> bool:
    return text.isupper() and len(text) <= 5


def decide(check: FactCheck, score: float, policy: Policy, rules: Rules) -> SupportVerdict:
    """The lexical head's verdict from the fact layer, its score and the shipped rules (see
    the module)."""
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


def _adding(chosen: tuple[Sentence, ...], added: Sequence[Sentence]) -> tuple[Sentence, ...]:
    """``chosen`` with ``added``: its best sentence first, the others once each in the
    source's order."""
    return (chosen[0], *sorted({*chosen[1:], *added} - {chosen[0]}, key=lambda s: s.span))


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
    return _adding(chosen, added)  # the best sentence stays first: it is the one shown


def _position(prepared: PreparedSource, sentence: Sentence) -> int:
    """Where ``sentence`` stands among the source's sentences (in the order of their spans)."""
    return bisect.bisect_left(prepared.sentences, sentence.span, key=lambda s: s.span)


def _with_antecedent(
    chosen: tuple[Sentence, ...], prepared: PreparedSource
) -> tuple[Sentence, ...]:
    """``chosen`` and, for each of its sentences that opens with a pronoun ("They cannot be
    paid as cash."), the sentence before it in its paragraph, which names who "they" are."""
    added = []
    for sentence in chosen:
        if not sentence.tokens or sentence.tokens[0].text.casefold() not in THIRD_PERSON:
            continue
        at = _position(prepared, sentence)
        before = prepared.sentences[at - 1] if at else None
        if before is not None and before.paragraph == sentence.paragraph and before not in chosen:
            added.append(before)
    if not added:
        return chosen
    return _adding(chosen, added)


def _with_lead_in(chosen: tuple[Sentence, ...], prepared: PreparedSource) -> tuple[Sentence, ...]:
    """``chosen`` and, where its best sentence is an item of a list ("(e) tools used in a
    hire or rental fleet."), the sentence ending in a colon that introduces the list ("The
    warranty does not cover:"): the item says nothing without it."""
    text = prepared.source.text
    if not chosen or not LIST_ITEM.match(text, chosen[0].span[0]):
        return chosen
    at = _position(prepared, chosen[0])
    for back in range(at - 1, max(-1, at - 1 - LIST_REACH), -1):
        sentence = prepared.sentences[back]
        if text[slice(*sentence.span)].rstrip().endswith(":"):
            if sentence in chosen:
                return chosen
            return _adding(chosen, [sentence])
        if not LIST_ITEM.match(text, sentence.span[0]):
            break
    return chosen


def _with_carve_out(chosen: tuple[Sentence, ...], prepared: PreparedSource) -> tuple[Sentence, ...]:
    """``chosen`` and, right after its best sentence in its paragraph, a sentence that carves
    an exception out of it (`CARVE_OUT`): a reader shown the statement must be shown that."""
    if not chosen:
        return chosen
    at = _position(prepared, chosen[0]) + 1
    after = prepared.sentences[at] if at < len(prepared.sentences) else None
    if after is None or after in chosen or after.paragraph != chosen[0].paragraph:
        return chosen
    if not CARVE_OUT.match(prepared.source.text, after.span[0]):
        return chosen
    return _adding(chosen, [after])


def _with_plain_statement(
    claim: Sequence[Token],
    judged: Sequence[bool],
    chosen: tuple[Sentence, ...],
    prepared: PreparedSource,
    lead: Sequence[Token],
) -> tuple[Sentence, ...]:
    """``chosen`` and, where the claim's one negation could be kept by a denial in the best
    sentence (`lead_denials`: "Branch managers cannot approve exceptions" against "..., not by
    branch managers"), the first other sentence of the source that states the denied words
    plainly ("Since March, branch managers approve exceptions for existing customers"): the
    source says both, so the denial alone does not back the claim, and the reader is shown
    where it says the other."""
    if (
        not chosen
        or sum(1 for t, j in zip(claim, judged, strict=True) if j and t.kind == "negation") != 1
    ):
        return chosen
    words = frozenset(t.text.casefold() for t in claim)
    held = set(chosen)
    for covered, _ in lead_denials(claim, lead, judged, words):
        rows = [set(prepared.postings.get(key, ())) for key in covered]
        for position in sorted(set.intersection(*rows)):
            sentence = prepared.sentences[position]
            if sentence not in held and states_plainly(sentence.tokens, covered, words):
                return _adding(chosen, [sentence])
    return chosen


def _only_frames(rest: Sequence[Token]) -> bool:
    """What verified quotes leave of a claim only attributes them ("The policy says"): at
    most `FRAMING_WORDS` plain words, no number, date, name, negation or comparative."""
    return len(rest) <= FRAMING_WORDS and all(t.kind == "word" for t in rest)


def _framing(check: FactCheck, quotes: int) -> bool:
    """What a verified quote leaves of its claim only frames it ("the policy says that"):
    no number, date, name, negation or comparative unbacked, and at most `FRAMING_WORDS`
    content words for each of its ``quotes`` verified quotes (each quote has its own "X
    says that"), whether the passage holds them or not: words that say more ("With the
    Managing Director's approval, Travellers may go to a country on the "advise against
    all travel" list") are a statement of their own, for the rules to read."""
    return (
        not check.conflicts
        and check.content <= FRAMING_WORDS * max(quotes, 1)
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
