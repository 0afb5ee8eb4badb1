"""``citeproof mcp``: verification and the audit log as tools of a Model Context Protocol server.

`build_server` gives an `mcp` ``MCPServer`` with three tools, each a thin call into the library:

- ``verify``: an answer and its sources (source objects of the JSON contract, version 1), an
  optional policy → the verified answer record (``citeproof.answer_to_json``);
- ``audit_show``: a request id (and which log) → ``{"records": [...]}``, the records logged
  under it, oldest first;
- ``audit_verify``: which log → the verify report (``ok`` is true when every record re-hashes
  and every checkpoint checks).

- ``sources_search`` (only when started with ``--store``): a question → the passages of the
  store that best match it, each with its source id, title and paragraph numbers; their ids go
  to ``verify``'s ``stored`` argument.

The server opens only the audit logs it was started with (``citeproof mcp --audit DB``): a
tool's ``audit`` argument picks one of them by the name given at start, and nothing a client
sends can make it open another file or connect to another database. A name it was not
started with is refused with the same message whatever exists at that path, so the tools tell
nothing about the file system. The same holds for sources: only the store named at start
(``--store STORE``) is read, only sources without an access list or readable by a ``--reader``
named at start are found or verified against, and an id that is not one of those is refused
with the same message whether or not it exists.

Bad input (a source without a ``kind``, an unknown policy setting, a log it does not serve)
comes back as a tool error whose message names the field; the server keeps running. Needs the
``mcp`` extra (``pip install 'citeproof[mcp]'``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import urlsplit, urlunsplit

from citeproof.audit import AuditRecord, AuditStore, open_existing_store, verify_log
from citeproof.errors import (
    AuditRecordError,
    AuditStoreError,
    CiteproofError,
    InputError,
    extra_needed,
)
from citeproof.model import Policy, Source
from citeproof.outcome import answer_to_json, read_policy, read_sources
from citeproof.sources import SourceStore
from citeproof.turn import StoreRetriever
from citeproof.verifier import verify

with extra_needed("mcp", "citeproof mcp"):
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

P = ParamSpec("P")
R = TypeVar("R")

INSTRUCTIONS = (
    "citeproof checks every quote of an LLM answer against the sources it was given. Call "
    "`verify` with the answer (quotes in double quotes, citations as [S1]) and its sources; "
    "each quote comes back verified, corrected or flagged with the span it matches. "
    "`audit_show` and `audit_verify` read the audit logs this server was started with; "
    "`sources_search`, when the server has a source store, finds passages whose source ids "
    "`verify` takes as `stored`."
)


def _as_tool_error(tool: Callable[P, R]) -> Callable[P, R]:
    """citeproof's own errors already name the field and the place: the caller gets that
    message as the tool error; anything else stays a crash that the server logs."""

    @wraps(tool)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return tool(*args, **kwargs)
        except CiteproofError as error:
            raise ToolError(str(error)) from error

    return run


MAX_SEARCH_RESULTS = 20


@dataclass(frozen=True, slots=True)
class StoredSources:
    """The source store a server may read (None: none) and the readers whose sources it may
    see; sources without an access list are seen by everyone."""

    store: Path | None = None
    readers: tuple[str, ...] = ()

    def _open(self) -> SourceStore:
        if self.store is None:
            raise InputError(
                "this server was started without a source store (citeproof mcp --store STORE)",
                field="stored",
            )
        try:
            return SourceStore(self.store)
        except CiteproofError:
            raise InputError("the source store cannot be opened", field="stored") from None

    def get(self, ids: Sequence[str]) -> list[Source]:
        """The sources ``ids`` name, each one this server may read, or an `InputError` that
        reads the same whether the id is unknown or not readable."""
        with self._open() as store:
            readable = {record.id: record for record in store.current(ids)}
            found = []
            for source_id in ids:
                record = readable.get(source_id)
                if record is None or not record.readable_by(self.readers):
                    raise InputError(
                        f"no stored source {source_id!r} that this server may read",
                        field="stored",
                    )
                found.append(record.source)
        return found

    def search(self, query: str, limit: int) -> list[dict[str, Any]]:
        """The passages that best match ``query``, best first, at most `MAX_SEARCH_RESULTS`."""
        if not 1 <= limit <= MAX_SEARCH_RESULTS:
            raise InputError(f"must be 1 to {MAX_SEARCH_RESULTS}", field="limit")
        with self._open() as store:
            retriever = StoreRetriever(store, principals=self.readers)
            passages = retriever.retrieve(query, limit=limit)
            shown = store.current(passage.source_id for passage in passages)
            titles = {record.id: record.source.title for record in shown}
        return [
            {
                "source_id": passage.source_id,
                "title": titles.get(passage.source_id),
                "paragraphs": list(passage.paragraphs),
                "text": passage.text,
                "confidence": passage.confidence,
            }
            for passage in passages
        ]


def source_tools(
    access: StoredSources,
) -> tuple[Callable[..., dict[str, Any]], Callable[..., dict[str, Any]]]:
    """The ``verify`` and ``sources_search`` tools over the store ``access`` names."""

    @_as_tool_error
    def verify_tool(
        answer: str,
        sources: list[dict[str, Any]] | None = None,
        policy: dict[str, Any] | None = None,
        stored: list[str] | None = None,
    ) -> dict[str, Any]:
        """Verify every quote of `answer` against `sources` (objects with id, kind
        ("document", "attachment" or "email_body"), text, and optionally title, doc_id,
        version, url, paragraphs) and the `stored` sources (ids that `sources_search`
        returned, read from the server's source store). `policy` may change min_similarity,
        ineligible_citations ("flag" or "remove"), max_ellipsis_gap, excerpt_context,
        support_threshold, partial_threshold, support_embeddings. Returns the verified answer
        record: the corrected answer and one verdict per quote, with its status and the span
        it matches in its source."""
        # The same reading as a sources file of `citeproof verify`, so errors read the same.
        read = read_sources(json.dumps(sources or []), where="sources")
        if stored:
            read += access.get(stored)
        if not read:
            raise InputError("give the answer's sources (sources or stored)", field="sources")
        chosen = Policy() if policy is None else read_policy(policy, where="policy", base=Policy())
        return answer_to_json(verify(answer, read, policy=chosen))

    @_as_tool_error
    def sources_search_tool(question: str, limit: int = 5) -> dict[str, Any]:
        """The passages of the server's source store that best match `question` (at most
        `limit`, 1 to 20), best first: each with `source_id` (to pass to `verify` as
        `stored`), `title`, `paragraphs` (first and last, 1-based), `text` and `confidence`."""
        return {"passages": access.search(question, limit)}

    return verify_tool, sources_search_tool


class AuditLogs:
    """The audit logs a server may open: the targets named at start (SQLite paths or
    ``postgresql://`` URLs), picked by the exact text they were named with (a URL's password
    may be given as ``***``: messages never show it)."""

    def __init__(self, targets: Sequence[str]) -> None:
        self.targets = tuple(dict.fromkeys(targets))

    def choose(self, audit: str | None) -> str:
        """The log ``audit`` names (the only one when None and one was given). Raises
        `InputError` for any other name, saying nothing about what is at that path."""
        if not self.targets:
            raise InputError(
                "this server was started without an audit log (citeproof mcp --audit DB)",
                field="audit",
            )
        if audit is None and len(self.targets) == 1:
            return self.targets[0]
        for target in self.targets:  # by the name given, or as shown (password hidden)
            if audit in (target, _without_password(target)):
                return target
        served = ", ".join(repr(_without_password(target)) for target in self.targets)
        raise InputError(f"not an audit log of this server; it serves {served}", field="audit")

    def open(self, audit: str | None) -> AuditStore:
        target = self.choose(audit)
        try:
            return open_existing_store(target)
        except CiteproofError:
            shown = _without_password(target)
            raise AuditStoreError(f"the audit log {shown!r} cannot be opened") from None


def _without_password(target: str) -> str:
    """A database URL with its password replaced by ``***`` (a path as it is)."""
    parts = urlsplit(target)
    if not parts.password:
        return target
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def audit_tools(logs: AuditLogs) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The ``audit_show`` and ``audit_verify`` tools over ``logs``."""

    @_as_tool_error
    def audit_show_tool(
        request_id: str, audit: str | None = None, sequence: int | None = None
    ) -> dict[str, Any]:
        """The records logged under `request_id` in the audit log `audit` (one of the logs
        this server was started with, as named then; may be left out when there is one), as
        ``{"records": [...]}``, oldest first; `sequence` picks one when several share the id."""
        with logs.open(audit) as store:
            found = store.find(request_id, sequence)
            return {"records": [shown(record) for record in found]}

    @_as_tool_error
    def audit_verify_tool(audit: str | None = None) -> dict[str, Any]:
        """Re-hash every record of the audit log `audit` (one of the logs this server was
        started with; may be left out when there is one) and check its signed checkpoints.
        Returns the report; `ok` is true when nothing was found wrong, else `problem` names
        the first bad record or checkpoint."""
        with logs.open(audit) as store:
            report = verify_log(store)
        return report.to_json()

    return audit_show_tool, audit_verify_tool


