"""A verifying proxy for the OpenAI and Anthropic APIs: change the SDK's base URL, nothing else.

``citeproof proxy --upstream URL`` serves ``POST /v1/chat/completions``, ``/v1/responses`` and
``/v1/messages``, forwards each request to the upstream with the caller's own credentials, and
verifies the answer against the sources the request carries (`request_sources`). A
non-streamed answer comes back with a ``citeproof`` member and ``X-Citeproof-*`` headers (or
corrected, or blocked: ``--on-fail``); a streamed one passes through as it arrives, with a
verdict event after each sentence and the whole record before the stream's last event.

`StreamVerifier` does the streaming half without HTTP; `create_proxy_app` builds the ASGI app.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.proxy._answers import ON_FAIL, OnFail
    from citeproof.proxy._app import PROXY_LIMITS, ProxyConfig, check_proxy_config, create_proxy_app
    from citeproof.proxy._process import config_to_env
    from citeproof.proxy._stream import (
        RECORD_EVENT,
        VERDICT_EVENT,
        AnswerVerdict,
        SentenceVerdict,
        StreamVerifier,
        VerdictEvent,
    )
    from citeproof.proxy._upstream import UpstreamTimeouts


_WHERE = {
    "AnswerVerdict": "citeproof.proxy._stream",
    "ON_FAIL": "citeproof.proxy._answers",
    "OnFail": "citeproof.proxy._answers",
    "PROXY_LIMITS": "citeproof.proxy._app",
    "ProxyConfig": "citeproof.proxy._app",
    "RECORD_EVENT": "citeproof.proxy._stream",
    "SentenceVerdict": "citeproof.proxy._stream",
    "StreamVerifier": "citeproof.proxy._stream",
    "UpstreamTimeouts": "citeproof.proxy._upstream",
    "VERDICT_EVENT": "citeproof.proxy._stream",
    "VerdictEvent": "citeproof.proxy._stream",
    "check_proxy_config": "citeproof.proxy._app",
    "config_to_env": "citeproof.proxy._process",
    "create_proxy_app": "citeproof.proxy._app",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "ON_FAIL",
    "PROXY_LIMITS",
    "RECORD_EVENT",
    "VERDICT_EVENT",
    "AnswerVerdict",
    "OnFail",
    "ProxyConfig",
    "SentenceVerdict",
    "StreamVerifier",
    "UpstreamTimeouts",
    "VerdictEvent",
    "check_proxy_config",
    "config_to_env",
    "create_proxy_app",
]
