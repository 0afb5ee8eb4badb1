"""How well the embedded models answer with verified quotes: one row per model, mode and set.

Run: ``make eval-generation`` (also part of ``make eval``; reads ../shared/data, or
$CITEPROOF_DATA). For each model (``--models``) and mode (quote-first under a grammar, or the
plain prompt) it asks, through the real turn pipeline:

- the sample mailbox (examples/mailbox): the two questions of ``make demo`` and three more,
  one of which the mailbox cannot answer;
- QuoteSum questions (dev_half.jsonl, in file order, ``--quotesum`` of them), each over its own
  passages only: the retriever ranks that question's passages by shared words.

An answer takes 20-80 s with the default model on one thread, so the run is resumable: each
answer is kept in a results file (``--cache``, one JSON line per model, mode, question and
prompt version) as soon as it is known, and a run only asks what is not there yet.
``--minutes`` stops asking new questions after that long, so the whole table can be built in
chunks; the table is printed and written (``--out``) at the end of every chunk, each row with
how many of its questions were asked so far (n of N). ``--table-only`` asks nothing and prints
the table of what the results file holds.

Columns: answers with at least one verified quote; quotes verified out of quotes written;
answers whose verified quotes hold the fact, of the answers to questions that have one
(mailbox: a quote holding the expected word; QuoteSum: a quote holding at least half of the
content words of a reference short answer, the same rule as "right");
answers a person would call right (mailbox: the expected fact is in
the prose, or the prose says the sources do not answer the unanswerable question, with or
without quotes; QuoteSum: at least half of the content words of one of the reference short
answers, or of the reference summary when it has none, are in the prose); mean seconds per
answer; mean 1-minute load average while the row's answers were generated.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from quotesum_eval import data_dir  # this folder: the same data as `make eval`

from citeproof.errors import ProviderError
from citeproof.model import Candidate, Passage, Source
from citeproof.providers import EmbeddedModel, EmbeddedProvider
from citeproof.render._unanswered import says_not_answered
from citeproof.sources import SourceStore, StoreLibrary, collect_files, ingest_files
from citeproof.turn import Retriever, StoreRetriever, Turn, run_turn
from citeproof.turn._evidence_first import PROMPT_VERSION
from citeproof.turn._pipeline import Library

ROOT = Path(__file__).resolve().parent.parent
BUDGET_CHARS = 3_000  # what `citeproof ask` gives the embedded model
MAX_TOKENS = 200
TIMEOUT = 900.0
MODES = ("quote-first", "plain")

# (question, words any of which in the prose makes it right; None: unanswerable)
MAILBOX: list[tuple[str, tuple[str, ...] | None]] = [
    ("When must an application be referred to a senior underwriter?", ("80%", "80 %")),
    ("What loan-to-value did the Hartley valuation give?", ("83%", "83 %")),
    ("Who approved the single year of accounts for the Hartley case?", ("Osei",)),
    ("What share of gross monthly income may total monthly debt payments reach?", ("45%",)),
    ("What does the bank's policy say about pet insurance?", None),
]
_STOP_WRITTEN = (
    "a an the of in on at to for by with and or is are was were be been it its this that as "
    "from which who what when where how"
)
_STOP = frozenset(_STOP_WRITTEN.split())
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_QUOTESUM_MARK = re.compile(r"\[\s*\d+\s*|\s*\]")


@dataclass(frozen=True)
class Case:
    """One question of a set; ``expected`` as in `MAILBOX`, ``references`` QuoteSum's."""

    dataset: str
    question: str
    sources: tuple[Source, ...] = ()
    references: tuple[str, ...] = ()
    expected: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Answer:
    """What one answer was: the unit the results file keeps (scored when the table is made)."""

    quotes: int
    verified: int
    seconds: float
    load: float
    prose: str
    evidence: tuple[str, ...] = ()  # the verified quotes


@dataclass(frozen=True)
class Score:
    """How one answer did on its question."""

    with_verified: bool
    right_evidence: bool | None  # None: the question has no fact to quote
    right: bool


@dataclass
class Row:
    model: str
    mode: str
    dataset: str
    planned: int
    answers: list[tuple[Answer, Score]]

    def cells(self) -> list[str]:
        asked = len(self.answers)
        n = asked or 1
        quotes = sum(a.quotes for a, _ in self.answers)
        verified = sum(a.verified for a, _ in self.answers)

        def share(count: int, of: int = asked) -> str:
            return f"{count}/{of} ({count / (of or 1):.0%})"

        factual = [s.right_evidence for _, s in self.answers if s.right_evidence is not None]
        return [
            self.model,
            self.mode,
            self.dataset,
            f"{asked} of {self.planned}",
            share(sum(s.with_verified for _, s in self.answers)),
            f"{verified}/{quotes}" + (f" ({verified / quotes:.0%})" if quotes else ""),
            share(sum(factual), len(factual)),
            share(sum(s.right for _, s in self.answers)),
            f"{sum(a.seconds for a, _ in self.answers) / n:.0f}",
            f"{sum(a.load for a, _ in self.answers) / n:.1f}",
        ]


