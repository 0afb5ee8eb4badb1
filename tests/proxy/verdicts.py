"""What the proxy tests compare: the verdicts of a record, and `citeproof verify`'s own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli_runs import invoke
from tests.proxy.conftest import FIXTURES


def verdicts(record: dict[str, Any]) -> dict[str, Any]:
    """The verdicts of a JSON contract record: each quote's status, source and corrected
    text, each claim's verdict and citations' statuses, and the counts (not the ids)."""
    return {
        "quotes": [
            (q["text"], q["status"], q["source"], q["corrected_text"]) for q in record["quotes"]
        ],
        "claims": [
            (c["verdict"], [(s["source"], s["status"]) for s in c["citations"]])
            for c in record["claims"]
        ],
        "counts": record["counts"],
        "claim_counts": record["claim_counts"],
    }


def citeproof_verify(folder: Path, *args: str) -> dict[str, Any]:
    """``citeproof verify ARGS... --format json``, its record."""
    code, _, err = invoke("verify", *args, "--format", "json", "--out", str(folder / "v.json"))
    assert code == 0, err
    return json.loads((folder / "v.json").read_text(encoding="utf-8"))


def anthropic_expected(folder: Path) -> dict[str, Any]:
    """`citeproof verify --from anthropic` on the recorded Messages response and its request:
    the record every proxied copy of that answer must match."""
    return citeproof_verify(
        folder,
        "--from",
        "anthropic",
        str(FIXTURES / "anthropic-messages.json"),
        "--request",
        str(FIXTURES / "anthropic-request.json"),
    )


def sse_events(raw: bytes) -> list[tuple[str | None, str, bytes]]:
    """A stream's events as (type, data, bytes as sent)."""
    events = []
    for chunk in raw.split(b"\n\n")[:-1]:
        name = None
        data = []
        for line in chunk.decode("utf-8").split("\n"):
            key, _, value = line.partition(":")
            if key == "event":
                name = value.strip()
            elif key == "data":
                data.append(value.removeprefix(" "))
        events.append((name, "\n".join(data), chunk + b"\n\n"))
    return events
