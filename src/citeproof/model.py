"""The plain values that flow through citeproof. No I/O here.

Every offset is a Python ``str`` index into the exact text it refers to (the answer as given,
or a source's ``text``), as a half-open ``(start, end)`` pair. Paragraph numbers are 1-based.
Field names match the JSON contract (``schema/verified-answer.schema.json``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from citeproof.errors import InputError, PolicyError, SourceError

Span = tuple[int, int]
SourceKind = Literal["document", "attachment", "email_body"]
QuoteStyle = Literal["block", "inline"]
Status = Literal["verified", "corrected", "mismatch", "not_found", "ineligible"]
CorrectionKind = Literal["text", "location", "source"]
MatchMethod = Literal["exact", "fuzzy"]
DifferenceKind = Literal[
    "whitespace",
    "punctuation",
    "case",
    "spelling",
    "word",
    "number",
    "name",
    "negation",
    "date",
    "modal",
    "direction",
    "stance",
    "quantifier",
    "connective",
]
CitationStatus = Literal["ok", "corrected", "ineligible", "removed", "flagged", "meaning_changed"]
SupportVerdict = Literal["supported", "partial", "unconfirmed", "unsupported", "contradicted"]
ClaimVerdict = Literal[
    "supported", "partial", "unconfirmed", "unsupported", "contradicted", "uncited", "none"
]
ClaimDifferenceKind = Literal["number", "date", "name", "negation", "comparative", "word"]

SOURCE_KINDS: tuple[str, ...] = get_args(SourceKind)
STATUSES: tuple[str, ...] = get_args(Status)
SUPPORT_VERDICTS: tuple[str, ...] = get_args(SupportVerdict)
CLAIM_VERDICTS: tuple[str, ...] = get_args(ClaimVerdict)

_BLANK_LINES = re.compile(r"\n[ \t\r\f\v]*\n\s*")


def expect_instance(
    value: object, kind: type, field: str, error: type[InputError] = InputError
) -> None:
    """Raise ``error`` naming ``field`` unless ``value`` is a ``kind``: what a public function
    does with an argument of the wrong type, instead of an AttributeError deep inside."""
    if not isinstance(value, kind):
        raise error(
            f"expected a citeproof.{kind.__name__}, got {type(value).__name__}", field=field
        )


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def blank_line_paragraphs(text: str) -> tuple[Span, ...]:
    """Blank-line-separated blocks of ``text``, each trimmed of surrounding whitespace.

    The spans of the texts read last are remembered (one answer's quotes, evidence and
    validation each ask for every source's paragraphs); a text over `_REMEMBERED_CHARS` is
    not kept alive for that."""
    if len(text) > _REMEMBERED_CHARS:
        return _blank_line_paragraphs(text)
    return _remembered_paragraphs(text)


_REMEMBERED_CHARS = 200_000


def _blank_line_paragraphs(text: str) -> tuple[Span, ...]:
    spans: list[Span] = []
    start = 0
    for gap in _BLANK_LINES.finditer(text):
        spans.append((start, gap.start()))
        start = gap.end()
    spans.append((start, len(text)))
    trimmed: list[Span] = []
    for s, e in spans:
        lead = trail = 0
        # Most blocks start and end on a visible character: only the others are copied.
        if s < e and (text[s].isspace() or text[e - 1].isspace()):
            block = text[s:e]
            lead = len(block) - len(block.lstrip())
            trail = len(block) - len(block.rstrip())
        if e - trail > s + lead:
            trimmed.append((s + lead, e - trail))
    return tuple(trimmed) or ((0, len(text)),)


_remembered_paragraphs = functools.lru_cache(maxsize=32)(_blank_line_paragraphs)
"""At most 32 texts of at most `_REMEMBERED_CHARS` each are kept alive: 6.4M characters."""


@dataclass(frozen=True, slots=True)
class Source:
    """A text the model was given: a document, an attachment or an email body.

    ``paragraphs`` are ``(start, end)`` spans into ``text``; when omitted, paragraphs are the
    blank-line-separated blocks of ``text``. ``retrieved_at`` is an ISO 8601 UTC time.
    ``locations`` names each paragraph in the document's own terms, as read at ingest (``§4
    Verification of income``, ``page 3``, the heading it is under; None where the document
    gives none): what a reader is shown instead of the paragraph's count.
    """

    id: str
    kind: SourceKind
    text: str
    title: str | None = None
    doc_id: str | None = None
    version: str | None = None
    url: str | None = None
    paragraphs: tuple[Span, ...] | None = None
    retrieved_at: str | None = None
    locations: tuple[str | None, ...] | None = None

    def __post_init__(self) -> None:
        where = f"source {self.id!r}"
        if not isinstance(self.id, str) or not self.id.strip():
            raise SourceError("a source needs a non-empty id", field="id")
        if self.kind not in SOURCE_KINDS:
            raise SourceError(
                f"unknown kind {self.kind!r}; expected one of {', '.join(SOURCE_KINDS)}",
                where=where,
                field="kind",
            )
        if not isinstance(self.text, str):
            raise SourceError("text must be a string", where=where, field="text")
        for name in ("id", "text", "title", "doc_id", "version", "url", "retrieved_at"):
            value = getattr(self, name)
            at = lone_surrogate_at(value) if isinstance(value, str) else None
            if at is not None:
                raise SourceError(not_unicode(at), where=where, field=name)
        if self.paragraphs is not None:
            spans = _paragraph_spans(self.paragraphs, where)
            previous_end = 0
            for number, (s, e) in enumerate(spans, start=1):
                if not 0 <= s <= e <= len(self.text) or s < previous_end:
                    raise SourceError(
                        f"paragraph {number} span [{s}, {e}] is out of order or outside the "
                        f"text (length {len(self.text)})",
                        where=where,
                        field="paragraphs",
                    )
                previous_end = e
            object.__setattr__(self, "paragraphs", spans)
        if self.locations is not None:
            object.__setattr__(self, "locations", _locations(self.locations, where))

    @property
    def is_email(self) -> bool:
        return self.kind == "email_body"

    def paragraph_spans(self) -> tuple[Span, ...]:
        """The given paragraphs, or the blank-line-separated blocks of the text."""
        if self.paragraphs:
            return self.paragraphs
        return blank_line_paragraphs(self.text)

    def location(self, paragraph: int | None) -> str | None:
        """Paragraph ``paragraph`` (1-based) in the document's own terms, or None."""
        if paragraph is None or not self.locations or not 1 <= paragraph <= len(self.locations):
            return None
        return self.locations[paragraph - 1]


