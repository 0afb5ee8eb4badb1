"""How well the embedded models answer with verified quotes: one row per model, mode and set.

Run: ``make eval-generation`` (reads ../shared/data, or $CITEPROOF_DATA; takes 20-40 minutes on
two shared cores, so it is not part of ``make eval``). For each model (``--models``) and mode
(quote-first under a grammar, or the plain prompt) it asks, through the real turn pipeline:

- the sample mailbox (examples/mailbox): the two questions of ``make demo`` and three more,
  one of which the mailbox cannot answer;
- QuoteSum questions (dev_half.jsonl, in file order), each over its own passages only: the
  retriever ranks that question's passages by shared words.

Columns: answers with at least one verified quote; quotes verified out of quotes written;
answers a person would call right (mailbox: the expected fact is in the prose, or the prose
says the sources do not answer the unanswerable question, with or without quotes; QuoteSum: at
least half of the content words of one of the reference short answers, or of the reference
summary when it has none, are in the prose); mean seconds per answer. A row stops early when its
time budget (``--minutes``) is spent, and says how many questions it asked (n).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from quotesum_eval import data_dir  # this folder: the same data as `make eval`

from citeproof.model import Candidate, Passage, Source
from citeproof.providers.embedded import EmbeddedModel, EmbeddedProvider
from citeproof.render.unanswered import says_not_answered
from citeproof.sources.ingest import collect_files, ingest_files
from citeproof.sources.library import StoreLibrary
from citeproof.sources.store import SourceStore
from citeproof.turn.pipeline import Turn, run_turn
from citeproof.turn.retrieve import StoreRetriever

ROOT = Path(__file__).resolve().parent.parent
BUDGET_CHARS = 3_000  # what `citeproof ask` gives the embedded model
MAX_TOKENS = 200
TIMEOUT = 900.0

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


@dataclass
class Row:
    model: str
    mode: str
    dataset: str
    asked: int = 0
    with_verified: int = 0
    quotes: int = 0
    verified: int = 0
    right: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def add(self, turn: Turn, right: bool) -> None:
        self.asked += 1
        statuses = [q.status for q in turn.answer.quotes]
        self.quotes += len(statuses)
        self.verified += statuses.count("verified")
        self.with_verified += "verified" in statuses
        self.right += right
        self.seconds += turn.generation.seconds

    def cells(self) -> list[str]:
        n = self.asked or 1
        return [
            self.model,
            self.mode,
            self.dataset,
            str(self.asked),
            f"{self.with_verified}/{self.asked} ({self.with_verified / n:.0%})",
            f"{self.verified}/{self.quotes}"
            + (f" ({self.verified / self.quotes:.0%})" if self.quotes else ""),
            f"{self.right}/{self.asked} ({self.right / n:.0%})",
            f"{self.seconds / n:.0f}",
        ]


HEADER = ["model", "mode", "set", "n", "≥1 verified quote", "quotes verified", "right", "s/answer"]


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


def quotesum_cases(path: Path, limit: int) -> list[tuple[str, list[Source], list[str]]]:
    cases = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            sources = [
                Source(id=f"s{k}", kind="document", text=row[f"source{k}"], title=row[f"title{k}"])
                for k in range(1, 9)
                if row.get(f"source{k}", "").strip()
            ]
            short = [
                s.strip()
                for s in _QUOTESUM_MARK.sub("\n", row.get("covered_short_answers") or "").split(
                    "\n"
                )
                if s.strip()
            ]
            references = short or [_QUOTESUM_MARK.sub(" ", row["summary"])]
            cases.append((row["question"], sources, references))
            if len(cases) >= limit:
                break
    return cases


def run(
    model: EmbeddedModel,
    mode: str,
    quotesum: list[tuple[str, list[Source], list[str]]],
    minutes: float,
    mailbox: bool = True,
) -> list[Row]:
    provider = EmbeddedProvider(model, quote_first=mode == "quote-first", timeout=TIMEOUT)
    stop_at = time.monotonic() + minutes * 60
    rows = [ask_mailbox(provider, mode, stop_at)] if mailbox else []
    return [*rows, ask_quotesum(provider, mode, quotesum, stop_at)]


def ask_mailbox(provider: EmbeddedProvider, mode: str, stop_at: float) -> Row:
    mail = Row(provider.weights.key, mode, "mailbox")
    with (
        tempfile.TemporaryDirectory(prefix="citeproof-eval-") as folder,
        SourceStore(Path(folder) / "mailbox.db") as store,
    ):
        files, _ = collect_files([ROOT / "examples" / "mailbox"])
        ingest_files(store, files)
        for question, expected in MAILBOX:
            if time.monotonic() > stop_at:
                break
            turn = run_turn(
                question,
                retriever=StoreRetriever(store),
                library=StoreLibrary(store),
                provider=provider,
                budget_chars=BUDGET_CHARS,
                max_tokens=MAX_TOKENS,
            )
            text = prose(turn)
            if expected is None:
                right = says_not_answered(text)
            else:
                right = any(word.casefold() in text.casefold() for word in expected)
            mail.add(turn, right)
            print(f"  {mail.model}/{mode} mailbox: {question!r} -> {text[:100]!r}", flush=True)
    return mail


def ask_quotesum(
    provider: EmbeddedProvider,
    mode: str,
    quotesum: list[tuple[str, list[Source], list[str]]],
    stop_at: float,
) -> Row:
    qs = Row(provider.weights.key, mode, "QuoteSum")
    for question, sources, references in quotesum:
        if time.monotonic() > stop_at:
            break
        library = OwnPassages(sources)
        turn = run_turn(
            question,
            retriever=library,
            library=library,
            provider=provider,
            budget_chars=BUDGET_CHARS,
            max_tokens=MAX_TOKENS,
        )
        qs.add(turn, overlap_right(prose(turn), references))
        print(f"  {qs.model}/{mode} QuoteSum {qs.asked}: {prose(turn)[:80]!r}", flush=True)
    return qs


def table(rows: Sequence[Row]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="default,small", help="keys of the embedded models")
    parser.add_argument("--modes", default="quote-first,plain")
    parser.add_argument("--quotesum", type=int, default=50, help="QuoteSum questions at most")
    parser.add_argument(
        "--minutes",
        default="20,8",
        help="time budget of each model in each mode, in the order of --modes (the last repeats)",
    )
    parser.add_argument(
        "--skip-mailbox", action="store_true", help="QuoteSum only (the mailbox rows ran before)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "eval-generation.md")
    args = parser.parse_args(argv)
    path = data_dir() / "quotesum" / "dev_half.jsonl"
    if not path.is_file():
        print(f"QuoteSum not found at {path}; set CITEPROOF_DATA", file=sys.stderr)
        return 2
    cases = quotesum_cases(path, args.quotesum)
    rows: list[Row] = []
    modes = args.modes.split(",")
    budgets = [float(m) for m in args.minutes.split(",")]
    for key in args.models.split(","):
        with EmbeddedModel(key, threads=1, context_tokens=3072) as model:
            for number, mode in enumerate(modes):
                started = time.monotonic()
                budget = budgets[min(number, len(budgets) - 1)]
                done = run(model, mode, cases, budget, mailbox=not args.skip_mailbox)
                print(table(done), flush=True)  # each row as soon as it is known
                rows += done
                print(f"{key}/{mode}: {time.monotonic() - started:.0f} s", flush=True)
    report = table(rows)
    print(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
