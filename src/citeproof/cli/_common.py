"""What the commands share: how errors become exit codes, how an answer is formatted and
where it is written, and the options several commands take."""

from __future__ import annotations

import socket
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from citeproof import environment
from citeproof.cli._group import (
    Command,
    Group,
    PathType,
    errors_to_exit_status,
    examples,
    exit_codes,
)
from citeproof.errors import InputError
from citeproof.json_input import load_json
from citeproof.model import VerifiedAnswer
from citeproof.operations import ENGINES
from citeproof.providers import plugin_provider_names, provider_names
from citeproof.render import FORMATS, Format, json_text, plural, render, safe_console, visible

if TYPE_CHECKING:
    from citeproof.outcome import LiveValues, Outcome

__all__ = [
    "Command",
    "Group",
    "OutputFormat",
    "PathType",
    "ProviderChoice",
    "check_outcome_options",
    "conclude_from_options",
    "deprecated",
    "emit",
    "engine_options",
    "errors_to_exit_status",
    "examples",
    "exit_codes",
    "format_answer",
    "format_option",
    "outcome_options",
]

OutputFormat = Format | Literal["json"]
"""What a command can print: a rendering, or the JSON contract."""


class ProviderChoice(click.Choice[str]):
    """A provider name: one built in or registered (listed in the help), or one an installed
    plug-in offers (looked up only when the name is none of those)."""

    def __init__(self) -> None:
        super().__init__(sorted(provider_names()))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        not_built_in = isinstance(value, str) and value not in self.choices
        if not_built_in and value in plugin_provider_names():
            return value
        return super().convert(value, param, ctx)


def deprecated(old: str, instead: str) -> None:
    """Say on standard error that ``old`` (a hidden option that still works) is deprecated."""
    click.echo(f"warning: {old} is deprecated; use {instead}", err=True)


format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice([*FORMATS, "json"]),
    default="term",
    show_default=True,
    help="term: for a terminal; html: one self-contained page; md: Markdown; "
    "json: the JSON contract.",
)


