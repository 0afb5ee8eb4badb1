"""``citeproof proxy``: a verifying proxy in front of an OpenAI or Anthropic API."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from citeproof.cli._common import Command, PathType, check_address, examples, exit_codes
from citeproof.cli._workers import run_workers


@click.command(
    "proxy",
    cls=Command,
    short_help="A verifying proxy in front of an OpenAI or Anthropic API.",
    epilog=examples(
        "citeproof proxy --upstream https://api.openai.com/v1 --audit audit.db",
        "OPENAI_BASE_URL=http://127.0.0.1:8766/v1 python my_app.py",
    )
    + exit_codes(
        (0, "stopped cleanly (Ctrl-C or SIGTERM)"),
        (1, "it could not start: a bad --upstream URL or --limits file, an audit log it "
            "cannot open (the message says)"),
    ),
)  # fmt: skip
@click.option(
    "--upstream",
    required=True,
    metavar="URL",
    help="The API to forward to, e.g. https://api.openai.com/v1 or https://api.anthropic.com. "
    "Requests go there and nowhere else.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8766, show_default=True, help="Port to listen on.")
@click.option(
    "--audit",
    metavar="DB",
    default=None,
    help="Append every verified answer to this audit log (a SQLite file or a postgresql:// "
    "URL), with the vendor's request id.",
)
@click.option(
    "--data",
    type=PathType(file_okay=False, path_type=Path),
    default=None,
    help="A `citeproof serve` data folder: answers are also listed in its review app, under "
    "--principal (the audit log is DATA/audit.db unless --audit names one).",
)
@click.option(
    "--principal",
    default="proxy",
    show_default=True,
    help="Whom the review app lists proxied answers for (with --data), and who reads --store.",
)
@click.option(
    "--store",
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A source store (citeproof ingest) that a request's citeproof.store member retrieves "
    "from, as `citeproof ask` does; only sources --principal may read.",
)
@click.option(
    "--on-fail",
    type=click.Choice(["annotate", "correct", "block"]),
    default="annotate",
    show_default=True,
    help="An answer with a failure: annotate it, replace its text with the corrected text, "
    "or block it (422 naming each contradicted claim, quote not found and ineligible "
    "citation). A stream is annotated sentence by sentence; with correct, each sentence's "
    "text is held until its verdict and sent corrected; with block, it ends in an error event.",
)
@click.option(
    "--limits",
    "limits_path",
    type=PathType(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A JSON object of the service's limits to change (body_bytes, deadline_seconds...).",
)
@click.option(
    "--upstream-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=600.0,
    show_default=True,
    help="Seconds to wait for the upstream's next bytes before answering 504.",
)
@click.option(
    "--buffer-bytes",
    type=click.IntRange(min=1),
    default=None,
    metavar="BYTES",
    help="The bytes of upstream answers a worker holds at once, all its requests together "
    "(default 100000000). An answer that would go past it is refused in the vendor's error "
    "shape: 503 with Retry-After while other requests hold the budget, 502 when it is larger "
    "than the whole budget.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes: each verifies on a core of its own; they share the audit log.",
)
def proxy_command(
    upstream: str,
    host: str,
    port: int,
    audit: str | None,
    data: Path | None,
    principal: str,
    store: Path | None,
    on_fail: str,
    limits_path: Path | None,
    upstream_timeout: float,
    buffer_bytes: int | None,
    workers: int,
) -> None:
    """Serve the OpenAI (/v1/chat/completions, /v1/responses) and Anthropic (/v1/messages)
    APIs, forwarding each request to --upstream with the caller's own credentials and
    verifying the answer against the sources the request carries (documents, files, tool
    results, a `citeproof.sources` member, or sources retrieved from --store for a
    `citeproof.store` member). Point an SDK's base URL here: nothing else changes."""
    try:
        import uvicorn

        from citeproof.proxy import (
            PROXY_LIMITS,
            ProxyConfig,
            UpstreamTimeouts,
            check_proxy_config,
            config_to_env,
            create_proxy_app,
        )
        from citeproof.server import GuardedH11Protocol, Limits
    except ImportError as error:
        raise click.ClickException(
            f"the proxy needs the `server` extra (pip install 'citeproof[server]'): {error}"
        ) from None
    limits = PROXY_LIMITS
    if limits_path is not None:
        given = Limits.from_file(limits_path)  # checked: names the field at fault
        changed = json.loads(limits_path.read_text(encoding="utf-8"))
        limits = replace(PROXY_LIMITS, **{name: getattr(given, name) for name in changed})
    config = ProxyConfig(
        upstream=upstream,
        on_fail=on_fail,  # type: ignore[arg-type]
        limits=limits,
        timeouts=UpstreamTimeouts(read=upstream_timeout),
        audit=audit,
        data=data.resolve() if data else None,
        principal=principal,
        store=store.resolve() if store else None,
    )
    if buffer_bytes is not None:
        config = replace(config, buffer_bytes=buffer_bytes)
    # A bad --upstream, --audit or --data fails here, before anything listens. With --workers N
    # each worker builds its own app, so the parent only checks, keeping nothing open.
    if workers == 1:
        app = create_proxy_app(config)
    else:
        check_proxy_config(config)
    check_address(host, port)
    click.echo(f"citeproof proxy on http://{host}:{port}/ forwarding to {upstream}")
    # The service's connection guards: a header deadline, a per-client connection cap and a
    # bounded accept queue (citeproof.server._connections), with the proxy's own limits.
    options: dict[str, Any] = dict(
        host=host,
        port=port,
        http=GuardedH11Protocol,
        backlog=limits.accept_backlog,
        limit_concurrency=limits.concurrency,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=10,
        server_header=False,
        log_level="warning",
    )
    if workers == 1:
        GuardedH11Protocol.use_limits(limits)
        uvicorn.run(app, **options)
        return
    # Each worker builds the app from the configuration in its environment, and guards its
    # connections with the limits in it.
    config_to_env(config)
    options.update(factory=True, workers=workers, timeout_worker_healthcheck=120)
    run_workers(uvicorn.Config("citeproof.proxy._process:app_from_env", **options), host, port)
