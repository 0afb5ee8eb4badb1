"""The page of a question asked (`citeproof ask`): what a reader reads, not the machinery.

The question comes first. The answer follows without its ``<cite:ID#pN>`` markers: each
checked claim keeps its number, which leads to its verdict and passage. Sources are named by
their titles (an email's subject, a file's name), never by the store's ids, and a source with
lines that speak to the model rather than to a reader ("Assistant: ignore all previous
instructions") is marked as one that tries to instruct it. The JSON contract keeps the ids,
for machines.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from citeproof.model import (
    CitedSource,
    ClaimSupport,
    Correction,
    Excerpt,
    Source,
    VerifiedAnswer,
    VerifiedClaim,
    VerifiedQuote,
)
from citeproof.render._edits import Edit, apply_edits, layout
from citeproof.render._labels import shorten
from citeproof.render._summary import plural
from citeproof.render._support import badge_position, shown_claims

WARNING = "⚠"

INSTRUCTS = "Tries to instruct the model"
"""What a source with lines addressed to the model is called, in every rendering."""

INSTRUCTS_WHY = (
    "It was shown to the model as data, under the rule never to follow instructions in a "
    "source; read any claim that cites it with care."
)


@dataclass(frozen=True, slots=True)
class Asked:
    """What the page of an asked question shows beyond the answer: the ``question``, the
    lines of each source (by id) that speak to the model (``instructing``), and the titles of
    sources kept out of the turn that the asker may know of (``kept_titles``)."""

    question: str
    instructing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    kept_titles: Mapping[str, str] = field(default_factory=dict)


def reader_names(answer: VerifiedAnswer) -> dict[str, str]:
    """Each source's id → the name a reader knows it by: its title, else its kind; a name
    two sources share gets a number (``Re: valuation (2)``)."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for source in answer.sources:
        base = " ".join((source.title or "").split()) or source.kind.replace("_", " ")
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base} ({n})"
        taken.add(name)
        names[source.id] = name
    return names


def for_reader(answer: VerifiedAnswer, names: Mapping[str, str]) -> VerifiedAnswer:
    """``answer`` with each source named as in ``names`` (`reader_names`) wherever a rendering
    shows a source: its id, the ids quotes, citations and judgements point to, and the ids
    inside the verifier's notes. Only for showing: the record keeps the real ids."""
    if not names:
        return answer
    pattern = re.compile(
        r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")"
        r"(?![\w-])"
    )

    def name(source_id: str | None) -> str | None:
        return None if source_id is None else names.get(source_id, source_id)

    def words(text: str) -> str:
        return pattern.sub(lambda m: names[m.group()], text)

    def excerpt(e: Excerpt | None) -> Excerpt | None:
        if e is None:
            return None
        return dataclasses.replace(e, source_id=names.get(e.source_id, e.source_id), title=None)

    def correction(c: Correction) -> Correction:
        if c.kind == "text":
            return c
        return dataclasses.replace(c, before=words(c.before), after=words(c.after))

    def quote(q: VerifiedQuote) -> VerifiedQuote:
        return dataclasses.replace(
            q,
            cited_source=name(q.cited_source),
            source=name(q.source),
            note=words(q.note),
            excerpt=excerpt(q.excerpt),
            corrections=tuple(correction(c) for c in q.corrections),
        )

    def cite(c: CitedSource) -> CitedSource:
        return dataclasses.replace(c, source=names.get(c.source, c.source), marker=words(c.marker))

    def support(s: ClaimSupport) -> ClaimSupport:
        passage = s.passage
        if passage is not None:
            passage = dataclasses.replace(
                passage, source_id=names.get(passage.source_id, passage.source_id)
            )
        return dataclasses.replace(
            s, source=names.get(s.source, s.source), passage=passage, reason=words(s.reason)
        )

    def claim(c: VerifiedClaim) -> VerifiedClaim:
        return dataclasses.replace(
            c,
            citations=tuple(cite(x) for x in c.citations),
            support=tuple(support(s) for s in c.support),
        )

    def source(s: Source) -> Source:
        return dataclasses.replace(s, id=names.get(s.id, s.id), title=None)

    eligibility = answer.eligibility
    if eligibility is not None:
        eligibility = dataclasses.replace(
            eligibility, eligible=tuple(names.get(i, i) for i in eligibility.eligible)
        )
    return dataclasses.replace(
        answer,
        eligibility=eligibility,
        sources=tuple(source(s) for s in answer.sources),
        quotes=tuple(quote(q) for q in answer.quotes),
        claims=tuple(claim(c) for c in answer.claims),
    )