def shown(record: AuditRecord) -> dict[str, Any]:
    """A record as `audit_show` returns it, with ``verified`` false and the problem named
    when its content does not hash to its stored hash, or it cannot be read."""
    try:
        body = record.to_json()
    except AuditRecordError as error:
        return {"sequence": record.sequence, "verified": False, "problem": str(error)}
    if not record.intact:
        return {**body, "verified": False, "problem": "content does not match its stored hash"}
    return {**body, "verified": True}


def build_server(
    audit: Sequence[str] = (), *, store: Path | None = None, readers: Sequence[str] = ()
) -> MCPServer[Any]:
    """The citeproof MCP server with its tools ``verify``, ``audit_show`` and ``audit_verify``
    (and ``sources_search`` with a ``store``), which may open the audit logs ``audit`` and the
    source store ``store`` and no other, and see only the stored sources ``readers`` may read;
    ``build_server([...]).run()`` serves it over stdio."""
    server: MCPServer[Any] = MCPServer("citeproof", instructions=INSTRUCTIONS)
    show, check = audit_tools(AuditLogs(audit))
    verify_tool, search = source_tools(StoredSources(store, tuple(readers)))
    server.tool(name="verify")(verify_tool)
    server.tool(name="audit_show")(show)
    server.tool(name="audit_verify")(check)
    if store is not None:
        server.tool(name="sources_search")(search)
    return server
