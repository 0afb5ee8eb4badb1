"""What a test's fake upstream sends behind `citeproof proxy`: the policy source, a chat
request carrying it, the answer's two sentences and chat-completion stream chunks."""

from __future__ import annotations

import json
from typing import Any

SOURCE = "Loans above 80% go to an underwriter. Valuations older than six months expire."
CHAT_REQUEST: dict[str, Any] = {
    "model": "m",
    "messages": [{"role": "user", "content": "What does the policy say?"}],
}
CHAT_OWN = {"citeproof": {"sources": [{"id": "S1", "kind": "document", "text": SOURCE}]}}
BEFORE = 'The policy says "loans above 80% go to an underwriter" [S1]. '
AFTER = "Valuations older than six months expire [S1]."
CHUNK_ID = "chatcmpl-upstream"


def chat_chunk(content: str | None = None, *, finish: str | None = None, **extra: Any) -> bytes:
    """One server-sent event of a chat-completion stream: ``content`` as its delta (none when
    None), ``finish`` its finish reason, ``extra`` more top-level members."""
    delta = {"content": content} if content is not None else {}
    chunk = {
        "id": CHUNK_ID,
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **extra,
    }
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"