def _locations(locations: Iterable[Any], where: str) -> tuple[str | None, ...]:
    try:
        items = tuple(locations)
    except TypeError:
        raise SourceError(
            f"must be a sequence of texts, got {type(locations).__name__}",
            where=where,
            field="locations",
        ) from None
    for number, item in enumerate(items, start=1):
        if item is not None and not isinstance(item, str):
            raise SourceError(
                f"paragraph {number}'s location must be text or null, got {item!r}",
                where=where,
                field="locations",
            )
    return items


def lone_surrogate_at(text: str) -> int | None:
    """Where ``text`` holds a lone surrogate (a byte that was not UTF-8, kept by decoding with
    ``surrogateescape``), or None: such text cannot be written as UTF-8 or JSON, so the
    evidence, the JSON contract and the audit log could not carry it."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error.start
    return None


def not_unicode(at: int) -> str:
    """The message for a text whose character ``at`` is a lone surrogate."""
    return (
        f"holds a byte that is not UTF-8 at character {at} (text decoded with "
        "surrogateescape); decode it with errors='replace', or save the file as UTF-8"
    )


SOURCE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Source))
"""The names of a `Source`'s fields, for records that carry them under the same names."""


def _paragraph_spans(paragraphs: Iterable[Any], where: str) -> tuple[Span, ...]:
    """``paragraphs`` as ``(start, end)`` integer pairs, or a `SourceError` naming the first
    one that is not a pair of integers."""
    try:
        items = tuple(paragraphs)
    except TypeError:
        raise SourceError(
            f"must be a sequence of (start, end) pairs, got {type(paragraphs).__name__}",
            where=where,
            field="paragraphs",
        ) from None
    spans: list[Span] = []
    for number, item in enumerate(items, start=1):
        try:
            start, end = item
            if isinstance(start, bool) or isinstance(end, bool):
                raise TypeError
            spans.append((int(start), int(end)))
        except (TypeError, ValueError):
            raise SourceError(
                f"paragraph {number} must be a (start, end) pair of integers, got {item!r}",
                where=where,
                field="paragraphs",
            ) from None
    return tuple(spans)


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved window of paragraphs of one source version (the retriever).

    ``paragraphs`` is the 1-based, inclusive ``(first, last)`` paragraph range; ``span`` its
    character span in the source text; ``confidence`` a deterministic score in [0, 1].
    """

    source_id: str
    doc_id: str | None
    version: str | None
    paragraphs: tuple[int, int]
    span: Span
    text: str
    confidence: float


_PREFIXED_NUMBER = re.compile(r"(?i)^(?:s|src|source|doc|document)[\s_-]*(\d+)$")


def label_number(label: str) -> str | None:
    """The number a citation label names a source by (``"1"`` for ``1``, ``S1`` or
    ``Source 1``), or None for a label that is not a number."""
    folded = label.strip().casefold()
    numbered = _PREFIXED_NUMBER.match(folded)
    if numbered:
        return numbered.group(1)
    return folded if folded.isdigit() else None


def is_numbered(label: str) -> bool:
    """``1``, ``S1``, ``Source 1``: a label that names a source by number."""
    return label_number(label) is not None


@dataclass(frozen=True, slots=True)
class Citation:
    """A reference to a source, as written in the answer.

    ``label`` is the source named by the marker (``"S2"`` for ``[S2, ¶4]``, ``"1"`` for ``[1]``);
    ``marker_span`` locates the whole marker (``[S2, ¶4]``) in the answer.
    """

    label: str
    paragraph: int | None
    marker: str
    marker_span: Span


@dataclass(frozen=True, slots=True)
class Quote:
    """One occurrence of quoted text in an answer, as parsed.

    For an inline quote, ``span`` covers the text between the quotation marks. For a block
    quote it covers the block from its first ``>`` to the end of its last line, and ``text``
    is the block's lines with the ``>`` prefixes removed.
    """

    id: str
    text: str
    style: QuoteStyle
    span: Span
    citations: tuple[Citation, ...]
    claim_id: str


@dataclass(frozen=True, slots=True)
class Claim:
    """A sentence or bullet of the answer, with the citations and quotes it carries."""

    id: str
    text: str
    span: Span
    citations: tuple[Citation, ...]
    quote_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ParsedAnswer:
    text: str
    claims: tuple[Claim, ...]
    quotes: tuple[Quote, ...]
    citations: tuple[Citation, ...]


@dataclass(frozen=True, slots=True)
class Match:
    """Where a quote was found in one source."""

    source_id: str
    paragraph: int
    span: Span
    text: str
    score: float
    method: MatchMethod
    segments: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class Correction:
    """One change citeproof made, kept for audit (003.9, 011.3)."""

    kind: CorrectionKind
    before: str
    after: str
    reason: str
    score: float
    method: str
    time: str


@dataclass(frozen=True, slots=True)
class Difference:
    """One way a quote's words differ from the source's words (F.1).

    ``before`` is the quote as written in the answer, ``after`` the source's words ("" for a
    word the quote added or dropped). ``changes_meaning`` is decided by the verifier when it
    compares the texts: true for a ``number``, ``name``, ``negation`` or ``date`` difference,
    a meaning-bearing small word, or a changed content ``word`` (see
    `citeproof.verifier._differences`).
    """

    kind: DifferenceKind
    before: str
    after: str
    changes_meaning: bool

    @property
    def description(self) -> str:
        """The difference in words, source first: ``the source says “1916”, not “1917”``."""
        if self.before and self.after:
            return f"the source says “{self.after}”, not “{self.before}”"
        if self.before:
            return f"the quote adds “{self.before}”, which the source does not have"
        return f"the quote leaves out “{self.after}”"


@dataclass(frozen=True, slots=True)
class Excerpt:
    """The stored passage a "show source" action expands: the match with context around it.

    ``highlight`` is the span of the matched text inside ``text``.
    """

    source_id: str
    title: str | None
    paragraph: int
    text: str
    highlight: Span
    url: str | None = None


@dataclass(frozen=True, slots=True)
class CitedSource:
    """A citation after verification: the source and paragraph it names once corrected.

    ``answer_span`` locates the marker in the corrected answer, ``written_span`` in the answer
    as given; ``quote_ids`` are the quotes that carry this marker (empty: it cites a claim
    with no quote of its own, so only the cited paragraph can back it).
    """

    source: str
    paragraph: int | None
    marker: str
    answer_span: Span
    status: CitationStatus
    written_span: Span
    quote_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VerifiedQuote:
    """The verdict on one quote occurrence (003.4): what was written, where it really is.

    ``differences`` names every way the quote as written differs from the source's words at
    ``source_span`` (empty when it was not found); ``meaning_changed`` is true when one of
    them changes the meaning (a number, name, negation, date or content word, F.1).
    """

    id: str
    text: str
    style: QuoteStyle
    answer_span: Span
    cited_source: str | None
    cited_paragraph: int | None
    status: Status
    source: str | None
    paragraph: int | None
    source_span: Span | None
    score: float
    method: str | None
    corrected_text: str
    corrected_span: Span
    corrections: tuple[Correction, ...]
    excerpt: Excerpt | None
    note: str
    claim_id: str
    differences: tuple[Difference, ...] = ()
    meaning_changed: bool = False


@dataclass(frozen=True, slots=True)
class SupportPassage:
    """Where a claim's support was found: ``span`` into the source's ``text``, ``paragraph``
    1-based. ``text`` is the passage itself (the sentences the judge read)."""

    source_id: str
    paragraph: int
    span: Span
    text: str


@dataclass(frozen=True, slots=True)
class ClaimDifference:
    """A token of the claim its passage does not back.

    ``span`` locates ``text`` in the claim's text (``VerifiedClaim.text``); ``instead`` is what
    the passage says in its place when it says something else (another number, name, date,
    the opposite comparative), ``None`` when the passage is merely silent. For a negation the
    passage states and the claim drops, ``text`` is empty and ``instead`` holds the negation.
    """

    kind: ClaimDifferenceKind
    text: str
    span: Span
    instead: str | None


@dataclass(frozen=True, slots=True)
class ClaimSupport:
    """Is a claim backed by one source it cites?

    ``verdict`` is ``supported`` (the passage states the claim: every content word matched by
    a named equivalence, roles, modality, polarity, quantity, direction, figure attachment
    and conditions agreeing), ``unconfirmed`` (citeproof could not confirm it: read the
    passage), ``partial`` (some of the claim is backed, some is not), ``unsupported`` or
    ``contradicted`` (the passage states another number, name, date, or the opposite).
    ``rule`` names the rule that decided (`docs/claim-support.md`), ``""`` when the fact
    layer's scores did; ``unmatched`` are the claim's words that found no match in the
    passage, ``left_out`` the passage's conditions the claim leaves out. ``score`` in [0, 1]
    is the judged probability of support, compared with ``Policy.support_threshold``; it is
    never the only evidence: ``passage`` and ``differences`` show where, ``reason`` says why
    in a sentence. ``method`` names how it was judged (``entailment``: the shipped model;
    ``quote`` when verified quotes cover the whole claim; ``provider``: the configured LLM;
    ``features`` or ``features+minilm``: the lexical head).
    """

    source: str
    verdict: SupportVerdict
    score: float
    passage: SupportPassage | None
    differences: tuple[ClaimDifference, ...]
    method: str
    reason: str = ""
    rule: str = ""
    unmatched: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class VerifiedClaim:
    """A claim of the corrected answer. ``support`` holds one judgement per distinct source
    the claim cites (eligible ones only); ``verdict`` sums them up: the best verdict over its
    sources, ``uncited`` for a claim without citation in an answer that cites elsewhere, and
    ``none`` when there is nothing to judge (no citation in an answer without any).

    ``number`` is the claim as a reader names it, the same in every rendering, the JSON
    contract and the audit record: 1 to n in reading order over the claims that carry words
    and cite a source, carry a quote, were judged or assert something (`CLAIM_NUMBERING`);
    None for a heading, a question, a bare "Yes." (``id`` stays the parser's ``c1``...).
    """

    id: str
    text: str
    span: Span
    original_span: Span
    citations: tuple[CitedSource, ...]
    quote_ids: tuple[str, ...]
    support: tuple[ClaimSupport, ...] = ()
    verdict: ClaimVerdict = "none"
    number: int | None = None


CLAIM_NUMBERING = (
    "claims are numbered 1 to n in reading order; a claim is numbered when it carries words "
    "(outside its citation markers) and cites a source, carries a quote, was judged, or "
    "asserts something (three content words, not a question)"
)
"""Which claims carry a `VerifiedClaim.number`, in words (the docs and the schema say it too)."""


ExclusionReason = Literal["not_in_turn", "not_permitted", "superseded", "over_budget"]


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A source that may not be cited in this turn, and why (012.1)."""

    source_id: str
    reason: ExclusionReason
    detail: str


@dataclass(frozen=True, slots=True)
class Eligibility:
    """Which sources this turn may show and cite: computed once per turn and passed, as this
    same value, to prompt building, verification, rendering and the JSON output (012.3).

    ``eligible`` keeps the order the sources will be presented in; ``fingerprint`` is a hash
    over both lists, so any stage can show which decision it worked from.
    """

    eligible: tuple[str, ...]
    excluded: tuple[Exclusion, ...]
    fingerprint: str

    def allows(self, source_id: str) -> bool:
        return source_id in self.eligible

    def reason(self, source_id: str) -> Exclusion | None:
        return next((e for e in self.excluded if e.source_id == source_id), None)


@dataclass(frozen=True, slots=True)
class MarkerNormalisation:
    """A citation marker read differently from how it was written (``<cite:IDpN>`` →
    ``<cite:ID#pN>``): the marker ``written`` at offset ``start`` of the original answer."""

    written: str
    read_as: str
    start: int


NO_ANSWER = "The sources do not answer this."
"""The sentence the quote-first prompt has a model write when the sources do not answer the
question; every rendering reads an answer of just this sentence as not answered."""


@dataclass(frozen=True, slots=True)
class VerifiedAnswer:
    """An answer after verification: ``text`` is the corrected answer, ``original`` as given.

    ``eligibility`` is the turn's eligibility decision when verification ran inside a turn.
    ``normalised_markers`` lists the markers read differently from how they were written
    (offsets into ``original``); quote spans are offsets into the answer with them rewritten.
    """

    id: str
    text: str
    original: str
    claims: tuple[VerifiedClaim, ...]
    quotes: tuple[VerifiedQuote, ...]
    sources: tuple[Source, ...]
    policy: Policy
    eligibility: Eligibility | None = None
    normalised_markers: tuple[MarkerNormalisation, ...] = ()

    def counts(self) -> dict[str, int]:
        """Number of quotes per status, every status present."""
        tally = dict.fromkeys(STATUSES, 0)
        for quote in self.quotes:
            tally[quote.status] += 1
        return tally

    def numbered_claims(self) -> tuple[VerifiedClaim, ...]:
        """The claims a reader is shown, in their numbers' order: every count of claims
        (a rendering's, the summary's, the evidence coverage's) counts these.

        Claims that carry no number (made by hand, or read from a record older than the
        numbering) are numbered here by what they carry: a citation, a quote or a verdict.
        """
        if any(claim.number is not None for claim in self.claims):
            numbered = [claim for claim in self.claims if claim.number is not None]
            return tuple(sorted(numbered, key=lambda claim: claim.number or 0))
        carrying = [
            claim
            for claim in self.claims
            if claim.verdict != "none" or claim.quote_ids or claim.citations
        ]
        return tuple(
            dataclasses.replace(claim, number=number)
            for number, claim in enumerate(carrying, start=1)
        )

    def claim_counts(self) -> dict[str, int]:
        """Number of claims per support verdict (`CLAIM_VERDICTS`), every verdict present."""
        tally = dict.fromkeys(CLAIM_VERDICTS, 0)
        for claim in self.claims:
            tally[claim.verdict] += 1
        return tally


SupportJudgeName = Literal["lexical", "model", "lexical+model", "provider", "strict"]
"""How claim support is judged (`Policy.support_judge`)."""
SUPPORT_JUDGES: tuple[SupportJudgeName, ...] = get_args(SupportJudgeName)


@dataclass(frozen=True, slots=True)
class Policy:
    """Settings for one verification. Defaults are measured on ../shared/data (see
    docs/verification.md, "Settings").

    - ``min_similarity``: lowest similarity in [0, 1] at which an approximate match counts.
    - ``ineligible_citations``: ``"flag"`` keeps a citation to a source not provided this turn
      and marks it; ``"remove"`` also deletes its marker from the corrected text (012.2).
    - ``max_ellipsis_gap``: most characters allowed between two segments of an elided quote.
    - ``excerpt_context``: characters of context kept on each side of a match in an excerpt.
    - ``support_threshold``: lowest score of the lexical head at which a cited claim with no
      fact difference is ``supported``.
    - ``partial_threshold``: lowest such score at which a claim not supported is ``partial``
      rather than ``unsupported`` (a claim most of whose content words are backed is
      ``partial`` whatever its score).
    - ``support_judge``: ``"strict"`` (the default) keeps the promise that ``supported``
      means the passage states the claim: the lexical head's verdicts, each read against its
      passage by the confirmation rules (docs/claim-support.md, "Strict"), ``supported`` only
      where every rule confirms it (or the entailment model reads the words the lexicon
      missed at P(entails) 0.7), ``unconfirmed`` where it cannot; ``"lexical"`` the lexical
      head over the fact layer alone; ``"model"`` the shipped entailment model (the
      ``rerank`` extra's onnxruntime; `judge.MODEL_SUPPORT`); ``"lexical+model"`` the head,
      where a claim it supports is judged by the model when the model reads a contradiction;
      ``"provider"`` asks the configured provider for a verdict per claim part
      (`citeproof.verify`'s ``support_provider``; with ``"strict"``, a ``support_provider``
      is asked only about the claims it could not confirm).
    - ``support_embeddings``: for the lexical head, ``"auto"`` adds the MiniLM encoder's
      similarity when it is installed, ``"off"`` uses lexical features only.
    """

    min_similarity: float = 0.8
    ineligible_citations: Literal["flag", "remove"] = "flag"
    max_ellipsis_gap: int = 2000
    excerpt_context: int = 160
    support_threshold: float = 0.42
    partial_threshold: float = 0.1
    support_embeddings: Literal["auto", "off"] = "auto"
    support_judge: SupportJudgeName = "strict"

    def __post_init__(self) -> None:
        if not _is_number(self.min_similarity):
            raise PolicyError(
                f"must be a number, got {self.min_similarity!r}", field="min_similarity"
            )
        for name in ("max_ellipsis_gap", "excerpt_context"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise PolicyError(f"must be a whole number, got {value!r}", field=name)
        if not 0.0 < self.min_similarity <= 1.0:
            raise PolicyError("must be in (0, 1]", field="min_similarity")
        if self.ineligible_citations not in ("flag", "remove"):
            raise PolicyError("must be 'flag' or 'remove'", field="ineligible_citations")
        if self.max_ellipsis_gap < 0:
            raise PolicyError("must be >= 0", field="max_ellipsis_gap")
        if self.excerpt_context < 0:
            raise PolicyError("must be >= 0", field="excerpt_context")
        if not 0.0 <= self.support_threshold <= 1.0:
            raise PolicyError("must be in [0, 1]", field="support_threshold")
        if not 0.0 <= self.partial_threshold <= self.support_threshold:
            raise PolicyError("must be in [0, support_threshold]", field="partial_threshold")
        if self.support_embeddings not in ("auto", "off"):
            raise PolicyError("must be 'auto' or 'off'", field="support_embeddings")
        if self.support_judge not in SUPPORT_JUDGES:
            names = ", ".join(f"'{name}'" for name in SUPPORT_JUDGES)
            raise PolicyError(f"must be one of {names}", field="support_judge")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A source that could be shown this turn.

    ``acl`` lists the principals allowed to see it (None: everyone); ``superseded`` marks an
    older version; ``chars`` is how much of the prompt budget it takes (the text shown).
    """

    source: Source
    chars: int
    acl: frozenset[str] | None = None
    superseded: bool = False


Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message: ``role`` is ``"system"``, ``"user"`` or ``"assistant"``."""

    role: Role
    content: str