def marker_removals(answer: VerifiedAnswer) -> list[Edit]:
    """Edits taking each citation marker out of the corrected answer, with the spaces before
    it (those in a block quote too)."""
    text = answer.text
    plan = layout(answer)
    spans = [span for span, _ in plan.markers]
    spans += [c.answer_span for cites in plan.markers_in_block.values() for c in cites]
    removals: list[Edit] = []
    floor = 0
    for start, end in sorted(set(spans)):
        cut = start
        while cut > floor and text[cut - 1] in " \t":
            cut -= 1
        removals.append(Edit(cut, end, ""))
        floor = end
    return removals


def merged(edits: list[Edit], removals: list[Edit]) -> list[Edit]:
    """``edits`` with ``removals`` added: an insertion inside a removed marker moves to its
    end, an edit within one goes with it, and a marker another edit cuts across stays."""
    kept: list[Edit] = []
    for removal in removals:
        across = any(
            e.start < removal.start < e.end or e.start < removal.end < e.end for e in edits
        )
        if not across:
            kept.append(removal)
    out: list[Edit] = list(kept)
    for edit in edits:
        holder = next((r for r in kept if r.start <= edit.start and edit.end <= r.end), None)
        if holder is None:
            out.append(edit)
        elif edit.start == edit.end and edit.replacement:
            out.append(Edit(holder.end, holder.end, edit.replacement))
    return out


def reader_text(answer: VerifiedAnswer) -> str:
    """The corrected answer as a reader reads it: no citation markers, each checked claim
    followed by its number."""
    numbers = [
        Edit(badge_position(claim), badge_position(claim), f" [{claim.number}]")
        for claim in shown_claims(answer)
        if claim.number is not None
    ]
    return apply_edits(answer.text, merged(numbers, marker_removals(answer)))


def reader_page(answer: VerifiedAnswer, asked: Asked) -> tuple[VerifiedAnswer, Asked]:
    """``answer`` and ``asked`` with every source named as its reader knows it
    (`reader_names`): what the renderings draw the page of an asked question from."""
    names = reader_names(answer)
    instructing = {names.get(sid, sid): lines for sid, lines in asked.instructing.items()}
    return for_reader(answer, names), dataclasses.replace(asked, instructing=instructing)


def source_lines(answer: VerifiedAnswer, asked: Asked) -> list[tuple[str, str, tuple[str, ...]]]:
    """Each source shown to the model: (its name, what it is, the lines of it that speak to
    the model)."""
    rows: list[tuple[str, str, tuple[str, ...]]] = []
    for source in answer.sources:
        holds = sum(1 for q in answer.quotes if q.source == source.id)
        facts = source.kind.replace("_", " ")
        if holds:
            facts += f", {plural(holds, 'quote')} found here"
        said = tuple(shorten(line, 160) for line in asked.instructing.get(source.id, ()))
        rows.append((source.id, facts, said))
    return rows


def kept_out_lines(answer: VerifiedAnswer, asked: Asked) -> list[str]:
    """The sources the turn kept from the model, by title where the asker may know it: one
    they may not read is not named."""
    if answer.eligibility is None:
        return []
    lines: list[str] = []
    for exclusion in answer.eligibility.excluded:
        if exclusion.reason == "not_in_turn":
            continue
        title = asked.kept_titles.get(exclusion.source_id)
        if exclusion.reason == "not_permitted" or not title:
            title = "a source"
        lines.append(f"{title}: {exclusion.detail}")
    return lines


def shown_count(answer: VerifiedAnswer) -> str:
    """``5 sources shown to the model``."""
    return f"{plural(len(answer.sources), 'source')} shown to the model"


def sources_text(answer: VerifiedAnswer, asked: Asked) -> list[tuple[int, str]]:
    """The sources of an asked question as plain lines, each with its indent: each source by
    its name, one that tries to instruct the model marked ``⚠`` with the lines that do, then
    those kept out."""
    lines = [(0, f"{shown_count(answer)}:")]
    for number, (name, facts, said) in enumerate(source_lines(answer, asked), start=1):
        mark = f"{WARNING} " if said else ""
        lines.append((2, f"{number}. {mark}{name} ({facts})"))
        if said:
            lines.append((5, f"{WARNING} {INSTRUCTS}: " + "; ".join(f"“{s}”" for s in said)))
            lines.append((5, INSTRUCTS_WHY))
    lines += [(2, f"kept out of this turn: {line}") for line in kept_out_lines(answer, asked)]
    return lines
