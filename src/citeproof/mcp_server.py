"""``citeproof mcp``: verification and the audit log as tools of a Model Context Protocol server.

`build_server` gives an `mcp` ``MCPServer`` with three tools, each a thin call into the library:

- ``verify``: an answer and its sources (source objects of the JSON contract, version 1), an
  optional policy → the verified answer record (``citeproof.answer_to_json``);
- ``audit_show``: a request id and an audit log → ``{"records": [...]}``, the records logged
  under it, oldest first;
- ``audit_verify``: an audit log → the verify report (``ok`` is true when every record
  re-hashes and every checkpoint checks).

Bad input (a source without a ``kind``, an unknown policy setting, no log at that path) comes
back as a tool error whose message names the field or the path; the server keeps running.
Needs the ``mcp`` extra (``pip install 'citeproof[mcp]'``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from citeproof.audit.backends import open_existing_store
from citeproof.audit.verify import verify_log
from citeproof.errors import CiteproofError, extra_needed
from citeproof.model import Policy
from citeproof.outcome.contract import answer_to_json, read_policy, read_sources
from citeproof.verifier.verification import verify

with extra_needed("mcp", "citeproof mcp"):
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

P = ParamSpec("P")
R = TypeVar("R")

INSTRUCTIONS = (
    "citeproof checks every quote of an LLM answer against the sources it was given. Call "
    "`verify` with the answer (quotes in double quotes, citations as [S1]) and its sources; "
    "each quote comes back verified, corrected or flagged with the span it matches. "
    "`audit_show` and `audit_verify` read a citeproof audit log."
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


@_as_tool_error
def verify_tool(
    answer: str, sources: list[dict[str, Any]], policy: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Verify every quote of `answer` against `sources` (objects with id, kind
    ("document", "attachment" or "email_body"), text, and optionally title, doc_id, version,
    url, paragraphs). `policy` may change min_similarity, ineligible_citations ("flag" or
    "remove"), max_ellipsis_gap, excerpt_context, support_threshold, partial_threshold,
    support_embeddings. Returns the verified answer record: the corrected answer and one
    verdict per quote, with its status and the span it matches in its source."""
    # The same reading as a sources file of `citeproof verify`, so errors read the same.
    read = read_sources(json.dumps(sources), where="sources")
    chosen = Policy() if policy is None else read_policy(policy, where="policy", base=Policy())
    return answer_to_json(verify(answer, read, policy=chosen))


@_as_tool_error
def audit_show_tool(request_id: str, audit: str, sequence: int | None = None) -> dict[str, Any]:
    """The records logged under `request_id` in the audit log `audit` (a SQLite file path or
    a postgresql:// URL), as ``{"records": [...]}``, oldest first; `sequence` picks one when
    several share the id."""
    with open_existing_store(audit) as store:
        return {"records": [record.to_json() for record in store.find(request_id, sequence)]}


@_as_tool_error
def audit_verify_tool(audit: str) -> dict[str, Any]:
    """Re-hash every record of the audit log `audit` and check its signed checkpoints.
    Returns the report; `ok` is true when nothing was found wrong, else `problem` names
    the first bad record or checkpoint."""
    with open_existing_store(audit) as store:
        report = verify_log(store)
    return report.to_json()


def build_server() -> MCPServer[Any]:
    """The citeproof MCP server with its tools ``verify``, ``audit_show`` and ``audit_verify``;
    ``build_server().run()`` serves it over stdio."""
    server: MCPServer[Any] = MCPServer("citeproof", instructions=INSTRUCTIONS)
    server.tool(name="verify")(verify_tool)
    server.tool(name="audit_show")(audit_show_tool)
    server.tool(name="audit_verify")(audit_verify_tool)
    return server
