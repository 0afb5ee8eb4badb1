"""Hand-built verified answers for renderer tests.

``lending_answer()`` is what the verifier should produce for a small mortgage question: every
status, a wording correction, a paragraph correction, a source correction on a repeated quote,
an email quote kept as written and a citation to a source not provided. ``hostile_answer()``
puts script, event handlers, ``javascript:`` links and iframes in the answer and its source.

Spans are computed by searching the texts, never typed in, so the fixture stays consistent
when a text is edited.
"""

from __future__ import annotations

from dataclasses import replace

from citeproof.model import (
    CitedSource,
    Correction,
    Excerpt,
    Policy,
    Source,
    Span,
    VerifiedAnswer,
    VerifiedClaim,
    VerifiedQuote,
)

WHEN = "2024-06-05T10:15:00Z"


def span_of(text: str, needle: str, nth: int = 0) -> Span:
    """Span of the ``nth`` occurrence of ``needle`` in ``text``."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return start, start + len(needle)


def excerpt_for(source: Source, matched: str, paragraph: int) -> Excerpt:
    """The stored excerpt: the whole paragraph, with the match highlighted."""
    p_start, p_end = source.paragraph_spans()[paragraph - 1]
    passage = source.text[p_start:p_end]
    return Excerpt(
        source_id=source.id,
        title=source.title,
        paragraph=paragraph,
        text=passage,
        highlight=span_of(passage, matched),
        url=source.url,
    )


POLICY = Source(
    id="S1",
    kind="document",
    title="Lending policy 2024",
    doc_id="POL-7",
    version="3",
    url="https://intranet.example/policies/lending-2024",
    text=(
        "Section 1. Scope. This policy applies to all residential mortgage applications "
        "received after 1 March 2024.\n\n"
        "Section 2. Insurance. Loans above 80% loan-to-value require mortgage insurance "
        "until the balance falls below 78% of the original value.\n\n"
        "Section 3. Employment. Applicants must show two years of continuous employment "
        "history, or three years of self-employment records.\n\n"
        "Section 4. Appraisals. An appraisal is valid for 120 days from its effective date; "
        "after that a new appraisal is ordered."
    ),
)
RATE_SHEET = Source(
    id="S2",
    kind="attachment",
    title="Rate sheet (June).pdf",
    version="2024-06",
    text=(
        "The base rate is reviewed every quarter.\n"
        "Changes take effect on the first business day of the following month.\n\n"
        "Rate locks last 45 days and can be extended once for a fee."
    ),
)
EMAIL = Source(
    id="E1",
    kind="email_body",
    title="Email from Dana Ruiz, 4 June",
    text=(
        "Hi Sam,\n\n"
        "Thanks for sending the documents. Since you are an existing customer, we may be "
        "able to waive the origination fee if you close before July.\n\n"
        "Best,\nDana"
    ),
)

INSURANCE = "Loans above 80% loan-to-value require mortgage insurance"
HISTORY_WRITTEN = "two years of employment histroy"
HISTORY_SOURCE = "two years of continuous employment history"
APPRAISAL = "An appraisal is valid for 120 days from its effective date"
WAIVE_WRITTEN = "we can waive the origination fee for you"
WAIVE_SOURCE = "we may be able to waive the origination fee"
LOCKED = "Rates are locked for 90 days"
PREPAY = "Prepayment is free after the first year"
BASE_RATE = (
    "The base rate is reviewed every quarter.\n"
    "Changes take effect on the first business day of the following month."
)
BASE_RATE_BLOCK = (
    "> The base rate is reviewed every quarter.\n"
    "> Changes take effect on the first business day of the following month."
)

ORIGINAL = f"""Here is what your documents say about the mortgage.

- The policy says "{INSURANCE}" [S1, ¶2].
- You need “{HISTORY_WRITTEN}” [S1, ¶3].
- "{APPRAISAL}" [S1, ¶1].
- Dana wrote that "{WAIVE_WRITTEN}" [E1].
- The rate sheet says "{LOCKED}" [S2].
- The old terms say "{PREPAY}" [S9].

