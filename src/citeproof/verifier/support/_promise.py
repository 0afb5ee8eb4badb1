"""The promise the strict judge keeps: `supported` means the passage states the claim.

`kept_promise` reads each judgement of the lexical head against its passage with the
confirmation rules (`confirm`); `escalated` sends the claims it could not confirm to the
configured LLM; `warm_up` loads what it needs before a service's first request.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from citeproof.model import ClaimSupport, Policy, Span, SupportVerdict
from citeproof.verifier.support._locate import Sentence
from citeproof.verifier.support._nli import NliModel
from citeproof.verifier.support._provider_judge import ProviderJudge
from citeproof.verifier.support._request import PROVIDER, QUOTE, Examined, Request, naming
from citeproof.verifier.support._worked import other_measure, worked_out
from citeproof.verifier.support.confirm import (
    TABLE_ROW,
    Confirmation,
    Denial,
    Row,
    confirm,
    misread,
    read_denial,
    restated_exception,
    rows_of,
    table_row,
)
from citeproof.verifier.support.lexicon import defined_terms, speakers

STRICT = "strict"
CONFIRMED = "confirmed"
"""The rule id of a claim every rule confirms."""
EVERY_WORD = "match.every_word"
QUOTE_VERIFIED = "quote.verified"
"""The rule id of a claim its verified quotes state, the rest of it only framing them ("The
policy says “...”")."""


RAISE_AT = 0.9
"""The entailment model's P(entails) at which a claim whose only finding is words the lexicon
could not match is `supported` (rule `model.raised`). Chosen on the first readings of the
business sets (each read by the judge of the day it was written, 1,872 false claims): in
this band the model tells their true claims from their false ones barely better than chance
(AUC 0.53), and at 0.7 its raises put 13 of 39 sets above 5% false `supported`; at 0.9, 5,
as with no raise at all (docs/measurements.md, "The claim table"). On every public tune half
false `supported` stays at most 2% from 0.6 up."""
RAISED = "model.raised"
FIGURE_ATTACHED = "figure.attached"
"""The rule id of a figure read under another column of a table row than the claim names."""
READ_CHARS = 2000
"""The passage the model reads, at most: its located sentences."""


def kept_promise(
    request: Request,
    found: Examined | None,
    support: ClaimSupport,
    reader: Callable[[], NliModel | None] = lambda: None,
) -> ClaimSupport:
    """``support`` held to the promise that `supported` means the passage states the claim:
    the claim is read against the passage the judge located (`confirm`), and it is
    `supported` when every rule confirms it; `contradicted` when a rule finds the passage
    says otherwise. When the only finding is words the lexicon could not match (never the
    claim's main verb: `match.predicate` is a finding of its own), the entailment model
    (``reader()``, loaded only then) reads the claim against the passage: at `RAISE_AT` or
    above the claim is `supported` (rule `model.raised`), below it its
    P(entails) is the judgement's score, which orders the review queue. A word of a party's
    name the source defines, or of a mail thread's writer or reader, is never left to the
    model (`_a_party`). Otherwise a
    `supported` verdict becomes `unconfirmed`, naming the rule and the words.

    Verified quotes stand (a claim they state, its other words only framing them, is
    `supported` by rule `quote.verified`), and so does the fact layer's `contradicted` (its
    rule one of `FACT_RULES`), but for a figure read across the cells of a table row that states the
    claim under its headings (`supported`, rule `TABLE_ROW`), and for a denial that restates
    the passage's exception ("does not count ... if made within three days" for "is an Event
    of Default, unless ... payment is made within three days"): that is `unconfirmed` (rule
    `polarity.exception`)."""
    if found is None or support.method.startswith(QUOTE):
        if support.verdict == "supported" and not support.rule:
            return dataclasses.replace(support, rule=QUOTE_VERIFIED)
        return support
    if not found.chosen:  # the cited source has nothing on this
        return dataclasses.replace(support, rule=support.rule or NO_PASSAGE)
    text = request.source.text
    ordered = sorted(found.chosen, key=lambda s: s.span)
    passage = _read_text(text, ordered)
    lines = [s.span for s in ordered]
    backed = (*request.quoted, *naming(request.claim, request.source.id))
    if support.verdict == "contradicted":
        worked = worked_out(request, found, support)
        if worked is not None:
            return worked
        if support.rule in FIGURE_RULES:
            stated = _in_a_row(request, support, ordered, backed)
            if stated is not None:
                return stated
        measured = other_measure(support)
        if measured is not None:
            return measured
        denial = (
            read_denial(request.claim, passage, backed, text, lines)
            if _only_denials(support)
            else None
        )
        if denial is None or not (denial.kept or denial.carved):
            kept = _exception_restated(request, support, passage)
            if kept is support and denial is not None:
                if denial.elsewhere:
                    return _denied_elsewhere(support, denial.confirmation)
                if (denial.reworded and _denial_only(support)) or (
                    denial.claim_reworded and _passage_denial(support)
                ):
                    return _denied_otherwise(support, denial.confirmation, denial)
            return kept
        # The fact layer missed the passage's own denial, which the parse reads, or read the
        # denial of an exception the claim keeps: the rules judge the claim as they judge one
        # the head backs.
        support = dataclasses.replace(
            support,
            verdict="supported",
            reason="the passage says this",
            differences=tuple(d for d in support.differences if d.kind != "negation"),
        )
        outcome = denial.confirmation
    else:
        outcome = confirm(request.claim, passage, backed, text, lines)
        if outcome.outcome == "unconfirmed":
            stated = _in_a_row(request, support, ordered, backed)
            if stated is not None:
                return stated
    deciding = outcome.deciding
    unmatched, left_out = outcome.unmatched, outcome.left_out
    if outcome.outcome == "supported":
        clash = _column_clash(request, support, ordered, backed)
        if clash is not None:
            return clash
        return dataclasses.replace(
            support,
            verdict="supported",
            reason="the passage states each part of this"
            if support.verdict != "supported"
            else support.reason,
            rule=CONFIRMED,
        )
    assert deciding is not None
    if outcome.outcome == "contradicted":
        return dataclasses.replace(
            support,
            verdict="contradicted",
            reason=deciding.message,
            rule=deciding.rule,
            unmatched=unmatched,
            left_out=left_out,
        )
    if support.verdict in ("partial", "unsupported"):
        worked = worked_out(request, found, support)  # its figure, one the claim works out
        if worked is not None:
            return worked
    score = support.score
    band = support.verdict == "supported"  # the head backs it; the rules could not confirm
    wording = all(f.rule == EVERY_WORD for f in outcome.findings)
    model = reader() if band and wording and not _a_party(text, unmatched) else None
    if model is not None:
        (read,) = model.score([(passage[:READ_CHARS], request.claim)])
        score = read.entails
        clash = _column_clash(request, support, ordered, backed) if score >= RAISE_AT else None
        if clash is not None:
            return dataclasses.replace(clash, score=score)
        if read.entails >= RAISE_AT:
            words = ", ".join(f"“{w}”" for w in unmatched)
            return dataclasses.replace(
                support,
                verdict="supported",
                score=score,
                reason=f"the passage states this in other words ({words} read by the "
                f"entailment model, P(entails) {read.entails:.2f})",
                rule=RAISED,
                unmatched=unmatched,
            )
    verdict: SupportVerdict = "unconfirmed" if support.verdict == "supported" else support.verdict
    return dataclasses.replace(
        support,
        verdict=verdict,
        score=score,
        reason=f"citeproof could not confirm this: {deciding.message}"
        if verdict == "unconfirmed"
        else support.reason,
        rule=deciding.rule,
        unmatched=unmatched,
        left_out=left_out,
    )


def _column_clash(
    request: Request, support: ClaimSupport, ordered: Sequence[Sentence], backed: Sequence[Span]
) -> ClaimSupport | None:
    """``support`` made `unconfirmed` (rule `FIGURE_ATTACHED`) where the claim gives a figure
    of a table row's cell under one heading and names another column of the row
    (`another_column`), or names another row than the ones holding it (`another_row`;
    `misread` reads each row once for both): the sentence rules read a table as a run of
    words. None otherwise."""
    rows = _rows(request, ordered)
    clash = misread(request.claim, rows, backed, request.source.text) if rows else None
    if clash is None:
        return None
    return dataclasses.replace(
        support,
        verdict="unconfirmed",
        reason=f"citeproof could not confirm this: {clash}",
        rule=FIGURE_ATTACHED,
    )


def _a_party(text: str, words: Sequence[str]) -> bool:
    """Whether one of ``words`` is a word of a name or a term the source defines
    ("Marchbank" of `Marchbank Corporate Finance LLP ("Marchbank")`), or of the name of a mail
    thread's writer or reader ("Paycentric" of a message from paycentric.example): a party
    the rules could not place is who does it, not wording the entailment model may read for
    them."""
    defined = defined_terms(text)
    messages = speakers(text).messages
    for word in words:
        bare = word.removesuffix("'s").removesuffix("’s")
        folded = bare.casefold()
        if defined.aliases(bare) or any(
            m.stands_for("we", folded) or m.stands_for("you", folded) for m in messages
        ):
            return True
    return False


FIGURE_RULES = frozenset({"facts.number", "facts.figure_elsewhere"})
"""The fact layer's rules that read a figure as another figure of the passage: in a table they
read across cells, so a row that states the claim under its headings overrules them."""


def _in_a_row(
    request: Request,
    support: ClaimSupport,
    ordered: Sequence[Sentence],
    backed: Sequence[Span],
) -> ClaimSupport | None:
    """``support`` made `supported` by a table row of its located sentences (rule
    `TABLE_ROW`), or None: no row states the claim under its headings."""
    rows = _rows(request, ordered)
    stated = table_row(request.claim, rows, backed, request.source.text) if rows else None
    if stated is None:
        return None
    return dataclasses.replace(
        support, verdict="supported", reason=stated.reason, rule=TABLE_ROW, differences=()
    )


def _rows(request: Request, ordered: Sequence[Sentence]) -> list[Row]:
    """The table rows the located sentences span, each with its table's heading row."""
    return [row for s in ordered for row in rows_of(request.source.text, s.span)]


ESCALATED = "escalated"
"""The rule id of a verdict the configured LLM gave a claim of the review band."""


def escalated(
    asker: ProviderJudge,
    requests: Sequence[Request],
    found: Sequence[Examined | None],
    kept: list[ClaimSupport],
) -> list[ClaimSupport]:
    """``kept`` with each claim of the review band (`unconfirmed`) read by the configured
    LLM, in one call for them all (cached by the prompt's hash): ``entails`` makes it
    `supported`, ``contradicts`` `contradicted`, ``neither`` leaves it `unconfirmed`; each
    such judgement's method is `PROVIDER` and its rule `ESCALATED`."""
    band = [i for i, s in enumerate(kept) if s.verdict == "unconfirmed" and found[i] is not None]
    if not band:
        return kept
    items = []
    for i in band:
        examined = found[i]
        assert examined is not None
        text = requests[i].source.text
        ordered = sorted(examined.chosen, key=lambda s: s.span)
        passage = _read_text(text, ordered)
        items.append((passage[:READ_CHARS], requests[i].claim))
    out = list(kept)
    for i, verdict in zip(band, asker.judge(items), strict=True):
        said = verdict.entailment
        if said.entails == 1.0:
            new: SupportVerdict = "supported"
            reason = f"the configured model reads the passage as saying this: {verdict.reason}"
        elif said.contradicts == 1.0:
            new, reason = "contradicted", f"the configured model: {verdict.reason}"
        else:
            new = "unconfirmed"
            reason = f"{kept[i].reason}; the configured model could not confirm it either"
        out[i] = dataclasses.replace(
            kept[i], verdict=new, reason=reason, method=PROVIDER, rule=ESCALATED
        )
    return out


def warm_up(policy: Policy) -> None:
    """Load now what judging claims under ``policy`` loads on first use: for the strict judge
    the English parse, the lexicon and the entailment model. A service calls it at start, so
    its first request does not pay for them inside its deadline."""
    if policy.support_judge != STRICT:
        return
    confirm("The parser loads once.", "The parser loads once.")
    NliModel.get()


EXCEPTION = "polarity.exception"
NO_PASSAGE = "no_passage"
"""The rule id of a claim whose cited source holds no sentence that shares its words."""


def _exception_restated(request: Request, support: ClaimSupport, passage: str) -> ClaimSupport:
    """The fact layer's `contradicted`, unless its only conflict is the claim's denial and
    the claim restates the passage's exception: then `unconfirmed`, naming the exception."""
    if not _denial_only(support):
        return support
    exception = restated_exception(request.claim, passage)
    if exception is None:
        return support
    return dataclasses.replace(
        support,
        verdict="unconfirmed",
        reason=f"citeproof could not confirm this: the claim's denial may restate the "
        f"passage's exception “{exception}”",
        rule=EXCEPTION,
    )


def _denied_elsewhere(support: ClaimSupport, outcome: Confirmation) -> ClaimSupport:
    """The fact layer's `contradicted` for a denial on one side only, where the parse matches
    no word the denial is said of on the other side ("cannot hold more than £75,000" against
    "will not exceed £75,000": nothing in the passage holds): the passage does not speak to
    what the claim denies, so the rules decide, and at best the claim is `unconfirmed`. A
    claim every rule confirms keeps the fact layer's verdict: the rules saw nothing else."""
    deciding = outcome.deciding
    if deciding is None:
        return support
    against = outcome.outcome == "contradicted"
    return dataclasses.replace(
        support,
        verdict="contradicted" if against else "unconfirmed",
        reason=deciding.message
        if against
        else f"citeproof could not confirm this: {deciding.message}",
        rule=deciding.rule,
        unmatched=outcome.unmatched,
        left_out=outcome.left_out,
    )


REWORDED = "polarity.reworded"
"""The rule id of a denial the fact layer found on one side against a statement of the other
that denies in its own words."""


def _denied_otherwise(support: ClaimSupport, outcome: Confirmation, denial: Denial) -> ClaimSupport:
    """The fact layer's `contradicted` for a denial on one side only ("the claim says “not”;
    the passage does not", or the passage's "not" the claim leaves out), where the statement
    of the other side it is matched to denies in its own words (`Denial.reworded`: "free of
    charge" for "at no charge"; `Denial.claim_reworded`: "rather than in this payment" for
    "not in this payment"): `contradicted` only where the rules find a contradiction of their
    own, else `unconfirmed` (rule `REWORDED`): one denial in other words, or two, is the
    reader's to tell."""
    if outcome.outcome == "contradicted":
        return _denied_elsewhere(support, outcome)
    denied = next(d.instead or d.text for d in support.differences if d.kind == "negation")
    if denial.reworded:
        says = f"the passage denies too (“{denial.reworded}”), maybe what the claim denies "
        says += f"with “{denied}”"
    else:
        says = f"the claim denies too (“{denial.claim_reworded}”), maybe what the passage "
        says += f"denies with “{denied}”"
    return dataclasses.replace(
        support,
        verdict="unconfirmed",
        reason=f"citeproof could not confirm this: {says}",
        rule=REWORDED,
        unmatched=outcome.unmatched,
        left_out=outcome.left_out,
    )


def _denial_only(support: ClaimSupport) -> bool:
    """Whether the only difference the fact layer found is a denial on one side."""
    negations = [d for d in support.differences if d.kind == "negation"]
    return bool(negations) and all(d.instead is None for d in support.differences)


def _passage_denial(support: ClaimSupport) -> bool:
    """Whether each denial the fact layer found is the passage's, which the claim leaves out
    ("the passage says “not”, which the claim leaves out")."""
    negations = [d for d in support.differences if d.kind == "negation"]
    return bool(negations) and all(d.instead and not d.text for d in negations)


def _only_denials(support: ClaimSupport) -> bool:
    """Whether a denial is a difference the fact layer found, and every difference that
    names the passage's words is one ("the claim says “not”; the passage does not", "the
    passage says “cannot”, which the claim leaves out")."""
    negations = [d for d in support.differences if d.kind == "negation"]
    return bool(negations) and all(
        d.kind == "negation" or d.instead is None for d in support.differences
    )


def _read_text(text: str, sentences: Sequence[Sentence]) -> str:
    """The located sentences as one text the parser reads sentence by sentence: each on its
    own line, closed with a full stop where it has none (a signature line, a heading), so
    that "Sunita Ravel" above "... which I attach" stays a line of its own."""
    lines = []
    for sentence in sentences:
        line = " ".join(text[slice(*sentence.span)].split())
        lines.append(line if line[-1:] in ".!?:;" else f"{line}.")
    return "\n".join(lines)
