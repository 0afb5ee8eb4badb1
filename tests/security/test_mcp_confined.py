"""The MCP server opens the audit logs it was started with and nothing else: a tool argument
naming another file, a system file or a database URL is refused with one message, whatever is
there, so the tools neither read other logs nor map the file system or the network."""

from __future__ import annotations

from pathlib import Path

from tests.cli_runs import EXAMPLE_SOURCES, LENDING, invoke
from tests.conftest import missing_modules, skip_unless_required

if missing_modules("mcp"):
    skip_unless_required("MCP", "the MCP server needs the mcp extra", module=True)

from mcp.client.session import ClientSession

from tests.test_mcp import with_server


def logged(audit: Path) -> str:
    code, _, stderr = invoke(
        "verify", str(LENDING / "answer.md"), *EXAMPLE_SOURCES, "--audit", str(audit)
    )
    assert code == 0, stderr
    return stderr.split("audit: request ")[1].split()[0]


def test_tool_arguments_cannot_widen_the_logs_named_at_start(tmp_path: Path) -> None:
    served, other = tmp_path / "served.db", tmp_path / "other.db"
    request_id = logged(served)
    other_request = logged(other)
    (tmp_path / "notes.txt").write_text("not a database\n", encoding="utf-8")
    elsewhere = [
        str(other),  # a real audit log, but not one the server was started with
        "/etc/shadow",
        "/etc/passwd",
        str(tmp_path / "notes.txt"),
        str(tmp_path / "absent.db"),
        "postgresql://citeproof@10.255.255.1:5432/audit",
        "postgresql://citeproof@127.0.0.1:1/audit",
    ]

    async def use(session: ClientSession) -> tuple[list[str], object, object]:
        refusals = []
        for audit in elsewhere:
            for name, arguments in (
                ("audit_show", {"request_id": other_request, "audit": audit}),
                ("audit_verify", {"audit": audit}),
            ):
                result = await session.call_tool(name, arguments)
                assert result.is_error, (name, audit)
                text = "".join(getattr(block, "text", "") for block in result.content)
                refusals.append(text.replace(audit, "AUDIT").replace(name, "TOOL"))
        shown = await session.call_tool("audit_show", {"request_id": request_id})
        checked = await session.call_tool("audit_verify", {"audit": str(served)})
        return refusals, shown.structured_content, checked.structured_content

    refusals, shown, checked = with_server(use, "--audit", str(served))
    assert len(set(refusals)) == 1, set(refusals)
    message = refusals[0]
    assert "not an audit log of this server" in message
    for revealing in ("database", "exist", "shadow", "permission", "connect", "no audit log"):
        assert revealing not in message.replace(str(served), "")
    assert isinstance(shown, dict) and shown["records"][0]["request_id"] == request_id
    assert isinstance(checked, dict) and checked["ok"] is True


def test_without_a_log_named_at_start_the_audit_tools_open_nothing(tmp_path: Path) -> None:
    audit = tmp_path / "audit.db"
    logged(audit)

    async def use(session: ClientSession) -> str:
        result = await session.call_tool("audit_verify", {"audit": str(audit)})
        assert result.is_error
        return "".join(getattr(block, "text", "") for block in result.content)

    assert "started without an audit log" in with_server(use)


def _stores(tmp_path: Path) -> tuple[Path, Path]:
    """A store with the public credit policy and a memo only alice may read, and another."""
    store, other = tmp_path / "sources.db", tmp_path / "other.db"
    for path, args in (
        (store, [str(LENDING / "credit-policy.md")]),
        (store, [str(LENDING / "hartley-memo.txt"), "--acl", "alice"]),
        (other, [str(LENDING / "hartley-valuation.eml")]),
    ):
        code, _, err = invoke("ingest", *args, "--store", str(path))
        assert code == 0, err
    return store, other


def _ids(path: Path) -> dict[str, str]:
    from citeproof.sources import SourceStore

    with SourceStore(path) as store:
        return {record.source.title or "": record.id for record in store.current()}


def test_stored_sources_are_only_those_of_the_store_and_readers_named_at_start(
    tmp_path: Path,
) -> None:
    store, other = _stores(tmp_path)
    mine, elsewhere = _ids(store), _ids(other)
    memo = next(i for title, i in mine.items() if "memo" in title)
    policy = next(i for title, i in mine.items() if "memo" not in title)
    refused = [memo, *elsewhere.values(), "no-such-id", "../../etc/passwd", str(other)]
    answer = '"Applications above 95% are declined." [S]'

    async def use(session: ClientSession) -> tuple[list[str], object, object]:
        refusals = []
        for source_id in refused:
            result = await session.call_tool(
                "verify", {"answer": answer.replace("[S]", f"[{source_id}]"), "stored": [source_id]}
            )
            assert result.is_error, source_id
            text = "".join(getattr(block, "text", "") for block in result.content)
            refusals.append(text.replace(source_id, "ID"))
        found = await session.call_tool(
            "sources_search", {"question": "self-employed certified accounts underwriter"}
        )
        checked = await session.call_tool(
            "verify", {"answer": answer.replace("[S]", f"[{policy}]"), "stored": [policy]}
        )
        return refusals, found.structured_content, checked.structured_content

    # Without --reader alice, the memo is neither found nor usable, and reads as absent.
    refusals, found, checked = with_server(use, "--store", str(store))
    assert len(set(refusals)) == 1, set(refusals)
    assert "no stored source 'ID' that this server may read" in refusals[0]
    assert str(tmp_path) not in refusals[0]
    assert isinstance(found, dict)
    assert memo not in {passage["source_id"] for passage in found["passages"]}
    assert isinstance(checked, dict) and checked["quotes"][0]["status"] == "verified"


def test_a_reader_named_at_start_sees_their_sources(tmp_path: Path) -> None:
    store, _ = _stores(tmp_path)
    memo = next(i for title, i in _ids(store).items() if "memo" in title)

    async def use(session: ClientSession) -> tuple[object, object]:
        found = await session.call_tool(
            "sources_search", {"question": "self-employed certified accounts", "limit": 3}
        )
        checked = await session.call_tool(
            "verify",
            {"answer": f'"provided one year of certified accounts" [{memo}]', "stored": [memo]},
        )
        return found.structured_content, checked.structured_content

    found, checked = with_server(use, "--store", str(store), "--reader", "alice")
    assert isinstance(found, dict) and found["passages"][0]["source_id"] == memo
    assert "certified accounts" in found["passages"][0]["text"]
    assert isinstance(checked, dict) and checked["quotes"][0]["status"] == "verified"


def test_the_server_refuses_to_start_on_a_file_that_is_not_a_store(tmp_path: Path) -> None:
    audit = tmp_path / "audit.db"
    logged(audit)
    before = audit.read_bytes()
    code, _, err = invoke("mcp", "--store", str(audit))
    assert code == 2 and "is not a citeproof source store" in err
    assert audit.read_bytes() == before  # no tables were added to someone else's file