The rate sheet explains how the base rate moves:

{BASE_RATE_BLOCK}

[S2, ¶1]

In short: “{INSURANCE}” [S2], so plan for it.
"""

CORRECTED = (
    ORIGINAL.replace(HISTORY_WRITTEN, HISTORY_SOURCE)
    .replace("[S1, ¶1]", "[S1, ¶4]")
    .replace("” [S2], so", "” [S1, ¶2], so")
)


def _quote(
    id: str,
    claim_id: str,
    written: str,
    cited: tuple[str, int | None],
    *,
    status: str,
    corrected: str | None = None,
    nth: int = 0,
    style: str = "inline",
    found: tuple[Source, int, str] | None = None,
    score: float = 1.0,
    method: str | None = "exact",
    corrections: tuple[Correction, ...] = (),
    note: str,
    original: str = ORIGINAL,
    text: str = CORRECTED,
) -> VerifiedQuote:
    """A quote verdict; ``found`` is (source, paragraph, matched source text)."""
    corrected = written if corrected is None else corrected
    block = style == "block"
    as_written = "\n".join("> " + line for line in written.split("\n")) if block else written
    as_shown = "\n".join("> " + line for line in corrected.split("\n")) if block else corrected
    source, paragraph, matched = found if found else (None, None, "")
    return VerifiedQuote(
        id=id,
        text=written,
        style=style,  # type: ignore[arg-type]
        answer_span=span_of(original, as_written, nth),
        cited_source=cited[0],
        cited_paragraph=cited[1],
        status=status,  # type: ignore[arg-type]
        source=source.id if source else None,
        paragraph=paragraph,
        source_span=span_of(source.text, matched) if source else None,
        score=score,
        method=method if source else None,
        corrected_text=corrected,
        corrected_span=span_of(text, as_shown, nth),
        corrections=corrections,
        excerpt=excerpt_for(source, matched, paragraph) if source and paragraph else None,
        note=note,
        claim_id=claim_id,
    )


def _cite(
    shown: str,
    source: str,
    paragraph: int | None,
    status: str = "ok",
    *,
    written: str = "",
    nth: int = 0,
    text: str = CORRECTED,
    original: str = ORIGINAL,
) -> CitedSource:
    """A citation marker: ``shown`` is the marker in the corrected text, ``written`` (when it
    differs) in the answer as given. Its quotes are set by `_claim`."""
    return CitedSource(
        source=source,
        paragraph=paragraph,
        marker=written or shown,
        answer_span=span_of(text, shown, nth),
        status=status,  # type: ignore[arg-type]
        written_span=span_of(original, written or shown, nth),
        quote_ids=(),
    )


def _claim(
    id: str,
    written: str,
    cites: tuple[CitedSource, ...],
    quote_ids: tuple[str, ...],
    *,
    shown: str | None = None,
    original: str = ORIGINAL,
    text: str = CORRECTED,
    nth: int = 0,
) -> VerifiedClaim:
    shown = written if shown is None else shown
    return VerifiedClaim(
        id=id,
        text=shown,
        span=span_of(text, shown, nth),
        original_span=span_of(original, written, nth),
        # In these answers every marker carries its claim's quote.
        citations=tuple(replace(cite, quote_ids=quote_ids) for cite in cites),
        quote_ids=quote_ids,
    )


def lending_quotes() -> tuple[VerifiedQuote, ...]:
    return (
        _quote(
            "q1",
            "c1",
            INSURANCE,
            ("S1", 2),
            status="verified",
            found=(POLICY, 2, INSURANCE),
            note="Found word for word in S1, paragraph 2.",
        ),
        _quote(
            "q2",
            "c2",
            HISTORY_WRITTEN,
            ("S1", 3),
            status="corrected",
            corrected=HISTORY_SOURCE,
            found=(POLICY, 3, HISTORY_SOURCE),
            score=0.88,
            method="fuzzy",
            corrections=(
                Correction(
                    "text",
                    HISTORY_WRITTEN,
                    HISTORY_SOURCE,
                    "quote differs from the document; replaced by its exact wording",
                    0.88,
                    "fuzzy",
                    WHEN,
                ),
            ),
            note="Wording corrected to the document's text.",
        ),
        _quote(
            "q3",
            "c3",
            APPRAISAL,
            ("S1", 1),
            status="corrected",
            found=(POLICY, 4, APPRAISAL),
            corrections=(
                Correction(
                    "location",
                    "S1 ¶1",
                    "S1 ¶4",
                    "quote is in paragraph 4, not paragraph 1",
                    1.0,
                    "exact",
                    WHEN,
                ),
            ),
            note="Citation moved to the paragraph that holds the quote.",
        ),
        _quote(
            "q4",
            "c4",
            WAIVE_WRITTEN,
            ("E1", None),
            status="mismatch",
            found=(EMAIL, 2, WAIVE_SOURCE),
            score=0.81,
            method="fuzzy",
            note="quote differs from the email body; kept as written",
        ),
        _quote(
            "q5",
            "c5",
            LOCKED,
            ("S2", None),
            status="not_found",
            score=0.41,
            method=None,
            note="Not in S2 nor in any other source provided with this answer.",
        ),
        _quote(
            "q6",
            "c6",
            PREPAY,
            ("S9", None),
            status="ineligible",
            score=0.0,
            method=None,
            note="S9 was not provided in this turn.",
        ),
        _quote(
            "q7",
            "c7",
            BASE_RATE,
            ("S2", 1),
            status="verified",
            style="block",
            found=(RATE_SHEET, 1, BASE_RATE),
            note="Found word for word in S2, paragraph 1.",
        ),
        _quote(
            "q8",
            "c8",
            INSURANCE,
            ("S2", None),
            status="corrected",
            nth=1,
            found=(POLICY, 2, INSURANCE),
            corrections=(
                Correction(
                    "source",
                    "S2",
                    "S1 ¶2",
                    "not in S2; found in S1, another source provided this turn",
                    1.0,
                    "exact",
                    WHEN,
                ),
            ),
            note="Same words as q1; this occurrence cited the wrong source.",
        ),
    )


def lending_answer() -> VerifiedAnswer:
    """A checked answer with one quote of every status, and every kind of correction."""
    claims = (
        _claim(
            "c1", f'The policy says "{INSURANCE}" [S1, ¶2].', (_cite("[S1, ¶2]", "S1", 2),), ("q1",)
        ),
        _claim(
            "c2",
            f"You need “{HISTORY_WRITTEN}” [S1, ¶3].",
            (_cite("[S1, ¶3]", "S1", 3),),
            ("q2",),
            shown=f"You need “{HISTORY_SOURCE}” [S1, ¶3].",
        ),
        _claim(
            "c3",
            f'"{APPRAISAL}" [S1, ¶1].',
            (_cite("[S1, ¶4]", "S1", 4, "corrected", written="[S1, ¶1]"),),
            ("q3",),
            shown=f'"{APPRAISAL}" [S1, ¶4].',
        ),
        _claim(
            "c4",
            f'Dana wrote that "{WAIVE_WRITTEN}" [E1].',
            (_cite("[E1]", "E1", None, "flagged"),),
            ("q4",),
        ),
        _claim(
            "c5", f'The rate sheet says "{LOCKED}" [S2].', (_cite("[S2]", "S2", None),), ("q5",)
        ),
        _claim(
            "c6",
            f'The old terms say "{PREPAY}" [S9].',
            (_cite("[S9]", "S9", None, "ineligible"),),
            ("q6",),
        ),
        _claim("c7", f"{BASE_RATE_BLOCK}\n\n[S2, ¶1]", (_cite("[S2, ¶1]", "S2", 1),), ("q7",)),
        _claim(
            "c8",
            f"In short: “{INSURANCE}” [S2], so plan for it.",
            (_cite("[S1, ¶2]", "S1", 2, "corrected", written="[S2]", nth=1),),
            ("q8",),
            shown=f"In short: “{INSURANCE}” [S1, ¶2], so plan for it.",
        ),
    )
    return VerifiedAnswer(
        id="lending-001",
        text=CORRECTED,
        original=ORIGINAL,
        claims=claims,
        quotes=lending_quotes(),
        sources=(POLICY, RATE_SHEET, EMAIL),
        policy=Policy(),
    )


# --- hostile content ---------------------------------------------------------------------

HOSTILE_SOURCE = Source(
    id="H1",
    kind="document",
    title='<script>alert("title")</script>Fee schedule',
    url="javascript:alert(1)",
    text=(
        "Fees.\n\n"
        "The fee is waived for members <img src=x onerror=alert(1)> and "
        '<script>alert(2)</script> staff. <iframe src="https://evil.example"></iframe> '
        "See [site](javascript:alert(3))."
    ),
)
ODD_SOURCE = Source(
    id='x" onmouseover="alert(7)',
    kind="attachment",
    title="<iframe src=x></iframe>",
    url=" JaVa\tScRiPt:alert(9)",
    text="Nothing to see.",
)
HOSTILE_QUOTE = "The fee is waived for members <img src=x onerror=alert(1)>"
HOSTILE_WRITTEN = (
    "The fee is waived for <b onmouseover=alert(6)>members <img src=x onerror=alert(1)>"
)
HOSTILE_BLOCK = "<script>alert(5)</script> block <iframe src=x></iframe>"
HOSTILE_PREAMBLE = (
    'Note <script>alert(1)</script> and <iframe src="https://evil.example"></iframe>, '
    "[click me](javascript:alert(1)), [again](  JAVASCRIPT:alert(2)), "
    '<a href="javascript:alert(2)" onclick="alert(3)">x</a> <img src=x onerror=alert(4)>.'
)
HOSTILE_ORIGINAL = f"""{HOSTILE_PREAMBLE}

