"""A verifying proxy for the OpenAI and Anthropic APIs: change the SDK's base URL, nothing else.

``citeproof proxy --upstream URL`` serves ``POST /v1/chat/completions``, ``/v1/responses`` and
``/v1/messages``, forwards each request to the upstream with the caller's own credentials, and
verifies the answer against the sources the request carries (`request_sources`). A
non-streamed answer comes back with a ``citeproof`` member and ``X-Citeproof-*`` headers (or
corrected, or blocked: ``--on-fail``); a streamed one passes through as it arrives, with a
verdict event after each sentence and the whole record before the stream's last event.

`StreamVerifier` does the streaming half without HTTP; `create_proxy_app` builds the ASGI app.
"""

from citeproof.proxy.answers import ON_FAIL, OnFail
from citeproof.proxy.app import ProxyConfig, create_proxy_app
from citeproof.proxy.stream import (
    RECORD_EVENT,
    VERDICT_EVENT,
    AnswerVerdict,
    SentenceVerdict,
    StreamVerifier,
    VerdictEvent,
)
from citeproof.proxy.upstream import UpstreamTimeouts

__all__ = [
    "ON_FAIL",
    "RECORD_EVENT",
    "VERDICT_EVENT",
    "AnswerVerdict",
    "OnFail",
    "ProxyConfig",
    "SentenceVerdict",
    "StreamVerifier",
    "UpstreamTimeouts",
    "VerdictEvent",
    "create_proxy_app",
]
