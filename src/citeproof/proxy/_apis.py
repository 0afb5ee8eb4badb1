"""The three vendor APIs the proxy speaks, and how each vendor shapes an error.

An SDK reads an error body in its vendor's shape (``{"error": {"message": ...}}`` for OpenAI,
``{"type": "error", "error": {...}}`` for Anthropic), so the errors the proxy makes itself
(upstream unreachable, too slow) come in that shape too; errors the upstream makes pass
through as it made them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Api = Literal["chat.completions", "responses", "messages"]


@dataclass(frozen=True, slots=True)
class VendorApi:
    """One API: its name, the path it is served on (the same upstream), and its vendor."""

    name: Api
    path: str
    vendor: Literal["openai", "anthropic"]

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        """An error made by the proxy, in this vendor's shape."""
        if self.vendor == "anthropic":
            kind = {
                400: "invalid_request_error",
                413: "request_too_large",
                429: "rate_limit_error",
                504: "timeout_error",
            }.get(status, "api_error")
            return {"type": "error", "error": {"type": kind, "message": message}}
        kind = "invalid_request_error" if status < 500 else "server_error"
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}


CHAT = VendorApi("chat.completions", "/v1/chat/completions", "openai")
RESPONSES = VendorApi("responses", "/v1/responses", "openai")
MESSAGES = VendorApi("messages", "/v1/messages", "anthropic")
APIS = (CHAT, RESPONSES, MESSAGES)
