"""How ``citeproof proxy --workers N`` hands its configuration to uvicorn's worker processes:
through an environment variable, read back by the app factory each worker calls (as
``citeproof serve`` does, `citeproof.server._process`).

Every worker verifies on its own interpreter, so a busy proxy uses more than one core. What the
workers share is already safe across processes: the audit log (one writer at a time, in the
kernel's queue) and a service data folder's answer index.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp

from citeproof import environment
from citeproof.outcome import policy_from_json, policy_to_json
from citeproof.proxy._app import ProxyConfig, create_proxy_app
from citeproof.proxy._upstream import UpstreamTimeouts
from citeproof.server import GuardedH11Protocol, Limits

ENV = environment.PROXY_CONFIG.name


def config_to_json(config: ProxyConfig) -> dict[str, Any]:
    """``config`` as JSON: every field, read back by `config_from_json`."""
    return {
        "upstream": config.upstream,
        "on_fail": config.on_fail,
        "policy": policy_to_json(config.policy),
        "limits": config.limits.to_json(),
        "timeouts": {"connect": config.timeouts.connect, "read": config.timeouts.read},
        "audit": config.audit,
        "data": str(config.data) if config.data is not None else None,
        "principal": config.principal,
        "store": str(config.store) if config.store is not None else None,
        "buffer_bytes": config.buffer_bytes,
    }


def config_from_json(data: dict[str, Any]) -> ProxyConfig:
    timeouts = data["timeouts"]
    return ProxyConfig(
        upstream=str(data["upstream"]),
        on_fail=data["on_fail"],
        policy=policy_from_json(data["policy"], where=f"{ENV}: policy"),
        limits=Limits.from_json(data["limits"], where=f"{ENV}: limits"),
        timeouts=UpstreamTimeouts(connect=float(timeouts["connect"]), read=float(timeouts["read"])),
        audit=data["audit"],
        data=Path(data["data"]) if data["data"] is not None else None,
        principal=str(data["principal"]),
        store=Path(data["store"]) if data["store"] is not None else None,
        buffer_bytes=int(data["buffer_bytes"]),
    )


def config_to_env(config: ProxyConfig) -> None:
    os.environ[ENV] = json.dumps(config_to_json(config))


def app_from_env() -> ASGIApp:
    """The proxy for the configuration `config_to_env` stored, with the connection guards of
    its limits (each worker's connections are guarded in that worker)."""
    raw = os.environ.get(ENV)
    if raw is None:
        raise RuntimeError(f"{ENV} is not set: start the proxy with `citeproof proxy`")
    config = config_from_json(json.loads(raw))
    GuardedH11Protocol.use_limits(config.limits)
    return create_proxy_app(config)