The schedule says "{HOSTILE_WRITTEN}" [H1, ¶2].

> {HOSTILE_BLOCK}

[H1]
"""
HOSTILE_TEXT = HOSTILE_ORIGINAL.replace(HOSTILE_WRITTEN, HOSTILE_QUOTE)


def hostile_answer() -> VerifiedAnswer:
    """Script, handlers, ``javascript:`` links and iframes in the answer, quotes and sources."""
    where = {"original": HOSTILE_ORIGINAL, "text": HOSTILE_TEXT}
    quotes = (
        _quote(
            "q1",
            "c1",
            HOSTILE_WRITTEN,
            ("H1", 2),
            status="corrected",
            corrected=HOSTILE_QUOTE,
            found=(HOSTILE_SOURCE, 2, HOSTILE_QUOTE),
            score=0.9,
            method="fuzzy",
            corrections=(
                Correction(
                    "text",
                    HOSTILE_WRITTEN,
                    HOSTILE_QUOTE,
                    "<iframe src=x></iframe> reason",
                    0.9,
                    "fuzzy",
                    WHEN,
                ),
            ),
            note='<script>alert("note")</script>',
            **where,
        ),
        _quote(
            "q2",
            "c2",
            HOSTILE_BLOCK,
            ("H1", None),
            status="not_found",
            style="block",
            score=0.2,
            method=None,
            note="<img src=x onerror=alert(8)>",
            **where,
        ),
    )
    claims = (
        _claim(
            "c1",
            f'The schedule says "{HOSTILE_WRITTEN}" [H1, ¶2].',
            (_cite("[H1, ¶2]", "H1", 2, **where),),
            ("q1",),
            shown=f'The schedule says "{HOSTILE_QUOTE}" [H1, ¶2].',
            **where,
        ),
        _claim(
            "c2",
            f"> {HOSTILE_BLOCK}\n\n[H1]",
            (_cite("[H1]", "H1", None, **where),),
            ("q2",),
            **where,
        ),
    )
    return VerifiedAnswer(
        id="<script>alert(10)</script>",
        text=HOSTILE_TEXT,
        original=HOSTILE_ORIGINAL,
        claims=claims,
        quotes=quotes,
        sources=(HOSTILE_SOURCE, ODD_SOURCE),
        policy=Policy(),
    )