HEADER = [
    "model",
    "mode",
    "set",
    "n",
    "≥1 verified quote",
    "quotes verified",
    "quotes hold the fact",
    "right",
    "s/answer",
    "load",
]


def prose(turn: Turn) -> str:
    """What a person reads as the answer: the text before the evidence list."""
    return turn.answer.text.split("\n\nEvidence:", 1)[0]


def tokens(text: str) -> set[str]:
    return {t for t in _TOKEN.findall(text.casefold()) if t not in _STOP}


def overlap_right(answer: str, references: Sequence[str]) -> bool:
    """At least half of one reference's content words are in the answer."""
    said = tokens(answer)
    for reference in references:
        wanted = tokens(reference)
        if wanted and len(wanted & said) / len(wanted) >= 0.5:
            return True
    return False


class OwnPassages:
    """A question's own sources: every paragraph, ranked by words shared with the question."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self.sources = {s.id: s for s in sources}

    def retrieve(self, query: str, *, limit: int = 8) -> list[Passage]:
        wanted = tokens(query)
        found: list[tuple[int, Passage]] = []
        for source in self.sources.values():
            for number, (start, end) in enumerate(source.paragraph_spans(), start=1):
                text = source.text[start:end]
                shared = len(wanted & tokens(text))
                passage = Passage(source.id, None, None, (number, number), (start, end), text, 0.5)
                found.append((shared, passage))
        found.sort(key=lambda pair: -pair[0])
        return [passage for _, passage in found[:limit]]

    def candidate(self, source_id: str) -> Candidate:
        return Candidate(self.sources[source_id], len(self.sources[source_id].text))

    def known_ids(self) -> Sequence[str]:
        return list(self.sources)


def mailbox_cases() -> list[Case]:
    return [Case("mailbox", q, expected=expected) for q, expected in MAILBOX]


def quotesum_cases(path: Path, limit: int) -> list[Case]:
    """The first ``limit`` distinct questions of ``path``, in file order.

    QuoteSum annotates some questions two or three times over the same passages: such a
    question is asked once and is right when it matches any of its annotations' references.
    """
    sources: dict[str, tuple[Source, ...]] = {}
    references: dict[str, list[str]] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            question = row["question"]
            if question not in sources:
                if len(sources) >= limit:
                    continue
                sources[question] = tuple(
                    Source(
                        id=f"s{k}", kind="document", text=row[f"source{k}"], title=row[f"title{k}"]
                    )
                    for k in range(1, 9)
                    if row.get(f"source{k}", "").strip()
                )
            marked = _QUOTESUM_MARK.sub("\n", row.get("covered_short_answers") or "")
            short = [s.strip() for s in marked.split("\n") if s.strip()]
            wanted = short or [_QUOTESUM_MARK.sub(" ", row["summary"])]
            found = references.setdefault(question, [])
            found += [r for r in wanted if r not in found]
    return [
        Case("QuoteSum", question, sources[question], tuple(references[question]))
        for question in sources
    ]


def answer(turn: Turn, load: float) -> Answer:
    """What ``turn`` answered, for the results file."""
    verified = [q.text for q in turn.answer.quotes if q.status == "verified"]
    return Answer(
        quotes=len(turn.answer.quotes),
        verified=len(verified),
        seconds=round(turn.generation.seconds, 2),
        load=round(load, 2),
        prose=prose(turn),
        evidence=tuple(verified),
    )


def failed(error: ProviderError, seconds: float, load: float) -> Answer:
    """An answer the model did not give (a timeout, a prompt too long): counted as wrong."""
    return Answer(0, 0, round(seconds, 2), round(load, 2), f"(failed: {error})")


def score(case: Case, given: Answer) -> Score:
    """How ``given`` did on ``case`` (the rules of the module's docstring)."""
    text = given.prose
    if case.dataset == "mailbox":
        if case.expected is None:
            return Score(given.verified > 0, None, says_not_answered(text))
        words = [word.casefold() for word in case.expected]
        right = any(word in text.casefold() for word in words)
        evidence = any(word in quote.casefold() for word in words for quote in given.evidence)
    else:
        right = overlap_right(text, case.references)
        evidence = any(overlap_right(quote, case.references) for quote in given.evidence)
    return Score(given.verified > 0, evidence, right)


class Results:
    """The results file: one JSON line per answer, keyed by model, mode, set, question and
    the quote-first prompt version (answers of an older prompt are not reused)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[str, Answer] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    entry = json.loads(line)
                    fields = entry["answer"]
                    fields["evidence"] = tuple(fields["evidence"])
                    self.known[entry["key"]] = Answer(**fields)

    @staticmethod
    def key(model: str, mode: str, case: Case) -> str:
        return json.dumps([model, mode, case.dataset, case.question, PROMPT_VERSION])

    def get(self, model: str, mode: str, case: Case) -> Answer | None:
        return self.known.get(self.key(model, mode, case))

    def add(self, model: str, mode: str, case: Case, given: Answer) -> None:
        key = self.key(model, mode, case)
        self.known[key] = given
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"key": key, "answer": given.__dict__}) + "\n")


class Asker:
    """Asks one case through the real turn pipeline, with the model started on first use."""

    def __init__(self, key: str, stack: ExitStack) -> None:
        self.key = key
        self.stack = stack
        self.model: EmbeddedModel | None = None
        self.mailbox: SourceStore | None = None

    def ask(self, mode: str, case: Case) -> Answer:
        if self.model is None:
            model = EmbeddedModel(self.key, threads=1, context_tokens=3072)
            self.model = self.stack.enter_context(model)
        provider = EmbeddedProvider(self.model, quote_first=mode == "quote-first", timeout=TIMEOUT)
        retriever, library = self.sources(case)
        load = os.getloadavg()[0]
        started = time.monotonic()
        try:
            turn = run_turn(
                case.question,
                retriever=retriever,
                library=library,
                provider=provider,
                budget_chars=BUDGET_CHARS,
                max_tokens=MAX_TOKENS,
            )
        except ProviderError as error:
            return failed(error, time.monotonic() - started, (load + os.getloadavg()[0]) / 2)
        return answer(turn, (load + os.getloadavg()[0]) / 2)

    def sources(self, case: Case) -> tuple[Retriever, Library]:
        if case.dataset != "mailbox":
            own = OwnPassages(case.sources)
            return own, own
        if self.mailbox is None:
            folder = self.stack.enter_context(tempfile.TemporaryDirectory(prefix="citeproof-"))
            self.mailbox = self.stack.enter_context(SourceStore(Path(folder) / "mailbox.db"))
            files, _ = collect_files([ROOT / "examples" / "mailbox"])
            ingest_files(self.mailbox, files)
        return StoreRetriever(self.mailbox), StoreLibrary(self.mailbox)


def table(rows: Sequence[Row]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="default,small", help="keys of the embedded models")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--quotesum", type=int, default=50, help="QuoteSum questions")
    parser.add_argument("--minutes", type=float, default=0.0, help="ask no new question after")
    parser.add_argument(
        "--table-only", action="store_true", help="ask nothing: the table of the results file"
    )
    parser.add_argument("--cache", type=Path, default=ROOT / "out" / "eval-generation.jsonl")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "eval-generation.md")
    args = parser.parse_args(argv)
    path = data_dir() / "quotesum" / "dev_half.jsonl"
    if not path.is_file():
        print(f"QuoteSum not found at {path}; set CITEPROOF_DATA", file=sys.stderr)
        return 2
    modes = [m for m in args.modes.split(",") if m]
    if unknown := set(modes) - set(MODES):
        print(f"unknown mode(s) {sorted(unknown)}; choose from {MODES}", file=sys.stderr)
        return 2
    sets = [("mailbox", mailbox_cases()), ("QuoteSum", quotesum_cases(path, args.quotesum))]
    results = Results(args.cache)
    stop_at = time.monotonic() + args.minutes * 60 if args.minutes > 0 else None
    rows: list[Row] = []
    for key in args.models.split(","):
        with ExitStack() as stack:
            asker = Asker(key, stack)
            for mode in modes:
                for name, cases in sets:
                    row = Row(key, mode, name, len(cases), [])
                    for number, case in enumerate(cases, start=1):
                        given = results.get(key, mode, case)
                        may_ask = stop_at is None or time.monotonic() < stop_at
                        if given is None and may_ask and not args.table_only:
                            given = asker.ask(mode, case)
                            results.add(key, mode, case, given)
                            print(
                                f"  {key}/{mode} {case.dataset} {number}: {given.seconds:.0f} s "
                                f"{given.prose[:90]!r}",
                                flush=True,
                            )
                        if given is not None:
                            row.answers.append((given, score(case, given)))
                    rows.append(row)
    report = table(rows)
    print(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
