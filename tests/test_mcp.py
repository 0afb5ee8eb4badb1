"""``citeproof mcp``: a real MCP client (the ``mcp`` package's own ClientSession over stdio)
starts the server as a subprocess, lists its tools and calls them (issue 14; F.4)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from tests.cli_runs import EXAMPLE_SOURCES, LENDING, invoke
from tests.conftest import missing_modules, skip_unless_required
from tests.lending import POLICY_TEXT

if missing_modules("mcp", "anyio"):
    skip_unless_required(
        "MCP", "the MCP server needs the mcp extra: pip install 'citeproof[mcp]'", module=True
    )

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

CITEPROOF = str(Path(sys.executable).parent / "citeproof")
QUOTE = "applies to every residential mortgage application received on or after 1 March 2026"
POLICY_SOURCE = {"id": "S1", "kind": "document", "text": POLICY_TEXT, "title": "Credit Policy"}

T = TypeVar("T")


def with_server(use: Callable[[ClientSession], Awaitable[T]], *args: str) -> T:
    """Start `citeproof mcp ARGS` as a subprocess and run ``use`` with a connected client."""

    async def run() -> T:
        # The whole environment: the server imports the citeproof the tests import.
        params = StdioServerParameters(command=CITEPROOF, args=["mcp", *args], env=dict(os.environ))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await use(session)

    result: T = anyio.run(run)
    return result


def call(name: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    """(is_error, the JSON result or the error text) of one tool call over stdio."""

    async def use(session: ClientSession) -> tuple[bool, Any]:
        result = await session.call_tool(name, arguments)
        if result.is_error:
            return True, "".join(getattr(block, "text", "") for block in result.content)
        return False, result.structured_content

    return with_server(use)


def test_the_server_lists_verify_and_the_audit_lookups_as_tools_f_4() -> None:
    async def use(session: ClientSession) -> dict[str, Any]:
        listed = await session.list_tools()
        return {tool.name: tool.input_schema for tool in listed.tools}

    tools = with_server(use)
    assert set(tools) == {"verify", "audit_show", "audit_verify"}
    assert tools["verify"]["required"] == ["answer"]  # sources inline, or stored ids
    assert {"sources", "stored", "policy"} <= set(tools["verify"]["properties"])
    assert tools["audit_show"]["required"] == ["request_id"]


def test_verify_without_any_source_names_the_field() -> None:
    is_error, message = call("verify", {"answer": '"anything" [S1]'})
    assert is_error and "sources" in message and "give the answer's sources" in message


def test_verify_over_mcp_gives_the_verified_quote_and_its_span_in_the_source_f_4() -> None:
    answer = f'Scope: the policy "{QUOTE}" [S1].'
    is_error, record = call("verify", {"answer": answer, "sources": [POLICY_SOURCE]})
    assert not is_error, record
    [quote] = record["quotes"]
    assert quote["status"] == "verified"
    assert quote["source"] == "S1"
    start, end = quote["source_span"]
    assert POLICY_TEXT[start:end] == QUOTE
    assert answer[slice(*quote["answer_span"])] == QUOTE


def test_verify_over_mcp_applies_the_policy_given_with_the_call_f_4() -> None:
    answer = 'It "applies to every residential loan application" [S1].'
    _, strict = call(
        "verify", {"answer": answer, "sources": [POLICY_SOURCE], "policy": {"min_similarity": 1.0}}
    )
    assert strict["quotes"][0]["status"] != "verified"
    is_error, message = call(
        "verify", {"answer": answer, "sources": [POLICY_SOURCE], "policy": {"min_similarty": 1}}
    )
    assert is_error
    assert "policy" in message and "min_similarty" in message


def test_a_source_without_a_kind_is_a_tool_error_naming_the_field_f_4() -> None:
    source = {"id": "S1", "text": POLICY_TEXT}
    is_error, message = call("verify", {"answer": f'"{QUOTE}" [S1]', "sources": [source]})
    assert is_error
    assert "sources[0]" in message and "'kind'" in message


def test_audit_verify_and_show_over_mcp_read_a_log_written_by_citeproof_verify_f_4(
    tmp_path: Path,
) -> None:
    audit = tmp_path / "audit.db"
    code, _, stderr = invoke(
        "verify", str(LENDING / "answer.md"), *EXAMPLE_SOURCES, "--audit", str(audit)
    )
    assert code == 0, stderr
    request_id = stderr.split("audit: request ")[1].split()[0]

    async def use(session: ClientSession) -> tuple[Any, ...]:
        checks = []
        for name, arguments in (
            # The error first: the server keeps serving after it.
            ("audit_verify", {"audit": str(tmp_path / "other.db")}),
            ("audit_verify", {"audit": str(audit)}),
            ("audit_show", {"request_id": request_id, "audit": str(audit)}),
        ):
            checks.append(await session.call_tool(name, arguments))
        return tuple(checks)

    missing, verified, shown = with_server(use, "--audit", str(audit))
    report = verified.structured_content
    assert report["ok"] is True
    assert report["records"] == 1
    assert report["problem"] is None
    [record] = shown.structured_content["records"]
    assert request_id in json.dumps(record)
    assert missing.is_error
    assert "not an audit log of this server" in missing.content[0].text
    assert record["verified"] is True