def engine_options(default_engine: str | None, default_help: str) -> Callable[..., Any]:
    """``--engine local|ray``, ``--address`` and ``--workers``: where a command's chunks of
    work run (`citeproof.operations._engines`)."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(
            (
                click.option(
                    "--engine",
                    type=click.Choice(ENGINES),
                    default=default_engine,
                    help="Where the work runs: a local process pool, or Ray (needs "
                    f"citeproof[ray]). Default: {default_help}.",
                ),
                click.option(
                    "--address",
                    default=None,
                    help="Ray cluster address (default: start a local Ray instance).",
                ),
                click.option(
                    "--workers",
                    type=click.IntRange(min=1),
                    default=None,
                    help="Worker processes (default: one per CPU).",
                ),
            )
        ):
            command = option(command)
        return command

    return decorate


def format_answer(verified: VerifiedAnswer, fmt: OutputFormat) -> str:
    if fmt == "json":
        from citeproof.outcome import answer_to_json  # pydantic: only for JSON

        return json_text(answer_to_json(verified), indent=2) + "\n"
    return render(verified, fmt)


def emit(text: str, out: Path | None, answer: VerifiedAnswer | None = None) -> None:
    """Print ``text``, or write it to ``out`` (its folder made when missing) and say on
    standard error what was written, with the verdicts of ``answer``."""
    if out is None:
        click.echo(text, nl=not text.endswith("\n"))
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    if answer is not None:
        counts = ", ".join(f"{n} {status}" for status, n in answer.counts().items() if n)
        quotes = plural(len(answer.quotes), "quote")
        summary = f"{quotes}: {counts}" if answer.quotes else "no quotes"
        click.echo(visible(f"wrote {out} ({summary})", one_line=True), err=True)


def outcome_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--audit``, ``--rules``, ``--facts`` and ``--live``: what follows verification."""
    options = [
        click.option(
            "--audit",
            metavar="DB",
            default=None,
            help="Append the record to this audit log: a SQLite file or a postgresql:// URL.",
        ),
        click.option(
            "--rules",
            "rules_path",
            type=PathType(exists=True, dir_okay=False, path_type=Path),
            default=None,
            help="A rule file (.toml or .json) to decide on after the evidence is attached.",
        ),
        click.option(
            "--facts",
            "facts_path",
            type=PathType(exists=True, dir_okay=False, path_type=Path),
            default=None,
            help="With --rules: a JSON object of request facts the rules read (loan amount, "
            "valuation...).",
        ),
        click.option(
            "--live",
            "live_spec",
            default=None,
            metavar="FILE_OR_URL",
            help="With --rules: where today's live values come from, a JSON file or an "
            "https:// service.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def check_outcome_options(
    rules_path: Path | None, facts_path: Path | None, live_spec: str | None
) -> None:
    """Refuse ``--facts`` or ``--live`` without ``--rules``: only the rules read them, so
    either alone would be ignored (checked before any work is done)."""
    given = [name for name, value in (("--facts", facts_path), ("--live", live_spec)) if value]
    if given and rules_path is None:
        what = " and ".join(given)
        verb = "are" if len(given) > 1 else "is"
        raise click.UsageError(
            f"{what} {verb} read by the rules only: give --rules FILE with {what}"
        )


def conclude_from_options(
    answer: VerifiedAnswer,
    request: Mapping[str, Any],
    *,
    audit: str | None,
    rules_path: Path | None,
    facts_path: Path | None,
    live_spec: str | None,
) -> Outcome | None:
    """Run evidence, rules and audit when any of their options was given; report on stderr."""
    if not (audit or rules_path):
        return None
    # Imported here: evidence, CEL rules, live values and audit signing cost a plain verify.
    from citeproof.audit import open_store
    from citeproof.outcome import FileLiveValues, HttpLiveValues, conclude, load_rules

    facts = _facts(facts_path) if facts_path else {}
    live: LiveValues | None = None
    if live_spec:
        allow_http = environment.ALLOW_HTTP_LIVE.get() == "1"
        live = (
            HttpLiveValues(live_spec, allow_http=allow_http)
            if "://" in live_spec
            else FileLiveValues(live_spec)
        )
    # One answer per command: checkpoint it at once, so a truncation is always detectable.
    with ExitStack() as stack:
        log = stack.enter_context(open_store(audit, checkpoint_every=1)) if audit else None
        outcome = conclude(
            answer,
            request=request,
            rules=load_rules(rules_path) if rules_path else None,
            facts=facts,
            live_values=live,
            log=log,
        )
    console = safe_console(stderr=True)
    coverage = outcome.validation.coverage
    numbers = {claim.id: claim.number for claim in answer.numbered_claims()}
    gaps = [str(numbers[gap]) for gap in coverage.gaps if numbers.get(gap) is not None]
    without = f" (gaps: claims {', '.join(gaps)})" if gaps else ""
    console.print(
        f"evidence: {plural(len(outcome.bundle.evidence), 'object')}, "
        f"bundle {outcome.bundle.bundle_hash}, "
        f"coverage {coverage.with_evidence}/{plural(coverage.claims, 'claim')}{without}"
    )
    if outcome.decision is not None:
        fired = ", ".join(r.rule_id for r in outcome.decision.results if r.fired) or "none"
        console.print(f"decision: {outcome.decision.outcome} (rules fired: {fired})")
    if outcome.audit_sequence is not None:
        console.print(
            visible(
                f"audit: request {outcome.request_id} recorded as record {outcome.audit_sequence}"
            )
        )
    return outcome


def _facts(path: Path) -> dict[str, object]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the facts: {error}", where=str(path)) from None
    data = load_json(text, where=str(path), what="the facts", parse_float=Decimal)
    if not isinstance(data, dict):
        raise InputError("expected a JSON object of facts", where=str(path))
    return data


def check_address(host: str, port: int) -> None:
    """Refuse, before saying "serving", an address that cannot be listened on (another
    process has the port, or the host is not this machine's)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            why = error.strerror or str(error)
            raise click.ClickException(f"cannot listen on {host}:{port}: {why}") from None
